package scenarios

import (
	"slices"
	"strconv"
	"testing"
)

// TestCapsScenario reads the caps scenario's jobs.csv alone and sweeps
// its start and end events in time order (ends before starts at the same
// instant, as a job's end frees its share before the next starts): no
// user ever runs more than MaxJobsPU = 4 jobs or MaxTRESPU = 64 CPUs at
// once, and account g1 never holds more than its GrpTRES = 96 CPUs. Jobs
// that waited on those limits name them in WaitReason.
func TestCapsScenario(t *testing.T) {
	out := runScenario(t, "caps")
	jt := readJobs(t, out)
	type ev struct {
		t     int64
		start int // 0 end, 1 start: ends first at equal times
		user  string
		acct  string
		cpus  int
	}
	var evs []ev
	reasons := map[string]int{}
	for _, r := range jt.rows {
		reasons[jt.s(r, "WaitReason")]++
		start, _ := strconv.ParseInt(jt.s(r, "Start"), 10, 64)
		if start < 0 {
			continue
		}
		end, _ := strconv.ParseInt(jt.s(r, "End"), 10, 64)
		cpus, _ := strconv.Atoi(jt.s(r, "NCPUS"))
		u, a := jt.s(r, "User"), jt.s(r, "Account")
		evs = append(evs, ev{start, 1, u, a, cpus}, ev{end, 0, u, a, -cpus})
	}
	if len(evs) == 0 {
		t.Fatal("no job started")
	}
	slices.SortFunc(evs, func(x, y ev) int {
		if x.t != y.t {
			return int(x.t - y.t)
		}
		return x.start - y.start
	})
	jobs, cpus, acct := map[string]int{}, map[string]int{}, map[string]int{}
	peakJobs, peakCPUs, peakG1 := 0, 0, 0
	for _, e := range evs {
		d := 1
		if e.start == 0 {
			d = -1
		}
		jobs[e.user] += d
		cpus[e.user] += e.cpus
		acct[e.acct] += e.cpus
		peakJobs, peakCPUs, peakG1 = max(peakJobs, jobs[e.user]), max(peakCPUs, cpus[e.user]), max(peakG1, acct["g1"])
		if jobs[e.user] > 4 || cpus[e.user] > 64 || acct["g1"] > 96 {
			t.Fatalf("t=%d: user %s runs %d jobs, %d CPUs; g1 holds %d CPUs (caps 4, 64, 96)", e.t, e.user, jobs[e.user], cpus[e.user], acct["g1"])
		}
	}
	// The caps bind: each is reached, and jobs waited on each.
	if peakJobs != 4 || peakCPUs != 64 || peakG1 != 96 {
		t.Errorf("peaks %d jobs, %d CPUs per user, %d CPUs in g1: a cap was never reached", peakJobs, peakCPUs, peakG1)
	}
	for _, r := range []string{"QOSMaxJobsPerUserLimit", "QOSMaxCpuPerUserLimit", "AssocGrpCpuLimit"} {
		if reasons[r] == 0 {
			t.Errorf("no job's WaitReason is %s (%v)", r, reasons)
		}
	}
	t.Logf("%d jobs started; WaitReason counts %v", len(evs)/2, reasons)
}
