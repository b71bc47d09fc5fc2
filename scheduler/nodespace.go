package scheduler

import (
	"math/bits"
	"slices"
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
	m.made = 1
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
	for k := first; first >= 0 && k < len(m.recs); k++ {
		r := &m.recs[k]
		if end < r.end {
			m.splitAt(k, end)
			r = &m.recs[k]
		}
		for w := range nodes {
			r.avail[w] &^= nodes[w]
		}
		if end == r.end {
			if k+1 < len(m.recs) {
				oneAfter = k + 1
			}
			break
		}
	}
	for i := oneBefore; i != oneAfter && i+1 < len(m.recs); i++ {
		if slices.Equal(m.recs[i].avail, m.recs[i+1].avail) {
			m.recs[i].end = m.recs[i+1].end
			m.pool = append(m.pool, m.recs[i+1].avail)
			m.recs = slices.Delete(m.recs, i+1, i+2)
			break
		}
	}
}

// splitAt ends record i at t and puts a copy of it over [t, its end)
// after it; t may be the record's beginning (Slurm then keeps the empty
// record).
func (m *nodeSpace) splitAt(i int, t int64) {
	r := m.recs[i]
	b := m.bitmap()
	copy(b, r.avail)
	m.recs = slices.Insert(m.recs, i+1, nsRec{t, r.end, b})
	m.recs[i].end = t
	m.made++
}

// mayFill reports whether k more reservations could fill the map.
func (m *nodeSpace) mayFill(limit, k int) bool {
	return limit > 0 && m.made+2*k+1 >= limit
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
