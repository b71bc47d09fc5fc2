package workload

import (
	"math"
	"time"
)

// sacct prints local time without its offset, so a wall time in the hour
// a DST fall-back repeats names two instants: a job that starts at 01:30
// EDT and runs 50 minutes ends at 01:20 EST, printed 01:20. Each such
// time is read as the earlier instant (Go's time.Date picks either,
// depending on the zone), then the record's own order and Elapsed choose
// the later where the earlier cannot be (dstZone, resolveDST).

// dstZone caches the zone period of the last time read, so that only a
// time near a transition costs a look at the zone's rules.
type dstZone struct {
	safeFrom, safeTo int64 // no time in [safeFrom, safeTo) is repeated
	set              bool
}

// twin reads an instant v of local time in loc: lo is the earlier of the
// instants its wall time names, hi the later, and repeated whether there
// are two.
func (z *dstZone) twin(loc *time.Location, v int64) (lo, hi int64, repeated bool) {
	if loc == time.UTC || z.set && v >= z.safeFrom && v < z.safeTo {
		return v, v, false
	}
	t := time.Unix(v, 0).In(loc)
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	// Both bounds of the period first: the cache must end where the
	// period does whichever way v is answered.
	z.safeFrom, z.safeTo, z.set = math.MinInt64, math.MaxInt64, true
	var dStart, dEnd int64
	if !start.IsZero() {
		// Entered by a fall-back: its first d seconds repeat the end of
		// the period before, whose offset is larger by d.
		_, prev := start.Add(-time.Second).Zone()
		dStart = int64(prev - off)
		z.safeFrom = start.Unix() + max(dStart, 0)
	}
	if !end.IsZero() {
		_, next := end.Zone()
		dEnd = int64(off - next)
		z.safeTo = end.Unix() - max(dEnd, 0)
	}
	switch {
	case dStart > 0 && !start.IsZero() && v < start.Unix()+dStart:
		return v - dStart, v, true
	case dEnd > 0 && !end.IsZero() && v >= end.Unix()-dEnd:
		return v, v + dEnd, true
	}
	return v, v, false
}

// resolveDST settles the times of one record read in a repeated hour: each
// is its earlier instant (later[i] its twin, or itself), unless the record
// needs the later: an end before the start, a start before the submit,
// or an Elapsed (elapsed, when eKnown) that only the later reading gives.
// It reports whether any time took its later reading.
func resolveDST(t *sacctTimes, later *[4]int64, elapsed int64, eKnown bool) bool {
	k := &t.known
	moved := false
	use := func(i int) {
		if later[i] != t.v[i] {
			t.v[i], moved = later[i], true
		}
	}
	if k[tSubmit] && k[tStart] && t.v[tStart] < t.v[tSubmit] && later[tStart] >= t.v[tSubmit] {
		use(tStart)
	}
	if k[tStart] && k[tEnd] {
		start, end := t.v[tStart], t.v[tEnd]
		switch {
		case eKnown && end-start != elapsed && later[tEnd]-start == elapsed:
			use(tEnd)
		case eKnown && end-start != elapsed && later[tEnd]-later[tStart] == elapsed && later[tStart] >= start:
			use(tStart)
			use(tEnd)
		case end < start && later[tEnd] >= start:
			use(tEnd)
		}
	}
	if k[tSubmit] && k[tEligible] && t.v[tEligible] < t.v[tSubmit] && later[tEligible] >= t.v[tSubmit] {
		use(tEligible)
	}
	return moved
}
