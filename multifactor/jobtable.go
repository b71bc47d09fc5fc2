package multifactor

// jobTable holds a value per job by job index (sim.Job.Idx, given in
// arrival order) over a window from the oldest job not yet dropped to
// the newest: a year-long trace's finished jobs do not stay in memory,
// and growing it does not copy every job ever seen (CEA-Curie: 312,000
// priority breakdowns of 200 bytes, 2.4 s of copying as the slice grew).
type jobTable[T any] struct {
	base int    // the index of v[0]
	head int    // v[:head] are all dropped
	v    []T    // the window
	gone []bool // dropped
}

// at is index i's value, made zero if absent; the pointer is valid until
// the next at or drop.
func (t *jobTable[T]) at(i int) *T {
	if i < t.base { // a job come back (requeued) before the window: widen it
		k := t.base - i
		t.v = append(make([]T, k, k+len(t.v)), t.v...)
		g := make([]bool, k, k+len(t.gone))
		for n := range g {
			g[n] = true // the jobs between it and the window are gone
		}
		t.gone = append(g, t.gone...)
		t.base, t.head = i, 0
	}
	for len(t.v) <= i-t.base {
		var zero T
		t.v = append(t.v, zero)
		t.gone = append(t.gone, false)
	}
	t.gone[i-t.base] = false
	if i-t.base < t.head {
		t.head = i - t.base
	}
	return &t.v[i-t.base]
}

// get is index i's value, and whether it is held.
func (t *jobTable[T]) get(i int) (T, bool) {
	var zero T
	if k := i - t.base; k >= 0 && k < len(t.v) && !t.gone[k] {
		return t.v[k], true
	}
	return zero, false
}

// drop forgets index i; the window's front moves past what is dropped,
// and the window is moved down once its dropped front is half of it.
func (t *jobTable[T]) drop(i int) {
	k := i - t.base
	if k < 0 || k >= len(t.v) {
		return
	}
	var zero T
	t.v[k], t.gone[k] = zero, true
	for t.head < len(t.v) && t.gone[t.head] {
		t.head++
	}
	if t.head >= 1024 && t.head*2 >= len(t.v) {
		n := copy(t.v, t.v[t.head:])
		copy(t.gone, t.gone[t.head:])
		clear(t.v[n:])
		t.v, t.gone = t.v[:n], t.gone[:n]
		t.base += t.head
		t.head = 0
	}
}
