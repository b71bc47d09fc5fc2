package policy

// Usage is what the usage limits of one QOS or association are measured
// against, in Slurm's units: TRESMins is floor(usage_tres_raw / 60), the
// decayed TRES-minutes; RunMins is grp_used_tres_run_secs / 60, the
// TRES-minutes left before the time limits of its running jobs; WallMins is
// grp_used_wall / 60, decayed wall minutes of its running jobs.
type Usage struct {
	TRESMins, RunMins LimitTRES
	WallMins          uint64
}

// InfiniteMins is Slurm's INFINITE time limit in minutes, what a job with
// no time limit counts with in TRES × time limit (job_tres_time_limit).
const InfiniteMins = uint64(^uint32(0))

// Reason names of the usage limits per TRES (job_state_reason.c).
var (
	reasonQOSMins     = [numLimTRES]string{"QOSGrpCPUMinutesLimit", "QOSGrpMemoryMinutes", "QOSGrpNodeMinutes", "QOSGrpBillingMinutes", "QOSGrpGRESMinutes"}
	reasonQOSRunMins  = [numLimTRES]string{"QOSGrpCPURunMinutesLimit", "QOSGrpMemoryRunMinutes", "QOSGrpNodeRunMinutes", "QOSGrpBillingRunMinutes", "QOSGrpGRESRunMinutes"}
	reasonAssocMins   = [numLimTRES]string{"AssocGrpCPUMinutesLimit", "AssocGrpMemMinutes", "AssocGrpNodeMinutes", "AssocGrpBillingMinutes", "AssocGrpGRESMinutes"}
	reasonAssocRunMin = [numLimTRES]string{"AssocGrpCPURunMinutesLimit", "AssocGrpMemRunMinutes", "AssocGrpNodeRunMinutes", "AssocGrpBillingRunMinutes", "AssocGrpGRESRunMinutes"}
)

// minsCheck is _validate_tres_usage_limits for one TRES limit: req is
// the job's TRES × time limit in minutes (job_tres_time_limit), reqCnt its
// TRES count, run the running TRES-minutes and used (nil: not checked) the
// decayed TRES-minutes. It fails when the job asks the TRES and used has
// reached the limit; with safe, also when req alone exceeds it or req plus
// run exceeds what used leaves.
func minsCheck(limit, req, reqCnt, run uint64, used *uint64, safe bool) bool {
	u := uint64(0)
	if used != nil {
		if reqCnt != 0 && *used >= limit {
			return false
		}
		u = *used
	}
	if safe {
		if req > limit {
			return false
		}
		if req != 0 && (u > limit || req+run > limit-u) {
			return false
		}
	}
	return true
}

// timeLimitTRES is job_tres_time_limit: each TRES × the time limit in
// minutes, saturating.
func timeLimitTRES(tr *LimitTRES, mins uint64) LimitTRES {
	var out LimitTRES
	for k, v := range tr {
		if v != 0 && mins > ^uint64(0)/v {
			out[k] = ^uint64(0)
		} else {
			out[k] = v * mins
		}
	}
	return out
}

// UsageHold returns why a pending job (asking tr, time limit mins minutes,
// InfiniteMins for none) waits at the usage limits of its QOS (order, and
// use their usage, same order), or "". It follows
// _qos_job_runnable_pre_select (GrpWall: held once the QOS's wall minutes
// reach it; with safe, also when they plus the time limit would pass it)
// then _qos_job_runnable_post_select (GrpTRESMins: held when the job asks a
// TRES whose decayed minutes reached the limit; with safe, also when its
// TRES × time limit exceeds the limit or, with the running TRES-minutes,
// what is left of it. GrpTRESRunMins: held when its TRES × time limit plus
// the running TRES-minutes exceed the limit, safe or not). The first QOS
// that sets a limit decides it.
func (t *LimitTracker) UsageHold(order [2]int, use *[2]Usage, tr *LimitTRES, mins uint64, safe bool) string {
	if t.qos == nil {
		return ""
	}
	req := timeLimitTRES(tr, mins)
	wallSet := false
	for i, q := range order {
		if q < 0 || q >= t.qos.Len() {
			continue
		}
		l := &t.qos.QOS(q).Limits
		if l.GrpWall == Unset || wallSet {
			continue
		}
		wallSet = true
		grp := uint64(l.GrpWall / 60)
		if use[i].WallMins >= grp || (safe && use[i].WallMins+mins > grp) {
			return ReasonQOSGrpWall
		}
	}
	var minsSet, runSet [numLimTRES]bool
	for i, q := range order {
		if q < 0 || q >= t.qos.Len() {
			continue
		}
		qq := t.qos.QOS(q)
		for _, c := range qq.GrpTRESMins {
			k, ok := limTRESIndex(c.Name)
			if !ok || minsSet[k] {
				continue
			}
			minsSet[k] = true
			if !minsCheck(c.Count, req[k], tr[k], use[i].RunMins[k], &use[i].TRESMins[k], safe) {
				return reasonQOSMins[k]
			}
		}
		for _, c := range qq.Limits.GrpTRESRunMins {
			k, ok := limTRESIndex(c.Name)
			if !ok || runSet[k] {
				continue
			}
			runSet[k] = true
			if !minsCheck(c.Count, req[k], tr[k], use[i].RunMins[k], nil, true) {
				return reasonQOSRunMins[k]
			}
		}
	}
	return ""
}

// UsageTimeOut returns why a running job holding held is ended now under
// its QOS's usage limits, or "": acct_policy_job_time_out's QOS part
// (_qos_job_time_out): the decayed minutes of a TRES the job holds at or
// over GrpTRESMins, or the QOS's wall minutes at or over GrpWall, the
// first QOS that sets a limit deciding it. Slurm skips this check under
// AccountingStorageEnforce=safe; the caller does too.
func (t *LimitTracker) UsageTimeOut(order [2]int, use *[2]Usage, held *LimitTRES) string {
	if t.qos == nil {
		return ""
	}
	var minsSet [numLimTRES]bool
	wallSet := false
	for i, q := range order {
		if q < 0 || q >= t.qos.Len() {
			continue
		}
		qq := t.qos.QOS(q)
		for _, c := range qq.GrpTRESMins {
			k, ok := limTRESIndex(c.Name)
			if !ok || minsSet[k] {
				continue
			}
			minsSet[k] = true
			if held[k] != 0 && use[i].TRESMins[k] >= c.Count {
				return reasonQOSMins[k]
			}
		}
		if l := &qq.Limits; l.GrpWall != Unset && !wallSet {
			wallSet = true
			if use[i].WallMins >= uint64(l.GrpWall/60) {
				return ReasonQOSGrpWall
			}
		}
	}
	return ""
}

// UsageHold returns why a pending job of association a waits at its
// chain's usage limits, or "": _acct_policy_job_runnable_pre_select's
// GrpWall for a and every ancestor, then post_select's GrpTRESMins and
// GrpTRESRunMins for each, as LimitTracker.UsageHold checks them, except
// where the job's QOS set the same limit (q). use gives an association's
// usage.
func (t *AssocTracker) UsageHold(a int, use func(x int) Usage, tr *LimitTRES, mins uint64, safe bool, q *QOSSetLimits) string {
	if a < 0 || a >= len(t.parent) {
		return ""
	}
	chain := append([]int(nil), t.up(a)...)
	if !q.GrpWall {
		for _, x := range chain {
			if l := t.lims[x]; l != nil && l.GrpWall >= 0 {
				w, grp := use(x).WallMins, uint64(l.GrpWall/60)
				if w >= grp || (safe && w+mins > grp) {
					return ReasonAssocGrpWall
				}
			}
		}
	}
	req := timeLimitTRES(tr, mins)
	for _, x := range chain {
		l := t.lims[x]
		if l == nil || (l.GrpTRESMins == nil && l.GrpTRESRunMins == nil) {
			continue
		}
		u := use(x)
		for _, c := range l.GrpTRESMins {
			if k, ok := limTRESIndex(c.Name); ok && !q.GrpTRESMins[k] && !minsCheck(c.Count, req[k], tr[k], u.RunMins[k], &u.TRESMins[k], safe) {
				return reasonAssocMins[k]
			}
		}
		for _, c := range l.GrpTRESRunMins {
			if k, ok := limTRESIndex(c.Name); ok && !q.GrpTRESRunMins[k] && !minsCheck(c.Count, req[k], tr[k], u.RunMins[k], nil, true) {
				return reasonAssocRunMin[k]
			}
		}
	}
	return ""
}

// UsageTimeOut returns why a running job of association a holding held is
// ended now under its chain's usage limits, or "": the association part
// of acct_policy_job_time_out, for a and its ancestors below the root
// (the root's limits do not apply): decayed minutes of a TRES the job
// holds at or over GrpTRESMins, or wall minutes at or over GrpWall, where
// the job's QOS did not set the same limit.
func (t *AssocTracker) UsageTimeOut(a int, use func(x int) Usage, held *LimitTRES, q *QOSSetLimits) string {
	if a < 0 || a >= len(t.parent) {
		return ""
	}
	for _, x := range append([]int(nil), t.up(a)...) {
		if t.parent[x] < 0 {
			break // the root
		}
		l := t.lims[x]
		if l == nil {
			continue
		}
		var u Usage
		if l.GrpTRESMins != nil || l.GrpWall >= 0 {
			u = use(x)
		}
		for _, c := range l.GrpTRESMins {
			if k, ok := limTRESIndex(c.Name); ok && !q.GrpTRESMins[k] && held[k] != 0 && u.TRESMins[k] >= c.Count {
				return reasonAssocMins[k]
			}
		}
		if !q.GrpWall && l.GrpWall >= 0 && u.WallMins >= uint64(l.GrpWall/60) {
			return ReasonAssocGrpWall
		}
	}
	return ""
}

// HasUsageLimits reports whether any association sets GrpTRESMins,
// GrpTRESRunMins or GrpWall, so callers can skip building usage.
func (t *AssocTracker) HasUsageLimits() bool {
	for _, l := range t.lims {
		if l != nil && (l.GrpTRESMins != nil || l.GrpTRESRunMins != nil || l.GrpWall >= 0) {
			return true
		}
	}
	return false
}
