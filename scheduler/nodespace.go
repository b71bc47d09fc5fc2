package scheduler

import (
	"math/bits"
	"slices"

	"fairsim/sim"
)

// nodeSpace is backfill.c's node_space map: consecutive time records on
// the bf_resolution grid over bf_window, each holding the nodes no
// backfill reservation holds during it, as a bitmap of node indices. The
// first record starts at now rounded down to bf_resolution, the last
// ends at now + bf_window rounded down. A reservation splits the records
// at its start and end and clears its nodes in those between
// (_add_reservation), so each record is a run of grid slots with the same
// bitmap.
type nodeSpace struct {
	words int
	recs  []nsRec
	pool  [][]uint64 // bitmaps of records dropped by reset or merged, for reuse
	// made counts the records made this pass, the first included, as
	// backfill.c's node_space_recs: a merge does not lower it, and
	// bf_node_space_size bounds it.
	made int
	// resv lists the reservations as they clear records: each over the
	// map's slots it covers, with its nodes. Records are split at every
	// reservation's start and end, so a record lies wholly inside or
	// outside each one, and the nodes a range of records lacks are the
	// nodes of the reservations meeting the range: availOver and
	// overlaps read this list instead of ANDing a bitmap per record.
	resv    []nsResv
	byBegin []int32  // resv's indices by begin (overlapsAfter)
	arena   []uint64 // the reservations' node bitmaps, each over its words
	// held caches, per range [start, end] asked, the nodes the
	// reservations meeting it hold, up to the first n reservations: a
	// cycle asks the same few ranges (now to now plus each common time
	// limit) for record after record, while reservations only grow.
	// They are kept by start (a map keyed by one time is cheaper to
	// read than one keyed by two), then by end.
	held       map[int64]*nsStart
	spare      []*nsHeld
	spareStart []*nsStart
	// spareEnds are ends lists of records gone, for reuse.
	spareEnds [][]int32
}

// nsStart is held's ranges of one start: the ends asked with it, in
// order, and their nodes. A range new to held starts from the one of
// the same start ending before it, whose nodes it holds and more.
type nsStart struct {
	ends []int64
	held []*nsHeld
}

type nsHeld struct {
	n     int
	nodes []uint64
}

// nsResv is a reservation's slots and its nodes: the bitmap's words
// w0 to w0+hi-lo, as arena[lo:hi] (allocations are mostly runs of
// neighbouring nodes, so the span is short).
type nsResv struct {
	begin, end int64
	w0, lo, hi int32
}

type nsRec struct {
	begin, end int64
	avail      []uint64
	// ends are the reservations (indices into resv) ending at end: the
	// next record can hold a node this one lacks only in their words.
	ends []int32
	// differs is a word where avail last differed from the next
	// record's: add's search for neighbours to merge reads it first, as
	// a reservation seldom makes two records equal there.
	differs int32
}

func (m *nodeSpace) bitmap() []uint64 {
	if k := len(m.pool); k > 0 {
		b := m.pool[k-1]
		m.pool = m.pool[:k-1]
		return b
	}
	return make([]uint64, m.words)
}

// reset makes the map one record [begin, end) with the nodes of avail.
func (m *nodeSpace) reset(words int, begin, end int64, avail []uint64) {
	if words != m.words {
		m.pool = m.pool[:0]
		m.words = words
		for i := range m.recs {
			m.recs[i].avail = nil
		}
	}
	for _, r := range m.recs {
		if r.avail != nil {
			m.pool = append(m.pool, r.avail)
		}
		if r.ends != nil {
			m.spareEnds = append(m.spareEnds, r.ends[:0])
		}
	}
	m.recs = m.recs[:0]
	b := m.bitmap()
	copy(b, avail)
	m.recs = append(m.recs, nsRec{begin, max(end, begin), b, m.endsList(), 0})
	m.made = 1
	m.resv = m.resv[:0]
	m.byBegin = m.byBegin[:0]
	m.arena = m.arena[:0]
	for k, st := range m.held {
		for _, h := range st.held {
			if len(h.nodes) == words {
				m.spare = append(m.spare, h)
			}
		}
		clear(st.held)
		st.ends, st.held = st.ends[:0], st.held[:0]
		m.spareStart = append(m.spareStart, st)
		delete(m.held, k)
	}
}

// availOver clears from dst, which holds base on entry, the nodes a
// reservation holds in some record a job running over [start, end]
// (end >= start) meets:
// records ending after start and beginning at or before end (backfill.c
// _attempt_backfill, which tests a job's end inclusively). later is the
// end of the record holding start when the next record offers a node of
// base this one does not: the next time worth trying (0: none). ok is
// whether dst keeps at least need nodes, which every caller asks next;
// the nodes are counted only until they reach need (a popcount of every
// word was 2 % of CEA-Curie's run under slurm).
//
// backfill.c ANDs the records' bitmaps in turn and asks at each record
// whether the next one frees a node of base the records so far lack.
// Until one does, the records so far lack exactly what base ANDed with
// the current record lacks, so the question is asked of neighbouring
// records alone; and what the records meeting the range lack is the
// nodes of the reservations meeting it (resv).
func (m *nodeSpace) availOver(dst []uint64, start, end int64, need int) (later int64, ok bool) {
	later = m.laterOver(dst, start, end)
	h := m.heldOver(start, end)
	held := h.nodes
	dst = dst[:len(held)]
	n, w := 0, 0
	for ; w < len(held) && n < need; w++ {
		d := dst[w] &^ held[w]
		dst[w] = d
		n += bits.OnesCount64(d)
	}
	for ; w < len(held); w++ {
		dst[w] &^= held[w]
	}
	return later, n >= need
}

// laterOver is availOver's later for base, without the nodes.
func (m *nodeSpace) laterOver(base []uint64, start, end int64) int64 {
	// The first record ending after start, searched by index: the
	// generic search copied each 64-byte record into its comparison.
	i, hi := 0, len(m.recs)
	for i < hi {
		if mid := int(uint(i+hi) >> 1); m.recs[mid].end <= start {
			i = mid + 1
		} else {
			hi = mid
		}
	}
	for ; i+1 < len(m.recs); i++ {
		r := &m.recs[i]
		if m.gainsAt(base, r, &m.recs[i+1]) {
			return r.end
		}
		if r.begin > end {
			break
		}
	}
	return 0
}

// heldOver is the nodes the reservations meeting [start, end] hold.
func (m *nodeSpace) heldOver(start, end int64) *nsHeld {
	st := m.held[start]
	if st == nil {
		if k := len(m.spareStart); k > 0 {
			st = m.spareStart[k-1]
			m.spareStart = m.spareStart[:k-1]
		} else {
			st = &nsStart{}
		}
		if m.held == nil {
			m.held = map[int64]*nsStart{}
		}
		m.held[start] = st
	}
	k, found := slices.BinarySearch(st.ends, end)
	var h *nsHeld
	if found {
		h = st.held[k]
	} else {
		if n := len(m.spare); n > 0 {
			h = m.spare[n-1]
			m.spare = m.spare[:n-1]
			h.n = 0
			clear(h.nodes)
		} else {
			h = &nsHeld{nodes: make([]uint64, m.words)}
		}
		if k > 0 {
			// [start, ends[k-1]] holds what it holds, and the
			// reservations beginning after its end up to end add theirs.
			e0 := st.ends[k-1]
			copy(h.nodes, m.heldOver(start, e0).nodes)
			h.n = len(m.resv)
			for _, i := range m.byBegin[m.beginningAfter(e0):] {
				rv := &m.resv[i]
				if rv.begin > end {
					break
				}
				if rv.end > start {
					m.orResv(h.nodes, rv)
				}
			}
		}
		st.ends = slices.Insert(st.ends, k, end)
		st.held = slices.Insert(st.held, k, h)
	}
	for i := range m.resv[h.n:] {
		if rv := &m.resv[h.n+i]; rv.end > start && rv.begin <= end {
			m.orResv(h.nodes, rv)
		}
	}
	h.n = len(m.resv)
	return h
}

// beginningAfter is the position in byBegin of the first reservation
// beginning after t (len: none).
func (m *nodeSpace) beginningAfter(t int64) int {
	k, _ := slices.BinarySearchFunc(m.byBegin, t+1, func(i int32, t int64) int {
		if m.resv[i].begin < t {
			return -1
		}
		return 1
	})
	return k
}

// orResv sets in nodes the nodes of reservation rv.
func (m *nodeSpace) orResv(nodes []uint64, rv *nsResv) {
	src := m.arena[rv.lo:rv.hi]
	d := nodes[rv.w0:][:len(src)] // one bounds check, not one a word
	for k, x := range src {
		d[k] |= x
	}
}

// gainsAt reports whether base∧next has a bit that this lacks, where
// next follows this: only a reservation ending between them can free a
// node, so only their words are read.
func (m *nodeSpace) gainsAt(base []uint64, this, next *nsRec) bool {
	for _, k := range this.ends {
		rv := &m.resv[k]
		n := int(rv.hi - rv.lo)
		// Cut to the reservation's words first: three bounds checks per
		// reservation instead of three per word.
		b, na, ta := base[rv.w0:][:n], next.avail[rv.w0:][:n], this.avail[rv.w0:][:n]
		for w := range b {
			if b[w]&na[w]&^ta[w] != 0 {
				return true
			}
		}
	}
	return false
}

// overlapsAfter is overlaps for nodes that no reservation meeting
// [from-limit, from] holds (availOver's range, from being its end), where
// start is at or after that range's start: only a reservation beginning
// after from can then meet them within [start, end), as one ending at or
// before the range's start ends on the grid at or before start. The
// reservations are read from the first beginning after from, in order of
// their beginnings, up to end.
func (m *nodeSpace) overlapsAfter(nodes []uint64, start, end, from int64) bool {
	if start >= end {
		return m.overlaps(nodes, start, end)
	}
	for _, i := range m.byBegin[m.beginningAfter(from):] {
		rv := &m.resv[i]
		if rv.begin >= end {
			break
		}
		if rv.end > start {
			d := nodes[rv.w0:]
			for k, x := range m.arena[rv.lo:rv.hi] {
				if d[k]&x != 0 {
					return true
				}
			}
		}
	}
	return false
}

// overlaps reports whether nodes meet a reservation within [start, end)
// (backfill.c _test_resv_overlap: a record ending after start and
// beginning before end that lacks one of the nodes).
func (m *nodeSpace) overlaps(nodes []uint64, start, end int64) bool {
	if start >= end {
		// An empty range: read the records, as a record strictly
		// holding start may lack the nodes of a reservation that does
		// not reach into the range.
		for i := range m.recs {
			if r := &m.recs[i]; r.end > start && r.begin < end {
				for w := range nodes {
					if nodes[w]&^r.avail[w] != 0 {
						return true
					}
				}
			}
		}
		return false
	}
	for _, rv := range m.resv {
		if rv.end > start && rv.begin < end {
			d := nodes[rv.w0:]
			for k, x := range m.arena[rv.lo:rv.hi] {
				if d[k]&x != 0 {
					return true
				}
			}
		}
	}
	return false
}

// meets reports whether a reservation from the from-th on meets [start,
// end] (as heldOver reads them) on a node of a.
func (m *nodeSpace) meets(a sim.Alloc, from int, start, end int64) bool {
	for _, rv := range m.resv[from:] {
		if rv.end <= start || rv.begin > end {
			continue
		}
		for _, sl := range a {
			w := int32(sl.Node>>6) - rv.w0
			if w >= 0 && w < rv.hi-rv.lo && m.arena[rv.lo+w]&(1<<(sl.Node&63)) != 0 {
				return true
			}
		}
	}
	return false
}

// add reserves nodes over [start, end) as backfill.c _add_reservation
// does: start no earlier than the map, at least one slot long. The record
// holding start is split there, even at its beginning (the map's first
// record then keeps an empty record before the reservation, as Slurm's
// does); the record holding end is split there; the nodes are cleared in
// the records between; and then the first two neighbouring records with
// equal bitmaps, from the last record ending before start to the one
// after the reservation, are merged into one. Every split counts in made;
// a merge gives nothing back.
func (m *nodeSpace) add(start, end, res int64, nodes []uint64) {
	start = max(start, m.recs[0].begin)
	end = max(end, start+res)
	oneBefore, first := 0, -1
	for i := range m.recs {
		r := &m.recs[i]
		if r.end > start {
			m.splitAt(i, start)
			first = i + 1
			break
		}
		if r.end == start {
			first = i + 1
			break
		}
		oneBefore = i
	}
	oneAfter := -1 // the record after the reservation's last
	// The reservation's nodes lie in words w0 to w1 (mostly runs of
	// neighbouring nodes): only those words of each record change.
	w0, w1 := 0, len(nodes)
	for w0 < w1 && nodes[w0] == 0 {
		w0++
	}
	for w1 > w0 && nodes[w1-1] == 0 {
		w1--
	}
	if first >= 0 && first < len(m.recs) {
		lo := int32(len(m.arena))
		m.arena = append(m.arena, nodes[w0:w1]...)
		m.resv = append(m.resv, nsResv{m.recs[first].begin, min(end, m.recs[len(m.recs)-1].end), int32(w0), lo, int32(len(m.arena))})
		b := m.resv[len(m.resv)-1].begin
		k := m.beginningAfter(b)
		m.byBegin = slices.Insert(m.byBegin, k, int32(len(m.resv)-1))
	}
	for k := first; first >= 0 && k < len(m.recs); k++ {
		r := &m.recs[k]
		if end < r.end {
			m.splitAt(k, end)
			r = &m.recs[k]
		}
		for w := w0; w < w1; w++ {
			r.avail[w] &^= nodes[w]
		}
		if end == r.end {
			if k+1 < len(m.recs) {
				oneAfter = k + 1
				r.ends = append(r.ends, int32(len(m.resv)-1))
			}
			break
		}
	}
	for i := oneBefore; i != oneAfter && i+1 < len(m.recs); i++ {
		if m.differ(i) {
			continue
		}
		// The boundary goes: what ended there frees nothing, as the two
		// records lack the same nodes.
		m.recs[i].end = m.recs[i+1].end
		m.recs[i].differs = m.recs[i+1].differs
		m.pool = append(m.pool, m.recs[i+1].avail)
		m.recs[i].ends, m.recs[i+1].ends = m.recs[i+1].ends, m.recs[i].ends[:0]
		m.spareEnds = append(m.spareEnds, m.recs[i+1].ends)
		m.recs = slices.Delete(m.recs, i+1, i+2)
		break
	}
}

// differ reports whether record i's nodes differ from the next
// record's, reading first the word where they last differed.
func (m *nodeSpace) differ(i int) bool {
	r, a, b := &m.recs[i], m.recs[i].avail, m.recs[i+1].avail
	if w := int(r.differs); w < len(a) && a[w] != b[w] {
		return true
	}
	for w := range a {
		if a[w] != b[w] {
			r.differs = int32(w)
			return true
		}
	}
	return false
}

// splitAt ends record i at t and puts a copy of it over [t, its end)
// after it; t may be the record's beginning (Slurm then keeps the empty
// record).
func (m *nodeSpace) splitAt(i int, t int64) {
	r := m.recs[i]
	b := m.bitmap()
	copy(b, r.avail)
	m.recs = slices.Insert(m.recs, i+1, nsRec{t, r.end, b, r.ends, r.differs})
	m.recs[i].end = t
	m.recs[i].ends = m.endsList() // what ended at the old end ends after the copy
	m.made++
}

// endsList is an empty ends list, reusing one a merge or reset let go.
func (m *nodeSpace) endsList() []int32 {
	if k := len(m.spareEnds); k > 0 {
		e := m.spareEnds[k-1][:0]
		m.spareEnds = m.spareEnds[:k-1]
		return e
	}
	return nil
}

// full reports whether the map has made limit records: backfill.c ends
// the cycle rather than add a reservation then (bf_node_space_size).
func (m *nodeSpace) full(limit int) bool { return limit > 0 && m.made >= limit }

func and(dst, src []uint64) {
	for w := range dst {
		dst[w] &= src[w]
	}
}

func count(b []uint64) int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

func setBit(b []uint64, n int)      { b[n>>6] |= 1 << (n & 63) }
func hasBit(b []uint64, n int) bool { return b[n>>6]&(1<<(n&63)) != 0 }
