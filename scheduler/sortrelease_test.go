package scheduler

import (
	"math/rand/v2"
	"slices"
	"testing"

	"fairsim/sim"
)

// TestSortByReleaseAsSortFunc: sortByRelease orders holdings as
// slices.SortFunc(byRelease) does, through packed words (ends close
// together, ties among them) and through its comparison sort (ends too
// far apart to pack).
func TestSortByReleaseAsSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b backfillState
	for _, tc := range []struct {
		name   string
		spread int64
		packed bool
	}{
		{"packed", 1000, true},
		{"unpacked", 1 << 62, false},
	} {
		for round := range 50 {
			n := 1 + r.IntN(300)
			hs := make([]sim.Holding, n)
			for i := range hs {
				// Distinct job indices, as a cycle's holdings have.
				hs[i] = sim.Holding{Job: &sim.Job{Idx: 3*i + r.IntN(3)}, End: r.Int64N(tc.spread)}
			}
			r.Shuffle(n, func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
			if n > 1 && b.sortPacked(slices.Clone(hs)) != tc.packed {
				t.Fatalf("%s round %d: sortPacked took %d holdings: %v, want %v", tc.name, round, n, !tc.packed, tc.packed)
			}
			want := slices.Clone(hs)
			slices.SortFunc(want, byRelease)
			b.sortByRelease(hs)
			for i := range hs {
				if hs[i].Job != want[i].Job || hs[i].End != want[i].End {
					t.Fatalf("%s round %d: position %d holds job %d ending %d, want job %d ending %d",
						tc.name, round, i, hs[i].Job.Idx, hs[i].End, want[i].Job.Idx, want[i].End)
				}
			}
		}
	}
}
