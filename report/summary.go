package report

import (
	"io"
	"strconv"

	"fairsim/sim"
)

// SummaryRow is one metric of summary.csv.
type SummaryRow struct {
	Metric string `csv:"metric"`
	Value  string `csv:"value"`
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
	rows = append(rows, SummaryRow{MetricJobs, strconv.Itoa(m.Jobs)},
		SummaryRow{MetricRejected, strconv.Itoa(m.Rejected)})
	for _, k := range r.Rejected.Keys() {
		rows = append(rows, SummaryRow{"rejected: " + k, strconv.Itoa(r.Rejected[k])})
	}
	for _, k := range r.Defaulted.Keys() {
		rows = append(rows, SummaryRow{"sim default: " + k, strconv.Itoa(r.Defaulted[k])})
	}
	for s := sim.Pending; s <= sim.Rejected; s++ {
		if s == sim.Suspended {
			continue // a run never ends with a job suspended: it is resumed first
		}
		rows = append(rows, SummaryRow{"state: " + s.String(), strconv.Itoa(m.States[s])})
	}
	if r.SiteEvents > 0 {
		// Only for runs with site events, so the summaries of runs without
		// them stay as they were and regress sees no new metric.
		rows = append(rows, SummaryRow{"state: " + sim.NodeFailed.String(), strconv.Itoa(m.States[sim.NodeFailed])})
		rows = append(rows, SummaryRow{MetricNodeFail, strconv.Itoa(m.NodeFailJobs)}, SummaryRow{MetricNodeFailRequeues, strconv.Itoa(m.NodeFailRequeues)})
	}
	rows = append(rows,
		SummaryRow{MetricStarted, strconv.Itoa(m.Started)},
		SummaryRow{MetricNeverStarted, strconv.Itoa(m.NeverStarted)},
		SummaryRow{MetricBackfilled, strconv.Itoa(m.Backfilled)},
		SummaryRow{MetricPreempted, strconv.Itoa(m.Preempted)},
		SummaryRow{MetricLostCoreHours, ff(m.LostCoreHours)},
		SummaryRow{MetricDeliveredCoreHr, ff(m.DeliveredCoreHr)},
		SummaryRow{MetricUtilization, ff(m.Utilization)},
	)
	// GPU rows only on a cluster with GPUs: a CPU-only run's summary.csv
	// is what it was before GPUs, and regress reports a metric present on
	// one side only as a drift.
	if r.Cluster.GPUs > 0 {
		rows = append(rows, SummaryRow{MetricDeliveredGPUHr, ff(m.DeliveredGPUHr)},
			SummaryRow{MetricGPUUtilization, ff(m.GPUUtilization)})
	}
	rows = append(rows,
		SummaryRow{MetricWaitMean, ff(m.MeanWait)},
		SummaryRow{MetricWaitMedian, ff(m.MedianWait)},
		SummaryRow{MetricWaitP95, ff(m.P95Wait)},
		SummaryRow{MetricWaitMax, ff(m.MaxWait)},
		SummaryRow{MetricBSLDMean, ff(m.MeanBSLD)},
		SummaryRow{MetricMakespan, strconv.FormatInt(m.Makespan, 10)},
		SummaryRow{"first_submit", strconv.FormatInt(r.First, 10)},
		SummaryRow{"last_end", strconv.FormatInt(r.Last, 10)},
	)
	if r.Stalled {
		rows = append(rows, SummaryRow{MetricStalledFrom, strconv.FormatInt(r.StalledFrom, 10)})
	}
	rows = append(rows,
		SummaryRow{MetricClusterNodes, strconv.Itoa(len(r.Cluster.Nodes))},
		SummaryRow{MetricClusterCores, strconv.Itoa(r.Cluster.TotalCores)},
	)
	if r.Cluster.GPUs > 0 {
		rows = append(rows, SummaryRow{MetricClusterGPUs, strconv.Itoa(m.GPUs)})
	}
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

// GPUKinds are the indices in Cluster.GresKinds of the cluster's GPU kinds
// (GRES named gpu), in the order the cluster lists them.
func GPUKinds(c *sim.Cluster) []int {
	var out []int
	for i, k := range c.GresKinds {
		if k.Name == "gpu" {
			out = append(out, i)
		}
	}
	return out
}

// UtilTable is utilization.csv as a header and records: UtilRows's
// columns, and on a cluster with GPUs busy_gpus, total_gpus (those of nodes
// that allocate), gpu_utilization and one column of busy GPUs per GPU kind
// named as the kind (gpu:a100, or gpu for untyped GPUs). A CPU-only
// cluster's file is UtilRows's, byte for byte.
func UtilTable(r *sim.Result) (head []string, recs [][]string) {
	head, kinds, gpus := utilHead(r)
	withGPU := r.Cluster.GPUs > 0
	itoa := strconv.Itoa
	fl := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	recs = make([][]string, len(r.Samples))
	for i, s := range r.Samples {
		rec := make([]string, 0, len(head))
		rec = append(rec, strconv.FormatInt(s.T, 10), itoa(s.BusyCores), itoa(r.Cluster.TotalCores),
			fl(round6(float64(s.BusyCores)/float64(r.Cluster.TotalCores))), itoa(s.Running), itoa(s.Pending))
		if withGPU {
			rec = append(rec, itoa(s.BusyGPUs), itoa(gpus), fl(gpuShare(s, gpus)))
			for _, k := range kinds {
				rec = append(rec, itoa(busyOfKind(s, k)))
			}
		}
		recs[i] = rec
	}
	return head, recs
}

// utilHead is utilization.csv's header, the GPU kinds of its last
// columns and the GPUs its gpu_utilization counts.
func utilHead(r *sim.Result) (head []string, kinds []int, gpus int) {
	head = []string{"time", "busy_cores", "total_cores", "utilization", "running_jobs", "pending_jobs"}
	kinds = GPUKinds(r.Cluster)
	gpus = r.Cluster.GPUs - r.Cluster.DownGPUs
	if r.Cluster.GPUs > 0 {
		head = append(head, "busy_gpus", "total_gpus", "gpu_utilization")
		for _, k := range kinds {
			head = append(head, r.Cluster.GresKinds[k].String())
		}
	}
	return head, kinds, gpus
}

func gpuShare(s sim.Sample, gpus int) float64 {
	if gpus <= 0 {
		return 0
	}
	return round6(float64(s.BusyGPUs) / float64(gpus))
}

func busyOfKind(s sim.Sample, k int) int {
	if k < len(s.ByGres) {
		return s.ByGres[k]
	}
	return 0
}

// writeUtilCSV writes utilization.csv to w, UtilTable as encoding/csv
// writes it, with strconv appends into one buffer written as it fills: a
// string per cell made it the slowest of a small run's summaries
// (KTH-SP2: 3-4 ms for 8,000 rows, beside plots of 9-13 ms).
func writeUtilCSV(w io.Writer, r *sim.Result) error {
	head, kinds, gpus := utilHead(r)
	b := make([]byte, 0, 64<<10)
	for i, h := range head {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, h)
	}
	b = append(b, '\n')
	total := r.Cluster.TotalCores
	withGPU := r.Cluster.GPUs > 0
	for _, s := range r.Samples {
		b = strconv.AppendInt(b, s.T, 10)
		b = strconv.AppendInt(append(b, ','), int64(s.BusyCores), 10)
		b = strconv.AppendInt(append(b, ','), int64(total), 10)
		b = appendShortest(append(b, ','), round6(float64(s.BusyCores)/float64(total)))
		b = strconv.AppendInt(append(b, ','), int64(s.Running), 10)
		b = strconv.AppendInt(append(b, ','), int64(s.Pending), 10)
		if withGPU {
			b = strconv.AppendInt(append(b, ','), int64(s.BusyGPUs), 10)
			b = strconv.AppendInt(append(b, ','), int64(gpus), 10)
			b = appendShortest(append(b, ','), gpuShare(s, gpus))
			for _, k := range kinds {
				b = strconv.AppendInt(append(b, ','), int64(busyOfKind(s, k)), 10)
			}
		}
		b = append(b, '\n')
		if len(b) > 60<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(b)
	return err
}

// Summary metrics of runs with site events.
const (
	// MetricNodeFail counts jobs a node failure killed at least once.
	MetricNodeFail = "jobs_node_fail"
	// MetricNodeFailRequeues counts the runs killed by a node failure
	// that went back to the queue.
	MetricNodeFailRequeues = "node_fail_requeues"
)
