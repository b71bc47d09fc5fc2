package fairshare

import "math"

// Slurm keeps usage_raw, usage_efctv and level_fs in C's long double (the
// x87's 64-bit mantissa on the machines it runs on) and adds each job's
// slice after rounding it to a double (_apply_new_usage). Sums that are
// equal in float64 then differ in Slurm: two jobs of 4 and 12 CPUs
// charge 4·d + 12·d, 2.8e-14 less than one 16-CPU job's 16·d, while the
// float64 sum is exactly 16·d, and Fair Tree ranks two users Slurm tells
// apart as tied. fairsim keeps these values as unevaluated sums hi + lo of
// two float64s (double-double, about 106 bits): every sum of doubles
// Slurm's long double holds exactly, it holds exactly too; hi alone is
// the value as a float64, which is what outputs show. It is not the
// long double itself: Slurm rounds to 64 bits after each add and each
// decay multiply, so values apart by less than that rounding can tie in
// Slurm and not here, or the other way round.

// ddAdd is (hi, lo) + x, renormalised (TwoSum twice).
func ddAdd(hi, lo, x float64) (float64, float64) {
	s := hi + x
	bb := s - hi
	e := (hi - (s - bb)) + (x - bb)
	return twoSum(s, lo+e)
}

// ddMul is (hi, lo) × f, renormalised (TwoProd through an exact FMA).
func ddMul(hi, lo, f float64) (float64, float64) {
	p := hi * f
	e := math.FMA(hi, f, -p)
	return twoSum(p, e+lo*f)
}

// ddDiv is (ah, al) / (bh, bl) to about 106 bits: a first quotient, then
// the remainder's.
func ddDiv(ah, al, bh, bl float64) (float64, float64) {
	q1 := ah / bh
	// r = a − q1·b, with q1·bh exact through FMA. p lies within a factor
	// of two of ah, so ah − p is exact (Sterbenz) and TwoSum's error term
	// would be 0: ddAdd(ah, al, −p) is twoSum(ah − p, al).
	p := q1 * bh
	pe := math.FMA(q1, bh, -p)
	rh, rl := twoSum(ah-p, al)
	rh, rl = ddAdd(rh, rl, -pe)
	rh, rl = ddAdd(rh, rl, -q1*bl)
	q2 := (rh + rl) / bh
	return twoSum(q1, q2)
}

// twoSum is a + b as hi + lo with hi = fl(a + b) (Knuth's TwoSum, so
// either may be the larger); non-finite sums keep their float64 value
// and lo 0. s - s is 0 for every finite s and NaN for ±Inf and NaN: one
// subtraction and compare where IsInf || IsNaN cost the fair-share tick
// a tenth of its time.
func twoSum(a, b float64) (float64, float64) {
	s := a + b
	if s-s != 0 {
		return s, 0
	}
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// ddTrunc is (hi, lo) truncated toward zero, as C's (uint64_t) cast of a
// long double: hi alone may have rounded up to the next integer.
func ddTrunc(hi, lo float64) float64 {
	t := math.Trunc(hi)
	if t == hi && lo < 0 && hi > 0 {
		t--
	}
	return t
}

// fairTreeLevelFSdd is FairTreeLevelFS with U as (u, ul): S / U in
// extended precision.
func fairTreeLevelFSdd(s, u, ul float64, useParent, isUser bool) (float64, float64) {
	if useParent || s == 0 || (u == 0 && ul == 0) {
		return FairTreeLevelFS(s, u, useParent, isUser), 0
	}
	return ddDiv(s, 0, u, ul)
}

// ddCmp orders (ah, al) and (bh, bl): -1, 0 or 1.
func ddCmp(ah, al, bh, bl float64) int {
	switch {
	case ah < bh:
		return -1
	case ah > bh:
		return 1
	case al < bl:
		return -1
	case al > bl:
		return 1
	}
	return 0
}
