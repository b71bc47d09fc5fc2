package report

import (
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestStrokes checks that a line cut into strokes draws every segment of
// the line, in order, each piece sharing its first segment with the end
// of the piece before (so each join is drawn), and that short and dashed
// lines stay whole.
func TestStrokes(t *testing.T) {
	line := func(n int) plotter.XYs {
		xy := make(plotter.XYs, n)
		for i := range xy {
			xy[i] = plotter.XY{X: float64(i), Y: float64(i % 7)}
		}
		return xy
	}
	for _, tc := range []struct {
		n      int
		dashed bool
		pieces int
	}{
		{0, false, 1}, {1, false, 1}, {2, false, 1},
		{strokePoints + 1, false, 1},
		{strokePoints + 2, false, 2},
		{2*strokePoints + 1, false, 2},
		{2*strokePoints + 2, false, 3},
		{400, false, 25},
		{400, true, 1},
	} {
		xy := line(tc.n)
		got := strokes(xy, tc.dashed)
		if len(got) != tc.pieces {
			t.Errorf("%d points (dashed %v): %d pieces, want %d", tc.n, tc.dashed, len(got), tc.pieces)
			continue
		}
		next := 0 // the first point no piece has reached yet
		for k, p := range got {
			if len(p) == 0 {
				continue // the empty line, whole
			}
			if !tc.dashed && len(p) > strokePoints+2 {
				t.Errorf("%d points: piece %d has %d points", tc.n, k, len(p))
			}
			first := int(p[0].X)
			if k > 0 && first != next-2 {
				t.Errorf("%d points: piece %d starts at point %d, want %d (the last segment of the piece before)", tc.n, k, first, next-2)
			}
			for i, q := range p {
				if q != xy[first+i] {
					t.Fatalf("%d points: piece %d point %d is %v, want %v", tc.n, k, i, q, xy[first+i])
				}
			}
			next = first + len(p)
		}
		if tc.n > 0 && next != tc.n {
			t.Errorf("%d points: pieces end at point %d", tc.n, next)
		}
	}
}
