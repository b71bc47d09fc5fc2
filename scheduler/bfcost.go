package scheduler

import "math"

// The backfill cycle's cost in simulated time, for sites whose backfill
// cannot test its whole queue in one cycle. backfill.c _attempt_backfill
// tests jobs one after another; after each bf_yield_interval of testing
// it releases its locks for bf_yield_sleep (_yield_locks); it stops
// testing once bf_max_time of wall time, sleeps included, has passed
// since the cycle began. Without bf_continue a yield ends the cycle when
// any job or node changed meanwhile; fairsim assumes one did (a busy
// site changes every half second), so such a cycle ends at its first
// yield. The rate of tests is the site's own (Params.BfTestsPerSec, a
// fairsim knob): Slurm's speed depends on its hardware and queue.

// BackfillBudget is how many jobs a backfill cycle may test before
// bf_max_time (or, without bf_continue, its first yield) ends it; -1 when
// the cost model is off (BfTestsPerSec 0). Slurm checks the time before
// each job, so the job under way when the time runs out is finished.
func (p *Params) BackfillBudget() int {
	if p.BfTestsPerSec <= 0 {
		return -1
	}
	if !p.BfContinue && p.BfYieldInterval > 0 {
		// The first yield comes after bf_yield_interval of testing.
		return max(1, int(math.Ceil(float64(p.BfYieldInterval)/1e6*p.BfTestsPerSec)))
	}
	n := 1
	for wallUsec(n, p) < float64(p.BfMaxTime)*1e6 {
		n++
		if n > 1<<30 {
			break
		}
	}
	return n
}

// BackfillDuration is the simulated length of a cycle that tested n jobs:
// their testing time plus a bf_yield_sleep per bf_yield_interval of it,
// rounded up to whole seconds; 0 when the cost model is off.
func (p *Params) BackfillDuration(n int) int64 {
	if p.BfTestsPerSec <= 0 || n <= 0 {
		return 0
	}
	return int64(math.Ceil(wallUsec(n, p) / 1e6))
}

// wallUsec is the wall time, in µs, of testing n jobs with yields.
func wallUsec(n int, p *Params) float64 {
	work := float64(n) / p.BfTestsPerSec * 1e6
	if p.BfYieldInterval <= 0 {
		return work
	}
	yields := math.Floor(work / float64(p.BfYieldInterval))
	if !p.BfContinue {
		yields = min(yields, 1)
	}
	return work + yields*float64(p.BfYieldSleep)
}
