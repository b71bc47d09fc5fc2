package sim

import (
	"math/bits"
	"slices"
)

// MayHaveCores reports whether the nodes of set (a bitmap by node index)
// could have need free cores once the holders of rel ending at or before
// t have given theirs back: false proves that a will-run test on set
// (WillRun with set as avail) finds no start at or before t, as every
// test it makes asks that many free cores on nodes of set (fewer nodes
// in play, types and memory only lower the count). It reads the holders
// only while their running total leaves the question open.
func (r *Releases) MayHaveCores(c *Cluster, set []uint64, t int64, need int) bool {
	end, _ := slices.BinarySearchFunc(r.h, t+1, func(h Holding, t int64) int {
		if h.End < t {
			return -1
		}
		return 1
	})
	if c.FreeCores+r.coresBefore(end) < need {
		return false // even the cluster's free cores and every holder's would not do
	}
	k := c.freeCoresByIndex(set)
	if k >= need {
		return true
	}
	if k+r.coresBefore(end) < need {
		return false
	}
	for i := range end {
		if k += r.coresOn(i, set); k >= need {
			return true
		}
	}
	return false
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
