package report

import (
	"fmt"
	"math"
	"testing"

	"fairsim/sim"
	"fairsim/workload"
)

// TestComputeByHand checks a four-job run worked out by hand on an
// 8-core cluster, first submit 0, last end 200:
//
//	job 1  2 cores  submit 0   start 0    end 100   wait 0    bsld max(1, 100/100) = 1
//	job 2  4 cores  submit 0   start 100  end 105   wait 100  bsld (100+5)/10 = 10.5  (backfill)
//	job 3  1 core   submit 50  start 150  end 200   wait 100  bsld 150/50 = 3         (preempted once)
//	job 4  rejected
//
// waits sorted 0, 100, 100: mean 200/3, median 100, p95 100, max 100;
// bounded slowdown mean (1 + 10.5 + 3) / 3 = 4.833333; core-seconds
// 200 + 20 + 50 = 270 of 8 × 200 = 1600: utilisation 0.16875; states
// 3 COMPLETED, 1 REJECTED.
func TestComputeByHand(t *testing.T) {
	mk := func(cores int, submit, start, end int64) *sim.Job {
		j := &sim.Job{EligibleTime: submit, Start: start, End: end, State: sim.Completed, StartedBy: sim.ByMain,
			Alloc: sim.Alloc{{Node: 0, Cores: cores}}}
		j.Submit = submit
		return j
	}
	jobs := []*sim.Job{mk(2, 0, 0, 100), mk(4, 0, 100, 105), mk(1, 50, 150, 200), mk(1, 0, -1, -1)}
	jobs[1].StartedBy = sim.ByBackfill
	jobs[2].Preemptions, jobs[2].LostCoreSecs = 1, 7200
	jobs[3].State = sim.Rejected
	r := &sim.Result{Jobs: jobs, Cluster: &sim.Cluster{TotalCores: 8, Nodes: make([]sim.Node, 2)}, First: 0, Last: 200,
		Read: &workload.ReadStats{}}
	m := Compute(r)
	want := Metrics{Jobs: 4, Started: 3, Rejected: 1, Backfilled: 1, Preempted: 1, Utilization: 0.16875,
		MeanWait: 200.0 / 3, MedianWait: 100, P95Wait: 100, MaxWait: 100, MeanBSLD: 14.5 / 3,
		Makespan: 200, LostCoreHours: 2, DeliveredCoreHr: 270.0 / 3600}
	want.States[sim.Completed], want.States[sim.Rejected] = 3, 1
	if m != want {
		t.Errorf("Compute = %+v\nwant      %+v", m, want)
	}
	rows := map[string]string{}
	for _, row := range SummaryRows(r, m) {
		rows[row.Metric] = row.Value
	}
	for k, v := range map[string]string{
		MetricWaitMean: "66.666667", MetricBSLDMean: "4.833333", MetricPreempted: "1", MetricBackfilled: "1",
		"cluster_nodes": "2", "cluster_cores": "8", // names an acceptance check reads
	} {
		if rows[k] != v {
			t.Errorf("summary %s = %q, want %q", k, rows[k], v)
		}
	}
}

// TestWaitStatsEmpty: no started job gives NaN figures (sweep.csv leaves
// them blank) but zero Metrics (summary.csv has always printed 0).
func TestWaitStatsEmpty(t *testing.T) {
	var ws WaitStats
	if w := ws.Waits(); !math.IsNaN(w.Mean) || !math.IsNaN(w.BSLDMean) {
		t.Errorf("empty Waits = %+v, want NaN", w)
	}
	m := Compute(&sim.Result{Cluster: &sim.Cluster{}})
	if m.MeanWait != 0 || m.MeanBSLD != 0 {
		t.Errorf("no jobs: MeanWait %v MeanBSLD %v, want 0", m.MeanWait, m.MeanBSLD)
	}
}

// TestBSLDNameCarriesBound keeps the metric name honest about the bound.
func TestBSLDNameCarriesBound(t *testing.T) {
	if want := fmt.Sprintf("bounded_slowdown_mean_%ds", BoundedSlowdownBound); MetricBSLDMean != want {
		t.Errorf("MetricBSLDMean = %q, want %q", MetricBSLDMean, want)
	}
}

func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 3, 4}
	// h = q(n-1); 0.5 → 1.5 → 2.5; 0.95 → 2.85 → 3.85
	for q, want := range map[float64]float64{0: 1, 0.5: 2.5, 0.95: 3.85, 1: 4} {
		if got := Quantile(s, q); math.Abs(got-want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
}
