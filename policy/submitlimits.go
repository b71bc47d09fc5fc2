package policy

// Reason names of the limits checked at submit (job_state_reason.c); Slurm
// refuses the submission with ESLURM_ACCOUNTING_POLICY and logs the reason.
const (
	ReasonQOSGrpSubmit   = "QOSGrpSubmitJobsLimit"       // WAIT_QOS_GRP_SUB_JOB
	ReasonQOSMaxSubmitPA = "MaxSubmitJobsPerAccount"     // WAIT_QOS_MAX_SUB_JOB_PER_ACCT
	ReasonQOSMaxSubmitPU = "QOSMaxSubmitJobPerUserLimit" // WAIT_QOS_MAX_SUB_JOB
	ReasonQOSGrpWall     = "QOSGrpWallLimit"             // WAIT_QOS_GRP_WALL
	ReasonAssocGrpSubmit = "AssocGrpSubmitJobsLimit"     // WAIT_ASSOC_GRP_SUB_JOB
	ReasonAssocMaxSubmit = "AssocMaxSubmitJobLimit"      // WAIT_ASSOC_MAX_SUB_JOB
	ReasonAssocGrpWall   = "AssocGrpWallLimit"           // WAIT_ASSOC_GRP_WALL
	ReasonAssocMaxWall   = "AssocMaxWallDurationPerJobLimit"
)

// Submitted counts a job accepted at submit in each of its QOS, as
// acct_policy_add_job_submit adds to grp_used_submit_jobs and the user's
// and account's submit_jobs; Unsubmitted takes it out again when it
// leaves the system (acct_policy_remove_job_submit at its end). A job
// requeued stays counted: it never left.
func (t *LimitTracker) Submitted(j *LimitJob) { t.addSubmit(j, 1) }

// Unsubmitted uncounts a job Submitted counted.
func (t *LimitTracker) Unsubmitted(j *LimitJob) { t.addSubmit(j, -1) }

func (t *LimitTracker) addSubmit(j *LimitJob, sign int) {
	bump := func(p *int) { *p = max(*p+sign, 0) }
	for _, q := range j.QOS {
		if q < 0 || q >= len(t.grp) {
			continue
		}
		bump(&t.grp[q].submit)
		if j.User >= 0 {
			t.user[q] = growUse(t.user[q], j.User)
			bump(&t.user[q][j.User].submit)
		}
		if j.Account >= 0 {
			t.acct[q] = growUse(t.acct[q], j.Account)
			bump(&t.acct[q][j.Account].submit)
		}
	}
}

// Submits returns the pending and running jobs counted in QOS q, for one
// user and one account in it.
func (t *LimitTracker) Submits(q, user, account int) (grp, perUser, perAccount int) {
	if q < 0 || q >= len(t.grp) {
		return 0, 0, 0
	}
	return t.grp[q].submit, useAt(t.user[q], user).submit, useAt(t.acct[q], account).submit
}

// Strict reports whether a job's QOS make Slurm refuse it at submit over
// a Max limit instead of leaving it pending: DenyOnLimit on either of them
// (strict_checking in _acct_policy_validate).
func (t *LimitTracker) Strict(j *LimitJob) bool {
	for _, q := range j.QOS {
		if q >= 0 && q < len(t.grp) && t.qos.QOS(q).Flags&QOSDenyOnLimit != 0 {
			return true
		}
	}
	return false
}

// submit-time limit fields beyond those of check.
const (
	fGrpSubmit = numLimFields + iota
	fMaxSubmitPA
	fMaxSubmitPU
	fGrpWall
	numSubFields
)

// SubmitRefusal returns why Slurm refuses job j at submit under its QOS,
// or "" when it accepts it. It follows _qos_policy_validate for each QOS
// of LimitJob.QOS in turn, a limit decided by the first QOS that sets it
// (qos_out_ptr), in its order:
//   - with Strict only (DenyOnLimit): the request alone over MaxTRESPA,
//     MaxTRESPU or GrpTRES;
//   - GrpSubmit, when the QOS's pending and running jobs plus this one
//     exceed it;
//   - with Strict only: the request times the time limit over
//     MaxTRESMins (_validate_tres_time_limits), the time limit over
//     MaxWall or GrpWall, the request over MaxTRES;
//   - MaxSubmitPA, MaxSubmitPU, counted as GrpSubmit per account, per user;
//   - with Strict only: the request under MinTRES.
//
// Without DenyOnLimit a job over a Max limit is accepted and pends with
// that reason (Hold); the submit counts refuse it whatever the flags.
func (t *LimitTracker) SubmitRefusal(j *LimitJob) string {
	if t.qos == nil {
		return ""
	}
	strict := t.Strict(j)
	var set [numSubFields]bool
	first := func(f int) bool {
		if set[f] {
			return false
		}
		set[f] = true
		return true
	}
	for _, q := range j.QOS {
		if q < 0 || q >= len(t.grp) {
			continue
		}
		l := &t.qos.QOS(q).Limits
		u, a := useAt(t.user[q], j.User), useAt(t.acct[q], j.Account)
		if strict {
			if why := tresCheck(l.MaxTRESPA, fMaxTRESPA, first, nil, j, reasonPA); why != "" {
				return why
			}
			if why := tresCheck(l.MaxTRESPU, fMaxTRESPU, first, nil, j, reasonPU); why != "" {
				return why
			}
			if why := tresCheck(l.GrpTRES, fGrpTRES, first, nil, j, reasonGrp); why != "" {
				return why
			}
		}
		if l.GrpSubmit != Unset && first(fGrpSubmit) && t.grp[q].submit+1 > l.GrpSubmit {
			return ReasonQOSGrpSubmit
		}
		if strict {
			if why := perJobMinsCheck(l.MaxTRESMins, first, j); why != "" {
				return why
			}
		}
		if strict {
			if l.MaxWall != Unset && first(fMaxWall) && j.Wall > l.MaxWall {
				return "QOSMaxWallDurationPerJobLimit"
			}
			if l.GrpWall != Unset && first(fGrpWall) && j.Wall > l.GrpWall {
				return ReasonQOSGrpWall
			}
			if why := tresCheck(l.MaxTRES, fMaxTRES, first, nil, j, reasonPJ); why != "" {
				return why
			}
		}
		if l.MaxSubmitPA != Unset && first(fMaxSubmitPA) && a.submit+1 > l.MaxSubmitPA {
			return ReasonQOSMaxSubmitPA
		}
		if l.MaxSubmitPU != Unset && first(fMaxSubmitPU) && u.submit+1 > l.MaxSubmitPU {
			return ReasonQOSMaxSubmitPU
		}
		if strict {
			for _, c := range l.MinTRES {
				if k, ok := limTRESIndex(c.Name); ok && first(fMinTRES+k) && j.TRES[k] < c.Count {
					return reasonMinPJ[k]
				}
			}
		}
	}
	return ""
}

// QOSSetLimits says which limits a job's QOS set (acct_policy.c's qos_rec
// after the QOS pass): an association's limit of the same kind is then not
// consulted, the QOS trumping the association.
type QOSSetLimits struct {
	GrpSubmit, MaxSubmit, GrpWall, MaxWall                   bool
	GrpJobs, MaxJobs                                         bool // MaxJobs: the QOS's MaxJobsPU, which replaces the association's MaxJobs
	GrpTRES, MaxTRES, MaxTRESPN, GrpTRESMins, GrpTRESRunMins [numLimTRES]bool
}

// SetBy returns the limits the QOS of order set.
func (t *LimitTracker) SetBy(order [2]int) QOSSetLimits {
	var s QOSSetLimits
	mark := func(dst *[numLimTRES]bool, lims []TRESCount) {
		for _, c := range lims {
			if k, ok := limTRESIndex(c.Name); ok {
				dst[k] = true
			}
		}
	}
	for _, q := range order {
		if t.qos == nil || q < 0 || q >= t.qos.Len() {
			continue
		}
		qq := t.qos.QOS(q)
		l := &qq.Limits
		s.GrpSubmit = s.GrpSubmit || l.GrpSubmit != Unset
		s.MaxSubmit = s.MaxSubmit || l.MaxSubmitPA != Unset || l.MaxSubmitPU != Unset
		s.GrpWall = s.GrpWall || l.GrpWall != Unset
		s.MaxWall = s.MaxWall || l.MaxWall != Unset
		s.GrpJobs = s.GrpJobs || l.GrpJobs != Unset
		s.MaxJobs = s.MaxJobs || l.MaxJobsPU != Unset
		mark(&s.GrpTRES, l.GrpTRES)
		mark(&s.MaxTRES, l.MaxTRES)
		mark(&s.MaxTRESPN, l.MaxTRESPN)
		mark(&s.GrpTRESMins, qq.GrpTRESMins)
		mark(&s.GrpTRESRunMins, l.GrpTRESRunMins)
	}
	return s
}

// Submitted counts a job accepted at submit in association a and every
// ancestor (used_submit_jobs, acct_policy_add_job_submit); Unsubmitted
// takes it out when it leaves.
func (t *AssocTracker) Submitted(a int) { t.addSubmit(a, 1) }

// Unsubmitted uncounts a job Submitted counted.
func (t *AssocTracker) Unsubmitted(a int) { t.addSubmit(a, -1) }

func (t *AssocTracker) addSubmit(a int, sign int) {
	for _, x := range t.up(a) {
		t.submit[x] = max(t.submit[x]+sign, 0)
	}
}

// Submits returns the pending and running jobs of association a and
// those below it.
func (t *AssocTracker) Submits(a int) int {
	if a < 0 || a >= len(t.submit) {
		return 0
	}
	return t.submit[a]
}

// SubmitRefusal returns why Slurm refuses a job of association a (asking
// tr, time limit wall seconds) at submit under its chain's limits, or "".
// It follows _acct_policy_validate's association loop: for a and every
// ancestor, (strict only) the request over GrpTRES, the association's
// pending and running jobs plus this one over GrpSubmit, (strict only)
// the time limit over GrpWall; for a itself, its Max limits being its
// ancestors' passed down (the nearest that sets each): (strict only) the
// request over MaxTRES, its own jobs plus this one over MaxSubmit, (strict
// only) the time limit over MaxWall. A limit the job's QOS set (q) is not
// consulted; MaxSubmit is not when the QOS set MaxSubmitPA or PU.
func (t *AssocTracker) SubmitRefusal(a int, tr *LimitTRES, wall int64, strict bool, q *QOSSetLimits) string {
	if a < 0 || a >= len(t.parent) {
		return ""
	}
	chain := append([]int(nil), t.up(a)...)
	maxSubmit, maxWall := Unset, int64(Unset)
	var maxTRES []TRESCount
	for _, x := range chain {
		if l := t.lims[x]; l != nil {
			if maxSubmit == Unset && l.MaxSubmit >= 0 {
				maxSubmit = l.MaxSubmit
			}
			if maxWall == Unset && l.MaxWall >= 0 {
				maxWall = l.MaxWall
			}
			if maxTRES == nil && l.MaxTRES != nil {
				maxTRES = l.MaxTRES
			}
		}
	}
	for i, x := range chain {
		l := t.lims[x]
		if l == nil {
			l = &AssocLimits{GrpJobs: Unset, MaxJobs: Unset, MaxWall: Unset, GrpSubmit: Unset, MaxSubmit: Unset, GrpWall: Unset}
		}
		if strict {
			for _, c := range l.GrpTRES {
				if k, ok := limTRESIndex(c.Name); ok && !q.GrpTRES[k] && tr[k] > c.Count {
					return reasonAssocGrp[k]
				}
			}
		}
		if !q.GrpSubmit && l.GrpSubmit >= 0 && t.submit[x]+1 > l.GrpSubmit {
			return ReasonAssocGrpSubmit
		}
		if strict && !q.GrpWall && l.GrpWall >= 0 && wall > l.GrpWall {
			return ReasonAssocGrpWall
		}
		if i > 0 {
			continue
		}
		if strict {
			for _, c := range maxTRES {
				if k, ok := limTRESIndex(c.Name); ok && !q.MaxTRES[k] && tr[k] > c.Count {
					return reasonAssocPJ[k]
				}
			}
		}
		if !q.MaxSubmit && maxSubmit >= 0 && t.submit[a]+1 > maxSubmit {
			return ReasonAssocMaxSubmit
		}
		if strict && !q.MaxWall && maxWall >= 0 && wall > maxWall {
			return ReasonAssocMaxWall
		}
	}
	return ""
}
