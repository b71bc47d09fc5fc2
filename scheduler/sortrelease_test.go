package scheduler

import (
	"math/rand/v2"
	"slices"
	"testing"

	"fairsim/sim"
)

// TestSortByReleaseAsSortFunc: sortByRelease orders holdings as
// slices.SortFunc(byRelease) does, through packed words (ends close
// together and distinct), through its comparison sort (ends too far
// apart to pack), and where jobs share an end and a list order (these
// hand-made jobs have none: the job index decides, which the words leave
// out).
func TestSortByReleaseAsSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b backfillState
	for _, tc := range []struct {
		name   string
		spread int64
		ties   bool // ends drawn with ties
		packed bool // whether sortPacked takes them (with ties: no)
	}{
		{"packed", 1000, false, true},
		{"unpacked", 1 << 62, false, false},
		{"ties", 20, true, false},
	} {
		for round := range 50 {
			n := 2 + r.IntN(300)
			hs := make([]sim.Holding, n)
			var ends []int // distinct within the spread, repeating past it
			if tc.spread <= 1000 {
				ends = r.Perm(int(tc.spread))
			}
			for i := range hs {
				// Distinct job indices, as a cycle's holdings have.
				hs[i] = sim.Holding{Job: &sim.Job{Idx: 3*i + r.IntN(3)}, End: r.Int64N(tc.spread)}
				if ends != nil {
					hs[i].End = int64(ends[i%len(ends)])
				}
			}
			if tc.ties {
				hs[1].End = hs[0].End // at least one
			}
			r.Shuffle(n, func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
			if got := b.sortPacked(slices.Clone(hs)); got != tc.packed {
				t.Fatalf("%s round %d: sortPacked took %d holdings: %v, want %v", tc.name, round, n, got, tc.packed)
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
