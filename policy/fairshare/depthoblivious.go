package fairshare

import "math"

// depthObliviousF is the f constant of _depth_oblivious_set_usage_efctv
// (a FIXME "could be a tunable" in Slurm).
const depthObliviousF = 5.0

// DepthObliviousEffectiveUsage is _depth_oblivious_set_usage_efctv
// (PriorityFlags=DEPTH_OBLIVIOUS, priority_multifactor.c), which makes the factor
// 2^(-UE/S) independent of the depth of the association:
//
//	Rp = UE_parent / S_parent
//	Rs = (Σ usage_norm of non-"parent" fs-siblings, self included) / S_parent
//	Rl = (U / S) / Rs
//	k  = 1                        if Rp == 0, Rl == 0 or ln(Rp)·ln(Rl) >= 0
//	k  = 1 / (1 + (5·ln Rp)^2)    otherwise
//	UE = Rp · Rl^k · S
//
// It is U (the association's usage_norm) unless S, S_parent, UE_parent and
// U are all non-zero. Range [0, +Inf) in principle; the factor is then
// ClassicFactor(UE, S, damp).
func DepthObliviousEffectiveUsage(s, usageNorm, parentS, parentUE, siblingsUsageNorm float64) float64 {
	if s == 0 || parentS == 0 || parentUE == 0 || usageNorm == 0 {
		return usageNorm
	}
	rp := parentUE / parentS
	rs := siblingsUsageNorm / parentS
	rl := (usageNorm / s) / rs
	k := 1.0
	if rp != 0 && rl != 0 && math.Log(rp)*math.Log(rl) < 0 {
		x := depthObliviousF * math.Log(rp)
		k = 1 / (1 + x*x)
	}
	return rp * math.Pow(rl, k) * s
}

// sumSiblingsUsageNorm fills sibSum[f] with the sum of usage_norm over the
// fs-children of f that do not have "parent" shares (ratio_s before the
// division). fairsim uses the freshly computed usage_norm of every sibling;
// Slurm may read a sibling's value from the previous tick when it has not
// reached that sibling yet.
func (e *Engine) sumSiblingsUsageNorm() {
	t := e.tree
	clear(e.sibSum)
	for c := 1; c < t.Len(); c++ {
		if !t.nodes[c].shares.Parent {
			e.sibSum[t.fsParent[c]] += e.norm[c]
		}
	}
}
