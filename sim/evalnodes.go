package sim

import (
	"math/bits"
	"slices"
)

// consecSet is one of cons_tres's sets of consecutive nodes: nodes with
// consecutive indices, all of one Weight, each with a CPU the job could
// use. first and end index Cluster.evNodes in evalNodes' walk, and are
// allocation ranks in evalSets.
type consecSet struct {
	first, end  int
	cpus, nodes int
	weight      int
}

// evalNodes places a job that asks CPUs and no GRES or GRES per node
// (Request.perNodeGres: on the nodes that have them free, as
// _select_cores gives a node without them no CPU), as Slurm 22.05's
// select/cons_tres does it in src/plugins/select/cons_tres/job_test.c
// _eval_nodes (the default branch: no topology, LLN, pack_serial_at_end
// or bf_busy_nodes):
//
//  1. The nodes the job could use (in the partition and in play, with at
//     least one CPU usable with the memory asked; for a whole-node job,
//     idle nodes with all their CPUs) form sets of consecutive nodes: a
//     set ends at a node it cannot use and where Weight changes.
//  2. The best set is the one of lowest Weight; among equal weights the
//     first that is sufficient (its CPUs and nodes cover what is still
//     asked), then any sufficient one with strictly fewer CPUs (the
//     tightest fit), and while none is sufficient the one with the most
//     CPUs.
//  3. While one node is still to be found (rem_nodes <= 1), the best set's
//     single node with the fewest usable CPUs that holds the rest of the
//     job wins (the first such in node order); its other nodes drop out.
//  4. Otherwise the set's nodes are taken in node order, each giving all
//     its usable CPUs but one for each node still to be found and no more
//     than is still asked (_cpus_to_use; a whole-node job takes all), and
//     a node that cannot be the job's last while only one more node is
//     allowed (max_nodes == 1) is passed over.
//  5. A set that did not finish the job is spent and the next best set is
//     taken, until the CPUs and nodes are found.
//
// rem_nodes is the node count asked (sbatch -N k: min_nodes = req_nodes =
// max_nodes = k), else 1; max_nodes is k, else the task count
// (choose_nodes caps an unlimited max_nodes at num_tasks), taken here as
// the CPU count (one CPU per task). -N4 -n8 on four idle 8-CPU nodes is
// 5/1/1/1, as the 22.05 harness placed it. Each node's CPUs are what
// _eval_nodes gave it: they sum to the CPUs asked (more only where a
// node must get one), so dist_tasks_compute_c_b's cyclic task layout
// over them hands each node exactly its count. choose_nodes' retry
// without the nodes of few CPUs (evalCount) matters only with a node
// count or a MaxNodes cap: without either, a CPU-only job fails here
// only when the sets together lack its CPUs.
func (c *Cluster) evalNodes(req *Request, p int, dst Alloc) (Alloc, Fit) {
	part := &c.Parts[p]
	outs := c.mayOut()
	gres := len(req.Gres) > 0
	capped := c.capOf(p) >= 0
	if evalFast && !outs && !gres && !capped && req.Nodes <= 1 && !req.capped() && !req.minSpread() && (c.freeIsUsable(req) || c.idleIsUsable(req)) {
		return c.evalSets(req, p, dst)
	}
	nodes, avail, sets := c.evNodes[:0], c.evAvail[:0], c.evSets[:0]
	defer func() { c.evNodes, c.evAvail, c.evSets = nodes[:0], avail[:0], sets[:0] }()
	typed := req.Type >= 0 && len(c.fl.typeRank) == 0
	for wi, w := range c.freeBits {
		w &= part.rankBits[wi] & c.playWord(wi) & c.typeWord(req, wi)
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			n := c.byRank[wi*64+b]
			if typed && !c.typeOK(req, n) || outs && c.out(n) || gres && !c.gresOK(req, n, false) {
				continue // gres: _select_cores gives a node without them free no CPU
			}
			nd := &c.Nodes[n]
			var u int
			switch {
			case !req.Exclusive:
				u = req.UsableCores(nd.Cores, nd.MemMB, nd.FreeCores, nd.FreeMem)
				if capped {
					u = min(u, c.CapLeft(p, n))
				}
			case nd.FreeCores == nd.Cores && nd.FreeMem == nd.MemMB && (!capped || c.CapWhole(p, n)):
				u = nd.Cores // a whole-node job: idle nodes, all their CPUs
			}
			if u > 0 {
				nodes, avail = append(nodes, n), append(avail, u)
			}
		}
	}
	if gres && req.perJobGres() {
		return c.evalPerJob(req, dst, nodes, avail)
	}
	if req.Nodes > 1 || req.capped() || req.minSpread() {
		return c.evalCount(req, dst, nodes, avail)
	}
	sets = c.consecSets(sets, nodes, avail)
	return c.evalDrive(req, dst, sets, -2, c.evalFill(req, nodes, avail, nil))
}

// consecSets appends to sets _eval_nodes' sets of consecutive nodes over
// nodes (in allocation order) with their usable CPUs avail: a set ends at
// a node not among them (or with no CPU usable) and where Weight changes.
func (c *Cluster) consecSets(sets []consecSet, nodes, avail []int) []consecSet {
	last := -2
	for i, n := range nodes {
		if avail[i] <= 0 {
			continue
		}
		wt := c.Nodes[n].Weight
		if k := len(sets) - 1; k < 0 || n != last+1 || sets[k].weight != wt {
			sets = append(sets, consecSet{first: i, end: i, weight: wt})
		}
		s := &sets[len(sets)-1]
		s.end = i + 1
		s.cpus += avail[i]
		s.nodes++
		last = n
	}
	return sets
}

// evalFill is _eval_nodes' use of a set: while one node is still to be
// found, the node of the set with the fewest usable CPUs that holds the
// rest, alone; else its nodes in order. avail is spent as nodes are
// taken. With capped set, a node _cpus_to_use gave fewer CPUs than it had
// keeps that count there, as _cpus_to_use writes it into the node's
// avail_res entry, which choose_nodes' next try reads.
func (c *Cluster) evalFill(req *Request, nodes, avail, capped []int) func(*consecSet, *evalRem, Alloc) Alloc {
	return func(s *consecSet, e *evalRem, dst Alloc) Alloc {
		if e.nodes <= 1 {
			fit := -1
			for i := s.first; i < s.end; i++ {
				if avail[i] >= e.cpus && (fit < 0 || avail[i] < avail[fit]) {
					fit = i
					if avail[i] == e.cpus {
						break
					}
				}
			}
			if fit >= 0 {
				for i := s.first; i < s.end; i++ {
					if i != fit {
						avail[i] = 0
					}
				}
			}
		}
		for i := s.first; i < s.end && !e.full(); i++ {
			if avail[i] > 0 {
				cpus, left := e.cpus, e.nodes
				dst = e.take(c, req, dst, nodes[i], avail[i])
				if u := cpus - e.cpus; capped != nil && e.nodes < left && u < avail[i] {
					capped[i] = u
				}
				avail[i] = 0
			}
		}
		return dst
	}
}

// evalCount places a job with a node count (-N k, k > 1), or one a
// partition's MaxNodes caps, as select/cons_tres choose_nodes does:
// _eval_nodes, and where it fails on more nodes than min_nodes (k, else
// 1), again without the nodes of fewest usable CPUs (those with at most
// 1, 2, ... CPUs, removed in node order until only min_nodes are left),
// as a node passed over for being unable to hold the rest can
// fail a job that other nodes would hold ("to avoid a possible knapsack
// problem"). Each try reads the CPUs the tries before left (evalFill).
func (c *Cluster) evalCount(req *Request, dst Alloc, nodes, avail []int) (Alloc, Fit) {
	k := len(nodes)
	orig := append(c.evOrig[:0], avail...)
	work := c.evWork[:0]
	keep := append(c.evKeep[:0], make([]bool, k)...)
	for i := range keep {
		keep[i] = true
	}
	defer func() { c.evOrig, c.evWork, c.evKeep = orig[:0], work[:0], keep[:0] }()
	try := func() (Alloc, Fit) {
		work = work[:0]
		for i, u := range orig {
			if !keep[i] {
				u = 0
			}
			work = append(work, u)
		}
		c.evSets = c.consecSets(c.evSets[:0], nodes, work)
		return c.evalDrive(req, dst, c.evSets, -2, c.evalFill(req, nodes, work, orig))
	}
	a, fit := try()
	if fit == FitsNow {
		return a, fit
	}
	minNodes := req.MinNodeCount() // min_nodes
	left := k
	if left <= minNodes {
		return try()
	}
	most := slices.Max(orig)
	byIndex := append(c.evOrder[:0], make([]int, k)...)
	for i := range byIndex {
		byIndex[i] = i
	}
	slices.SortFunc(byIndex, func(a, b int) int { return nodes[a] - nodes[b] })
	c.evOrder = byIndex
	for count := 1; count < most; count++ {
		change := false
		for _, i := range byIndex {
			if keep[i] && orig[i] > 0 && orig[i] <= count {
				keep[i], change = false, true
				if left--; left <= minNodes {
					break
				}
			}
		}
		if !change && count != 1 {
			continue
		}
		if a, fit = try(); fit == FitsNow || left <= minNodes {
			break
		}
	}
	return a, fit
}

// evalRem is what _eval_nodes still looks for: CPUs (rem_cpus, and
// rem_max_cpus for _cpus_to_use), nodes (rem_nodes) and the nodes it may
// still take (max_nodes).
// sink, when set, takes each node's bit instead of its slice (Cluster.sink).
type evalRem struct {
	cpus, max, nodes, maxNodes int
	sink                       []uint64
}

// full reports whether the nodes are all taken or the job is placed.
func (e *evalRem) full() bool { return e.maxNodes == 0 || e.nodes <= 0 && e.cpus <= 0 }

// take adds node n with its u usable CPUs, unless it cannot be the last
// node while only one more is allowed. _cpus_to_use gives a node all it
// can while leaving a CPU for each node still to be found (rem_nodes,
// which is min_rem_nodes here), and at least one; a whole-node job takes
// the node whole, with every GRES on it.
func (e *evalRem) take(c *Cluster, req *Request, dst Alloc, n, u int) Alloc {
	if e.maxNodes == 1 && u < e.cpus {
		return dst
	}
	if !req.Exclusive {
		u = min(u, max(e.max-max(e.nodes-1, 0), 1))
	}
	e.cpus -= u
	e.max -= u
	e.nodes--
	e.maxNodes--
	if e.sink != nil {
		e.sink[n>>6] |= 1 << (n & 63)
		return dst
	}
	return c.evalSlice(req, dst, n, u)
}

// evalSlice appends node n's slice of u CPUs for req: a whole-node job's
// holds all the node's memory and GRES. Kept out of take, which the
// compiler then inlines in the set loops.
func (c *Cluster) evalSlice(req *Request, dst Alloc, n, u int) Alloc {
	if req.Exclusive {
		return append(dst, Slice{n, u, c.Nodes[n].MemMB, c.wholeTake(n)})
	}
	var t GresTake
	if len(req.Gres) > 0 {
		t, _ = c.gresTake(req, n, nil)
	}
	return append(dst, Slice{n, u, c.memFor(req, n, u, t), t})
}

// evalDrive is _eval_nodes' loop over the sets: the best set left
// (bestSet), filled by fill, is spent, until the job is placed or no set
// is left. first is the first round's best set when the caller found it
// as it made the sets (-1: none), or -2.
func (c *Cluster) evalDrive(req *Request, dst Alloc, sets []consecSet, first int, fill func(*consecSet, *evalRem, Alloc) Alloc) (Alloc, Fit) {
	start := len(dst)
	e := &c.evRem
	*e = evalRem{cpus: req.CPUs, max: req.CPUs, nodes: req.MinNodeCount(), maxNodes: req.maxNodes(), sink: c.sink}
	done := false
	for e.maxNodes > 0 && !done {
		best := first
		if first < -1 {
			best = bestSet(sets, e.cpus, e.nodes)
		}
		first = -2 // later rounds look again
		if best < 0 {
			break
		}
		dst = fill(&sets[best], e, dst)
		done = e.nodes <= 0 && e.cpus <= 0
		sets[best].cpus, sets[best].nodes = 0, 0
	}
	if !done {
		return dst[:start], NotNow
	}
	return dst, FitsNow
}

// evalFast lets evalNodes find the sets from bitmaps when it can (off in
// the test that both ways place alike).
var evalFast = true

// FreeFits answers TryAlloc's fit for a request of partition p without
// placing it, where placement would only confirm the count: no GRES, no
// node count or MaxNodes cap, not whole nodes, no CPU type, every free
// core usable (freeIsUsable), no node out of play and no test's nodes in
// play. evalSets then takes the partition's consecutive sets until they
// hold the CPUs, so the job fits exactly when the free cores of the
// partition's nodes hold them. ok is false for any other request, whose
// answer only TryAlloc gives. A backfill cycle asks this of every
// request shape in the queue.
func (c *Cluster) FreeFits(req *Request, p int) (fits, ok bool) {
	part := &c.Parts[p]
	if !evalFast || c.play != nil || c.except != nil || req.Resv != 0 || c.mayOut() || len(req.Gres) > 0 || c.capOf(p) >= 0 ||
		req.Nodes > 0 || req.capped() || req.minSpread() || req.Exclusive || part.Exclusive || req.Type >= 0 || !c.freeIsUsable(req) {
		return false, false
	}
	if part.FreeCores < req.CPUs || !part.State.Schedules() {
		return false, true
	}
	return c.freeCoresIn(part.rankBits) >= req.CPUs, true
}

// freeIsUsable reports whether req can use every free core of every node
// (UsableCores is FreeCores) and the free-level index gives them: no
// memory asked, or a core's share of it while no node's free memory is
// short of its free cores' share; and the type asked, if any, indexed.
func (c *Cluster) freeIsUsable(req *Request) bool {
	if c.fl.levels == nil || req.Exclusive || req.MemPerNode > 0 || req.MemPerGPU > 0 ||
		req.Type >= 0 && len(c.fl.typeRank) == 0 {
		return false
	}
	return req.MemPerCPU == 0 || req.MemPerCPU == MemCoreShare && c.memTight == 0
}

// idleIsUsable reports whether a whole-node request can take its nodes
// from the free-level index: its idle nodes are those in the level of
// their size (freeLevels.idleWord), which holds when no node's memory is
// held beyond its cores' share (memTight: a suspended job's memory), so
// every node with all its cores free has all its memory free.
func (c *Cluster) idleIsUsable(req *Request) bool {
	return req.Exclusive && c.fl.levels != nil && c.memTight == 0 && len(req.Gres) == 0 &&
		(req.Type < 0 || len(c.fl.typeRank) > 0)
}

// evalSets is evalNodes when freeIsUsable or idleIsUsable holds, with
// the same result:
// the consecutive sets are runs of the usable bitmap linked by c.contig,
// each set's CPUs are counted a free-level at a time (popcounts), and
// only the nodes of the sets chosen are visited.
func (c *Cluster) evalSets(req *Request, p int, dst Alloc) (Alloc, Fit) {
	part := &c.Parts[p]
	f := &c.fl
	sets := c.evSets[:0]
	defer func() { c.evSets = sets[:0] }()
	// The bitmaps cut to one length, once: the loop below then reads
	// them without a bounds check a word.
	free := c.freeBits
	nw := len(free)
	ranks, contig := part.rankBits[:nw], c.contig[:nw]
	if len(c.ones) != nw {
		c.ones = make([]uint64, nw)
		for i := range c.ones {
			c.ones[i] = ^uint64(0)
		}
	}
	play, typ := c.ones, c.ones // no play set, no type asked: every node
	if c.play != nil {
		play = c.play
	}
	if req.Type >= 0 && req.Type < len(c.fl.typeRank) {
		typ = c.fl.typeRank[req.Type]
	}
	play, typ = play[:nw], typ[:nw]
	idle := req.Exclusive // whole nodes: only the idle ones, each giving all its cores
	usable := func(wi int) uint64 {
		u := free[wi] & ranks[wi] & play[wi] & typ[wi]
		if idle {
			u &= f.idleWord(wi)
		}
		return u
	}
	nz := 0 // free levels with a node
	for _, n := range f.count[1:] {
		if n > 0 {
			nz++
		}
	}
	// The open set is kept in locals, and appended once it closes, when
	// the first round's best set (bestSet's choice for the whole request)
	// is also kept: evalDrive need not look for it again.
	var carry uint64 // the last rank of the word before is usable
	first, end, nodes, cpus, weight := -1, 0, 0, 0, 0
	var best firstBest
	for wi, fw := range free {
		u := fw & ranks[wi] & play[wi] & typ[wi] // usable(wi), without the closure's bounds checks
		if idle {
			u &= f.idleWord(wi)
		}
		if u == 0 {
			carry = 0 // most words of a busy cluster: no set runs through
			continue
		}
		cont := u & (u<<1 | carry) & contig[wi] // ranks continuing the rank before's set
		carry = u >> 63
		for rem := u; rem != 0; {
			b := bits.TrailingZeros64(rem)
			t := 0
			if b < 63 {
				t = bits.TrailingZeros64(^(cont >> (b + 1)))
			}
			mask := (^uint64(0) >> (63 - (b + t))) &^ (1<<b - 1) // ranks b..b+t
			rem &^= mask
			r := wi*64 + b
			if cont&(1<<b) == 0 || first < 0 {
				if first >= 0 {
					sets = best.add(sets, consecSet{first: first, end: end, cpus: cpus, nodes: nodes, weight: weight}, req.CPUs, max(req.Nodes, 1))
				}
				first, nodes, cpus, weight = r, 0, 0, c.rankWeight[r]
			}
			end = r + t + 1
			nodes += t + 1
			cpus += c.freeCoresOfMask(wi, mask, nz)
		}
	}
	if first >= 0 {
		sets = best.add(sets, consecSet{first: first, end: end, cpus: cpus, nodes: nodes, weight: weight}, req.CPUs, max(req.Nodes, 1))
	}
	return c.evalDrive(req, dst, sets, best.idx-1, func(s *consecSet, e *evalRem, dst Alloc) Alloc {
		only := -1 // the one node a job that fits on one takes
		if e.nodes <= 1 {
			only = c.fewestHolding(s, e.cpus, usable)
		}
		if only < 0 && e.sink != nil && c.rankIsIndex && req.Nodes <= 0 && s.cpus <= e.cpus && e.maxNodes >= e.cpus {
			// The whole set, as bits: no node's CPUs are capped, as
			// together they are at most what is still asked and no
			// node count keeps CPUs back, and max_nodes (the CPUs
			// asked, less one per node taken, unless a partition's
			// MaxNodes caps it) stays at least the CPUs still asked,
			// so no node is passed over.
			setRange(e.sink, s.first, s.end)
			e.cpus -= s.cpus
			e.max -= s.cpus
			e.nodes -= s.nodes
			e.maxNodes -= s.nodes
			return dst
		}
		for r := s.first; r < s.end && !e.full(); r++ {
			if only < 0 || r == only { // a set's ranks are all usable
				// The free-level index's count: a shadow's node
				// record is a cache miss, which mostly only the
				// bit the sink takes follows.
				dst = e.take(c, req, dst, c.byRank[r], int(f.free[r]))
			}
		}
		return dst
	})
}

// fewestHolding is the rank of set s's node with the fewest free cores
// that still hold need, the first in order among equals (-1: none): the
// lowest free level at or above need with a node of s.
func (c *Cluster) fewestHolding(s *consecSet, need int, usable func(int) uint64) int {
	f := &c.fl
	for k := max(need, 1); k < len(f.levels); k++ {
		if f.count[k] == 0 {
			continue
		}
		for wi := s.first >> 6; wi <= (s.end-1)>>6; wi++ {
			w := f.levels[k][wi] & usable(wi)
			lo, hi := wi*64, wi*64+64
			if s.first > lo {
				w &^= 1<<(s.first-lo) - 1
			}
			if s.end < hi {
				w &= 1<<(s.end-lo) - 1
			}
			if w != 0 {
				return lo + bits.TrailingZeros64(w)
			}
		}
	}
	return -1
}

// firstBest is bestSet's choice for a whole request made as its sets
// are: idx is the set's index plus one (0: none yet).
type firstBest struct {
	idx     int
	suff    bool
	w, cpus int
}

// add appends s to sets and keeps it as the best when bestSet, asked for
// need CPUs on at least nodes nodes, would choose it over those before.
func (b *firstBest) add(sets []consecSet, s consecSet, need, nodes int) []consecSet {
	sets = append(sets, s)
	suff := s.cpus >= need && s.nodes >= nodes
	if b.idx == 0 || betterSet(s.weight, s.cpus, suff, b.w, b.cpus, b.suff) {
		*b = firstBest{len(sets), suff, s.weight, s.cpus}
	}
	return sets
}

// betterSet is _eval_nodes' preference between sets, a set of weight w
// with cpus CPUs (suff: enough for what is still asked) against the best
// so far: the lowest weight; among equal weights a sufficient one over
// one that is not, the one with fewer CPUs among sufficient ones and the
// one with more among the rest (ties keep the first).
func betterSet(w, cpus int, suff bool, bw, bc int, bSuff bool) bool {
	return w < bw || w == bw && (suff && !bSuff || suff && cpus < bc || !suff && cpus > bc)
}

// bestSet is _eval_nodes' choice among the sets left: the lowest Weight;
// among equal weights the first sufficient, then a sufficient one with
// strictly fewer CPUs, and while none is sufficient the one with the
// most CPUs (-1: no set left).
func bestSet(sets []consecSet, remCPUs, remNodes int) int {
	best, bestSuff := -1, false
	var bw, bc int // the best set's weight and CPUs, kept rather than read again
	for i := range sets {
		s := &sets[i]
		if s.nodes == 0 {
			continue
		}
		suff := s.cpus >= remCPUs && s.nodes >= remNodes
		if best < 0 || betterSet(s.weight, s.cpus, suff, bw, bc, bestSuff) {
			best, bestSuff, bw, bc = i, suff, s.weight, s.cpus
		}
	}
	return best
}

// freeCoresOfMask is the free cores of the free nodes of word wi's ranks
// in mask: the word's sum where mask holds all its free nodes, else the
// cheapest of visiting the nodes in mask, visiting those out of it, or a
// popcount per free level (nz levels hold a node).
func (c *Cluster) freeCoresOfMask(wi int, mask uint64, nz int) int {
	f := &c.fl
	fw := c.freeBits[wi]
	in, out := mask&fw, fw&^mask
	nIn, nOut := bits.OnesCount64(in), bits.OnesCount64(out)
	switch {
	case nOut == 0:
		return f.word[wi]
	case nIn <= nOut && nIn <= nz:
		return c.coresOfRanks(wi, in)
	case nOut <= nz:
		return f.word[wi] - c.coresOfRanks(wi, out)
	}
	k := 0
	for l := 1; l < len(f.levels); l++ {
		if f.count[l] > 0 {
			k += l * bits.OnesCount64(f.levels[l][wi]&in)
		}
	}
	return k
}

// setRange sets bits [lo, hi) of b.
func setRange(b []uint64, lo, hi int) {
	for lo < hi {
		w, o := lo>>6, uint(lo&63)
		n := min(hi-lo, 64-int(o))
		b[w] |= (^uint64(0) >> (64 - uint(n))) << o
		lo += n
	}
}
