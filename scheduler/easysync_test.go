package scheduler

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"fairsim/sim"
)

// TestEASYSyncAsFullRead runs EASY over 800 random jobs (two overlapping
// partitions, 1 core to 3 nodes, limits over- and under-estimated so jobs
// end early, at their limits and in the same second as others start)
// twice: keeping its expected releases incrementally (the jobs that
// ended leave, the jobs its passes started come) and reading every
// holder at every pass. Every job must start at the same time on the
// same nodes by the same pass. Dropping the ended-job check or the
// started jobs of sync fails it.
func TestEASYSyncAsFullRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	tjs := randomJobs(rng, 800, 30, 1)
	var incremental, full int
	schedule := func(fullRead bool) map[int64]*sim.Job {
		easyFullSync = fullRead
		defer func() { easyFullSync = false }()
		c := cluster(t, []sim.NodeSpec{nodes("n", 6, 8, 32000)}, []sim.PartitionSpec{part("p"), part("q", "n5", "n6")})
		e := &EASY{}
		_, by := run(t, c, e, tjs, 0, nil)
		if fullRead {
			full = e.fullSyncs
		} else {
			incremental = e.fullSyncs
		}
		return by
	}
	a, b := schedule(false), schedule(true)
	backfilled := 0
	for id, x := range a {
		y := b[id]
		if x.Start != y.Start || x.StartedBy != y.StartedBy || !reflect.DeepEqual(x.Alloc, y.Alloc) {
			t.Errorf("job %d: incremental %d by %v on %v, full read %d by %v on %v", id, x.Start, x.StartedBy, x.Alloc, y.Start, y.StartedBy, y.Alloc)
		}
		if x.StartedBy == sim.ByBackfill {
			backfilled++
		}
	}
	t.Logf("full reads: %d incremental, %d forced; backfilled %d", incremental, full, backfilled)
	if full < 500 || incremental > full/10 {
		t.Errorf("full reads %d forced, %d incremental: the test should exercise the incremental sync", full, incremental)
	}
	if backfilled < 50 {
		t.Errorf("%d backfill starts: the test should exercise backfill", backfilled)
	}
}
