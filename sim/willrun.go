package sim

import (
	"math/bits"
	"slices"
)

// Releases are the holders a will-run test gives back, sorted by End,
// each with its nodes as bitmap words: a pass tests many jobs against
// the same holders, and asking of each holder whether it has a node in
// play is then a few word ANDs instead of a walk over its slices.
//
// Releases also carry cursors (see at): shadows of the cluster
// (shadow.go) in future states, in which the first cur holders have
// given their resources back on every node in service. Will-run tests
// of one pass share them, so a test moves a shadow only from the nearest
// state it holds, not from now each time. The cluster itself stays at
// the present.
type Releases struct {
	// Cut says that the sets of nodes will-run tests against these
	// releases are given (avail) hold only nodes of the partition asked
	// that are in service, as the slurm scheduler's backfill cuts them
	// from the partition's usable nodes: a test of a request that names
	// no CPU type, on a cluster that allocates in node-index order, then
	// takes such a set as its nodes in play as it is, rather than
	// intersecting it with the partition and the nodes in service again
	// (2 % of a CEA-Curie run); other tests still intersect (setPlay).
	Cut bool

	h    []Holding
	gen  uint64   // changes with the holders (Reset, Insert)
	sums coreSums // MayHaveCores' running sums of its last set
	// byWord lists the holders' words by bitmap word (indexWords): those
	// of word w are byWord[wordStart[w]:wordStart[w+1]], by holder;
	// wordsGen is the gen they are of.
	byWord    []wordEntry
	wordStart []int32
	wordFill  []int32
	wordsGen  uint64
	spans     []relSpan // per holder: its words in words
	// one is per holder its word when its nodes lie within one (w < 0:
	// they do not, read spans), for the loops over holders' cores: they
	// read one array.
	one   []nodeWord
	words []nodeWord
	cores []int // per holder: its cores
	// prefix[i] is the cores of the first i holders (MayHaveCores),
	// made when first asked after a change.
	prefix []int
	// slicesBefore[i] is the slices of the first i holders (at), made
	// when first asked after a change.
	slicesBefore []int
	c            *Cluster
	// shs are the shadows, each at its own cursor: a test takes the
	// nearest, as a pass's tests ask for a few far-apart states over and
	// over (jobs that start now or soon, jobs that wait for most running
	// jobs). fresh says they are c's present (but for c's journal) with
	// their cursors over h.
	shs   []relShadow
	fresh bool
	keys  []relKey // per holder: what tells it apart in the next Reset
	// old are keys, spans, words and cores as the last Reset left them
	// (with the pass's Inserts): Reset takes a holder's words and cores
	// from there when it was a holder then, as most are.
	old struct {
		keys  []relKey
		spans []relSpan
		words []nodeWord
		cores []int
	}
	// arena holds copies of the holders' allocations, which the next
	// Reset still reads (the caller's may be reused by then); the two
	// sides alternate by pass.
	arena [2][]Slice
	side  int
}

// relKey identifies a holder across passes with its allocation: the
// same job (Idx), run (Start) and expected end.
type relKey struct {
	idx        int
	start, end int64
}

func keyOf(h *Holding) relKey {
	k := relKey{idx: -1, start: h.Start, end: h.End}
	if h.Job != nil {
		k.idx = h.Job.Idx
	}
	return k
}

// ownAlloc reports whether h's allocation is its running job's own,
// which no one writes after the run's start (Simulator.start): the next
// Reset can read it where it is. The plan's starts are in the view's
// pool, which the next pass reuses; keep copies those.
func ownAlloc(h *Holding) bool {
	return h.Job != nil && len(h.Alloc) > 0 && len(h.Job.Alloc) == len(h.Alloc) && &h.Job.Alloc[0] == &h.Alloc[0]
}

// keep copies a into the current side of the arena.
func (r *Releases) keep(a Alloc) Alloc {
	buf := r.arena[r.side]
	k := len(buf)
	buf = append(buf, a...)
	r.arena[r.side] = buf
	return buf[k:len(buf):len(buf)]
}

// before is the holders' order, (End, job index), as a key.
func (k relKey) before(o relKey) bool {
	return k.end < o.end || k.end == o.end && k.idx < o.idx
}

// relShadow is a shadow of the cluster with the first cur holders given
// back.
type relShadow struct {
	c   *Cluster
	cur int
}

// wrShadows is how many shadows a Releases starts with; a test whose
// nearest shadow is more than wrSpawn holders away clones it, up to
// wrShadowsMax: a deep backfill cycle asks for states far apart over and
// over (CEA-Curie: 3-8 % less CPU than with two, side by side), while a small cluster's tests
// stay near each other and keep the few shadows each change must reach.
const (
	wrShadows    = 2
	wrShadowsMax = 8
	wrSpawn      = 64
)

type relSpan struct{ lo, hi int32 }

// nodeWord is one 64-node word of a holder's nodes (by node index),
// with the holder's cores on them and, where each of those nodes holds
// the same number, that number (per; 0: they differ), so that the cores
// on a part of the word are a popcount; otherwise they are read from
// its allocation's slices s0 to s0 + popcount(mask), which are the
// word's. Reservations cut through holders' words.
type nodeWord struct {
	mask              uint64
	w, cores, per, s0 int32
}

// Reset makes r the holders h, which must be sorted by End (the caller's
// order among equal ends is kept).
//
// Shadows that followed the cluster since the last Reset keep their
// states: each keeps the holders both lists share given back as they
// were (the old key at its cursor splits them), takes back those that
// left, and gives back those that came before that key.
func (r *Releases) Reset(h []Holding) {
	r.gen++
	if r.following() {
		r.catchUp()
		r.carry(h)
	} else {
		r.fresh = false
	}
	o := &r.old
	o.keys, r.keys = r.keys, o.keys[:0]
	o.spans, r.spans = r.spans, o.spans[:0]
	o.words, r.words = r.words, o.words[:0]
	o.cores, r.cores = r.cores, o.cores[:0]
	for i := range h {
		r.keys = append(r.keys, keyOf(&h[i]))
	}
	r.h = append(r.h[:0], h...)
	r.side ^= 1
	r.arena[r.side] = r.arena[r.side][:0]
	for i := range r.h {
		if !ownAlloc(&r.h[i]) {
			r.h[i].Alloc = r.keep(r.h[i].Alloc)
		}
	}
	r.one = r.one[:0]
	r.prefix = r.prefix[:0]
	r.slicesBefore = r.slicesBefore[:0]
	j := 0 // both key lists are in holder order: one merge finds the old ones
	for i := range r.h {
		k := r.keys[i]
		for j < len(o.keys) && o.keys[j].before(k) {
			j++
		}
		var sp relSpan
		var cores int
		if j < len(o.keys) && o.keys[j] == k && k.idx >= 0 {
			// A job's allocation is fixed for its run (see carry):
			// the same key, the same words.
			lo := int32(len(r.words))
			os := o.spans[j]
			r.words = append(r.words, o.words[os.lo:os.hi]...)
			sp, cores = relSpan{lo, int32(len(r.words))}, o.cores[j]
			j++
		} else {
			sp, cores = r.wordsOf(r.h[i].Alloc), r.h[i].Alloc.Cores()
		}
		r.spans = append(r.spans, sp)
		r.cores = append(r.cores, cores)
		r.one = append(r.one, r.oneOf(sp))
	}
}

// oneOf is the word of a holder of span sp, or w -1 where it has several.
func (r *Releases) oneOf(sp relSpan) nodeWord {
	if sp.hi != sp.lo+1 {
		return nodeWord{w: -1}
	}
	return r.words[sp.lo]
}

// ready makes r's shadows those of c: caught up with its journal, or
// back at the present (cursor 0) when c changed in a way the journal
// misses, or r's shadows did not follow it.
func (r *Releases) ready(c *Cluster) {
	switch {
	case len(r.shs) == 0 || r.c != c || c.sh.owner != r:
		// A first test, another cluster, or another Releases took over
		// c's dirty nodes: whole copies.
		r.c = c
		r.shs = r.shs[:0]
		for range wrShadows {
			r.shs = append(r.shs, relShadow{c: c.newShadow()})
		}
		c.sh.owner = r
		c.sh.track, c.sh.journaled = true, true
		if c.sh.dirtyMark == nil {
			c.sh.dirtyMark = make([]bool, len(c.Nodes))
		}
		c.sh.clearDirty()
	case r.following():
		r.catchUp()
		return
	default:
		for i := range r.shs {
			c.syncShadow(r.shs[i].c)
		}
		c.sh.clearDirty()
	}
	for i := range r.shs {
		r.shs[i].cur = 0
	}
	c.sh.journal, c.sh.broken = c.sh.journal[:0], false
	r.fresh = true
}

// following reports whether the shadows are c's present but for c's
// journal, which holds every change since.
func (r *Releases) following() bool {
	return len(r.shs) > 0 && r.fresh && r.c.sh.owner == r && !r.c.sh.broken
}

// catchUp replays the cluster's journal, each node's changes summed
// (netJournal), on every shadow.
func (r *Releases) catchUp() {
	c := r.c
	if len(c.sh.journal) == 0 {
		return
	}
	deltas := c.sh.journal
	if len(r.shs) > 1 {
		deltas = c.netJournal()
	}
	for i := range r.shs {
		c.replayDeltas(r.shs[i].c, deltas)
	}
	c.sh.journal = c.sh.journal[:0]
}

// carry moves the shadows from the holders of r to those of h. A
// shadow's cursor in h is where h's keys reach the old key at its
// cursor; a holder of both lists (same key) is given back or taken as
// its place in h says, one that left is taken back where it was given
// back, one that came is given back before the cursor.
func (r *Releases) carry(h []Holding) {
	for si := range r.shs {
		s := &r.shs[si]
		cut := len(h)
		if s.cur < len(r.keys) {
			split := r.keys[s.cur]
			cut = 0
			for cut < len(h) && keyOf(&h[cut]).before(split) {
				cut++
			}
		}
		i := 0
		for j := range h {
			k := keyOf(&h[j])
			for i < len(r.keys) && r.keys[i].before(k) {
				if i < s.cur {
					r.moveAlloc(s.c, r.h[i].Alloc, r.h[i].Part, true) // left
				}
				i++
			}
			given := j < cut
			was := false
			// A job's allocation is fixed for its run (Plan.Start sets
			// it; a requeued job's next run has another start), so a
			// job's key tells its allocation apart.
			if i < len(r.keys) && r.keys[i] == k && (k.idx >= 0 || slices.Equal(r.h[i].Alloc, h[j].Alloc)) {
				was = i < s.cur // in both lists
				i++
			}
			if given != was {
				r.moveAlloc(s.c, h[j].Alloc, h[j].Part, was)
			}
		}
		for ; i < len(r.keys); i++ {
			if i < s.cur {
				r.moveAlloc(s.c, r.h[i].Alloc, r.h[i].Part, true)
			}
		}
		s.cur = cut
	}
}

// at is a shadow with the first k holders given back: the one whose
// cursor is nearest in slices to move, moved there (a node out of
// service keeps what its jobs give back, as in a run).
func (r *Releases) at(k int) *Cluster {
	if len(r.slicesBefore) != len(r.h)+1 {
		r.slicesBefore = append(r.slicesBefore[:0], 0)
		for i := range r.h {
			r.slicesBefore = append(r.slicesBefore, r.slicesBefore[i]+len(r.h[i].Alloc))
		}
	}
	// Nearest in slices moved, not in holders: a holder of CEA-Curie
	// takes from 1 to over 1,000 nodes.
	sk := r.slicesBefore[k]
	s := &r.shs[0]
	for i := 1; i < len(r.shs); i++ {
		if abs(r.slicesBefore[r.shs[i].cur]-sk) < abs(r.slicesBefore[s.cur]-sk) {
			s = &r.shs[i]
		}
	}
	if abs(s.cur-k) > wrSpawn && len(r.shs) < wrShadowsMax {
		r.shs = append(r.shs, relShadow{c: s.c.cloneShadow(), cur: s.cur})
		s = &r.shs[len(r.shs)-1]
	}
	for s.cur < k {
		r.move(s.c, s.cur, false)
		s.cur++
	}
	for s.cur > k {
		s.cur--
		r.move(s.c, s.cur, true)
	}
	return s.c
}

func abs(x int) int { return max(x, -x) }

func (r *Releases) move(c *Cluster, i int, take bool) {
	r.moveAlloc(c, r.h[i].Alloc, r.h[i].Part, take)
}

// moveAlloc gives an allocation back in shadow c, or takes it again, on
// the nodes in service.
//
// Shadows move a holder's whole allocation at a time, dozens of nodes for
// CEA-Curie's wide jobs (24 million slices in a 12-day window): a
// node without GRES in a usable state is changed here as take and give
// change it, without their calls, deferred recount and the checks that
// only the cluster's present needs (its node hash and journal).
func (r *Releases) moveAlloc(c *Cluster, a Alloc, part int, take bool) {
	inline := !c.hashing && c.sh.track && !c.sh.journaled
	capped := c.capOf(part) >= 0
	sign := 1
	if take {
		sign = -1
	}
	for _, s := range a {
		n := s.Node
		if c.downBits[n>>6]&(1<<(n&63)) != 0 {
			continue
		}
		nd := &c.Nodes[n]
		if !inline || s.Gres != 0 || !nd.State.Usable() {
			if take {
				c.take(n, part, s.Cores, s.MemMB, s.Gres)
			} else {
				c.give(n, part, s.Cores, s.MemMB, s.Gres)
			}
			continue
		}
		c.mark(n)
		tight := nd.memTight()
		cores := sign * s.Cores
		if capped {
			c.capMove(part, n, -cores) // cores is what the node gains
		}
		to := nd.FreeCores + cores
		c.fl.move(nd.rank, nd.FreeCores, to)
		nd.FreeCores = to
		nd.FreeMem += int64(sign) * s.MemMB
		c.FreeCores += cores
		for _, p := range nd.parts {
			c.Parts[p].FreeCores += cores
		}
		if to > 0 {
			c.freeBits[nd.rank/64] |= 1 << (nd.rank % 64)
		} else {
			c.freeBits[nd.rank/64] &^= 1 << (nd.rank % 64)
		}
		c.retight(nd, tight)
	}
}

// coresOn is how many of holder i's cores lie on the nodes of set, read
// from the holder's words, and from its allocation only for a word whose
// nodes hold different numbers of cores and lie partly on set. The loops
// over holders answer a one-word holder inline (r.one) and call it for
// the rest.
func (r *Releases) coresOn(i int, set []uint64) int {
	sp := r.spans[i]
	k := 0
	for _, nw := range r.words[sp.lo:sp.hi] {
		m := set[nw.w] & nw.mask
		switch {
		case m == nw.mask:
			k += int(nw.cores)
		case m == 0:
		case nw.per > 0:
			k += bits.OnesCount64(m) * int(nw.per)
		default:
			// sliceCores' walk, written out: calling it here made
			// CEA-Curie 6 % slower (cross, days 200-212).
			a := r.h[i].Alloc[nw.s0:]
			for _, s := range a[:bits.OnesCount64(nw.mask)] {
				if m&(1<<(s.Node&63)) != 0 {
					k += s.Cores
				}
			}
		}
	}
	return k
}

// Insert puts h at position k (which keeps the End order), for a job
// the caller has just started. Shadows following the cluster replay
// its start, and give it back where k is before their cursor.
func (r *Releases) Insert(k int, h Holding) {
	r.gen++
	if r.following() {
		r.catchUp()
		for i := range r.shs {
			if s := &r.shs[i]; k < s.cur {
				r.moveAlloc(s.c, h.Alloc, h.Part, false)
				s.cur++
			}
		}
	}
	r.keys = slices.Insert(r.keys, k, keyOf(&h))
	r.prefix = r.prefix[:0]
	r.slicesBefore = r.slicesBefore[:0]
	h.Alloc = r.keep(h.Alloc)
	sp := r.wordsOf(h.Alloc)
	r.cores = append(r.cores, 0)
	copy(r.cores[k+1:], r.cores[k:])
	r.cores[k] = h.Alloc.Cores()
	r.h = append(r.h, Holding{})
	copy(r.h[k+1:], r.h[k:])
	r.h[k] = h
	r.spans = append(r.spans, relSpan{})
	copy(r.spans[k+1:], r.spans[k:])
	r.spans[k] = sp
	r.one = slices.Insert(r.one, k, r.oneOf(sp))
}

// Holdings are the holders in End order; the caller must not change them.
func (r *Releases) Holdings() []Holding { return r.h }

func (r *Releases) wordsOf(a Alloc) relSpan {
	lo := int32(len(r.words))
	for si, s := range a {
		w, m := int32(s.Node>>6), uint64(1)<<(s.Node&63)
		if k := len(r.words) - 1; k >= int(lo) && r.words[k].w == w && r.words[k].mask&m == 0 {
			nw := &r.words[k]
			nw.mask |= m
			nw.cores += int32(s.Cores)
			if nw.per != int32(s.Cores) {
				nw.per = 0
			}
			continue
		}
		r.words = append(r.words, nodeWord{mask: m, w: w, cores: int32(s.Cores), per: int32(s.Cores), s0: int32(si)})
	}
	return relSpan{lo, int32(len(r.words))}
}

// inPlay reports whether holder i has a node in play.
func (r *Releases) inPlay(i int, play []uint64) bool {
	sp := r.spans[i]
	for _, nw := range r.words[sp.lo:sp.hi] {
		if play[nw.w]&nw.mask != 0 {
			return true
		}
	}
	return false
}

// WillRun is the select plugin's will-run test (cons_tres, job_test.c
// _will_run_test) on the nodes of avail (a bitmap by node index): the
// earliest time, from now (c.Now) on, at which req fits partition p when
// the holders in rel give their cores, memory and GRES back at their
// ends; and the allocation the simulator's placement would make then.
// The cluster stays at the present; rel's shadows are left at future
// states of their cursors, and WillRun starts from any.
//
// As _will_run_test does, holders on nodes in play (avail's usable
// nodes of p) are removed in batches: the first batch runs to the first
// such end rounded up to 30 s of the wall clock (Cluster.Wall: Slurm
// takes end_time % 30 of Unix time) plus 30 s, each later batch to that time
// plus a window that doubles (further while the next end lies beyond
// it), and the job is tested after each batch (not after a batch of
// more than 201 holders: removal goes on); its start is then the last
// removed holder's end. A start later than until is not looked for
// (NotNow). Nodes that allocate nothing (drained, down) keep what their
// jobs give back, as in a run.
//
// A test is skipped when the free cores on the nodes in play of the
// type asked are fewer than the job's CPUs: placement could not succeed.
func (c *Cluster) WillRun(req *Request, p int, avail []uint64, rel *Releases, until int64, dst Alloc) (Alloc, int64, Fit) {
	a, t, fit, _ := c.WillRunBy(req, p, avail, rel, until, 0, dst)
	return a, t, fit
}

// WillRunBy is WillRun for a caller that wants a start by `by` (> 0) or
// not at all: when the first test that could fit (the first with enough
// free cores) comes after by, every answer WillRun could give is either
// no start or one after by, so it returns NotNow with cut true and
// places nothing. Most of a will-run test's cost is placement, and a
// backfill record whose next try already lies before such a start (it
// then tries from there) needs none.
func (c *Cluster) WillRunBy(req *Request, p int, avail []uint64, rel *Releases, until, by int64, dst Alloc) (Alloc, int64, Fit, bool) {
	return c.willRun(req, p, avail, rel, until, by, dst, nil)
}

// WillRunNodes is WillRunBy for a caller that needs of a start after now
// only its nodes, as a backfill reservation does: with a fit, nodes (a
// bitmap by node index, one bit per node of the cluster) holds the
// nodes chosen, and the allocation is appended to dst only for a start
// now. A CEA-Curie job takes 80 nodes on average: a placement building
// their slices, copied to the caller and into the will-run memo, cost
// more than finding them.
func (c *Cluster) WillRunNodes(req *Request, p int, avail []uint64, rel *Releases, until, by int64, dst Alloc, nodes []uint64) (Alloc, int64, Fit, bool) {
	return c.willRun(req, p, avail, rel, until, by, dst, nodes)
}

// willRun is WillRunBy, and WillRunNodes with nodes set: the monotone
// search where it applies (willRunMonotone), else the sequential tests,
// whose allocation then gives the nodes.
func (c *Cluster) willRun(req *Request, p int, avail []uint64, rel *Releases, until, by int64, dst Alloc, nodes []uint64) (Alloc, int64, Fit, bool) {
	// A node count (-N k) makes placement keep CPUs back for the nodes
	// still to come and pass over a last node short of the rest
	// (_eval_nodes), and with more free a different set may be chosen
	// and then fall short: its fit need not grow as holders give back.
	// A partition's MaxNodes below the CPUs asked does the same: more
	// free may offer a set whose first nodes are too small.
	monotone := !wrSequential && len(req.Gres) == 0 && c.resvFrom == nil && req.Nodes <= 1 && !req.capped() && !req.minSpread()
	if monotone {
		rel.ready(c)
	}
	c.setPlay(req, p, avail, rel.Cut)
	c.inWillRun = true // COMPLETING nodes are free to it (completing.go)
	defer func() { c.play, c.inWillRun = nil, false }()
	if monotone {
		return c.willRunMonotone(req, p, rel, until, by, dst, nodes)
	}
	a, t, fit := c.willRunSequential(req, p, rel, until, dst)
	if nodes != nil && fit == FitsNow {
		allocNodes(nodes, a[len(dst):])
		if t > c.Now {
			a = a[:len(dst)] // WillRunNodes: the nodes only, for a later start
		}
	}
	return a, t, fit, false
}

// willRunSequential is WillRun's tests one batch after another, on the
// cluster itself, its nodes in play set (setPlay): the path for GRES and
// maintenance reservations, whose fit need not grow as holders give back.
func (c *Cluster) willRunSequential(req *Request, p int, rel *Releases, until int64, dst Alloc) (Alloc, int64, Fit) {
	c.playFree = c.freeCoresIn(c.play)
	now := c.Now
	part := &c.Parts[p]
	a, fit := dst, NotNow
	if c.playFree >= req.CPUs {
		a, fit = c.TryAlloc(req, p, dst)
	}
	if fit == FitsNow {
		return a, now, FitsNow
	}
	var given []int // indices of rel given back
	defer func() {
		c.Now = now
		for _, i := range given {
			c.willRunMove(rel.h[i].Alloc, rel.h[i].Part, true)
		}
		c.willRunGiven = given[:0]
	}()
	given = c.willRunGiven[:0]
	const window0 = 30
	window, endTime := int64(window0), int64(0)
	hs := rel.h
	i := 0
	for more := true; more; {
		var last, at int64 // the batch's last end, and when its resources are expected back
		removed, skip := 0, false
		for {
			if i >= len(hs) {
				more = false
				break
			}
			h := &hs[i]
			i++
			if !rel.inPlay(i-1, c.playIdx) {
				continue // no node in play: _will_run_test skips it
			}
			c.willRunMove(h.Alloc, h.Part, false)
			given = append(given, i-1)
			if endTime == 0 {
				endTime = h.End + window0 - posMod(h.End+c.wall, window0)
			}
			last, at = h.End, c.releaseAt(h, now)
			if i >= len(hs) {
				more = false
				break
			}
			if hs[i].End > endTime+window {
				break
			}
			if removed++; removed > 200 {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		if last == 0 || last > until {
			if last > until {
				break
			}
			continue
		}
		for window *= 2; i < len(hs) && hs[i].End > endTime+window; {
			window *= 2
		}
		if part.FreeCores < req.CPUs || c.playFree < req.CPUs {
			continue // the cheap filters: too few cores in the partition, or on the nodes in play
		}
		// A holder still running now ends a second later at the soonest
		// (_will_run_test guesses the end of one past its limit:
		// releaseAt); a maintenance reservation is judged against that
		// start.
		c.Now = max(at, now+1)
		if a, fit = c.TryAlloc(req, p, dst); fit == FitsNow {
			return a, c.Now, FitsNow
		}
	}
	return dst, 0, NotNow
}

// setPlay marks the nodes a will-run test may use: avail's usable nodes
// of partition p (playIdx, by node index) and those of them of the type
// asked (play, by allocation rank, which placement ANDs with the free
// nodes; playIdx itself when that is the same). The free cores of play
// (playFree) are the caller's to count: willRunMonotone mostly has them
// from MayHaveCores. With cut (Releases.Cut), avail holds only such
// nodes already: untyped, in index order, it is the nodes in play, read
// where it is (the test does not write it).
func (c *Cluster) setPlay(req *Request, p int, avail []uint64, cut bool) {
	words := len(c.freeBits)
	if cut && avail != nil && len(avail) == words && c.rankIsIndex && req.Type < 0 {
		c.playIdx, c.playT, c.play = avail, avail, avail
		return
	}
	if len(c.playIdxBuf) != words {
		c.playIdxBuf = make([]uint64, words)
		c.playRank = make([]uint64, words)
	}
	c.playIdx = c.playIdxBuf
	member := c.Parts[p].memberBits
	for wi := range words {
		w := member[wi] &^ c.downBits[wi]
		if avail != nil {
			w &= avail[wi]
		}
		c.playIdx[wi] = w
	}
	play := c.playRank
	switch {
	case c.rankIsIndex && req.Type < 0:
		play = c.playIdx // the same nodes in the same order: no copy
	case c.rankIsIndex:
		for wi, w := range c.playIdx {
			c.playRank[wi] = w & c.typeBits[req.Type][wi]
		}
	default:
		clear(c.playRank)
		for wi, w := range c.playIdx {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &= w - 1
				if n := wi*64 + b; c.typeOK(req, n) {
					r := c.Nodes[n].rank
					c.playRank[r/64] |= 1 << (r % 64)
				}
			}
		}
	}
	c.playT = play
	if !c.rankIsIndex {
		if len(c.playTIdx) != words {
			c.playTIdx = make([]uint64, words)
		}
		for wi, w := range c.playIdx {
			if req.Type >= 0 {
				w &= c.typeBits[req.Type][wi]
			}
			c.playTIdx[wi] = w
		}
		c.playT = c.playTIdx
	}
	c.play = play
}

// wrPoint is a will-run test: at cut (the holders before it given back),
// at time last (now for the test before any release).
type wrPoint struct {
	cut  int
	last int64
	now  bool
	// guessed: last is a past-limit job's guessed end (releaseAt), which
	// may come after the ends of the tests behind it.
	guessed bool
}

// willRunMonotone is WillRun for a request whose fit can only grow as
// holders give back (no GRES, no maintenance reservation: every placement
// path then asks for enough free cores and memory on enough nodes of the
// set in play). It walks the tests _will_run_test would make, as WillRun
// does, keeps those the free cores in play could pass (a suffix, as free
// cores only grow), and finds the first that fits by probing the first,
// then galloping and bisecting: the same answer as testing them in
// order, with a shadow moved only between the states probed, and the
// tests listed only as far as the search looks. On nodes in play the
// cursor's state is the test's own; placement looks at no other node.
// The test of now runs on the cluster itself, later ones on rel's
// shadows, with the same nodes in play.
//
// With nodes set (WillRunNodes), a probe on a shadow gives its nodes
// only, into nodes, and dst stays as it is unless the start is now.
func (c *Cluster) willRunMonotone(req *Request, p int, rel *Releases, until, by int64, dst Alloc, nodes []uint64) (Alloc, int64, Fit, bool) {
	now := c.Now
	w := wrWalk{c: c, rel: rel, req: req, until: until, now: now, window: wrWindow0, more: true, free: -1}
	if m := &rel.sums; m.ok && m.gen == rel.gen && m.hash == c.NodeHash() && slices.Equal(m.set, c.playT) {
		w.sums = m
		if c.rankIsIndex {
			w.free = m.free // freeCoresIn of the same bitmap, in the same present
		}
	}
	if w.free < 0 {
		w.free = c.freeCoresIn(c.play)
	}
	c.playFree = w.free
	w.pts = c.wrPts[:0]
	if w.free >= req.CPUs {
		w.pts = append(w.pts, wrPoint{0, now, true, false})
	}
	defer func() { c.wrPts = w.pts }()
	best, bestNodes := -1, false
	if nodes != nil && len(c.wrSink) != len(nodes) {
		c.wrSink, c.wrBestNodes = make([]uint64, len(nodes)), make([]uint64, len(nodes))
	}
	fits := func(k int) bool {
		pt := w.pts[k]
		var a Alloc
		var fit Fit
		if pt.now {
			a, fit = c.TryAlloc(req, p, c.wrProbe[:0])
		} else {
			sh := rel.at(pt.cut)
			sh.play, sh.Now = c.play, max(pt.last, now+1)
			if nodes != nil {
				clear(c.wrSink)
				sh.sink = c.wrSink
			}
			a, fit = sh.TryAlloc(req, p, c.wrProbe[:0])
			sh.play, sh.sink = nil, nil
		}
		c.wrProbe = a[:0]
		if fit != FitsNow {
			return false
		}
		if best < 0 || k < best {
			best, bestNodes = k, nodes != nil && !pt.now
			if bestNodes {
				// Placements other than evalDrive's still give slices.
				for _, s := range a {
					c.wrSink[s.Node>>6] |= 1 << (s.Node & 63)
				}
				copy(c.wrBestNodes, c.wrSink)
			} else {
				c.wrBest = append(c.wrBest[:0], a...)
			}
		}
		return true
	}
	if !w.reach(0) {
		return dst, 0, NotNow, false
	}
	if by > 0 && !w.pts[0].now && !w.pts[0].guessed && w.pts[0].last > by {
		// Tests come in time order: any start found would be after by.
		// Not past a guessed end: the ends behind it may come sooner.
		return dst, 0, NotNow, true
	}
	if !fits(0) {
		lo, hi := 1, -1
		for j := 1; ; j = 2*j + 1 {
			if !w.reach(j) {
				hi = len(w.pts)
				break
			}
			if fits(j) {
				hi = j
				break
			}
			lo = j + 1
		}
		for lo < hi {
			if mid := (lo + hi) / 2; fits(mid) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
	}
	if best < 0 {
		return dst, 0, NotNow, false
	}
	t := max(w.pts[best].last, now+1)
	if w.pts[best].now {
		t = now
	}
	if bestNodes {
		copy(nodes, c.wrBestNodes)
		return dst, t, FitsNow, false
	}
	if nodes != nil {
		allocNodes(nodes, c.wrBest)
	}
	return append(dst, c.wrBest...), t, FitsNow, false
}

// allocNodes sets nodes (a bitmap by node index) to the nodes of a.
func allocNodes(nodes []uint64, a Alloc) {
	clear(nodes)
	for _, s := range a {
		nodes[s.Node>>6] |= 1 << (s.Node & 63)
	}
}

const wrWindow0 = 30

// wrSequential sends every request through WillRun's sequential path
// (for the test that the monotone search answers as it does).
var wrSequential bool

// wrWalk lists a will-run test's tests lazily, as WillRun makes them.
type wrWalk struct {
	c              *Cluster
	rel            *Releases
	req            *Request
	until, now     int64
	window, endTim int64
	i, free        int
	more           bool
	pts            []wrPoint
	// sums are MayHaveCores' running sums where they are of the nodes
	// in play (nil: they are not): the test after a bound of the same set.
	sums *coreSums
}

// reach lists tests until test k exists; false when there are no more.
func (w *wrWalk) reach(k int) bool {
	for len(w.pts) <= k {
		if !w.more {
			return false
		}
		w.step()
	}
	return true
}

// step is one batch of WillRun's loop: it may list one test.
func (w *wrWalk) step() {
	hs, rel, c := w.rel.h, w.rel, w.c
	var last, at int64 // the batch's last end, and when its resources are expected back
	removed, skip := 0, false
	for {
		if w.i >= len(hs) {
			w.more = false
			break
		}
		h := &hs[w.i]
		w.i++
		// Untyped, the nodes in play are those counted (playT): a
		// holder with no core on them has no node in play.
		var k int // rel.coresOn(w.i-1, c.playT), a one-word holder's inline
		if w.sums != nil {
			k = w.sums.at(rel, w.i-1)
		} else if o := &rel.one[w.i-1]; o.w < 0 {
			k = rel.coresOn(w.i-1, c.playT)
		} else if m := c.playT[o.w] & o.mask; m == o.mask {
			k = int(o.cores)
		} else if m != 0 {
			k = rel.coresOn(w.i-1, c.playT)
		}
		if k == 0 && (w.req.Type < 0 || !rel.inPlay(w.i-1, c.playIdx)) {
			continue // no node in play: _will_run_test skips it
		}
		w.free += k
		if w.endTim == 0 {
			w.endTim = h.End + wrWindow0 - posMod(h.End+c.wall, wrWindow0)
		}
		last = h.End
		if last <= w.now {
			at = c.releaseAt(h, w.now)
		} else {
			at = last
		}
		if w.i >= len(hs) {
			w.more = false
			break
		}
		if hs[w.i].End > w.endTim+w.window {
			break
		}
		if removed++; removed > 200 {
			skip = true
			break
		}
	}
	if skip || last == 0 {
		return
	}
	if last > w.until {
		w.more = false
		return
	}
	for w.window *= 2; w.i < len(hs) && hs[w.i].End > w.endTim+w.window; {
		w.window *= 2
	}
	if w.free >= w.req.CPUs {
		w.pts = append(w.pts, wrPoint{w.i, at, false, last <= w.now})
	}
}

// releaseAt is when a will-run test expects holder h's resources back:
// its end, or for a job already past it (running on into its OverTime
// until the time-limit check kills it), cons_common's _guess_job_end:
// the end plus KillWait and the partition's OverTime (UNLIMITED: now
// plus its limit, or a year), at least now + 1.
func (c *Cluster) releaseAt(h *Holding, now int64) int64 {
	if h.End > now {
		return h.End
	}
	t := h.End + c.KillWait
	switch over := c.Parts[h.Part].OverTime; {
	case over == Unlimited:
		t = now + 365*86400
		if h.Job != nil && h.Job.Limit > 0 {
			t = now + h.Job.Limit
		}
	case over > 0:
		t += over
	}
	return max(t, now+1)
}

// willRunMove gives an allocation's resources back (take false) or takes
// them again, on the nodes in play.
func (c *Cluster) willRunMove(a Alloc, part int, take bool) {
	for _, s := range a {
		n := s.Node
		if c.playIdx[n>>6]&(1<<(n&63)) == 0 {
			continue
		}
		nd := &c.Nodes[n]
		inType := c.play[nd.rank/64]&(1<<(nd.rank%64)) != 0
		if take {
			c.take(n, part, s.Cores, s.MemMB, s.Gres)
			if inType {
				c.playFree -= s.Cores
			}
		} else {
			c.give(n, part, s.Cores, s.MemMB, s.Gres)
			if inType {
				c.playFree += s.Cores
			}
		}
	}
}

// freeCoresIn is the free cores of the nodes in rank (a bitmap by
// allocation rank). A word whose free nodes are all in rank counts as
// the index's sum for it (freeLevels.word); otherwise the fewer of its
// free nodes in rank and out of it are visited. Will-run sets are the
// nodes free of reservations: their words hold either most free nodes
// or few.
func (c *Cluster) freeCoresIn(rank []uint64) int {
	total := 0
	if f := &c.fl; f.word != nil {
		rank, word := rank[:len(c.freeBits)], f.word[:len(c.freeBits)]
		for wi, fw := range c.freeBits {
			in := fw & rank[wi]
			switch {
			case in == 0:
			case in == fw:
				total += word[wi]
			default:
				if out := fw &^ in; bits.OnesCount64(out) < bits.OnesCount64(in) {
					total += word[wi] - c.coresOfRanks(wi, out)
				} else {
					total += c.coresOfRanks(wi, in)
				}
			}
		}
		return total
	}
	for wi, w := range c.freeBits {
		total += c.coresOfRanks(wi, w&rank[wi])
	}
	return total
}

// coresOfRanks is the free cores of the nodes of word wi's ranks in w.
func (c *Cluster) coresOfRanks(wi int, w uint64) int {
	k := 0
	if f := c.fl.free; f != nil {
		for ; w != 0; w &= w - 1 {
			k += int(f[wi*64+bits.TrailingZeros64(w)])
		}
		return k
	}
	for ; w != 0; w &= w - 1 {
		k += c.Nodes[c.byRank[wi*64+bits.TrailingZeros64(w)]].FreeCores
	}
	return k
}

// posMod is x mod m in [0, m).
func posMod(x, m int64) int64 {
	r := x % m
	if r < 0 {
		r += m
	}
	return r
}
