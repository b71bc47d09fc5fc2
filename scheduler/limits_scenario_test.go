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
//	t=303 job 1 ends, having used 4 × 300 = 1200 CPU-seconds (20 CPU-
//	      minutes, less decay) of qa's 12-minute credit
//	t=400 job 2 (a, qa, 1 CPU) and job 3 (b, qb, 1 CPU); the last
//	      queued-or-full pass was the full one at 360, 40 s >= 3 ago, so
//	      the pass runs at once (controller.c _slurmctld_background; it
//	      used to run at 403): job 2 is held (QOSGrpCPUMinutes:
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
	if j := by[2]; j.State != sim.Pending || j.Reason != "QOSGrpCPUMinutes" {
		t.Errorf("t=86399: job 2 is %s with reason %q, want PENDING with QOSGrpCPUMinutes", j.State, j.Reason)
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
// last) as d·df^d·CPUs; job 1's end charges [300, 303] at once, which the
// next tick decays again. That gives 1160.07 CPU-seconds just after 303,
// 1146.75 at the tick of 360, then × df^60 = 0.988515 per tick: 722.45 at
// 2760 (still 12 minutes) and 714.15 at 2820, when job 2 starts.
// slurmQOSUsage below recomputes this from the formula, independently of
// the engine.
func TestGrpTRESMinsHoldsUntilDecay(t *testing.T) {
	const hl = 3600
	release := slurmReleaseTick(hl, 3, 303, 4, 12*60, 403)
	if release != 2820 {
		t.Fatalf("the formula gives a release at %d, the hand computation 2820", release)
	}
	fs := fairshare.Config{HalfLife: hl}
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
	_, by := run(t, c, NewSlurm(DefaultParams()), grpJobs, 0, mfPolicy(t, grpDump, grpQOS, fs))
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {3, 400, sim.ByMain}, {2, 2820, sim.ByMain}})
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
