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

// shadowState is what a cluster keeps for its shadows: whether take
// and give record dirty nodes (those touched since the shadows last
// matched the cluster whole) and, on the cluster itself, a journal of
// its changes since the shadows last caught up, which they replay; a
// change a replay could not follow (a node changing state) breaks it.
type shadowState struct {
	track     bool
	dirty     []int32
	dirtyMark []bool
	// journaled says take and give append to journal (the cluster
	// itself, not a shadow); broken that the journal misses a change.
	journaled bool
	broken    bool
	journal   []delta
	// owner is the Releases whose shadows follow the cluster.
	owner *Releases
	// netAt, net and netOut are netJournal's scratch.
	netAt  []int32
	net    []netDelta
	netOut []delta
}

// netDelta is the sum of the journal's changes to one node.
type netDelta struct {
	node   int32
	cores  int
	mem    int64
	simple bool // a node in service and no GRES: its changes add up
}

// delta is one take (or give) of the cluster's, for shadows to replay.
type delta struct {
	node  int32
	part  int16 // the job's partition, for its MaxCPUsPerNode count; -1 none
	take  bool
	cores int
	mem   int64
	gres  GresTake
}

// record notes a take or give on node n for the shadows.
func (c *Cluster) record(n int, d delta) {
	if !c.sh.track {
		return
	}
	c.mark(n)
	if c.sh.journaled && !c.sh.broken {
		if len(c.sh.journal) >= max(1<<16, 4*len(c.Nodes)) {
			c.sh.broken = true // a whole copy is cheaper than the replay
			c.sh.journal = c.sh.journal[:0]
			return
		}
		c.sh.journal = append(c.sh.journal, d)
	}
}

// touch notes a change of node n's state: shadows must copy the node.
func (c *Cluster) touch(n int) {
	if c.sh.track {
		c.mark(n)
		c.sh.broken = true
	}
}

func (c *Cluster) mark(n int) {
	if !c.sh.dirtyMark[n] {
		c.sh.dirtyMark[n] = true
		c.sh.dirty = append(c.sh.dirty, int32(n))
	}
}

// netJournal is the journal with each node's changes summed into one
// give or take (two where cores and memory moved opposite ways), for a
// node in service without GRES: there take and give only add to its
// free cores and memory, and everything else a shadow keeps (free-level
// index, free-node bits, memory-tight count, partition sums) is a
// function of those, so one sum leaves the shadow as the whole sequence
// does. Half of a CEA-Curie journal's changes cancel (a job ends and
// another starts on its nodes), and every shadow replays it. Other
// nodes' changes (out of service: a give is held; GRES) are kept in
// order. A node never changes state within a journal (touch breaks it).
func (c *Cluster) netJournal() []delta {
	s := &c.sh
	if len(s.netAt) != len(c.Nodes) {
		s.netAt = make([]int32, len(c.Nodes))
	}
	s.net = s.net[:0]
	for _, d := range s.journal {
		k := s.netAt[d.node]
		if k == 0 {
			s.net = append(s.net, netDelta{node: d.node, simple: c.Nodes[d.node].State.Usable()})
			k = int32(len(s.net))
			s.netAt[d.node] = k
		}
		a := &s.net[k-1]
		if d.gres != 0 || c.capOf(int(d.part)) >= 0 {
			a.simple = false // summing would lose whose cores they are
		}
		if d.take {
			a.cores -= d.cores
			a.mem -= d.mem
		} else {
			a.cores += d.cores
			a.mem += d.mem
		}
	}
	out := s.netOut[:0]
	for _, d := range s.journal {
		if !s.net[s.netAt[d.node]-1].simple {
			out = append(out, d)
		}
	}
	for _, a := range s.net {
		s.netAt[a.node] = 0
		if !a.simple {
			continue
		}
		if a.cores > 0 || a.mem > 0 {
			out = append(out, delta{node: a.node, part: -1, cores: max(a.cores, 0), mem: max(a.mem, 0)})
		}
		if a.cores < 0 || a.mem < 0 {
			out = append(out, delta{node: a.node, part: -1, take: true, cores: max(-a.cores, 0), mem: max(-a.mem, 0)})
		}
	}
	s.netOut = out
	return out
}

// replayDeltas applies deltas (the journal, or netJournal's) to shadow sh.
func (c *Cluster) replayDeltas(sh *Cluster, deltas []delta) {
	for _, d := range deltas {
		if d.take {
			sh.take(int(d.node), int(d.part), d.cores, d.mem, d.gres)
		} else {
			sh.give(int(d.node), int(d.part), d.cores, d.mem, d.gres)
		}
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
	sh.caps.used = slices.Clone(c.caps.used)
	sh.fl = c.fl.clone()
	sh.buckets = make([][]int, len(c.buckets))
	sh.sh = shadowState{track: true, dirtyMark: make([]bool, len(c.Nodes))}
	sh.FreeCores, sh.FreeGPUs, sh.DownCores, sh.DownGPUs = c.FreeCores, c.FreeGPUs, c.DownCores, c.DownGPUs
	sh.memTight = c.memTight
	return sh
}

// cloneShadow is a copy of the shadow sh in its state, which differs
// from the cluster's present on the same nodes as sh's.
func (sh *Cluster) cloneShadow() *Cluster {
	cl := sh.newShadow()
	for _, n := range sh.sh.dirty {
		cl.mark(int(n))
	}
	return cl
}

// copyShared copies c's fields into sh except those sh owns (free
// resources and their counters, scratch, dirty tracking), which it
// keeps: what a site event or a reservation replaced since reaches the
// shadow too. Partitions are copied but for their free cores.
func (sh *Cluster) copyShared(c *Cluster) {
	own := *sh
	*sh = *c
	sh.FreeCores, sh.FreeGPUs, sh.DownCores, sh.DownGPUs = own.FreeCores, own.FreeGPUs, own.DownCores, own.DownGPUs
	sh.memTight = own.memTight
	sh.hashing = false // a shadow's nodes are set directly (syncNode)
	for p := range own.Parts {
		free := own.Parts[p].FreeCores
		own.Parts[p] = c.Parts[p]
		own.Parts[p].FreeCores = free
	}
	sh.Nodes, sh.Parts, sh.freeBits, sh.fl, sh.buckets = own.Nodes, own.Parts, own.freeBits, own.fl, own.buckets
	sh.caps.used = own.caps.used
	sh.gleft, sh.willRunGiven, sh.except, sh.exceptFn = own.gleft, own.willRunGiven, nil, nil
	sh.cgN = 0 // a will-run test's: COMPLETING nodes are free to it
	sh.play, sh.playIdx, sh.playRank, sh.playT, sh.playTIdx = own.play, own.playIdx, own.playRank, own.playT, own.playTIdx
	sh.playIdxBuf = own.playIdxBuf
	sh.wrPts, sh.wrProbe, sh.wrBest = own.wrPts, own.wrProbe, own.wrBest
	sh.sink, sh.wrSink, sh.wrBestNodes = nil, own.wrSink, own.wrBestNodes
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
	sh.FreeCores, sh.FreeGPUs, sh.DownCores, sh.DownGPUs = c.FreeCores, c.FreeGPUs, c.DownCores, c.DownGPUs
	sh.memTight = c.memTight
}

// syncNode copies node n's present state from c into sh.
func (sh *Cluster) syncNode(c *Cluster, n int) {
	nd := &sh.Nodes[n]
	old, g := nd.FreeCores, nd.Gres
	defer sh.retight(nd, nd.memTight())
	*nd = c.Nodes[n]
	if len(g) > 0 {
		copy(g, c.Nodes[n].Gres)
		nd.Gres = g
	}
	if c.caps.used != nil {
		sh.syncCaps(c, n)
	}
	sh.fl.move(nd.rank, old, nd.FreeCores)
	if nd.FreeCores > 0 {
		sh.freeBits[nd.rank/64] |= 1 << (nd.rank % 64)
	} else {
		sh.freeBits[nd.rank/64] &^= 1 << (nd.rank % 64)
	}
}
