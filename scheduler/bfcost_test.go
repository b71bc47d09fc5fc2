package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestBackfillCost: the cycle cost of backfill.c _attempt_backfill at
// 100 tests per second with Slurm's defaults (bf_max_time 30 s,
// bf_yield_interval 2 s, bf_yield_sleep 0.5 s).
//
// With bf_continue, testing n jobs takes w = n/100 s plus 0.5 s per 2 s
// of it: wall = w + 0.5·floor(w/2). Slurm checks bf_max_time before each
// job, so job n is tested while wall(n-1) < 30: wall(2399) = 23.99 + 5.5
// = 29.49 < 30, wall(2400) = 24 + 6 = 30: 2400 jobs, 30 s.
//
// Without bf_continue the first yield ends the cycle (a busy site changed
// meanwhile, _yield_locks): 2 s × 100 = 200 jobs, 2 + 0.5 = 2.5 s, 3 s
// on the clock.
func TestBackfillCost(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rate      float64
		cont      bool
		budget    int
		tested    int
		duration  int64
		maxTimeSc int64
	}{
		{"off", 0, true, -1, 1000, 0, 30},
		{"bf_continue", 100, true, 2400, 2400, 30, 30},
		{"bf_continue, 150 jobs", 100, true, 2400, 150, 2, 30}, // 1.5 s, no yield: 2 s
		{"no bf_continue", 100, false, 200, 200, 3, 30},
		// bf_max_time 1 s with bf_continue: wall(99) = 0.99 < 1: 100 jobs.
		{"bf_max_time=1", 100, true, 100, 100, 1, 1},
	} {
		p := DefaultParams()
		p.BfTestsPerSec, p.BfContinue, p.BfMaxTime = tc.rate, tc.cont, tc.maxTimeSc
		if got := p.BackfillBudget(); got != tc.budget {
			t.Errorf("%s: budget %d, want %d", tc.name, got, tc.budget)
		}
		if got := p.BackfillDuration(tc.tested); got != tc.duration {
			t.Errorf("%s: %d jobs take %d s, want %d", tc.name, tc.tested, got, tc.duration)
		}
	}
}

// TestSlurmTriggers: the scheduler hands sim its SchedulerParameters as
// triggers (controller.c, job_scheduler.c, backfill.c defaults).
func TestSlurmTriggers(t *testing.T) {
	p := DefaultParams()
	p.Defer, p.SchedMinInterval = true, 3000000
	tr := NewSlurm(p).Triggers()
	if tr.SubmitDelay != 3 || !tr.OnEnd || !tr.Defer || tr.MinInterval != 3000000 || tr.Interval != 60 || tr.BackfillInterval != 30 {
		t.Errorf("triggers %+v", tr)
	}
	p.SchedInterval = -1 // sched_interval=-1: no main passes at all
	if tr := NewSlurm(p).Triggers(); tr.SubmitDelay >= 0 || tr.OnEnd || tr.Interval != 0 {
		t.Errorf("sched_interval=-1: triggers %+v", tr)
	}
}

// TestBackfillBudgetCutsTheList: TestBfMaxJobTestCutsTheList's queue with
// the cost model on instead of bf_max_job_test. Without bf_continue the
// first yield (bf_yield_interval 2 s) ends the cycle: at 1 test per
// second that is ceil(2 × 1) = 2 tests (job 2, then job 3, which starts
// at 30) and job 4 waits; at 1.5 per second ceil(2 × 1.5) = 3 tests and
// job 4 starts at 30 too. Off (0 per second) nothing is cut.
func TestBackfillBudgetCutsTheList(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 2, run: 1000, limit: 1000},
		{id: 2, submit: 10, cpus: 4, run: 100, limit: 100},
		{id: 3, submit: 10, cpus: 1, run: 100, limit: 200},
		{id: 4, submit: 10, cpus: 1, run: 100, limit: 200},
	}
	for _, tc := range []struct {
		rate float64
		job4 int64
	}{{1, -1}, {1.5, 30}, {0, 30}} {
		p := DefaultParams()
		p.BfTestsPerSec, p.BfContinue = tc.rate, false
		c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
		_, by := run(t, c, NewSlurm(p), jobs, 40, nil)
		checkStarts(t, by, []want{{2, -1, 0}, {3, 30, sim.ByBackfill}, {4, tc.job4, sim.ByBackfill}})
	}
}
