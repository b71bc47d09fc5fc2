package scheduler

import (
	"fmt"
	"strings"
	"testing"
)

// nsString writes a map as "[begin,end)bits" records, the lowest node
// first, then its made count.
func nsString(m *nodeSpace, nodes int) string {
	var b strings.Builder
	for _, r := range m.recs {
		fmt.Fprintf(&b, "[%d,%d)", r.begin, r.end)
		for n := range nodes {
			if hasBit(r.avail, n) {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "made %d", m.made)
	return b.String()
}

func nodeBits(nodes ...int) []uint64 {
	b := make([]uint64, 1)
	for _, n := range nodes {
		setBit(b, n)
	}
	return b
}

// TestNodeSpaceAddAsSlurm follows backfill.c _add_reservation on a map of
// four nodes over [0, 1000) with bf_resolution 100, one add after another:
//
//   - n0 over [0, 100): the first record holds 0, so it is split there
//     though 0 is its beginning: an empty record [0,0) stays before the
//     reservation (Slurm's loop tests end_time > start_time, not
//     begin_time < start_time). Splits at 0 and 100: made 1+2 = 3.
//   - n0 over [100, 200): record [0,100) ends at 100, so no split there;
//     one split at 200 (made 4); then the first equal neighbours from the
//     last record ending before 100 ([0,0)) are merged: [0,100) and
//     [100,200) both lack n0 and become [0,200). made stays 4.
//   - n1 over [0, 50): clamped to at least one slot, [0, 100); the empty
//     record ends at 0 = start, so no split at 0; split at 100 (made 5).
//   - n2 over [950, 1200): past the map's end the reservation runs to
//     the last record's end; one split at 950 (made 6), no end split.
//   - n3 from 1000: starts where the last record ends, so it is placed
//     but reserves nothing; nothing is split.
func TestNodeSpaceAddAsSlurm(t *testing.T) {
	var m nodeSpace
	m.reset(1, 0, 1000, nodeBits(0, 1, 2, 3))
	steps := []struct {
		start, end int64
		nodes      []uint64
		want       string
	}{
		{0, 100, nodeBits(0), "[0,0)1111 [0,100)0111 [100,1000)1111 made 3"},
		{100, 200, nodeBits(0), "[0,0)1111 [0,200)0111 [200,1000)1111 made 4"},
		{0, 50, nodeBits(1), "[0,0)1111 [0,100)0011 [100,200)0111 [200,1000)1111 made 5"},
		{950, 1200, nodeBits(2), "[0,0)1111 [0,100)0011 [100,200)0111 [200,950)1111 [950,1000)1101 made 6"},
		{1000, 1100, nodeBits(3), "[0,0)1111 [0,100)0011 [100,200)0111 [200,950)1111 [950,1000)1101 made 6"},
	}
	for i, st := range steps {
		m.add(st.start, st.end, 100, st.nodes)
		if got := nsString(&m, 4); got != st.want {
			t.Fatalf("step %d: add n over [%d, %d):\n got %s\nwant %s", i, st.start, st.end, got, st.want)
		}
	}
	// bf_node_space_size (default bf_max_job_test): a cycle adds no
	// reservation once made reaches it.
	if !m.full(6) || m.full(7) || m.full(0) {
		t.Errorf("full(6), full(7), full(0) = %v, %v, %v; want true, false, false", m.full(6), m.full(7), m.full(0))
	}
	// The merge gives nothing back: a new cycle starts from one record.
	m.reset(1, 0, 1000, nodeBits(0, 1, 2, 3))
	if got := nsString(&m, 4); got != "[0,1000)1111 made 1" {
		t.Errorf("after reset: %s", got)
	}
}

// TestFloorResOnWallClock: backfill.c rounds Unix times down to
// bf_resolution, so with the trace's time 0 at Unix 1795514127 (:27 of a
// minute) a reservation from t = 100 starts on the 60 s grid at t = 93
// (Unix ...220), not at 60.
func TestFloorResOnWallClock(t *testing.T) {
	for _, tc := range []struct{ t, res, wall, want int64 }{
		{100, 60, 0, 60},
		{100, 60, 1795514127, 93},
		{93, 60, 1795514127, 93},
		{92, 60, 1795514127, 33},
		{-5, 10, 0, -10},
		{5, 10, -3, 3},
	} {
		if got := floorRes(tc.t, tc.res, tc.wall); got != tc.want {
			t.Errorf("floorRes(%d, %d, %d) = %d, want %d", tc.t, tc.res, tc.wall, got, tc.want)
		}
	}
}
