package sim

import (
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
// Most answers are false, and the partition's free cores, at least the
// set's, usually prove them with the holders' cores on set: the set's own
// free cores (a pass over every word) are counted only where that bound
// leaves the question open.
func (r *Releases) MayHaveCores(c *Cluster, p int, set []uint64, t int64, need int) bool {
	end, _ := slices.BinarySearchFunc(r.h, t+1, func(h Holding, t int64) int {
		if h.End < t {
			return -1
		}
		return 1
	})
	free := c.Parts[p].FreeCores
	if free+r.coresBefore(end) < need {
		return false // even every holder's cores would not do
	}
	k, i := r.sumCoresOn(0, end, set, 0, need-free)
	if free+k < need {
		return false
	}
	free = c.freeCoresByIndex(set)
	k, _ = r.sumCoresOn(i, end, set, k, need-free)
	return free+k >= need
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
