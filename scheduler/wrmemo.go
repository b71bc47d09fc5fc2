package scheduler

import (
	"slices"

	"fairsim/sim"
)

// wrMemo remembers will-run answers from one backfill cycle to the next.
// Most cycles follow a change that leaves the running jobs as they were
// (a submission, a priority tick); their records then ask the same
// questions of the same cluster, and the answers are the same: a record
// whose reservations ahead of it did not move gets the same nodes at the
// same time. An answer is reused only when everything it depends on is
// equal: the cluster's present (every node's free cores and memory, its
// state) and the expected releases (each holder's job, start and end),
// through the cycle's fingerprint; the request, the partition and the
// nodes in play, compared in full; and the time: a later start is kept
// only while it still lies after now, and a search that found nothing up
// to until finds nothing up to an earlier until. A start now changes the
// cluster and is not kept; a later one is kept as its nodes, all its
// reservation needs.
// Requests with GRES and clusters with reservations are not memoised (the
// will-run test then also depends on the time through the reservations).
type wrMemo struct {
	fp    uint64 // the cluster and its releases, this cycle (0: memo off)
	stale bool   // fp must be made again before use: the cycle began, or a start or preemption changed the cluster
	// entries are by job index less base, then by test (nil: none): a
	// slice, as every record a cycle tests asks, and hashing its index
	// for a map was 1.4 % of a CEA-Curie run. sweep moves base up to
	// the oldest index still held, so the slice spans the queue, not
	// the trace (a pointer per job of a ten-million-job trace, scanned
	// by every collection). live lists the indices that hold tests.
	entries []*wrTests
	base    int
	live    []int
	hits    int // answers reused
}

// wrTests are a record's remembered tests, by wrKey.k (nil: none).
type wrTests struct{ k []*wrEntry }

// wrMemoOff turns the memo off (for the test that it changes nothing).
var wrMemoOff bool

// wrKey is a record's k-th will-run test of a cycle (a record tries later
// start times after the first).
type wrKey struct {
	idx int
	k   int
}

type wrEntry struct {
	fp       uint64
	req      sim.Request
	part     int
	avail    []uint64
	until    int64
	t        int64
	fit      sim.Fit
	nodes    []uint64 // of a fit: the nodes chosen, by node index
	lastSeen uint64   // the cycle that last used it
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
	}
	return h | 1
}

// lookup returns the remembered answer of key for these inputs.
func (m *wrMemo) lookup(key wrKey, req *sim.Request, part int, avail []uint64, until, now int64, cycle uint64) (*wrEntry, bool) {
	var e *wrEntry
	i := key.idx - m.base
	if i < 0 || i >= len(m.entries) {
		return nil, false
	}
	if ts := m.entries[i]; ts != nil && key.k < len(ts.k) {
		e = ts.k[key.k]
	}
	if wrMemoOff || e == nil || m.fp == 0 || e.fp != m.fp || e.part != part || !sameRequest(&e.req, req) || !slices.Equal(e.avail, avail) {
		return nil, false
	}
	switch {
	case e.fit != sim.FitsNow:
		if until > e.until {
			return nil, false
		}
	case e.t <= now:
		return nil, false // the start was one past a release that has passed
	case e.t > until:
		return nil, false
	}
	e.lastSeen = cycle
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

// store remembers an answer: for a fit, its nodes (a bitmap by node
// index). A start now is not kept, as no later cycle asks again.
func (m *wrMemo) store(key wrKey, req *sim.Request, part int, avail []uint64, until, now, t int64, fit sim.Fit, nodes []uint64, cycle uint64) {
	if m.fp == 0 || len(req.Gres) > 0 || fit == sim.FitsNow && t == now {
		return // a start now changes the cluster: no later cycle asks again
	}
	if len(m.entries) == 0 {
		m.base = key.idx
	}
	i := key.idx - m.base
	if i < 0 {
		// A job older than every one sweep kept (held by a limit then,
		// say): the slice grows at the front, seldom.
		m.entries = append(make([]*wrTests, -i, len(m.entries)-i), m.entries...)
		m.base, i = key.idx, 0
	}
	if i >= len(m.entries) {
		m.entries = append(m.entries, make([]*wrTests, i+1-len(m.entries))...)
	}
	ts := m.entries[i]
	if ts == nil {
		ts = &wrTests{}
		m.entries[i] = ts
		m.live = append(m.live, key.idx)
	}
	for len(ts.k) <= key.k {
		ts.k = append(ts.k, nil)
	}
	e := ts.k[key.k]
	if e == nil {
		e = &wrEntry{}
		ts.k[key.k] = e
	}
	e.fp, e.req, e.part, e.until, e.t, e.fit, e.lastSeen = m.fp, *req, part, until, t, fit, cycle
	e.req.Gres = nil
	e.avail = append(e.avail[:0], avail...)
	if fit == sim.FitsNow {
		e.nodes = append(e.nodes[:0], nodes...)
	}
}

// sweep forgets the entries no cycle used for a while, so the memo
// follows the queue.
func (m *wrMemo) sweep(cycle uint64) {
	kept := m.live[:0]
	oldest := -1
	for _, idx := range m.live {
		ts := m.entries[idx-m.base]
		live := 0
		for k, e := range ts.k {
			if e != nil && cycle-e.lastSeen > 4 {
				ts.k[k], e = nil, nil
			}
			if e != nil {
				live++
			}
		}
		if live == 0 {
			m.entries[idx-m.base] = nil
		} else {
			kept = append(kept, idx)
			if oldest < 0 || idx < oldest {
				oldest = idx
			}
		}
	}
	m.live = kept
	switch {
	case len(kept) == 0:
		clear(m.entries)
		m.entries = m.entries[:0]
	case 2*(oldest-m.base) >= len(m.entries):
		// The queue moved on: the slice starts at its oldest entry.
		n := copy(m.entries, m.entries[oldest-m.base:])
		clear(m.entries[n:])
		m.entries, m.base = m.entries[:n], oldest
	}
}

// sameRequest compares two requests without GRES, field by field
// (TestSameRequestCoversRequest fails when Request gains a field).
func sameRequest(a, b *sim.Request) bool {
	return len(a.Gres) == 0 && len(b.Gres) == 0 && a.CPUs == b.CPUs && a.Nodes == b.Nodes &&
		a.MemPerCPU == b.MemPerCPU && a.MemPerNode == b.MemPerNode && a.Exclusive == b.Exclusive &&
		a.Type == b.Type && a.GresID == b.GresID && a.Limit == b.Limit && a.MemPerGPU == b.MemPerGPU && a.Resv == b.Resv && a.MaxNodes == b.MaxNodes
}
