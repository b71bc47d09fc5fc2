package scheduler

import (
	"math/rand"
	"slices"
	"testing"
)

// availOverRecords is availOver as backfill.c computes it: the AND of
// every record's bitmap a job running over [start, end] meets, asking at
// each record whether the next frees a node of base the records so far
// lack.
func availOverRecords(m *nodeSpace, dst, base []uint64, start, end int64) (later int64) {
	for i := range m.recs {
		r := &m.recs[i]
		if r.end <= start {
			continue
		}
		if later == 0 && i+1 < len(m.recs) {
			next := m.recs[i+1].avail
			for w := range base {
				if base[w]&next[w]&^(dst[w]&r.avail[w]) != 0 {
					later = r.end
					break
				}
			}
		}
		if r.begin > end {
			break
		}
		and(dst, r.avail)
	}
	return later
}

func overlapsRecords(m *nodeSpace, nodes []uint64, start, end int64) bool {
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

// TestNodeSpaceReservationsAsRecords checks availOver, overlaps and
// overlapsAfter, which read the reservation list, against the records
// they stand for, over random maps of 130 nodes (three words) with merges
// and clipped ends; overlapsAfter on nodes chosen from availOver's answer,
// as planJob asks it.
func TestNodeSpaceReservationsAsRecords(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const nodes, res = 130, 10
	words := (nodes + 63) / 64
	for trial := range 3000 {
		var m nodeSpace
		usable := make([]uint64, words)
		for n := range nodes {
			if rng.Intn(10) > 0 {
				setBit(usable, n)
			}
		}
		begin := int64(rng.Intn(5)) * res
		m.reset(words, begin, begin+int64(20+rng.Intn(20))*res, usable)
		base := make([]uint64, words)
		for n := range nodes {
			if hasBit(usable, n) && rng.Intn(4) > 0 {
				setBit(base, n)
			}
		}
		for k := range 1 + rng.Intn(30) {
			set := make([]uint64, words)
			first := rng.Intn(nodes)
			for n := first; n < min(nodes, first+1+rng.Intn(8)); n++ {
				if hasBit(usable, n) {
					setBit(set, n)
				}
			}
			if rng.Intn(3) == 0 { // often the same nodes again, for merges
				set = slices.Clone(m.lastSet(set))
			}
			s := begin + int64(rng.Intn(45)-2)*res
			e := s + int64(rng.Intn(12))*res
			m.add(s, e, res, set)
			for range 5 {
				qs := begin + int64(rng.Intn(45)-2)*res + int64(rng.Intn(2))*3
				qe := qs + int64(rng.Intn(15)-1)*res
				ae := max(qe, qs) // a run ends at or after its start
				want := slices.Clone(base)
				wl := availOverRecords(&m, want, base, qs, ae)
				got := slices.Clone(base)
				need := rng.Intn(nodes + 2)
				gl, gok := m.availOver(got, qs, ae, need)
				if gok != (count(got) >= need) {
					t.Fatalf("trial %d add %d: availOver [%d, %d] says %v for %d nodes, keeps %d", trial, k, qs, ae, gok, need, count(got))
				}
				if wl != gl || !slices.Equal(want, got) {
					t.Fatalf("trial %d add %d: availOver [%d, %d] = %x later %d, records give %x later %d\n%s",
						trial, k, qs, ae, got, gl, want, wl, nsString(&m, nodes))
				}
				if w, g := overlapsRecords(&m, set, qs, qe), m.overlaps(set, qs, qe); w != g {
					t.Fatalf("trial %d add %d: overlaps [%d, %d) = %v, records give %v", trial, k, qs, qe, g, w)
				}
				// planJob's check of the nodes a will-run test chose on
				// got, at a start t at or after qs, over the same limit.
				if qs < begin {
					continue
				}
				chosen := make([]uint64, words)
				for n := range nodes {
					if hasBit(got, n) && rng.Intn(3) == 0 {
						setBit(chosen, n)
					}
				}
				tt := qs + int64(rng.Intn(20))*res + int64(rng.Intn(res))
				fs, fe := tt/res*res, (tt+ae-qs)/res*res
				if w, g := overlapsRecords(&m, chosen, fs, fe), m.overlapsAfter(chosen, fs, fe, ae); w != g {
					t.Fatalf("trial %d add %d: overlapsAfter [%d, %d) after %d = %v, records give %v\n%s", trial, k, fs, fe, ae, g, w, nsString(&m, nodes))
				}
			}
		}
	}
}

// lastSet is the nodes of the last reservation, or set when none.
func (m *nodeSpace) lastSet(set []uint64) []uint64 {
	if len(m.resv) == 0 {
		return set
	}
	rv := m.resv[len(m.resv)-1]
	out := make([]uint64, m.words)
	copy(out[rv.w0:], m.arena[rv.lo:rv.hi])
	return out
}
