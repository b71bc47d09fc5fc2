package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"fairsim/sim"
)

// SummaryRow is one metric of summary.csv.
type SummaryRow struct {
	Metric string `csv:"metric"`
	Value  string `csv:"value"`
}

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
	MeanWait        float64
	MedianWait      float64
	P95Wait         float64
	MaxWait         float64
	MeanBSLD        float64 // bounded slowdown, bound BoundedSlowdownBound
	Makespan        int64   // last end - first submit
	LostCoreHours   float64
	DeliveredCoreHr float64
}

// Compute derives the metrics of a result.
func Compute(r *sim.Result) Metrics {
	var m Metrics
	m.Jobs = len(r.Jobs)
	waits := make([]float64, 0, len(r.Jobs))
	var used, bsld float64
	for _, j := range r.Jobs {
		switch {
		case j.State == sim.Rejected:
			m.Rejected++
			continue
		case j.Start < 0:
			m.NeverStarted++
			continue
		}
		m.Started++
		if j.StartedBy == sim.ByBackfill {
			m.Backfilled++
		}
		if j.Preemptions > 0 {
			m.Preempted++
		}
		m.LostCoreHours += j.LostCoreSecs / 3600
		run := j.End - j.Start
		used += float64(run) * float64(j.Alloc.Cores())
		w := float64(j.Wait())
		waits = append(waits, w)
		bsld += math.Max(1, (w+float64(run))/math.Max(float64(run), BoundedSlowdownBound))
	}
	m.DeliveredCoreHr = used / 3600
	m.Makespan = r.Last - r.First
	if m.Makespan > 0 {
		m.Utilization = used / (float64(r.Cluster.TotalCores) * float64(m.Makespan))
	}
	if n := len(waits); n > 0 {
		slices.Sort(waits)
		var sum float64
		for _, w := range waits {
			sum += w
		}
		m.MeanWait = sum / float64(n)
		m.MedianWait = Quantile(waits, 0.5)
		m.P95Wait = Quantile(waits, 0.95)
		m.MaxWait = waits[n-1]
		m.MeanBSLD = bsld / float64(n)
	}
	return m
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

func ff(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

// SummaryRows lists a run's metrics and every count of what was skipped,
// rejected or filled in, in a fixed order.
func SummaryRows(r *sim.Result, m Metrics) []SummaryRow {
	rows := []SummaryRow{
		{"scheduler", r.Scheduler},
		{"records_read", strconv.Itoa(r.Read.Records)},
		{"records_skipped", strconv.Itoa(r.Read.Skipped.Total())},
	}
	for _, k := range r.Read.Skipped.Keys() {
		rows = append(rows, SummaryRow{"skipped: " + k, strconv.Itoa(r.Read.Skipped[k])})
	}
	for _, k := range r.Read.Defaulted.Keys() {
		rows = append(rows, SummaryRow{"read default: " + k, strconv.Itoa(r.Read.Defaulted[k])})
	}
	rows = append(rows, SummaryRow{"jobs", strconv.Itoa(m.Jobs)},
		SummaryRow{"jobs_rejected", strconv.Itoa(m.Rejected)})
	for _, k := range r.Rejected.Keys() {
		rows = append(rows, SummaryRow{"rejected: " + k, strconv.Itoa(r.Rejected[k])})
	}
	for _, k := range r.Defaulted.Keys() {
		rows = append(rows, SummaryRow{"sim default: " + k, strconv.Itoa(r.Defaulted[k])})
	}
	states := map[string]int{}
	for _, j := range r.Jobs {
		states[j.State.String()]++
	}
	for s := sim.Pending; s <= sim.Rejected; s++ {
		rows = append(rows, SummaryRow{"state: " + s.String(), strconv.Itoa(states[s.String()])})
	}
	rows = append(rows,
		SummaryRow{"jobs_started", strconv.Itoa(m.Started)},
		SummaryRow{"jobs_never_started", strconv.Itoa(m.NeverStarted)},
		SummaryRow{"started_by_backfill", strconv.Itoa(m.Backfilled)},
		SummaryRow{"jobs_preempted", strconv.Itoa(m.Preempted)},
		SummaryRow{"preempted_lost_core_hours", ff(m.LostCoreHours)},
		SummaryRow{"delivered_core_hours", ff(m.DeliveredCoreHr)},
		SummaryRow{"utilization", ff(m.Utilization)},
		SummaryRow{"wait_mean_s", ff(m.MeanWait)},
		SummaryRow{"wait_median_s", ff(m.MedianWait)},
		SummaryRow{"wait_p95_s", ff(m.P95Wait)},
		SummaryRow{"wait_max_s", ff(m.MaxWait)},
		SummaryRow{fmt.Sprintf("bounded_slowdown_mean_%ds", BoundedSlowdownBound), ff(m.MeanBSLD)},
		SummaryRow{"makespan_s", strconv.FormatInt(m.Makespan, 10)},
		SummaryRow{"first_submit", strconv.FormatInt(r.First, 10)},
		SummaryRow{"last_end", strconv.FormatInt(r.Last, 10)},
		SummaryRow{"cluster_nodes", strconv.Itoa(len(r.Cluster.Nodes))},
		SummaryRow{"cluster_cores", strconv.Itoa(r.Cluster.TotalCores)},
	)
	return rows
}

// UtilRow is one line of utilization.csv.
type UtilRow struct {
	Time        int64   `csv:"time"`
	BusyCores   int     `csv:"busy_cores"`
	TotalCores  int     `csv:"total_cores"`
	Utilization float64 `csv:"utilization"`
	Running     int     `csv:"running_jobs"`
	Pending     int     `csv:"pending_jobs"`
}

// UtilRows converts the utilisation samples.
func UtilRows(r *sim.Result) []UtilRow {
	rows := make([]UtilRow, len(r.Samples))
	for i, s := range r.Samples {
		rows[i] = UtilRow{s.T, s.BusyCores, r.Cluster.TotalCores, round6(float64(s.BusyCores) / float64(r.Cluster.TotalCores)), s.Running, s.Pending}
	}
	return rows
}
