package scheduler

import (
	"math/rand/v2"
	"slices"
	"testing"

	"fairsim/sim"
)

// TestSortByReleaseAsSortFunc: sortByRelease orders holdings as
// slices.SortFunc(byRelease) does, through packed words (ends close
// together, ties among them broken by job id), through its comparison
// sort (ends too far apart to pack), and where jobs share an id as well
// as an end (the job index decides, which the words leave out).
func TestSortByReleaseAsSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b backfillState
	for _, tc := range []struct {
		name   string
		spread int64
		ids    int   // distinct ids among n jobs: n when 0
		packed *bool // whether sortPacked takes them (nil: either)
	}{
		{"packed", 1000, 0, ptr(true)},
		{"unpacked", 1 << 62, 0, ptr(false)},
		{"shared ids", 20, 3, nil},
	} {
		for round := range 50 {
			n := 1 + r.IntN(300)
			hs := make([]sim.Holding, n)
			ids := r.Perm(n)
			for i := range hs {
				// Distinct job indices, as a cycle's holdings have.
				j := &sim.Job{Idx: 3*i + r.IntN(3)}
				j.ID = int64(5000 + ids[i])
				if tc.ids > 0 {
					j.ID = int64(r.IntN(tc.ids))
				}
				hs[i] = sim.Holding{Job: j, End: r.Int64N(tc.spread)}
			}
			r.Shuffle(n, func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
			if got := b.sortPacked(slices.Clone(hs)); n > 1 && tc.packed != nil && got != *tc.packed {
				t.Fatalf("%s round %d: sortPacked took %d holdings: %v, want %v", tc.name, round, n, got, *tc.packed)
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

func ptr[T any](v T) *T { return &v }
