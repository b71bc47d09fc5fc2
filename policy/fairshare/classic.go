package fairshare

import "math"

// ClassicEffectiveUsage is _set_usage_efctv, the effective usage of an
// association below the first tier (priority_multifactor.c):
//
//	UE = U + (UE_parent - U) · S_child / S_all_siblings
//
// with U the association's usage_norm, UE_parent its fs_parent's effective
// usage, S_child its raw shares and S_all_siblings its level_shares. Range
// [0,1] for inputs in [0,1]. When no sibling has shares (levelShares == 0)
// it is UE_parent. First-tier associations use UE = U instead (see
// effectiveUsage).
func ClassicEffectiveUsage(usageNorm, parentUE float64, shares, levelShares uint32) float64 {
	if levelShares == 0 {
		return parentUE
	}
	return usageNorm + (parentUE-usageNorm)*(float64(shares)/float64(levelShares))
}

// ClassicFactor is priority_p_calc_fs_factor, the classic and
// depth-oblivious fair-share factor:
//
//	F = 2^(-(UE / S) / damp)
//
// Range (0,1]: 1 with no usage, 0.5 when usage equals the share, 0.25 at
// twice the share. It is 0 when S <= 0 (no share) or UE is unset (NO_VAL).
// damp is FairShareDampeningFactor (1 by default).
func ClassicFactor(ue, s, damp float64) float64 {
	if ue == noVal || s <= 0 {
		return 0
	}
	return math.Exp2(-((ue / s) / damp))
}

// effectiveUsage is _set_assoc_usage_efctv for the classic family: first
// tier UE = usage_norm; a "parent" association takes its fs_parent's UE;
// otherwise the algorithm's formula.
func (e *Engine) effectiveUsage(i int32) float64 {
	t := e.tree
	f := t.fsParent[i]
	nd := &t.nodes[i]
	switch {
	case f == 0:
		return e.norm[i]
	case nd.shares.Parent:
		return e.efctv[f]
	case e.cfg.Algorithm == DepthOblivious:
		return DepthObliviousEffectiveUsage(e.shares[i], e.norm[i], e.shares[f], e.efctv[f], e.sibSum[f])
	default:
		return ClassicEffectiveUsage(e.norm[i], e.efctv[f], nd.shares.Raw, t.levelShares[i])
	}
}

// classicAccounts is _set_children_usage_efctv, run at the start of a tick
// before decay: usage_norm and usage_efctv of every non-user association,
// top down (ancestors have lower indices); usage_norm is refreshed for
// users too. Users' effective usage is computed in
// classicUsers, as Slurm does lazily when it meets their jobs.
func (e *Engine) classicAccounts() {
	t := e.tree
	e.efctv[0] = 1
	n := int32(t.Len())
	for i := int32(1); i < n; i++ {
		e.norm[i] = e.usageNorm(i)
	}
	if e.cfg.Algorithm == DepthOblivious {
		e.sumSiblingsUsageNorm()
	}
	for i := int32(1); i < n; i++ {
		if !t.nodes[i].isUser {
			e.efctv[i] = e.effectiveUsage(i)
			e.fs[i] = e.classicFactorOf(i)
		}
	}
	e.fs[0] = ClassicFactor(1, e.shares[0], e.damp)
}

// classicUsers computes usage_norm, usage_efctv and the factor of every
// user association from the current usage and the accounts' effective
// usage of classicAccounts.
func (e *Engine) classicUsers() {
	t := e.tree
	n := int32(t.Len())
	for i := int32(1); i < n; i++ {
		if t.nodes[i].isUser {
			e.norm[i] = e.usageNorm(i)
		}
	}
	if e.cfg.Algorithm == DepthOblivious {
		e.sumSiblingsUsageNorm()
	}
	for i := int32(1); i < n; i++ {
		if t.nodes[i].isUser {
			e.efctv[i] = e.effectiveUsage(i)
			e.fs[i] = e.classicFactorOf(i)
		}
	}
}

// classicFactorOf is _get_fairshare_priority: a "parent" association uses
// its fs_parent's effective usage and shares.
func (e *Engine) classicFactorOf(i int32) float64 {
	f := i
	if e.tree.nodes[i].shares.Parent {
		f = e.tree.fsParent[i]
	}
	return ClassicFactor(e.efctv[f], e.shares[f], e.damp)
}
