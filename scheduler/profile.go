package scheduler

// slotProfile is a partition's free cores over the backfill window, on the
// bf_resolution grid: slot k covers [t0 + k·res, t0 + (k+1)·res). It is a
// segment tree with range add and range minimum, so that a reservation or a
// backfilled start costs O(log slots) and finding a job's earliest start
// skips whole runs of slots that are too full.
type slotProfile struct {
	n    int
	size int   // leaves: n rounded up to a power of two (padding is +inf)
	mn   []int // minimum over the node's range, lazy adds included
	lazy []int
}

func (p *slotProfile) reset(vals []int) {
	p.n = len(vals)
	size := 1
	for size < p.n {
		size <<= 1
	}
	if cap(p.mn) < 2*size {
		p.mn = make([]int, 2*size)
		p.lazy = make([]int, 2*size)
	}
	p.mn = p.mn[:2*size]
	p.lazy = p.lazy[:2*size]
	p.size = size
	clear(p.lazy)
	// Bottom-up: leaves, padding that no query reaches, then parents.
	copy(p.mn[size:], vals)
	for i := size + p.n; i < 2*size; i++ {
		p.mn[i] = int(^uint(0) >> 2)
	}
	for i := size - 1; i >= 1; i-- {
		p.mn[i] = min(p.mn[2*i], p.mn[2*i+1])
	}
}

// add adds d to slots [a, b).
func (p *slotProfile) add(a, b, d int) {
	if a < b {
		p.addRec(1, 0, p.size, max(a, 0), min(b, p.n), d)
	}
}

func (p *slotProfile) addRec(x, lo, hi, a, b, d int) {
	if b <= lo || hi <= a {
		return
	}
	if a <= lo && hi <= b {
		p.mn[x] += d
		p.lazy[x] += d
		return
	}
	m := (lo + hi) / 2
	p.addRec(2*x, lo, m, a, b, d)
	p.addRec(2*x+1, m, hi, a, b, d)
	p.mn[x] = min(p.mn[2*x], p.mn[2*x+1]) + p.lazy[x]
}

// min is the minimum over slots [a, b).
func (p *slotProfile) min(a, b int) int {
	return p.minRec(1, 0, p.size, max(a, 0), min(b, p.n))
}

func (p *slotProfile) minRec(x, lo, hi, a, b int) int {
	if b <= lo || hi <= a {
		return int(^uint(0) >> 1)
	}
	if a <= lo && hi <= b {
		return p.mn[x]
	}
	m := (lo + hi) / 2
	return min(p.minRec(2*x, lo, m, a, b), p.minRec(2*x+1, m, hi, a, b)) + p.lazy[x]
}

// lastBelow is the last slot in [a, b) whose value is below v, or -1.
func (p *slotProfile) lastBelow(a, b, v int) int {
	return p.lastRec(1, 0, p.size, max(a, 0), min(b, p.n), v, 0)
}

func (p *slotProfile) lastRec(x, lo, hi, a, b, v, acc int) int {
	if b <= lo || hi <= a || p.mn[x]+acc >= v {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	m := (lo + hi) / 2
	acc += p.lazy[x]
	if r := p.lastRec(2*x+1, m, hi, a, b, v, acc); r >= 0 {
		return r
	}
	return p.lastRec(2*x, lo, m, a, b, v, acc)
}

// earliest is the first slot s >= from at which slots [s, s+d) all hold at
// least need, or -1 within the profile. A run that ends past the last slot
// only has to fit the slots there are (the window's horizon).
func (p *slotProfile) earliest(from, d, need int) int {
	s := from
	for s < p.n {
		j := p.lastBelow(s, s+d, need)
		if j < 0 {
			return s
		}
		s = j + 1
	}
	return -1
}
