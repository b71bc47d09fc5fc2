package workflow

import (
	"math"
	"strconv"
	"testing"

	"fairsim/report"
	"fairsim/sim"
	"fairsim/workload"
)

func TestJain(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{1, 1, 1}, 1},
		{[]float64{1, 0}, 0.5},             // one of two got everything: 1/n
		{[]float64{2, 1}, 9.0 / 10},        // (3)^2 / (2 * 5)
		{[]float64{0, 0}, 1},               // nobody got anything: all equal
		{[]float64{4, 0, 0, 0}, 1.0 / 4.0}, // 16 / (4 * 16)
	} {
		if got := Jain(tc.xs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Jain(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
	if !math.IsNaN(Jain(nil)) {
		t.Error("Jain(nil) is not NaN")
	}
}

func TestStarved(t *testing.T) {
	const after = 3600
	for _, tc := range []struct {
		name string
		j    sim.Job
		now  int64
		want bool
	}{
		{"started within the limit", sim.Job{EligibleTime: 100, Start: 3700, End: 4000, State: sim.Completed}, 9999, false},
		{"started past the limit", sim.Job{EligibleTime: 100, Start: 3701, End: 4000, State: sim.Completed}, 9999, true},
		{"pending at the end, long", sim.Job{EligibleTime: 100, Start: -1, End: -1, State: sim.Pending}, 3701, true},
		{"pending at the end, short", sim.Job{EligibleTime: 100, Start: -1, End: -1, State: sim.Pending}, 3700, false},
		{"cancelled while pending, long", sim.Job{EligibleTime: 0, Start: -1, End: 5000, State: sim.Cancelled}, 9999, true},
		{"cancelled while pending, short", sim.Job{EligibleTime: 0, Start: -1, End: 60, State: sim.Cancelled}, 9999, false},
		{"rejected", sim.Job{EligibleTime: 0, Start: -1, End: 0, State: sim.Rejected}, 99999, false},
	} {
		if got := Starved(&tc.j, tc.now, after); got != tc.want {
			t.Errorf("%s: Starved = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestComputeByHand checks the sweep metrics of a three-job run worked out
// by hand. Accounts a and b, no association tree (equal shares), no
// billing (core-seconds):
//
//	job 1  a  2 cores  eligible 0   start 0    end 100   wait 0
//	job 2  a  2 cores  eligible 0   start 50   end 150   wait 50
//	job 3  b  4 cores  eligible 10  start 110  end 130   wait 100 (> 60: starved)
//
// usage a = 2*100 + 2*100 = 400, b = 4*20 = 80 core-s: shares 5/6, 1/6;
// errors +1/3, -1/3; Jain over x = (5/3, 1/3) = 4 / (2 * 26/9) = 9/13.
func TestComputeByHand(t *testing.T) {
	names := &workload.Names{}
	a, b := names.Accounts.ID("a"), names.Accounts.ID("b")
	mk := func(acct int32, cores int, elig, start, end int64) *sim.Job {
		j := &sim.Job{EligibleTime: elig, Start: start, End: end, State: sim.Completed, StartedBy: sim.ByMain,
			Alloc: sim.Alloc{{Node: 0, Cores: cores}}}
		j.Account, j.Submit = acct, elig
		return j
	}
	jobs := []*sim.Job{mk(a, 2, 0, 0, 100), mk(a, 2, 0, 50, 150), mk(b, 4, 10, 110, 130)}
	jobs[2].StartedBy = sim.ByBackfill
	r := &sim.Result{Jobs: jobs, Names: names, Cluster: &sim.Cluster{TotalCores: 8}, First: 0, Last: 150, Now: 150}
	m := Compute(nil, r, 60)
	want := map[string]string{
		"jobs": "3", "jobs_started": "3", "wait_mean_s": "50.000000", "wait_median_s": "50.000000",
		"wait_max_s": "100.000000", "backfilled_share": "0.333333", "starved_jobs": "1",
		"jain_fairness": "0.692308", "share_error_max": "0.333333",
		// utilisation: 480 core-s / (8 cores * 150 s) = 0.4
		"utilization": "0.400000",
	}
	got := map[string]string{}
	for _, f := range m.Fields() {
		got[f.Name] = f.Value
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	acct := map[string]string{
		"jobs[a]": "2", "wait_mean_s[a]": "25.000000", "usage_share[a]": "0.833333", "norm_share[a]": "0.500000",
		"share_error[a]": "0.333333", "starved_jobs[a]": "0",
		"jobs[b]": "1", "wait_mean_s[b]": "100.000000", "wait_p95_s[b]": "100.000000", "usage_share[b]": "0.166667",
		"share_error[b]": "-0.333333", "starved_jobs[b]": "1",
		// bounded slowdown of job 3: (100 + 20) / max(20, 10) = 6
		"bounded_slowdown_mean_10s[b]": "6.000000",
	}
	for k, v := range acct {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	// Columns come in the documented order.
	var order []string
	for _, f := range m.Overall {
		order = append(order, f.Name)
	}
	if len(order) != len(OverallNames) {
		t.Fatalf("overall fields %v, want %v", order, OverallNames)
	}
	for i := range order {
		if order[i] != OverallNames[i] {
			t.Errorf("overall field %d = %s, want %s", i, order[i], OverallNames[i])
		}
	}
}

func TestAccountColumn(t *testing.T) {
	m, a, ok := SplitAccountColumn(AccountColumn("wait_mean_s", "lab[1]"))
	if !ok || m != "wait_mean_s" || a != "lab[1]" {
		t.Errorf("round trip = %q %q %v", m, a, ok)
	}
	if _, _, ok := SplitAccountColumn("wait_mean_s"); ok {
		t.Error("an overall column split as an account column")
	}
}

// TestPointTallyStarvesAsDefined adds jobs of every kind Starved tells
// apart to a PointTally and checks its count, for several run ends,
// against Starved itself: a job cancelled while waiting counts up to its
// cancellation, one still waiting up to the run's end.
func TestPointTallyStarvesAsDefined(t *testing.T) {
	names := &workload.Names{}
	a := names.Accounts.ID("a")
	jobs := []*sim.Job{
		{EligibleTime: 0, Start: 700, End: 800, State: sim.Completed}, // waited 700
		{EligibleTime: 0, Start: 100, End: 800, State: sim.Completed}, // waited 100
		{EligibleTime: 0, Start: -1, End: 500, State: sim.Cancelled},  // cancelled at 500
		{EligibleTime: 0, Start: -1, End: 900, State: sim.Cancelled},  // cancelled at 900
		{EligibleTime: 100, Start: -1, End: -1, State: sim.Pending},   // waiting at the end
		{EligibleTime: 0, Start: -1, End: 0, State: sim.Rejected},     // never starves
		{EligibleTime: 300, Start: -1, End: -1, State: sim.Pending},   // waiting at the end
	}
	for _, j := range jobs {
		j.Account = a
	}
	for _, now := range []int64{650, 1000, 5000} {
		pt := NewPointTally(600)
		r := &sim.Result{Jobs: jobs, Names: names, Cluster: &sim.Cluster{TotalCores: 8}, Now: now, Last: now}
		want := 0
		for _, j := range jobs {
			pt.Add(r, j)
			if Starved(j, now, 600) {
				want++
			}
		}
		got := ""
		for _, f := range pt.Metrics(nil, r, report.Compute(r)).Overall {
			if f.Name == report.MetricStarved {
				got = f.Value
			}
		}
		if got != strconv.Itoa(want) {
			t.Errorf("run ending at %d: starved_jobs %s, want %d", now, got, want)
		}
	}
}
