package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestOverTimeLimitKill: under slurmctld's time-limit check
// (sim.Options.TimeLimitTick, 30 s on the background loop's clock from
// the controller's start, here the first submission at 0) a job that runs
// past its limit is killed at the first check at or after its limit plus
// its partition's OverTimeLimit (job_mgr.c job_time_limit); one that ends
// before that check ends by itself. Job 1 (limit 100, runs 500) and job
// 2 (limit 100, runs 110) start at 3 on a 2-node partition. Job 3 is a
// trace's job killed at its limit (sacct TIMEOUT, read as failed, ran
// 105): it ends at its runtime, before the replay's check, and is a
// TIMEOUT still, not FAILED.
func TestOverTimeLimitKill(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 4, run: 500, limit: 100},
		{id: 2, submit: 0, cpus: 4, run: 110, limit: 100},
		{id: 3, submit: 0, cpus: 1, run: 105, limit: 100, failed: true},
	}
	for _, tc := range []struct {
		tick, over  int64
		end1, end2  int64
		state2      sim.JobState
		description string
	}{
		{0, 0, 103, 103, sim.Timeout, "no check: killed at the limit"},
		{30, 0, 120, 113, sim.Completed, "the check at 120 (103 passed): job 2 ended at 113 by itself"},
		{30, 60, 180, 113, sim.Completed, "OverTimeLimit=1: the check at 180 (163 passed)"},
		{30, sim.Unlimited, 503, 113, sim.Completed, "OverTimeLimit=UNLIMITED: not killed within a year"},
	} {
		c := backfillCluster(t)
		c.Parts[0].OverTime = tc.over
		_, by := runWith(t, c, NewSlurm(DefaultParams()), jobs, sim.Options{TimeLimitTick: tc.tick}, nil)
		j1, j2 := by[1], by[2]
		want1 := sim.Timeout
		if tc.over == sim.Unlimited {
			want1 = sim.Completed
		}
		if j3 := by[3]; j3.State != sim.Timeout {
			t.Errorf("%s: job 3 (failed in the trace, past its limit) %s, want TIMEOUT", tc.description, j3.State)
		}
		if j1.End != tc.end1 || j1.State != want1 || j2.End != tc.end2 || j2.State != tc.state2 {
			t.Errorf("%s: job 1 ended at %d %s, job 2 at %d %s; want %d %s and %d %s", tc.description,
				j1.End, j1.State, j2.End, j2.State, tc.end1, want1, tc.end2, tc.state2)
		}
	}
}

// TestWillRunGuessesPastLimit: a will-run test expects a job already past
// its limit to end KillWait (plus its partition's OverTimeLimit) after
// that limit, at least a second from now (cons_common _guess_job_end).
// Job 1 (7 of the 8 CPUs, limit 100, runs 500) starts at 3 and passes
// its limit at 103; the check kills it at 120 (tick 30). Job 2 (8 CPUs)
// waits. Job 3 (1 CPU, limit 1000), submitted at 105, brings a backfill
// cycle, which expects job 2 at 103 + KillWait 30 = 133, or with
// OverTimeLimit=1 at 193; with KillWait 0 and no OverTimeLimit the guess
// is now + 1.
func TestWillRunGuessesPastLimit(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 7, run: 500, limit: 100},
		{id: 2, submit: 10, cpus: 8, run: 50, limit: 100},
		{id: 3, submit: 105, cpus: 1, run: 50, limit: 1000},
	}
	for _, tc := range []struct {
		killWait, over, want int64
	}{{30, 0, 133}, {30, 60, 193}, {0, 0, 107}} {
		c := backfillCluster(t)
		c.Parts[0].OverTime = tc.over
		p := DefaultParams()
		p.BfInterval = 3
		_, by := runWith(t, c, planner(p), jobs, sim.Options{TimeLimitTick: 30, KillWait: tc.killWait, StopAt: 110}, nil)
		if j := by[2]; j.ExpectStart != tc.want {
			t.Errorf("KillWait %d, OverTime %d: at 110 job 2 expected at %d, want %d", tc.killWait, tc.over, j.ExpectStart, tc.want)
		}
	}
}

// TestUnlimitedOverTimeGuessMoves: under OverTimeLimit=UNLIMITED a job
// past its limit is guessed to end its limit after now (_guess_job_end),
// so a will-run answer holds for one second only: the answers kept from
// cycle to cycle must not give an earlier cycle's guess. Job 1 (7 of 8
// CPUs, limit 100) runs on past 103; job 2 (8 CPUs) waits; jobs 3 and 4
// (1 CPU, limit 1000) could start on the free CPU but for job 2's
// reservation, and bring cycles that change nothing else. Job
// 2's expected start after each is that cycle's second plus 100, as
// with every answer computed afresh.
func TestUnlimitedOverTimeGuessMoves(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 7, run: 100000, limit: 100},
		{id: 2, submit: 10, cpus: 8, run: 50, limit: 100},
		{id: 3, submit: 140, cpus: 1, run: 50, limit: 1000},
		{id: 4, submit: 170, cpus: 1, run: 50, limit: 1000},
	}
	expect := func(off bool) int64 {
		defer func() { memoOff = false }()
		memoOff = off
		c := backfillCluster(t)
		c.Parts[0].OverTime = sim.Unlimited
		p := DefaultParams()
		p.BfInterval = 3
		_, by := runWith(t, c, planner(p), jobs, sim.Options{TimeLimitTick: 30, KillWait: 30, StopAt: 190}, nil)
		return by[2].ExpectStart
	}
	got, want := expect(false), expect(true)
	if got != want || want < 270 {
		t.Errorf("job 2 expected at %d with the memo, %d without; want equal, at least 270 (a cycle after 170, plus 100)", got, want)
	}
}

// TestUnlimitedOverTimeYear: OverTimeLimit=UNLIMITED lets a job run a
// year past its limit, not forever (job_mgr.c job_time_limit: over_run =
// now - YEAR_SECONDS). Job 1 (limit 100, runs two years) starts at 3 and
// is killed at the first check at or after 103 + 365 days.
func TestUnlimitedOverTimeYear(t *testing.T) {
	const year = 365 * 86400
	c := backfillCluster(t)
	c.Parts[0].OverTime = sim.Unlimited
	_, by := runWith(t, c, NewSlurm(DefaultParams()), []tjob{{id: 1, submit: 0, cpus: 4, run: 2 * year, limit: 100}},
		sim.Options{TimeLimitTick: 30}, nil)
	if j := by[1]; j.End != year+120 || j.State != sim.Timeout {
		t.Errorf("job 1 ended at %d %s, want %d TIMEOUT (the check after 103 + a year)", j.End, j.State, year+120)
	}
}

// TestGuessPastWindow: under OverTimeLimit=UNLIMITED a job past its limit
// is guessed to end its limit after now, which can lie past bf_window:
// backfill.c then sets the waiting job's start there ("StartTime set to
// time after current backfill window") and reserves nothing. Job 1 (7 of
// 8 CPUs, limit 1000) runs on past 1003; job 2 (8 CPUs) waits; job 3,
// submitted at 1100, brings a cycle whose guess for job 1 is that cycle's
// second plus 1000, past its 10-minute window: job 2's expected start,
// and job 3 (1 CPU, limit 5000) starts at once, as nothing is reserved.
func TestGuessPastWindow(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 7, run: 100000, limit: 1000},
		{id: 2, submit: 10, cpus: 8, run: 50, limit: 100},
		{id: 3, submit: 1100, cpus: 1, run: 50, limit: 5000},
	}
	c := backfillCluster(t)
	c.Parts[0].OverTime = sim.Unlimited
	p := DefaultParams()
	p.BfInterval, p.BfWindow = 3, 600
	_, by := runWith(t, c, planner(p), jobs, sim.Options{TimeLimitTick: 30, KillWait: 30, StopAt: 1110}, nil)
	if j := by[2]; j.ExpectStart < 2100 || j.ExpectStart > 2110 {
		t.Errorf("job 2 expected at %d, want the cycle's second after 1100 plus 1000", j.ExpectStart)
	}
	if j := by[3]; j.Start < 1100 || j.Start > 1105 {
		t.Errorf("job 3 started at %d, want at once (1100-1105)", j.Start)
	}
}
