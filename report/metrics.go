package report

import (
	"math"

	"fairsim/sim"
)

// Metric names shared by summary.csv (and so results/golden/*/metrics.csv),
// sweep.csv, the HTML reports and the CLI, so that one statistic has one
// name wherever it is written or read.
const (
	MetricJobs            = "jobs"
	MetricStarted         = "jobs_started"
	MetricNeverStarted    = "jobs_never_started"
	MetricRejected        = "jobs_rejected"
	MetricBackfilled      = "started_by_backfill"
	MetricPreempted       = "jobs_preempted"
	MetricLostCoreHours   = "preempted_lost_core_hours"
	MetricDeliveredCoreHr = "delivered_core_hours"
	MetricUtilization     = "utilization"
	MetricWaitMean        = "wait_mean_s"
	MetricWaitMedian      = "wait_median_s"
	MetricWaitP95         = "wait_p95_s"
	MetricWaitMax         = "wait_max_s"
	// MetricBSLDMean carries BoundedSlowdownBound in its name so a changed
	// bound cannot be compared against old results unnoticed.
	MetricBSLDMean     = "bounded_slowdown_mean_10s"
	MetricMakespan     = "makespan_s"
	MetricClusterNodes = "cluster_nodes"
	MetricClusterCores = "cluster_cores"

	// GPU figures, in summary.csv only when the cluster has GPUs, so the
	// summary of a CPU-only run (and its golden metrics) stays as it was.
	MetricDeliveredGPUHr = "delivered_gpu_hours"
	MetricGPUUtilization = "gpu_utilization"
	MetricClusterGPUs    = "cluster_gpus"

	// Sweep figures (workflow.Compute), named here so the report that
	// reads sweep.csv uses the writer's names.
	MetricBackfilledShare = "backfilled_share"
	MetricStarved         = "starved_jobs"
	MetricJain            = "jain_fairness"
	MetricShareErrorMax   = "share_error_max"
	MetricUsageShare      = "usage_share"
	MetricNormShare       = "norm_share"
	MetricShareError      = "share_error"
)

// BoundedSlowdownBound is the runtime floor (seconds) of the bounded
// slowdown, so very short jobs do not dominate the mean.
const BoundedSlowdownBound = 10

// Metrics are a run's headline figures; summary.csv, sweeps and
// regression compare them.
type Metrics struct {
	Jobs            int
	Started         int
	NeverStarted    int
	Rejected        int
	Backfilled      int
	Preempted       int
	Utilization     float64 // core-seconds used / (cores × makespan)
	MeanWait        float64 // 0 when no job started, as are the other waits
	MedianWait      float64
	P95Wait         float64
	MaxWait         float64
	MeanBSLD        float64 // bounded slowdown, bound BoundedSlowdownBound
	Makespan        int64   // last end - first submit
	LostCoreHours   float64
	DeliveredCoreHr float64
	// GPUs are the cluster's usable GPUs (those of nodes that allocate);
	// DeliveredGPUHr sums GPUs held × elapsed over started jobs, and
	// GPUUtilization is that over GPUs × makespan (0 without GPUs).
	GPUs           int
	DeliveredGPUHr float64
	GPUUtilization float64
	// States counts the jobs by their state at the end, by sim.JobState.
	States [sim.NodeFailed + 1]int
	// NodeFailJobs counts jobs a node failure killed at least once, and
	// NodeFailRequeues the runs so killed that went back to the queue.
	NodeFailJobs, NodeFailRequeues int
}

// Compute derives the metrics of a result that holds all its jobs.
func Compute(r *sim.Result) Metrics {
	return TallyJobs(r).Metrics(r)
}

// WaitStats gathers the waits and bounded slowdowns of started jobs, so
// the run-wide figures of summary.csv and the per-account ones of
// sweep.csv are one computation. The zero value is empty.
type WaitStats struct {
	waits WaitHist
	bsld  float64
}

// Waits are the wait figures of a set of started jobs, in seconds.
type Waits struct {
	Mean, Median, P95, Max float64
	BSLDMean               float64 // mean bounded slowdown
}

// Add counts one started job.
func (s *WaitStats) Add(j *sim.Job) {
	run := float64(j.End - j.Start)
	w := float64(j.QueueWait())
	s.waits.Add(w)
	s.bsld += BoundedSlowdown(w, run)
}

// N is how many jobs were added.
func (s *WaitStats) N() int { return s.waits.N() }

// Waits computes the figures; all NaN when no job was added.
func (s *WaitStats) Waits() Waits {
	n := s.waits.N()
	if n == 0 {
		nan := math.NaN()
		return Waits{nan, nan, nan, nan, nan}
	}
	return Waits{
		Mean:     s.waits.sum() / float64(n),
		Median:   s.waits.quantile(0.5),
		P95:      s.waits.quantile(0.95),
		Max:      s.waits.At(n - 1),
		BSLDMean: s.bsld / float64(n),
	}
}

// BoundedSlowdown is (wait + run) / max(run, BoundedSlowdownBound), at
// least 1, so that jobs shorter than the bound do not dominate a mean.
func BoundedSlowdown(wait, run float64) float64 {
	return math.Max(1, (wait+run)/math.Max(run, BoundedSlowdownBound))
}

// Quantile of sorted values by linear interpolation between closest ranks
// (the R-7 / NumPy default), so results match what researchers compute.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
