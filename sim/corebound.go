package sim

import (
	"math"
	"math/bits"
	"slices"
)

// MayHaveCores reports whether the nodes of set (a bitmap by node index,
// within partition p) could have need free cores once the holders of rel
// ending at or before t have given theirs back: false proves that a
// will-run test on set (WillRun with set as avail) finds no start at or
// before t, as every test it makes asks that many free cores on nodes of
// set (fewer nodes in play, types and memory only lower the count).
//
// Half the questions of a CEA-Curie backfill cycle ask of the same set
// as the question before (records of one limit, later tries), so the
// set's free cores and its running sums of the holders' cores are kept
// (sums) until the set, the holders or the cluster change, and extended
// only as far as a question needs.
func (r *Releases) MayHaveCores(c *Cluster, p int, set []uint64, t int64, need int) bool {
	end := r.endingBy(t)
	if c.Parts[p].FreeCores+r.coresBefore(end) < need {
		return false // even every holder's cores would not do
	}
	m := r.sumsOf(c, set)
	if m.free >= need {
		return true
	}
	return m.reach(r, min(end, len(r.h)), need-m.free) >= need-m.free
}

// coreSums are the free cores of a set of nodes and the running sums of
// the holders' cores on it: k[i] is the cores of holders 0 to i-1 there.
type coreSums struct {
	gen  uint64 // the holders' (Releases.gen)
	hash uint64 // the cluster's NodeHash
	set  []uint64
	free int
	k    []int
	ok   bool
}

// sumsOf is the running sums of set, kept when they are of the same set,
// holders and cluster.
func (r *Releases) sumsOf(c *Cluster, set []uint64) *coreSums {
	m := &r.sums
	if h := c.NodeHash(); !m.ok || m.gen != r.gen || m.hash != h || !slices.Equal(m.set, set) {
		m.ok, m.gen, m.hash = true, r.gen, h
		m.set = append(m.set[:0], set...)
		m.free = c.freeCoresByIndex(set)
		m.k = append(m.k[:0], 0)
	}
	return m
}

// reach extends the sums until holder end or until they reach want,
// and returns the sum of holders 0 to end-1, or one that reaches want.
func (m *coreSums) reach(r *Releases, end, want int) int {
	v := len(m.k) - 1
	k := m.k[v]
	for ; v < end && k < want; v++ {
		// r.coresOn(v, m.set), a one-word holder's inline
		if o := &r.one[v]; o.w < 0 {
			k += r.coresOn(v, m.set)
		} else if x := m.set[o.w] & o.mask; x == o.mask {
			k += int(o.cores)
		} else if x != 0 {
			k += r.coresOn(v, m.set)
		}
		m.k = append(m.k, k)
	}
	return m.k[min(end, len(m.k)-1)]
}

// at is holder i's cores on the set, the sums extended to it.
func (m *coreSums) at(r *Releases, i int) int {
	if len(m.k) <= i+1 {
		m.reach(r, i+1, math.MaxInt)
	}
	return m.k[i+1] - m.k[i]
}

// coresBefore is the cores of the first n holders.
func (r *Releases) coresBefore(n int) int {
	if len(r.prefix) != len(r.cores)+1 {
		r.prefix = append(r.prefix[:0], 0)
		for _, k := range r.cores {
			r.prefix = append(r.prefix, r.prefix[len(r.prefix)-1]+k)
		}
	}
	return r.prefix[n]
}

// freeCoresByIndex is the free cores of the nodes of set, a bitmap by
// node index.
func (c *Cluster) freeCoresByIndex(set []uint64) int {
	if c.rankIsIndex {
		return c.freeCoresIn(set)
	}
	k := 0
	for wi, w := range set {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			k += c.Nodes[wi*64+b].FreeCores
		}
	}
	return k
}

// endingBy is how many holders end at or before t: a binary search over
// their ends by index, as slices.BinarySearchFunc copied each 56-byte
// Holding into its comparison.
func (r *Releases) endingBy(t int64) int {
	lo, hi := 0, len(r.h)
	for lo < hi {
		if mid := int(uint(lo+hi) >> 1); r.h[mid].End <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
