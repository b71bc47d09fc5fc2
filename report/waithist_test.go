package report

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWaitHistMatchesSortedList checks every figure a WaitHist gives
// against the sorted list of the same waits, below and above the count
// where whole-second waits move to the dense table, with fractional,
// negative-zero, long (over 18 h) and repeated waits mixed in.
func TestWaitHistMatchesSortedList(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, n := range []int{1, 10, denseFrom - 1, denseFrom, denseFrom + 1, 3 * denseFrom} {
		var h WaitHist
		var list []float64
		for i := range n {
			var w float64
			switch i % 5 {
			case 0:
				w = float64(rng.IntN(600))
			case 1:
				w = float64(rng.IntN(smallWaits + 5000)) // some past the table
			case 2:
				w = float64(rng.IntN(100)) + 0.5
			case 3:
				w = 42 // repeated, in both the map and the table
			default:
				w = float64(rng.IntN(1 << 22))
			}
			h.Add(w)
			list = append(list, w)
		}
		slices.Sort(list)
		if h.N() != n {
			t.Fatalf("n=%d: N %d", n, h.N())
		}
		var sum float64
		for i, w := range list {
			sum += w
			if got := h.At(i); got != w {
				t.Fatalf("n=%d: At(%d) = %v, sorted list %v", n, i, got, w)
			}
		}
		if got := h.sum(); got != sum {
			t.Errorf("n=%d: sum %v, sorted list %v", n, got, sum)
		}
		for _, q := range []float64{0, 0.5, 0.95, 1} {
			if got, want := h.quantile(q), Quantile(list, q); got != want {
				t.Errorf("n=%d: quantile(%v) = %v, want %v", n, q, got, want)
			}
		}
		h.Add(7) // a later add makes the index stale and rebuilds it
		list = append(list, 7)
		slices.Sort(list)
		if got := h.At(len(list) - 1); got != list[len(list)-1] || h.N() != n+1 {
			t.Errorf("n=%d: after one more wait, max %v (want %v), N %d", n, got, list[len(list)-1], h.N())
		}
	}
}
