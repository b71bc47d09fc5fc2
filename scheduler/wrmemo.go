package scheduler

import (
	"slices"

	"fairsim/sim"
)

// wrMemo remembers will-run answers while the cluster and its releases
// stay as they are: from one backfill cycle to the next (most cycles
// follow a change that leaves the running jobs as they were: a
// submission, a priority tick) and within a cycle, where records of one
// shape ask the same question of the same nodes (a record that moved on
// leaves the map as it was for the next of its shape; on CEA-Curie one
// computed test in six repeated one of its cycle). An answer depends on
// the cluster's present (every node's free cores and memory, its state)
// and the expected releases (each holder's job, start and end), through
// the fingerprint; on the request, the partition and the nodes in play,
// compared in full; and on the time: a later start is kept only while it
// still lies after now, and a search that found nothing up to until
// finds nothing up to an earlier until. Which job asks does not matter.
// A start now changes the cluster and is not kept; a later one is kept
// as its nodes, all its reservation needs. A new fingerprint forgets
// every answer (a cluster never comes back to an earlier state: its
// holders change).
// Requests with GRES and clusters with reservations are not memoised (the
// will-run test then also depends on the time through the reservations).
type wrMemo struct {
	fp    uint64 // the cluster and its releases, this cycle (0: memo off)
	stale bool   // fp must be made again before use: the cycle began, or a start or preemption changed the cluster
	// index maps a question's hash (wrHash) to its entry in pool, for
	// the answers of fp (memoFP); a hash two questions share keeps the
	// later one's answer.
	index  keyTable[uint64, int32]
	pool   []wrEntry
	memoFP uint64
	max    int // entries kept at most (wrMemoMax, less for a big cluster)
	hits   int // answers reused
}

// wrMemoOff turns the memo off (for the test that it changes nothing).
var wrMemoOff bool

// wrMemoMax bounds the answers kept for one fingerprint: a cluster that
// stays unchanged for a long quiet spell would otherwise keep every
// question its cycles asked. wrMemoBytes bounds them too, as each holds
// two node bitmaps: 32 MB at most (CEA-Curie's 5,544 nodes reach the
// count first; a cluster of 50,000 nodes keeps some 2,700).
const (
	wrMemoMax   = 1 << 14
	wrMemoBytes = 1 << 25
)

type wrEntry struct {
	req   sim.Request
	part  int
	avail []uint64
	until int64
	t     int64
	fit   sim.Fit
	nodes []uint64 // of a fit: the nodes chosen, by node index
	// cutBy, when above 0, makes the entry a cut test's (WillRunBy): no
	// start at or before cutBy, so no start by any earlier by either.
	// One computed test in five of a CEA-Curie run was cut, and half of
	// those asked again what an earlier cut had answered.
	cutBy int64
}

// mix is splitmix64's finaliser: a well-spread hash of one word.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// fingerprint hashes what a will-run answer depends on besides the
// request and the nodes in play: every node's state and free cores and
// memory, and the holders (job, start, end), order-free. 0 turns the memo
// off: reservations make answers depend on the time.
func fingerprint(c *sim.Cluster, hs []sim.Holding) uint64 {
	if c.HasReservations() {
		return 0
	}
	h := c.NodeHash()
	for p := range c.Parts {
		h += mix(uint64(p)<<8 ^ uint64(c.Parts[p].State) ^ 0x5bd1e995)
	}
	for i := range hs {
		k := uint64(1 << 62)
		if hs[i].Job != nil {
			k = uint64(hs[i].Job.Idx)
		}
		h += mix(mix(k) ^ uint64(hs[i].Start)*0x100000001b3 ^ uint64(hs[i].End))
		if hs[i].End <= c.Now && c.Parts[hs[i].Part].OverTime == sim.Unlimited {
			// Past its limit under OverTimeLimit=UNLIMITED: a will-run
			// test guesses its end from now (releaseAt), so no answer
			// holds from one second to the next.
			h += mix(uint64(c.Now) ^ 0x2545f4914f6cdd1d)
		}
	}
	return h | 1
}

// wrHash hashes a question: the request's shape, the partition and the
// nodes in play.
func wrHash(req *sim.Request, part int, avail []uint64) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, w := range [...]uint64{uint64(req.CPUs), uint64(req.Nodes), uint64(req.MemPerCPU), uint64(req.MemPerNode),
		uint64(req.Type), uint64(req.Limit), uint64(req.MaxNodes), uint64(req.MinNodes), uint64(part)} {
		h = (h ^ w) * 0x100000001b3
	}
	// Four lanes: one chain of multiplies over some 90 words was 2.5 %
	// of a CEA-Curie run, waiting on each multiply in turn.
	h1, h2, h3 := h^1, h^2, h^3
	i := 0
	for ; i+4 <= len(avail); i += 4 {
		h = (h ^ avail[i]) * 0x100000001b3
		h1 = (h1 ^ avail[i+1]) * 0x100000001b3
		h2 = (h2 ^ avail[i+2]) * 0x100000001b3
		h3 = (h3 ^ avail[i+3]) * 0x100000001b3
	}
	for ; i < len(avail); i++ {
		h = (h ^ avail[i]) * 0x100000001b3
	}
	return mix(h ^ mix(h1) ^ mix(h2)<<1 ^ mix(h3)<<2)
}

// sync forgets the answers of an earlier fingerprint.
func (m *wrMemo) sync() {
	if m.index.hash == nil {
		m.index.hash = func(h *uint64) uint64 { return *h } // wrHash mixed it
	}
	if m.memoFP != m.fp || m.max > 0 && m.index.n >= m.max {
		m.index.reset()
		m.pool = m.pool[:0]
		m.memoFP = m.fp
	}
}

// lookup returns the remembered answer to a question with hash h
// (wrHash), asked with a start wanted by `by` (0: any).
func (m *wrMemo) lookup(h uint64, req *sim.Request, part int, avail []uint64, until, now, by int64) (*wrEntry, bool) {
	if wrMemoOff || m.fp == 0 {
		return nil, false
	}
	m.sync()
	i, ok := m.index.getHashed(&h, h)
	if !ok {
		return nil, false
	}
	e := &m.pool[i]
	if e.part != part || !sameRequest(&e.req, req) || !slices.Equal(e.avail, avail) {
		return nil, false
	}
	switch {
	case e.cutBy > 0:
		// The tests a walk lists come from the releases alone (their
		// ends, batched on the wall clock), which the fingerprint fixes.
		if by <= 0 || by > e.cutBy {
			return nil, false
		}
	case e.fit != sim.FitsNow:
		if until > e.until {
			return nil, false
		}
	case e.t <= now:
		return nil, false // the start was one past a release that has passed
	case e.t > until:
		return nil, false
	}
	m.hits++
	return e, true
}

// answer is e's answer: a start after now (lookup gives no other fit),
// its nodes copied into nodes.
func (e *wrEntry) answer(nodes []uint64) (int64, sim.Fit) {
	if e.fit != sim.FitsNow {
		return 0, e.fit
	}
	copy(nodes, e.nodes)
	return e.t, sim.FitsNow
}

// store remembers an answer to the question with hash h: for a fit,
// its nodes (a bitmap by node index); for a cut test (cutBy > 0), that
// it found no start by cutBy. A start now is not kept, as no later test
// asks again before the cluster changes.
func (m *wrMemo) store(h uint64, req *sim.Request, part int, avail []uint64, until, now, t int64, fit sim.Fit, nodes []uint64, cutBy int64) {
	if wrMemoOff || m.fp == 0 || len(req.Gres) > 0 || fit == sim.FitsNow && t == now {
		return
	}
	if m.max == 0 {
		m.max = max(64, min(wrMemoMax, wrMemoBytes/(16*max(1, len(avail)))))
	}
	m.sync()
	i, ok := m.index.getHashed(&h, h)
	if !ok {
		if len(m.pool) < cap(m.pool) {
			m.pool = m.pool[:len(m.pool)+1] // reuse the slices of an earlier fingerprint's entry
		} else {
			m.pool = append(m.pool, wrEntry{})
		}
		i = int32(len(m.pool) - 1)
		m.index.putHashed(&h, h, i)
	}
	e := &m.pool[i]
	e.req, e.part, e.until, e.t, e.fit, e.cutBy = *req, part, until, t, fit, cutBy
	if cutBy > 0 {
		e.fit = sim.NotNow
	}
	e.req.Gres = nil
	e.avail = append(e.avail[:0], avail...)
	if fit == sim.FitsNow {
		e.nodes = append(e.nodes[:0], nodes...)
	}
}

// sameRequest compares two requests without GRES, field by field
// (TestSameRequestCoversRequest fails when Request gains a field).
func sameRequest(a, b *sim.Request) bool {
	return len(a.Gres) == 0 && len(b.Gres) == 0 && a.CPUs == b.CPUs && a.Nodes == b.Nodes &&
		a.MemPerCPU == b.MemPerCPU && a.MemPerNode == b.MemPerNode && a.Exclusive == b.Exclusive &&
		a.Type == b.Type && a.GresID == b.GresID && a.Limit == b.Limit && a.MemPerGPU == b.MemPerGPU && a.Resv == b.Resv && a.MaxNodes == b.MaxNodes && a.MinNodes == b.MinNodes
}
