package policy

import "testing"

// Expected strings follow slurmdb_make_tres_string_from_simple (items
// sorted as strings) and convert_num_unit2 with CONVERT_NUM_UNIT_EXACT.
func TestSacctString(t *testing.T) {
	for _, tc := range []struct {
		a    TRESAlloc
		want string
	}{
		{TRESAlloc{CPU: 8, MemMB: 32000, Node: 1, Billing: 8}, "billing=8,cpu=8,mem=32000M,node=1"},
		// 65536 = 64 × 1024: exact, so 64G.
		{TRESAlloc{CPU: 4, MemMB: 65536, Node: 1}, "cpu=4,mem=64G,node=1"},
		// 2560 = 2.5 × 1024 is a multiple of 512: 2.50G.
		{TRESAlloc{CPU: 1, MemMB: 2560, Node: 1}, "cpu=1,mem=2.50G,node=1"},
		// gres/gpu:a100 sorts before gres/gpu ( ':' < '=' ), as strcmp does.
		{TRESAlloc{CPU: 8, MemMB: 1024 * 1024, Node: 2, Billing: 20,
			Other: []TRESCount{{"gres/gpu", 2}, {"gres/gpu:a100", 2}}},
			"billing=20,cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=1T,node=2"},
	} {
		if got := tc.a.SacctString(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.a, got, tc.want)
		}
	}
}

// TestSacctStringFastPath checks the in-place string of a job without
// other TRES against the items sorted as strings, over counts that are
// zero, small, and memory in every unit with and without a half left.
func TestSacctStringFastPath(t *testing.T) {
	counts := []uint64{0, 1, 9, 10, 17, 512, 1023, 1024, 1536, 2560, 32000, 65536, 1 << 20, 3 << 29, 1<<40 + 512, 5 << 50}
	n := 0
	for _, b := range counts {
		for _, c := range counts {
			for _, m := range counts {
				for _, nd := range counts[:4] {
					a := TRESAlloc{CPU: c, MemMB: m, Node: nd, Billing: b}
					if got, want := a.SacctString(), sacctSorted(&a); got != want {
						t.Fatalf("%+v: %q, want %q", a, got, want)
					}
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases", n)
	}
}
