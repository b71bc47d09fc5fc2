package scheduler

import (
	"math"
	"testing"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// grpDump and grpQOS are two accounts, each with its own QOS: qa has a
// credit of 12 CPU-minutes (GrpTRESMins=cpu=12), qb none.
const grpDump = `Cluster - 'c':Fairshare=1
Parent - 'root'
Account - 'a':Fairshare=1
Account - 'b':Fairshare=1
Parent - 'a'
User - 'ua':Fairshare=1
Parent - 'b'
User - 'ub':Fairshare=1
`

const grpQOS = `Name|Priority|GrpTRESMins
qa|0|cpu=12
qb|0|
`

// grpJobs: one 4-core node; calc ticks every 60 s from 0, main passes
// every 60 s from 60 (a tick and a pass at the same instant: the tick
// first).
//
//	t=0   job 1 (account a, QOS qa, 4 CPUs, runs 300 s) → starts at 3
//	t=240 the calc tick finds qa's usage at floor(4 × 237 s / 60) = 15
//	      CPU-minutes (less decay), past its 12-minute credit: job 1, which
//	      holds CPUs, is ended TIMEOUT (acct_policy_job_time_out)
//	t=400 job 2 (a, qa, 1 CPU) and job 3 (b, qb, 1 CPU); the last
//	      queued-or-full pass was the full one at 360, 40 s >= 3 ago, so
//	      the pass runs at once (controller.c _slurmctld_background; it
//	      used to run at 403): job 2 is held (QOSGrpCPUMinutesLimit:
//	      floor(used/60) >= 12); a limit-held job does not block its
//	      partition, so job 3, behind it in the queue, starts at 400.
var grpJobs = []tjob{
	{id: 1, submit: 0, cpus: 4, run: 300, limit: 600, acct: "a", user: "ua", qos: "qa"},
	{id: 2, submit: 400, cpus: 1, run: 60, limit: 120, acct: "a", user: "ua", qos: "qa"},
	{id: 3, submit: 400, cpus: 1, run: 60, limit: 120, acct: "b", user: "ub", qos: "qb"},
}

// TestGrpTRESMinsHoldsUntilReset: with PriorityDecayHalfLife=0 nothing
// decays, so job 2 stays held until PriorityUsageResetPeriod=DAILY zeroes
// all usage at the first calc tick at or after the next midnight: 86400
// (a tick, 1440 × 60, and a full main pass too), when job 2 starts.
func TestGrpTRESMinsHoldsUntilReset(t *testing.T) {
	fs := fairshare.Config{HalfLife: 0, Reset: fairshare.ResetDaily}
	mk := func() (*sim.Cluster, *Slurm) {
		return cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")}), NewSlurm(DefaultParams())
	}
	c, s := mk()
	_, by := run(t, c, s, grpJobs, 86399, mfPolicy(t, grpDump, grpQOS, fs))
	if j := by[2]; j.State != sim.Pending || j.Reason != "QOSGrpCPUMinutesLimit" {
		t.Errorf("t=86399: job 2 is %s with reason %q, want PENDING with QOSGrpCPUMinutesLimit", j.State, j.Reason)
	}
	c, s = mk()
	_, by = run(t, c, s, grpJobs, 0, mfPolicy(t, grpDump, grpQOS, fs))
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {3, 400, sim.ByMain}, {2, 86400, sim.ByMain}})
}

// TestGrpTRESMinsHoldsUntilDecay: with PriorityDecayHalfLife = 1 hour the
// QOS usage decays by df = 1 - 0.693/3600 per second (Slurm's
// approximation, §2.1) and job 2 starts at the first tick at which
// floor(usage/60) < 12, i.e. usage < 720 CPU-seconds.
//
// Usage as Slurm's decay thread keeps it (§2.2, §2.3): each tick T decays
// everything by df^(T-last) and charges the running slice d = T - max(start,
// last) as d·df^d·CPUs: 225.51 at 60, 460.17 at 120, 692.12 at 180 (11
// minutes) and 921.42 at 240 (15 minutes), when the time-out check ends job
// 1. Then × df^60 = 0.988515 per tick: 714.65 at 1560, when job 2 starts.
// slurmQOSUsage below recomputes this from the formula, independently of
// the engine.
func TestGrpTRESMinsHoldsUntilDecay(t *testing.T) {
	const hl = 3600
	release := slurmReleaseTick(hl, 3, 240, 4, 12*60, 403)
	if release != 1560 {
		t.Fatalf("the formula gives a release at %d, the hand computation 1560", release)
	}
	fs := fairshare.Config{HalfLife: hl}
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
	_, by := run(t, c, NewSlurm(DefaultParams()), grpJobs, 0, mfPolicy(t, grpDump, grpQOS, fs))
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {3, 400, sim.ByMain}, {2, 1560, sim.ByMain}})
	if j := by[1]; j.State != sim.Timeout || j.End != 240 || j.Reason != "QOSGrpCPUMinutesLimit" {
		t.Errorf("job 1: %s at %d (%q), want TIMEOUT at 240 (QOSGrpCPUMinutesLimit)", j.State, j.End, j.Reason)
	}
}

// slurmReleaseTick replays Slurm's usage bookkeeping for one job on cores
// CPUs running [start, end] with calc ticks every 60 s from 0, and returns
// the first tick at or after from at which the decayed usage is below
// limit CPU-seconds (in whole minutes, as acct_policy compares them).
func slurmReleaseTick(hl, start, end int64, cores float64, limit float64, from int64) int64 {
	df := 1 - 0.693/float64(hl)
	u, last := 0.0, int64(0)
	slice := func(d int64) float64 { return float64(d) * math.Pow(df, float64(d)) * cores }
	for tick := int64(60); tick < 100000; tick += 60 {
		u *= math.Pow(df, float64(tick-last))
		if tick <= end {
			u += slice(tick - max(start, last))
		}
		last = tick
		if tick < end && end < tick+60 {
			u += slice(end - tick) // charged at the end; the next tick decays it again
		}
		if tick >= from && math.Floor(u/60) < math.Floor(limit/60) {
			return tick
		}
	}
	return -1
}

// TestMaxSubmitPURefusesAtSubmit: QOS qa allows a user 2 jobs pending or
// running (MaxSubmitPU=2). On one 4-core node, user ua submits jobs 1-3 at
// 0 (4 cores each, 300 s): 1 and 2 are accepted (0+1, 1+1 <= 2), 3 is
// refused (2+1 > 2) and never runs. Job 1 starts at 3 and ends at 303;
// job 4, submitted at 400, finds 1 job of ua in the system (job 2, running
// from 303 to 603) and is accepted (1+1 <= 2): it starts at 603.
func TestMaxSubmitPURefusesAtSubmit(t *testing.T) {
	qos := "Name|Priority|MaxSubmitPU\nqa|0|2\nqb|0|\n"
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 4, run: 300, limit: 600, acct: "a", user: "ua", qos: "qa"},
		{id: 2, submit: 0, cpus: 4, run: 300, limit: 600, acct: "a", user: "ua", qos: "qa"},
		{id: 3, submit: 0, cpus: 4, run: 300, limit: 600, acct: "a", user: "ua", qos: "qa"},
		{id: 4, submit: 400, cpus: 4, run: 300, limit: 600, acct: "a", user: "ua", qos: "qa"},
	}
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
	res, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, mfPolicy(t, grpDump, qos, fairshare.Config{HalfLife: 3600}))
	if j := by[3]; j.State != sim.Rejected || j.Reason != "QOSMaxSubmitJobPerUserLimit" || j.Start != -1 {
		t.Errorf("job 3: %s (%q) start %d, want REJECTED (QOSMaxSubmitJobPerUserLimit)", j.State, j.Reason, j.Start)
	}
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {2, 303, sim.ByMain}, {4, 603, sim.ByMain}})
	if n := res.Rejected[sim.RefusedClass+"QOSMaxSubmitJobPerUserLimit"]; n != 1 {
		t.Errorf("refusals counted %d, want 1 (%v)", n, res.Rejected)
	}
}

// TestArrayNextTaskHeldCounts: after backfill starts a task of an array it
// goes straight to the array's next task (backfill.c "goto next_task"),
// past the limit check that comes before the counting: a next task that
// _start_job then finds over a limit has counted for bf_max_job_user, and
// the array's other tasks wait for the next cycle. The 22.05 harness did
// this (differential run new1: "have already checked 3 jobs for user
// 1003; skipping JobId=9" after tasks 3_0, 3_1 and a held third task).
// Two 8-CPU nodes, bf_max_job_user=3, QOS qa with MaxJobsPU=2:
//
//	t=0  job 1 (ub, 8 CPUs, 1000 s) starts on a node; job 2 (ub, 16 CPUs)
//	     waits for it and blocks the main pass
//	t=10 array 7 (ua, qa, 4 tasks of 1 CPU, limit 100 s) and job 9 (ua,
//	     qb, 2 CPUs, limit 100 s)
//	first cycle: tasks 0 and 1 start, task 2 is held by MaxJobsPU and
//	     counts as ua's third: job 9 is skipped
//	next cycle: the held tasks come first, not after a start, and do not
//	     count: job 9 starts.
func TestArrayNextTaskHeldCounts(t *testing.T) {
	qos := "Name|Priority|MaxJobsPU\nqa|0|2\nqb|0|\n"
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 8, run: 1000, limit: 1000, acct: "b", user: "ub", qos: "qb"},
		{id: 2, submit: 0, cpus: 16, run: 100, limit: 1000, acct: "b", user: "ub", qos: "qb"},
		{id: 7, submit: 10, cpus: 1, run: 100, limit: 100, acct: "a", user: "ua", qos: "qa", array: 7, task: 0},
		{id: 8, submit: 10, cpus: 1, run: 100, limit: 100, acct: "a", user: "ua", qos: "qa", array: 7, task: 1},
		{id: 10, submit: 10, cpus: 1, run: 100, limit: 100, acct: "a", user: "ua", qos: "qa", array: 7, task: 2},
		{id: 11, submit: 10, cpus: 1, run: 100, limit: 100, acct: "a", user: "ua", qos: "qa", array: 7, task: 3},
		{id: 9, submit: 10, cpus: 2, run: 100, limit: 100, acct: "a", user: "ua", qos: "qb"},
	}
	p := DefaultParams()
	p.BfMaxJobUser = 3
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 8, 16000)}, []sim.PartitionSpec{part("p")})
	_, by := run(t, c, NewSlurm(p), jobs, 200, mfPolicy(t, grpDump, qos, fairshare.Config{HalfLife: 3600}))
	t0, t1 := by[7].Start, by[9].Start
	if by[7].StartedBy != sim.ByBackfill || by[8].Start != t0 || by[10].Start <= t0+100 {
		t.Fatalf("tasks 0 and 1 started at %d and %d (by %v), task 2 at %d; want the first cycle's, and task 2 after they end", t0, by[8].Start, by[7].StartedBy, by[10].Start)
	}
	if t1 <= t0 || t1 > t0+p.BfInterval+3 {
		t.Errorf("job 9 started at %d; want the cycle after the tasks' (%d), within bf_interval", t1, t0)
	}
}
