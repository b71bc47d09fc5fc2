package scheduler

import "math/bits"

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
	pool  [][]uint64 // bitmaps of records dropped by reset, for reuse
}

type nsRec struct {
	begin, end int64
	avail      []uint64
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
	}
	m.recs = m.recs[:0]
	b := m.bitmap()
	copy(b, avail)
	m.recs = append(m.recs, nsRec{begin, max(end, begin), b})
}

// availOver ANDs into dst the nodes free of reservations in every record
// a job running over [start, end] meets: records ending after start and
// beginning at or before end (backfill.c _attempt_backfill, which tests a
// job's end inclusively). later is the end of the record holding start
// when the next record offers a node of base this one does not: the
// next time worth trying (0: none).
func (m *nodeSpace) availOver(dst, base []uint64, start, end int64) (later int64) {
	for i := range m.recs {
		r := &m.recs[i]
		if r.end <= start {
			continue
		}
		if later == 0 && i+1 < len(m.recs) && gains(base, m.recs[i+1].avail, dst, r.avail) {
			later = r.end
		}
		if r.begin > end {
			break
		}
		and(dst, r.avail)
	}
	return later
}

// gains reports whether base∧next has a bit that cur∧this lacks.
func gains(base, next, cur, this []uint64) bool {
	for w := range base {
		if base[w]&next[w]&^(cur[w]&this[w]) != 0 {
			return true
		}
	}
	return false
}

// overlaps reports whether nodes meet a reservation within [start, end)
// (backfill.c _test_resv_overlap).
func (m *nodeSpace) overlaps(nodes []uint64, start, end int64) bool {
	for i := range m.recs {
		r := &m.recs[i]
		if r.end <= start {
			continue
		}
		if r.begin >= end {
			break
		}
		for w := range nodes {
			if nodes[w]&^r.avail[w] != 0 {
				return true
			}
		}
	}
	return false
}

// add reserves nodes over [start, end) (backfill.c _add_reservation):
// start no earlier than the map, at least one slot long.
func (m *nodeSpace) add(start, end, res int64, nodes []uint64) {
	start = max(start, m.recs[0].begin)
	end = max(end, start+res)
	m.split(start)
	m.split(end)
	for i := range m.recs {
		r := &m.recs[i]
		if r.begin >= end {
			break
		}
		if r.begin >= start {
			for w := range nodes {
				r.avail[w] &^= nodes[w]
			}
		}
	}
}

// split makes t a record boundary when it falls inside a record.
func (m *nodeSpace) split(t int64) {
	for i := range m.recs {
		r := m.recs[i]
		if r.begin < t && t < r.end {
			b := m.bitmap()
			copy(b, r.avail)
			m.recs = append(m.recs, nsRec{})
			copy(m.recs[i+2:], m.recs[i+1:])
			m.recs[i].end = t
			m.recs[i+1] = nsRec{t, r.end, b}
			return
		}
	}
}

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
