package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

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
	c.apply(hs[0].Alloc, hs[0].Part, false)
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

// TestCoreSumsShift checks sums moved from set to set (shift) against
// sums made afresh: on 300 nodes of 8 cores (five bitmap words), holders
// of one to 40 nodes with unequal cores per node, sets that differ from
// the last in one word to all of them, sums extended partly before each
// move.
func TestCoreSumsShift(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, numbered(300))
	rng := rand.New(rand.NewPCG(7, 11))
	var hs []Holding
	for h := range 60 {
		var a Alloc
		first := rng.IntN(300)
		for k := range 1 + rng.IntN(40) {
			n := (first + 3*k) % 300
			if c.Nodes[n].FreeCores < 2 || slices.ContainsFunc(a, func(s Slice) bool { return s.Node == n }) {
				continue
			}
			a = append(a, Slice{Node: n, Cores: 1 + rng.IntN(2)})
		}
		if len(a) == 0 {
			continue
		}
		c.Occupy(a)
		hs = append(hs, Holding{Job: &Job{Idx: h}, Alloc: a, End: int64(100 * (h + 1))})
	}
	var r Releases
	r.Reset(hs)
	words := (len(c.Nodes) + 63) / 64
	set := make([]uint64, words)
	for w := range set {
		set[w] = rng.Uint64()
	}
	set[words-1] &= 1<<(300%64) - 1
	shifted := 0
	for round := range 400 {
		prev := slices.Clone(set)
		for range 1 + rng.IntN(3) {
			w := rng.IntN(words)
			set[w] ^= rng.Uint64()
		}
		if round%10 == 0 {
			for w := range set {
				set[w] = rng.Uint64()
			}
		}
		set[words-1] &= 1<<(300%64) - 1
		d := 0
		for w := range set {
			if set[w] != prev[w] {
				d++
			}
		}
		kept := len(r.sums.k)
		m := r.sumsOf(c, set)
		if round > 0 && d > 0 && d <= shiftWords {
			if len(m.k) != kept {
				t.Fatalf("round %d: a set %d words away was summed afresh, not moved", round, d)
			}
			shifted++
		}
		m.reach(&r, rng.IntN(len(hs)+1), math.MaxInt)
		var fresh Releases
		fresh.Reset(hs)
		f := fresh.sumsOf(c, set)
		f.reach(&fresh, len(hs), math.MaxInt)
		if m.free != f.free {
			t.Fatalf("round %d: free cores %d after the move, %d afresh", round, m.free, f.free)
		}
		for i := 1; i < len(m.k); i++ {
			if m.k[i] != f.k[i] {
				t.Fatalf("round %d: cores of the first %d holders %d after the move, %d afresh", round, i, m.k[i], f.k[i])
			}
		}
	}
	if shifted < 200 {
		t.Errorf("only %d of 400 sets were moved to rather than summed afresh", shifted)
	}
}
