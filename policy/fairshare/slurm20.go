package fairshare

// Slurm20Factor is the Slurm 2.0 fair-share formula (as its
// priority_multifactor documentation gave it), a fairsim
// extension selected by the algorithm name "slurm20":
//
//	F = (S - UE + 1) / 2
//
// with S the normalised shares (the product down the tree, as classic) and
// UE the effective usage
//
//	UE = U + (UE_parent - U) · S_child / S_all_siblings
//
// (first tier: UE = U), i.e. ClassicEffectiveUsage. Range [0,1] for S and
// UE in [0,1]; 0.5 means the share was used exactly.
func Slurm20Factor(s, ue float64) float64 {
	return (s - ue + 1) / 2
}

// slurm20 computes everything after the tick's charges, as Slurm 2.0's
// decay thread did. Usage is normalised by Config.Slurm20MaxUsage (2.0's
// R_H = procs × half-life × 2) when set, else by root's usage; it is capped
// at 1 either way.
func (e *Engine) slurm20() {
	t := e.tree
	n := int32(t.Len())
	den := e.cfg.Slurm20MaxUsage
	if !(den > 0) || !finite(den) {
		den = e.led.usage[0]
	}
	e.efctv[0] = 1
	for i := int32(1); i < n; i++ {
		if den == 0 {
			e.norm[i] = 0
		} else {
			e.norm[i] = min(1, e.led.usage[i]/den)
		}
	}
	for i := int32(1); i < n; i++ {
		e.efctv[i] = e.effectiveUsage(i)
		f := i
		if t.nodes[i].shares.Parent {
			f = t.fsParent[i]
		}
		e.fs[i] = Slurm20Factor(e.shares[f], e.efctv[f])
	}
	e.fs[0] = Slurm20Factor(e.shares[0], 1)
}
