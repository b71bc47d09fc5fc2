package report

import (
	"slices"
	"sort"

	"gonum.org/v1/plot/plotter"
)

// WaitHist holds wait times as counts by value, so the exact figures and
// plots of millions of jobs (whose waits take far fewer distinct values)
// need memory for the distinct values only. Every figure drawn from it is
// the one the sorted list of all waits gives, additions included: a sum
// adds each value once per job, in ascending order. The zero value is
// empty.
type WaitHist struct {
	// small counts the waits that are whole seconds under smallWaits,
	// most of any trace's, by index: an increment instead of a map
	// update per job. It is made at the denseFrom-th wait, so the many
	// small sets (a sweep's accounts) stay small; counts holds the rest.
	small  []int32
	counts map[float64]int
	n      int
	keys   []float64 // distinct values, ascending (nil when stale)
	cum    []int     // cum[i]: values ≤ keys[i]
}

// Add counts one wait.
func (h *WaitHist) Add(w float64) {
	h.n++
	h.keys, h.cum = nil, nil
	if isSmall(w) {
		if h.small == nil && h.n >= denseFrom {
			h.small = make([]int32, smallWaits)
		}
		if h.small != nil {
			h.small[int(w)]++
			return
		}
	}
	if h.counts == nil {
		h.counts = map[float64]int{}
	}
	h.counts[w]++
}

const (
	smallWaits = 1 << 16 // waits counted by index: under 18 hours
	denseFrom  = 4096    // waits counted before small is made (256 KiB)
)

// N is how many waits were added.
func (h *WaitHist) N() int { return h.n }

func (h *WaitHist) index() {
	if h.keys != nil || h.n == 0 {
		return
	}
	h.keys = make([]float64, 0, len(h.counts))
	for w, k := range h.small {
		if k > 0 {
			h.keys = append(h.keys, float64(w))
		}
	}
	for k := range h.counts {
		if !isSmall(k) || h.small == nil || h.small[int(k)] == 0 {
			h.keys = append(h.keys, k) // not listed from small already
		}
	}
	slices.Sort(h.keys)
	h.cum = make([]int, len(h.keys))
	c := 0
	for i, k := range h.keys {
		c += h.count(k)
		h.cum[i] = c
	}
}

// At is the i-th smallest wait (0-based).
func (h *WaitHist) At(i int) float64 {
	h.index()
	return h.keys[sort.Search(len(h.cum), func(k int) bool { return h.cum[k] > i })]
}

// sum adds every wait in ascending order, as a loop over the sorted list.
func (h *WaitHist) sum() float64 {
	h.index()
	var s float64
	for _, k := range h.keys {
		for range h.count(k) {
			s += k
		}
	}
	return s
}

func isSmall(w float64) bool { return w >= 0 && w < smallWaits && w == float64(int(w)) }

// count is how many waits equal w.
func (h *WaitHist) count(w float64) int {
	if h.small != nil && isSmall(w) {
		return int(h.small[int(w)]) + h.counts[w]
	}
	return h.counts[w]
}

// quantile is Quantile over the sorted waits.
func (h *WaitHist) quantile(q float64) float64 {
	n := h.n
	hh := q * float64(n-1)
	lo := int(hh)
	if lo >= n-1 {
		return h.At(n - 1)
	}
	a := h.At(lo)
	return a + (hh-float64(lo))*(h.At(lo+1)-a)
}

// cdf is WaitCDF of the waits.
func (h *WaitHist) cdf() plotter.XYs {
	n := h.n
	step := max(1, n/maxPoints)
	var xy plotter.XYs
	for i := 0; i < n; i += step {
		xy = append(xy, plotter.XY{X: h.At(i) + 1, Y: float64(i+1) / float64(n)})
	}
	if n > 0 && (n-1)%step != 0 {
		xy = append(xy, plotter.XY{X: h.At(n-1) + 1, Y: 1})
	}
	return xy
}

// histOf counts a list of waits.
func histOf(waits []float64) *WaitHist {
	h := &WaitHist{}
	for _, w := range waits {
		h.Add(w)
	}
	return h
}
