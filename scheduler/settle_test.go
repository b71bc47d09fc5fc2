package scheduler

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// TestSettledCyclesChangeNoStart schedules 700 random jobs (two
// overlapping partitions, 1 core to 40, limits over- and under-estimated,
// two users each capped at four running jobs by their QOS, so records are
// held by limits) three ways: every cycle to its end with every record
// planned and every will-run test made (Estimates, planAll,
// coreBoundOff), as backfill.c plans, every cycle to its end with the
// tests MayHaveCores proves useless skipped, and the default, where a
// cycle also ends once settled. Every job must start at the same time on
// the same nodes by the same pass and wait under the same reason; the
// first two must also agree on every last expected start. Ending cycles
// at the first record that can no longer start fails it, and so does a
// core bound that leaves out the last holder before the time asked, and
// so does leaving out the reservations past the limits of the records
// that could still start (TestBackfillReservation guards settled's held
// check).
func TestSettledCyclesChangeNoStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 7))
	tjs := randomJobs(rng, 700, 40, 30)
	for i := range tjs {
		tjs[i].acct, tjs[i].user, tjs[i].qos = "a", "ua", "qa"
		if rng.IntN(2) == 1 {
			tjs[i].acct, tjs[i].user, tjs[i].qos = "b", "ub", "qb"
		}
	}
	const qos = "Name|Priority|MaxJobsPU\nqa|0|4\nqb|0|4\n"
	var settled, skipped int
	schedule := func(estimates, noBound bool) map[int64]*sim.Job {
		coreBoundOff, planAll, memoOff = noBound, noBound, noBound
		defer func() { coreBoundOff, planAll, memoOff = false, false, false }()
		c := cluster(t, []sim.NodeSpec{nodes("n", 6, 8, 32000)}, []sim.PartitionSpec{part("p"), part("q", "n5", "n6")})
		p := DefaultParams()
		p.BfInterval, p.BfResolution = 10, 60
		s := NewSlurm(p)
		s.Estimates = estimates
		_, by := run(t, c, s, tjs, 0, mfPolicy(t, grpDump, qos, fairshare.Config{HalfLife: 600}))
		settled += s.settledCycles
		skipped += s.boundSkips
		return by
	}
	full := schedule(true, true)
	bound := schedule(true, false)
	if settled != 0 {
		t.Fatalf("%d cycles settled with Estimates on", settled)
	}
	short := schedule(false, false)
	backfilled, held := 0, 0
	for id, a := range full {
		for _, o := range []struct {
			name string
			j    *sim.Job
		}{{"with the core bound", bound[id]}, {"settled", short[id]}} {
			b := o.j
			if a.Start != b.Start || a.StartedBy != b.StartedBy || !reflect.DeepEqual(a.Alloc, b.Alloc) || a.WaitReason != b.WaitReason {
				t.Errorf("job %d: every test made: %d by %v on %v (%q); %s: %d by %v on %v (%q)", id,
					a.Start, a.StartedBy, a.Alloc, a.WaitReason, o.name, b.Start, b.StartedBy, b.Alloc, b.WaitReason)
			}
		}
		if a.ExpectStart != bound[id].ExpectStart {
			t.Errorf("job %d: last expected start %d with every test, %d with the core bound", id, a.ExpectStart, bound[id].ExpectStart)
		}
		if a.StartedBy == sim.ByBackfill {
			backfilled++
		}
		if a.WaitReason == "QOSMaxJobsPerUserLimit" {
			held++
		}
	}
	t.Logf("backfilled %d, held %d, settled cycles %d, will-run tests skipped %d", backfilled, held, settled, skipped)
	if backfilled < 50 || held < 20 || settled < 100 || skipped < 100 {
		t.Errorf("the test should exercise backfill (%d starts), limits (%d jobs held), settled cycles (%d) and the core bound (%d skips)",
			backfilled, held, settled, skipped)
	}
}
