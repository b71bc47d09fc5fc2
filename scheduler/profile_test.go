package scheduler

import "testing"

// naive is the obvious O(n·d) search the segment tree must agree with.
func naiveEarliest(v []int, from, d, need int) int {
	for s := from; s < len(v); s++ {
		ok := true
		for k := s; k < min(s+d, len(v)); k++ {
			if v[k] < need {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	return -1
}

func TestSlotProfile(t *testing.T) {
	// Free cores over 10 slots: running jobs release at slots 3 and 7.
	vals := []int{2, 2, 2, 6, 6, 6, 6, 10, 10, 10}
	var p slotProfile
	p.reset(vals)
	tests := []struct{ from, d, need, want int }{
		{0, 2, 2, 0},   // fits now
		{0, 2, 3, 3},   // needs the release at slot 3
		{1, 3, 6, 3},   // slots 3-5 hold 6
		{0, 5, 7, 7},   // only from slot 7; the run is cut at the horizon
		{0, 3, 11, -1}, // never within the window
	}
	for _, tc := range tests {
		if got := p.earliest(tc.from, tc.d, tc.need); got != tc.want {
			t.Errorf("earliest(%d,%d,%d) = %d, want %d", tc.from, tc.d, tc.need, got, tc.want)
		}
	}
	// Reserve 5 cores on slots 3..6 (a job of 5 cores starting at 3 for 4
	// slots): slots 3-6 drop to 1, so a 3-core job now fits only from 7.
	p.add(3, 7, -5)
	vals2 := []int{2, 2, 2, 1, 1, 1, 1, 10, 10, 10}
	for s := range vals2 {
		if got := p.min(s, s+1); got != vals2[s] {
			t.Fatalf("slot %d = %d, want %d", s, got, vals2[s])
		}
	}
	if got := p.earliest(0, 2, 3); got != 7 {
		t.Errorf("after the reservation, earliest = %d, want 7", got)
	}
	if got := p.min(0, 10); got != 1 {
		t.Errorf("min = %d, want 1", got)
	}
	// Randomised agreement with the naive search, deterministic seed.
	x := uint64(7)
	rnd := func(n int) int { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return int(x % uint64(n)) }
	for iter := 0; iter < 300; iter++ {
		n := 1 + rnd(50)
		v := make([]int, n)
		for i := range v {
			v[i] = rnd(20)
		}
		p.reset(v)
		for k := 0; k < 5; k++ {
			a, b, d := rnd(n), rnd(n+1), rnd(7)-3
			p.add(a, b, d)
			for i := a; i < b; i++ {
				v[i] += d
			}
		}
		from, d, need := rnd(n), 1+rnd(10), rnd(20)
		if got, want := p.earliest(from, d, need), naiveEarliest(v, from, d, need); got != want {
			t.Fatalf("iter %d: earliest(%d,%d,%d) = %d, naive %d, values %v", iter, from, d, need, got, want, v)
		}
	}
}
