package fairshare

import "math"

// DBLMin is C's DBL_MIN, the floor Slurm clamps a tick's decay factor to so
// that usage never decays to exactly zero.
const DBLMin = 2.2250738585072014e-308

// DecayFactor is the per-second factor Slurm's decay thread uses:
// 1 - 0.693/HL, a first-order approximation of 2^(-1/HL)
// (df^HL ≈ 0.50007, not 0.5). HL <= 0 means no decay (1).
func DecayFactor(halfLife int64) float64 {
	if halfLife <= 0 {
		return 1
	}
	return 1 - 0.693/float64(halfLife)
}

// Decay raises a per-second decay to a slice of seconds.
type Decay struct {
	halfLife int64
	exact    bool
	df       float64
}

// NewDecay builds the decay for half-life halfLife seconds. With exact the
// factor is the true 2^(-d/HL) instead of Slurm's (1-0.693/HL)^d.
func NewDecay(halfLife int64, exact bool) Decay {
	return Decay{halfLife: halfLife, exact: exact, df: DecayFactor(halfLife)}
}

// pow is the unclamped factor for d seconds; _apply_new_usage uses it for a
// job's slice (run_delta * pow(decay_factor, run_delta)).
func (d Decay) pow(sec int64) float64 {
	if d.halfLife <= 0 || sec == 0 {
		return 1
	}
	if d.exact {
		return math.Exp2(-float64(sec) / float64(d.halfLife))
	}
	return powInt(d.df, sec)
}

// powInt is x^n for n >= 0, correctly rounded in practice: repeated
// squaring in double-double arithmetic. Go's math.Pow is several ulps off
// for exponents in the hundreds, while glibc's pow (which Slurm calls) is
// accurate to about half an ulp; this keeps fairsim's numbers identical to
// Slurm's, e.g. (1-0.693/604800)^300 = 0.9996563088783914.
func powInt(x float64, n int64) float64 {
	r := dd{1, 0}
	b := dd{x, 0}
	for n > 0 {
		if n&1 == 1 {
			r = r.mul(b)
		}
		n >>= 1
		if n > 0 {
			b = b.mul(b)
		}
	}
	return r.hi + r.lo
}

// dd is an unevaluated sum hi+lo carrying about 106 bits of precision.
type dd struct{ hi, lo float64 }

// mul multiplies two double-doubles with an error-free FMA product.
func (a dd) mul(b dd) dd {
	p := a.hi * b.hi
	e := math.FMA(a.hi, b.hi, -p) + (a.hi*b.lo + a.lo*b.hi)
	s := p + e
	return dd{s, e - (s - p)}
}

// Factor is the factor a tick applies to all usage after sec seconds:
// df^sec, clamped below at DBL_MIN as _decay_thread does. 1 for sec <= 0
// or no decay.
func (d Decay) Factor(sec int64) float64 {
	if sec <= 0 {
		return 1
	}
	f := d.pow(sec)
	if f < DBLMin {
		f = DBLMin
	}
	return f
}

// SliceWeight is the decayed length of a d-second slice, d·df^d: the
// amount _apply_new_usage charges per unit of billing.
func (d Decay) SliceWeight(sec int64) float64 {
	if sec <= 0 {
		return 0
	}
	return float64(sec) * d.pow(sec)
}
