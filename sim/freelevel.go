package sim

import (
	"fmt"
	"math/bits"
	"slices"
)

// The free-level index: for each count k of free cores, the nodes with
// exactly k free cores, as a bitmap over allocation order, kept by take
// and give. Will-run tests count the free cores of their nodes in play a
// level at a time (freeCoresIn), a popcount per level instead of a walk
// over every free node of a 5,000-node cluster.

// maxLevels bounds the index: a cluster whose largest node has more
// cores places through the walk over every free node instead, so the
// index never costs more than (maxLevels+1) bitmaps.
const maxLevels = 1024

// freeLevels is the index; nil levels when the cluster's nodes are too
// large for it.
type freeLevels struct {
	levels [][]uint64 // by free cores: the nodes by allocation rank
	count  []int      // by free cores: how many nodes
	// typeRank is each CPU type's nodes by allocation rank.
	typeRank [][]uint64
	// word is, per 64 ranks, the free cores of their nodes: a set that
	// holds every free node of a word, or all but a few, is counted
	// from it (freeCoresIn).
	word []int
	// free is, by allocation rank, the node's free cores: counting a
	// word's nodes reads this array, where the nodes' own records are a
	// cache miss each.
	free []int32
	// sizes are the nodes' core counts, each with its nodes by rank
	// (sizeRank): a node is idle in cores when it is in the level of its
	// size (idleWord).
	sizes    []int
	sizeRank [][]uint64
}

// idleWord is word wi of the ranks whose nodes have every core free.
func (f *freeLevels) idleWord(wi int) uint64 {
	var w uint64
	for i, k := range f.sizes {
		w |= f.levels[k][wi] & f.sizeRank[i][wi]
	}
	return w
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
	f.count = make([]int, c.maxCores+1)
	for k := range f.levels {
		f.levels[k] = make([]uint64, words)
	}
	f.typeRank = make([][]uint64, len(c.Types))
	for t := range f.typeRank {
		f.typeRank[t] = make([]uint64, words)
	}
	f.word = make([]int, words)
	f.free = make([]int32, len(c.Nodes))
	for n := range c.Nodes {
		nd := &c.Nodes[n]
		f.set(nd.rank, nd.FreeCores)
		f.free[nd.rank] = int32(nd.FreeCores)
		f.word[nd.rank>>6] += nd.FreeCores
		if t := nd.Type; t >= 0 && t < len(f.typeRank) {
			f.typeRank[t][nd.rank>>6] |= 1 << (nd.rank & 63)
		}
		i := slices.Index(f.sizes, nd.Cores)
		if i < 0 {
			i = len(f.sizes)
			f.sizes = append(f.sizes, nd.Cores)
			f.sizeRank = append(f.sizeRank, make([]uint64, words))
		}
		f.sizeRank[i][nd.rank>>6] |= 1 << (nd.rank & 63)
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
		f.word[r>>6] += to - from
		f.free[r] = int32(to)
	}
}

// typeWord is word wi of the nodes of the type req asks (all: any type).
func (c *Cluster) typeWord(req *Request, wi int) uint64 {
	if req.Type < 0 || req.Type >= len(c.fl.typeRank) {
		return ^uint64(0)
	}
	return c.fl.typeRank[req.Type][wi]
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
		if int(f.free[nd.rank]) != nd.FreeCores {
			return fmt.Errorf("node %s: %d free cores, indexed %d", nd.Name, nd.FreeCores, f.free[nd.rank])
		}
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
	word := make([]int, len(f.word))
	for i := range nodes {
		word[nodes[i].rank>>6] += nodes[i].FreeCores
	}
	if !slices.Equal(word, f.word) {
		return fmt.Errorf("free cores by word %v, counted %v", word, f.word)
	}
	return nil
}

// clone is a copy of the index with its own levels (the CPU types'
// bitmaps, which never change, are shared).
func (f *freeLevels) clone() freeLevels {
	if f.levels == nil {
		return freeLevels{}
	}
	g := freeLevels{count: slices.Clone(f.count), typeRank: f.typeRank, word: slices.Clone(f.word), free: slices.Clone(f.free),
		sizes: f.sizes, sizeRank: f.sizeRank}
	g.levels = make([][]uint64, len(f.levels))
	for k := range f.levels {
		g.levels[k] = slices.Clone(f.levels[k])
	}
	return g
}
