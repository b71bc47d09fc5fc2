package sim

import (
	"fmt"
	"math/bits"
	"slices"
)

// The free-level index: for each count k of free cores, the nodes with
// exactly k free cores, as a bitmap over allocation order, kept by take
// and give. Best-fit and spread placements want nodes ordered by free (or
// usable) cores and then allocation order; with the index they visit the
// nodes of one level at a time and stop at the first that settles the
// placement, instead of walking every free node of a 5,000-node cluster
// for each test (a backfill pass makes tens of thousands of them).

// maxLevels bounds the index: a cluster whose largest node has more
// cores places through the walk over every free node instead, so the
// index never costs more than (maxLevels+1) bitmaps.
const maxLevels = 1024

// freeLevels is the index; nil levels when the cluster's nodes are too
// large for it.
type freeLevels struct {
	levels [][]uint64 // by free cores: the nodes by allocation rank
	count  []int      // by free cores: how many nodes
	// pend is spread's scratch: by usable cores, nodes whose memory
	// leaves them fewer usable cores than free ones; pendUsed lists the
	// levels of pend in use.
	pend     [][]uint64
	pendUsed []int
	// typeRank is each CPU type's nodes by allocation rank.
	typeRank [][]uint64
}

// indexLevels builds the index over the nodes' current free cores, and
// each partition's and type's nodes by allocation rank.
func (c *Cluster) indexLevels() {
	words := len(c.freeBits)
	for p := range c.Parts {
		part := &c.Parts[p]
		part.rankBits = make([]uint64, words)
		for _, n := range part.Nodes {
			r := c.Nodes[n].rank
			part.rankBits[r>>6] |= 1 << (r & 63)
		}
	}
	if c.maxCores > maxLevels {
		return
	}
	f := &c.fl
	f.levels = make([][]uint64, c.maxCores+1)
	f.pend = make([][]uint64, c.maxCores+1)
	f.count = make([]int, c.maxCores+1)
	for k := range f.levels {
		f.levels[k] = make([]uint64, words)
		f.pend[k] = make([]uint64, words)
	}
	f.typeRank = make([][]uint64, len(c.Types))
	for t := range f.typeRank {
		f.typeRank[t] = make([]uint64, words)
	}
	for n := range c.Nodes {
		nd := &c.Nodes[n]
		f.set(nd.rank, nd.FreeCores)
		if t := nd.Type; t >= 0 && t < len(f.typeRank) {
			f.typeRank[t][nd.rank>>6] |= 1 << (nd.rank & 63)
		}
	}
}

// set and unset put the node of rank r in or out of level k.
func (f *freeLevels) set(r, k int) {
	if k > 0 && k < len(f.levels) {
		f.levels[k][r>>6] |= 1 << (r & 63)
		f.count[k]++
	}
}

func (f *freeLevels) unset(r, k int) {
	if k > 0 && k < len(f.levels) {
		f.levels[k][r>>6] &^= 1 << (r & 63)
		f.count[k]--
	}
}

// move records that the node of rank r went from from to to free cores.
func (f *freeLevels) move(r, from, to int) {
	if f.levels != nil && from != to {
		f.unset(r, from)
		f.set(r, to)
	}
}

// typeWord is word wi of the nodes of the type req asks (all: any type).
func (c *Cluster) typeWord(req *Request, wi int) uint64 {
	if req.Type < 0 || req.Type >= len(c.fl.typeRank) {
		return ^uint64(0)
	}
	return c.fl.typeRank[req.Type][wi]
}

// bestFitLevels is TryAllocExcept's single-node best fit over the index:
// the node with the fewest free cores that holds the job, ties by
// allocation order (-1: none). Levels are visited from req.CPUs up, each
// in allocation order, so the first node that passes is the answer.
func (c *Cluster) bestFitLevels(req *Request, p int) int {
	part := &c.Parts[p]
	f := &c.fl
	outs := c.mayOut()
	for k := max(req.CPUs, 1); k < len(f.levels); k++ {
		if f.count[k] == 0 {
			continue
		}
		for wi, w := range f.levels[k] {
			w &= part.rankBits[wi] & c.playWord(wi) & c.typeWord(req, wi)
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &= w - 1
				n := c.byRank[wi*64+b]
				if outs && c.out(n) || c.Nodes[n].FreeMem < c.memFor(req, n, req.CPUs, 0) {
					continue
				}
				return n
			}
		}
	}
	return -1
}

// spreadLevels is TryAllocExcept's spread over the index: most usable
// cores first, then allocation order, as the buckets of bucket give them.
// A node's usable cores are at most its free cores, so once the levels
// above k are visited, the nodes with k usable cores are level k's whose
// memory does not cut them plus those of higher levels it cut to k
// (pend[k]); level k is then visited word by word in allocation order,
// and the placement stops as soon as it has its cores.
func (c *Cluster) spreadLevels(req *Request, p int, dst Alloc) (Alloc, Fit) {
	part := &c.Parts[p]
	f := &c.fl
	defer f.clearPend()
	outs := c.mayOut()
	left := req.CPUs
	start := len(dst)
	for k := len(f.levels) - 1; k > 0; k-- {
		pk := f.pend[k]
		pending := slices.Contains(f.pendUsed, k)
		if f.count[k] == 0 && !pending {
			continue
		}
		for wi, w := range f.levels[k] {
			w &= part.rankBits[wi] & c.playWord(wi) & c.typeWord(req, wi)
			emit := pk[wi]
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &= w - 1
				n := c.byRank[wi*64+b]
				if outs && c.out(n) {
					continue
				}
				switch u := c.coresWithMem(req, n); {
				case u == k:
					emit |= 1 << b
				case u > 0:
					if !slices.Contains(f.pendUsed, u) {
						f.pendUsed = append(f.pendUsed, u)
					}
					f.pend[u][wi] |= 1 << b
				}
			}
			for emit != 0 {
				b := bits.TrailingZeros64(emit)
				emit &= emit - 1
				n := c.byRank[wi*64+b]
				take := min(left, k)
				dst = append(dst, Slice{n, take, c.memFor(req, n, take, 0), 0})
				left -= take
				if left == 0 {
					return dst, FitsNow
				}
			}
		}
	}
	return dst[:start], NotNow
}

func (f *freeLevels) clearPend() {
	for _, u := range f.pendUsed {
		clear(f.pend[u])
	}
	f.pendUsed = f.pendUsed[:0]
}

// check verifies the index against the nodes' free cores (for
// checkCounters): each node in the level of its free cores, and each
// level holding as many nodes as its count, which together leave no node
// in a second level.
func (f *freeLevels) check(nodes []Node) error {
	if f.levels == nil {
		return nil
	}
	total := 0
	for i := range nodes {
		nd := &nodes[i]
		if k := nd.FreeCores; k > 0 && k < len(f.levels) {
			total++
			if f.levels[k][nd.rank>>6]&(1<<(nd.rank&63)) == 0 {
				return fmt.Errorf("node %s: not in free-level %d", nd.Name, k)
			}
		}
	}
	sum := 0
	for k := 1; k < len(f.levels); k++ {
		set := 0
		for _, w := range f.levels[k] {
			set += bits.OnesCount64(w)
		}
		if set != f.count[k] {
			return fmt.Errorf("free-level %d: %d nodes, counted %d", k, set, f.count[k])
		}
		sum += set
	}
	if sum != total {
		return fmt.Errorf("free levels hold %d nodes, %d have free cores", sum, total)
	}
	return nil
}

// clone is a copy of the index with its own levels (the CPU types'
// bitmaps, which never change, are shared).
func (f *freeLevels) clone() freeLevels {
	if f.levels == nil {
		return freeLevels{}
	}
	g := freeLevels{count: slices.Clone(f.count), typeRank: f.typeRank}
	g.levels = make([][]uint64, len(f.levels))
	g.pend = make([][]uint64, len(f.pend))
	for k := range f.levels {
		g.levels[k] = slices.Clone(f.levels[k])
		g.pend[k] = make([]uint64, len(f.pend[k]))
	}
	return g
}
