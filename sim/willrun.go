package sim

import "math/bits"

// Releases are the holders a will-run test gives back, sorted by End,
// each with its nodes as bitmap words: a pass tests many jobs against
// the same holders, and asking of each holder whether it has a node in
// play is then a few word ANDs instead of a walk over its slices.
type Releases struct {
	h     []Holding
	spans []relSpan // per holder: its words in words
	words []nodeWord
}

type relSpan struct{ lo, hi int32 }

// nodeWord is one 64-node word of a holder's nodes (by node index).
type nodeWord struct {
	w    int32
	mask uint64
}

// Reset makes r the holders h, which must be sorted by End (the caller's
// order among equal ends is kept).
func (r *Releases) Reset(h []Holding) {
	r.h = append(r.h[:0], h...)
	r.spans = r.spans[:0]
	r.words = r.words[:0]
	for i := range r.h {
		r.spans = append(r.spans, r.wordsOf(r.h[i].Alloc))
	}
}

// Insert puts h at position k (which keeps the End order).
func (r *Releases) Insert(k int, h Holding) {
	sp := r.wordsOf(h.Alloc)
	r.h = append(r.h, Holding{})
	copy(r.h[k+1:], r.h[k:])
	r.h[k] = h
	r.spans = append(r.spans, relSpan{})
	copy(r.spans[k+1:], r.spans[k:])
	r.spans[k] = sp
}

// Holdings are the holders in End order; the caller must not change them.
func (r *Releases) Holdings() []Holding { return r.h }

func (r *Releases) wordsOf(a Alloc) relSpan {
	lo := int32(len(r.words))
	for _, s := range a {
		w, m := int32(s.Node>>6), uint64(1)<<(s.Node&63)
		if k := len(r.words) - 1; k >= int(lo) && r.words[k].w == w {
			r.words[k].mask |= m
			continue
		}
		r.words = append(r.words, nodeWord{w, m})
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
// The cluster is changed while it runs and restored before it returns.
//
// As _will_run_test does, holders on nodes in play (avail's usable
// nodes of p) are removed in batches: the first batch runs to the first
// such end rounded up to 30 s plus 30 s, each later batch to that time
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
	now := c.Now
	c.setPlay(req, p, avail)
	defer func() { c.play = nil }()
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
			c.willRunMove(rel.h[i].Alloc, true)
		}
		c.willRunGiven = given[:0]
	}()
	given = c.willRunGiven[:0]
	const window0 = 30
	window, endTime := int64(window0), int64(0)
	hs := rel.h
	i := 0
	for more := true; more; {
		var last int64
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
			c.willRunMove(h.Alloc, false)
			given = append(given, i-1)
			if endTime == 0 {
				endTime = h.End + window0 - h.End%window0
			}
			last = h.End
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
		// (_will_run_test guesses the end of one past its limit); a
		// maintenance reservation is judged against that start.
		c.Now = max(last, now+1)
		if a, fit = c.TryAlloc(req, p, dst); fit == FitsNow {
			return a, c.Now, FitsNow
		}
	}
	return dst, 0, NotNow
}

// setPlay marks the nodes a will-run test may use: avail's usable nodes
// of partition p (playIdx, by node index), those of them of the type
// asked (play, by allocation rank, which placement ANDs with the free
// nodes), and the free cores of the latter (playFree).
func (c *Cluster) setPlay(req *Request, p int, avail []uint64) {
	words := len(c.freeBits)
	if len(c.playIdx) != words {
		c.playIdx = make([]uint64, words)
		c.playRank = make([]uint64, words)
	}
	member := c.Parts[p].memberBits
	for wi := range words {
		w := member[wi] &^ c.downBits[wi]
		if avail != nil {
			w &= avail[wi]
		}
		c.playIdx[wi] = w
	}
	if c.rankIsIndex {
		for wi, w := range c.playIdx {
			if req.Type >= 0 {
				w &= c.typeBits[req.Type][wi]
			}
			c.playRank[wi] = w
		}
	} else {
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
	// Only nodes with a free core add to playFree.
	c.playFree = 0
	for wi, w := range c.freeBits {
		w &= c.playRank[wi]
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			c.playFree += c.Nodes[c.byRank[wi*64+b]].FreeCores
		}
	}
	c.play = c.playRank
}

// willRunMove gives an allocation's resources back (take false) or takes
// them again, on the nodes in play.
func (c *Cluster) willRunMove(a Alloc, take bool) {
	for _, s := range a {
		n := s.Node
		if c.playIdx[n>>6]&(1<<(n&63)) == 0 {
			continue
		}
		nd := &c.Nodes[n]
		inType := c.play[nd.rank/64]&(1<<(nd.rank%64)) != 0
		if take {
			c.take(n, s.Cores, s.MemMB, s.Gres)
			if inType {
				c.playFree -= s.Cores
			}
		} else {
			c.give(n, s.Cores, s.MemMB, s.Gres)
			if inType {
				c.playFree += s.Cores
			}
		}
	}
}
