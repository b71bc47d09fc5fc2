package fairshare

import (
	"math"
	"testing"
)

// TestAddedAfterStart: associations added to a running controller (the
// harness runs sacctmgr add after slurmctld started) have fs_factor and
// level_fs 0 under Fair Tree until the first calc tick, because only
// fair_tree_decay (priority_multifactor.c _decay_thread) sets them and
// _get_fairshare_priority reads fs_factor as it stands. A real sprio on
// the harness showed every job at Priority 1 (all factors 0) until then.
func TestAddedAfterStart(t *testing.T) {
	tr, u, a := twoLevel(t)
	v := mustLookup(t, tr, "b", "v")
	cases := []struct {
		name      string
		alg       Algorithm
		added     bool
		fsBefore  float64 // user u before any tick
		lfsBefore float64 // account a before any tick
	}{
		// Fair Tree at a controller start: both users tie with no usage
		// (level_fs = shares/0 = inf for both), rank 2 of 2 users tied at
		// the top: fs = rank/users = 2/2 = 1.
		{"fair tree at start", FairTree, false, 1, math.Inf(1)},
		{"fair tree added after start", FairTree, true, 0, 0},
		// Classic computes on demand: 2^(-0/0.5) = 1 either way.
		{"classic added after start", Classic, true, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, tr, Config{Algorithm: c.alg, HalfLife: 60, AddedAfterStart: c.added})
			if got := e.FairShare(u); got != c.fsBefore {
				t.Errorf("FairShare before a tick = %v, want %v", got, c.fsBefore)
			}
			if c.alg == FairTree {
				if got := e.LevelFS(a); got != c.lfsBefore {
					t.Errorf("LevelFS before a tick = %v, want %v", got, c.lfsBefore)
				}
			}
			// The first tick computes every factor: with no usage both
			// users are tied, fs = 1 for each.
			e.BeginTick(100)
			e.EndTick(100)
			if e.FairShare(u) != 1 || e.FairShare(v) != 1 {
				t.Errorf("after the first tick: u %v v %v, want 1 and 1", e.FairShare(u), e.FairShare(v))
			}
		})
	}
}
