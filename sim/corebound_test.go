package sim

import "testing"

// TestMayHaveCoresSums: on gresCluster (g1, g2, c1 of 32 cores) with
// holders A (g1, 32 cores, ends 1000), B (g2, 16, ends 2000) and C (c1,
// 16, ends 3000), the set {g1, g2} has 16 cores free now, 48 once A has
// ended and 64 once B has; c1's 16 free cores are outside it, so the
// partition's free cores do not answer for it. The same set is asked over and over, as a
// backfill cycle asks, while the cluster and the holders change: each
// answer must be the count of that moment, not of the sums kept from
// the question before.
func TestMayHaveCoresSums(t *testing.T) {
	c := gresCluster(t)
	g1, g2, c1 := node(t, c, "g1"), node(t, c, "g2"), node(t, c, "c1")
	p := 0
	hold := func(n, cores int, end int64) Holding {
		a := Alloc{{Node: n, Cores: cores}}
		c.Occupy(a)
		return Holding{Job: &Job{Idx: n}, Alloc: a, End: end}
	}
	hs := []Holding{hold(g1, 32, 1000), hold(g2, 16, 2000), hold(c1, 16, 3000)}
	var r Releases
	r.Reset(hs)
	set := make([]uint64, 1)
	set[0] = 1<<g1 | 1<<g2
	ask := func(step string, tt int64, need int, want bool) {
		t.Helper()
		if got := r.MayHaveCores(c, p, set, tt, need); got != want {
			t.Errorf("%s: MayHaveCores(t=%d, need %d) = %v, want %v", step, tt, need, got, want)
		}
	}
	ask("now", 999, 16, true)
	ask("now", 999, 17, false)
	ask("A ended", 1000, 48, true)
	ask("A ended", 1000, 49, false)
	ask("B ended", 2000, 64, true)
	ask("B ended", 5000, 65, false) // C is not on the set
	// The cluster changes: 8 of g2's free cores taken (no holder yet).
	c.Occupy(Alloc{{Node: g2, Cores: 8}})
	ask("g2 taken", 999, 9, false)
	ask("g2 taken", 1000, 40, true)
	ask("g2 taken", 1000, 41, false)
	// The holders change: the 8 cores join as D, ending at 900, first.
	d := Holding{Job: &Job{Idx: 9}, Alloc: Alloc{{Node: g2, Cores: 8}}, End: 900}
	r.Insert(0, d)
	ask("D held", 900, 16, true)
	ask("D held", 900, 17, false)
	ask("D held", 1000, 48, true)
	ask("D held", 1000, 49, false)
	// A left the holders (it ended): its cores are free now.
	c.apply(hs[0].Alloc, false)
	r.Reset([]Holding{d, hs[1], hs[2]})
	ask("A gone", 899, 40, true)
	ask("A gone", 899, 41, false)
	// Another set, then the first again.
	set[0] = 1 << c1
	ask("c1", 2999, 17, false)
	ask("c1", 3000, 32, true)
	set[0] = 1<<g1 | 1<<g2
	ask("back", 2000, 64, true)
}
