package sim

import "slices"

// The will-run shadow: a second copy of the cluster's free resources
// that will-run tests move to future states (Releases' cursor), so the
// cluster itself always stays at the present. A backfill pass alternates
// tests that start a job now, which must see the present, with tests of
// jobs that wait for many releases; with one copy each such pair moved
// the cluster back to the present and forward again over every slice of
// the holders between. The shadow is brought back to the present only
// where either copy changed since (dirty nodes), and a start of the pass
// is applied to it directly (Releases.Insert).

// shadowState is what a cluster keeps for its shadow: whether take and
// give record dirty nodes, the nodes they touched since the shadow last
// matched the cluster, and changes counted to tell whether it still does.
type shadowState struct {
	track     bool
	dirty     []int32
	dirtyMark []bool
	// gen counts take, give and node-state changes: a shadow made when
	// it had a value matches the cluster while it still has it.
	gen uint64
	// owner is the Releases whose shadow follows the dirty nodes.
	owner *Releases
}

// touch records a change of node n's free resources or state.
func (c *Cluster) touch(n int) {
	c.sh.gen++
	if c.sh.track && !c.sh.dirtyMark[n] {
		c.sh.dirtyMark[n] = true
		c.sh.dirty = append(c.sh.dirty, int32(n))
	}
}

func (s *shadowState) clearDirty() {
	for _, n := range s.dirty {
		s.dirtyMark[n] = false
	}
	s.dirty = s.dirty[:0]
}

// newShadow is a copy of c with its own free resources and scratch.
func (c *Cluster) newShadow() *Cluster {
	sh := new(Cluster)
	sh.copyShared(c)
	sh.Nodes = slices.Clone(c.Nodes)
	for i := range sh.Nodes {
		if len(c.Nodes[i].Gres) > 0 {
			sh.Nodes[i].Gres = slices.Clone(c.Nodes[i].Gres)
		}
	}
	sh.Parts = slices.Clone(c.Parts)
	sh.freeBits = slices.Clone(c.freeBits)
	sh.fl = c.fl.clone()
	sh.buckets = make([][]int, len(c.buckets))
	sh.sh = shadowState{track: true, dirtyMark: make([]bool, len(c.Nodes))}
	return sh
}

// copyShared copies c's fields into sh except those sh owns (free
// resources, scratch, dirty tracking), which it keeps: what a site
// event or a reservation replaced since reaches the shadow too.
func (sh *Cluster) copyShared(c *Cluster) {
	own := *sh
	*sh = *c
	sh.Nodes, sh.Parts, sh.freeBits, sh.fl, sh.buckets = own.Nodes, own.Parts, own.freeBits, own.fl, own.buckets
	sh.gleft, sh.willRunGiven, sh.except, sh.exceptFn = own.gleft, own.willRunGiven, nil, nil
	sh.play, sh.playIdx, sh.playRank, sh.playT, sh.playTIdx = own.play, own.playIdx, own.playRank, own.playT, own.playTIdx
	sh.wrPts, sh.wrProbe, sh.wrBest = own.wrPts, own.wrProbe, own.wrBest
	sh.seen, sh.seenGen, sh.sh = own.seen, own.seenGen, own.sh
}

// syncShadow brings the shadow sh back to the present of c: the nodes
// either changed since they last matched, every partition, and the
// cluster-wide counters. The caller clears c's dirty nodes once every
// shadow is synced.
func (c *Cluster) syncShadow(sh *Cluster) {
	sh.copyShared(c)
	for _, list := range [][]int32{c.sh.dirty, sh.sh.dirty} {
		for _, n := range list {
			sh.syncNode(c, int(n))
		}
	}
	sh.sh.clearDirty()
	copy(sh.Parts, c.Parts)
}

// syncNode copies node n's present state from c into sh.
func (sh *Cluster) syncNode(c *Cluster, n int) {
	nd := &sh.Nodes[n]
	old, g := nd.FreeCores, nd.Gres
	*nd = c.Nodes[n]
	if len(g) > 0 {
		copy(g, c.Nodes[n].Gres)
		nd.Gres = g
	}
	sh.fl.move(nd.rank, old, nd.FreeCores)
	if nd.FreeCores > 0 {
		sh.freeBits[nd.rank/64] |= 1 << (nd.rank % 64)
	} else {
		sh.freeBits[nd.rank/64] &^= 1 << (nd.rank % 64)
	}
}
