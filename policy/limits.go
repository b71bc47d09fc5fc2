package policy

import "strings"

// TRES a limit can name, as indices of LimitTRES.
const (
	LimCPU = iota
	LimMem // MB
	LimNode
	LimBilling
	LimGPU // gres/gpu
	numLimTRES
)

// LimitTRES is what one job holds (or asks) of the TRES limits count.
type LimitTRES [numLimTRES]uint64

// limTRESIndex maps a limit's TRES name to its index; other TRES are not
// counted and their limits never hold a job.
func limTRESIndex(name string) (int, bool) {
	switch name {
	case "cpu":
		return LimCPU, true
	case "mem":
		return LimMem, true
	case "node":
		return LimNode, true
	case "billing":
		return LimBilling, true
	case "gres/gpu":
		return LimGPU, true
	}
	return 0, false
}

// Reason names per TRES, as job_state_reason.c job_state_reason_string
// prints them (WAIT_QOS_GRP_CPU and the like).
var (
	reasonGrp = [numLimTRES]string{"QOSGrpCpuLimit", "QOSGrpMemLimit", "QOSGrpNodeLimit", "QOSGrpBilling", "QOSGrpGRES"}
	reasonPU  = [numLimTRES]string{"QOSMaxCpuPerUserLimit", "QOSMaxMemoryPerUser", "QOSMaxNodePerUserLimit", "QOSMaxBillingPerUser", "QOSMaxGRESPerUser"}
	reasonPA  = [numLimTRES]string{"MaxCpuPerAccount", "MaxMemoryPerAccount", "MaxNodePerAccount", "MaxBillingPerAccount", "MaxGRESPerAccount"}
	reasonPJ  = [numLimTRES]string{"QOSMaxCpuPerJobLimit", "QOSMaxMemoryPerJob", "QOSMaxNodePerJobLimit", "QOSMaxBillingPerJob", "QOSMaxGRESPerJob"}
	// reasonPN: job_state_reason.c has no per-node reason for the node
	// TRES, which _get_tres_state_reason leaves as the "unknown" one.
	reasonPN    = [numLimTRES]string{"QOSMaxCpuPerNode", "QOSMaxMemoryPerNode", "QOSMaxUnknownPerNode", "QOSMaxBillingPerNode", "QOSMaxGRESPerNode"}
	reasonMinPJ = [numLimTRES]string{"QOSMinCpuNotSatisfied", "QOSMinMemory", "QOSMinNode", "QOSMinBilling", "QOSMinGRES"}
	// reasonMinsPJ: WAIT_QOS_MAX_*_MINS_PER_JOB.
	reasonMinsPJ = [numLimTRES]string{"QOSMaxCpuMinutesPerJobLimit", "QOSMaxMemoryMinutesPerJob", "QOSMaxNodeMinutesPerJob", "QOSMaxBillingMinutesPerJob", "QOSMaxGRESMinutesPerJob"}
)

// LimitJob is a job as the QOS limits see it. QOS holds the QOS whose
// limits apply, in the order Slurm consults them (QOSOrder); User and
// Account are small dense integers.
type LimitJob struct {
	QOS     [2]int
	User    int
	Account int
	TRES    LimitTRES
	Wall    int64 // time limit in seconds, <= 0 for none
}

// QOSOrder is acct_policy_set_qos_order: with both a job QOS and a
// partition QOS, the partition's comes first unless the job's has
// OverPartQOS; the same QOS is not consulted twice; -1 marks none.
func QOSOrder(s *QOSSet, jobQOS, partQOS int) [2]int {
	valid := func(i int) bool { return s != nil && i >= 0 && i < s.Len() }
	if !valid(jobQOS) {
		jobQOS = -1
	}
	if !valid(partQOS) {
		partQOS = -1
	}
	switch {
	case jobQOS < 0:
		return [2]int{partQOS, -1}
	case partQOS < 0 || partQOS == jobQOS:
		return [2]int{jobQOS, -1}
	case s.QOS(jobQOS).Flags&QOSOverPartQOS != 0:
		return [2]int{jobQOS, partQOS}
	}
	return [2]int{partQOS, jobQOS}
}

type limUse struct {
	jobs   int
	tres   LimitTRES
	submit int // pending and running jobs (submit_jobs)
}

func (u *limUse) add(j *LimitJob, sign int) {
	u.jobs += sign
	for k, v := range j.TRES {
		if sign > 0 {
			u.tres[k] += v
		} else {
			u.tres[k] -= min(v, u.tres[k])
		}
	}
}

// LimitTracker counts running jobs and their TRES per QOS, per (QOS,
// user) and per (QOS, account), as acct_policy_job_begin and
// acct_policy_job_fini keep grp_used_jobs, grp_used_tres and the used
// limits lists, and answers whether a pending job may start under them.
type LimitTracker struct {
	qos  *QOSSet
	grp  []limUse
	user [][]limUse
	acct [][]limUse
}

// NewLimitTracker returns a tracker for the QOS of s (nil: no limits).
func NewLimitTracker(s *QOSSet) *LimitTracker {
	t := &LimitTracker{qos: s}
	if s != nil {
		t.grp = make([]limUse, s.Len())
		t.user = make([][]limUse, s.Len())
		t.acct = make([][]limUse, s.Len())
	}
	return t
}

// Begin counts a job that starts, in each of its QOS.
func (t *LimitTracker) Begin(j *LimitJob) { t.add(j, 1) }

// End uncounts a job that ends (or is requeued); it must have begun.
func (t *LimitTracker) End(j *LimitJob) { t.add(j, -1) }

func (t *LimitTracker) add(j *LimitJob, sign int) {
	for _, q := range j.QOS {
		if q < 0 || q >= len(t.grp) {
			continue
		}
		t.grp[q].add(j, sign)
		if j.User >= 0 {
			t.user[q] = growUse(t.user[q], j.User)
			t.user[q][j.User].add(j, sign)
		}
		if j.Account >= 0 {
			t.acct[q] = growUse(t.acct[q], j.Account)
			t.acct[q][j.Account].add(j, sign)
		}
	}
}

func growUse(s []limUse, i int) []limUse {
	if i < len(s) {
		return s
	}
	n := max(2*len(s), i+1)
	g := make([]limUse, n)
	copy(g, s)
	return g
}

// Running returns the running jobs counted in QOS q, for one user and one
// account in it.
func (t *LimitTracker) Running(q, user, account int) (grp, perUser, perAccount int) {
	if q < 0 || q >= len(t.grp) {
		return 0, 0, 0
	}
	u, a := useAt(t.user[q], user), useAt(t.acct[q], account)
	return t.grp[q].jobs, u.jobs, a.jobs
}

func useAt(s []limUse, i int) limUse {
	if i < 0 || i >= len(s) {
		return limUse{}
	}
	return s[i]
}

// limit fields, for "the first QOS that sets a limit decides it".
const (
	fGrpJobs = iota
	fMaxJobsPA
	fMaxJobsPU
	fMaxWall
	fGrpTRES
	fMaxTRESPA   = fGrpTRES + numLimTRES
	fMaxTRESPU   = fMaxTRESPA + numLimTRES
	fMaxTRES     = fMaxTRESPU + numLimTRES
	fMinTRES     = fMaxTRES + numLimTRES
	fMaxTRESPN   = fMinTRES + numLimTRES
	fMaxTRESMins = fMaxTRESPN + numLimTRES
	numLimFields = fMaxTRESMins + numLimTRES
)

// Hold returns the reason, in Slurm's words, a pending job may not start
// now under its QOS limits, or "" when it may. inPass are jobs the current
// scheduling pass has already planned to start: they count as running.
//
// It follows acct_policy_job_runnable_pre_select (_qos_job_runnable_
// pre_select: GrpJobs, MaxJobsPA, MaxJobsPU, each at its limit when the
// running count is >= it; MaxWall per job, held when the time limit
// exceeds it) and then acct_policy_job_runnable_post_select
// (_qos_job_runnable_post_select: GrpTRES, MaxTRESPA, MaxTRESPU when
// usage plus the job's TRES would exceed the limit; MaxTRES per job when
// the job's exceeds it; MinTRES when it is below). For each limit the
// first QOS in LimitJob.QOS that sets it decides; the second QOS's value
// of that limit is not consulted (qos_out_ptr in acct_policy.c).
func (t *LimitTracker) Hold(j *LimitJob, inPass []LimitJob) string {
	if t.qos == nil {
		return ""
	}
	for i := range inPass {
		t.add(&inPass[i], 1)
	}
	why := t.check(j)
	for i := range inPass {
		t.add(&inPass[i], -1)
	}
	return why
}

func (t *LimitTracker) check(j *LimitJob) string {
	var set [numLimFields]bool
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
		if l.GrpJobs != Unset && first(fGrpJobs) && t.grp[q].jobs >= l.GrpJobs {
			return "QOSGrpJobsLimit"
		}
		if l.MaxJobsPA != Unset && first(fMaxJobsPA) && a.jobs >= l.MaxJobsPA {
			return "MaxJobsPerAccount"
		}
		if l.MaxJobsPU != Unset && first(fMaxJobsPU) && u.jobs >= l.MaxJobsPU {
			return "QOSMaxJobsPerUserLimit"
		}
		if l.MaxWall != Unset && first(fMaxWall) && j.Wall > l.MaxWall {
			return "QOSMaxWallDurationPerJobLimit"
		}
	}
	for _, q := range j.QOS {
		if q < 0 || q >= len(t.grp) {
			continue
		}
		l := &t.qos.QOS(q).Limits
		u, a := useAt(t.user[q], j.User), useAt(t.acct[q], j.Account)
		if why := tresCheck(l.GrpTRES, fGrpTRES, first, &t.grp[q].tres, j, reasonGrp); why != "" {
			return why
		}
		if why := tresCheck(l.MaxTRESPA, fMaxTRESPA, first, &a.tres, j, reasonPA); why != "" {
			return why
		}
		if why := tresCheck(l.MaxTRESPU, fMaxTRESPU, first, &u.tres, j, reasonPU); why != "" {
			return why
		}
		if why := perJobMinsCheck(l.MaxTRESMins, first, j); why != "" {
			return why
		}
		if why := tresCheck(l.MaxTRES, fMaxTRES, first, nil, j, reasonPJ); why != "" {
			return why
		}
		if why := perNodeCheck(l.MaxTRESPN, first, j); why != "" {
			return why
		}
		for _, c := range l.MinTRES {
			if k, ok := limTRESIndex(c.Name); ok && first(fMinTRES+k) && j.TRES[k] < c.Count {
				return reasonMinPJ[k]
			}
		}
	}
	return ""
}

// tresCheck holds the job when used (nil: a per-job limit) plus its TRES
// exceeds a limit that this QOS is the first to set.
func tresCheck(lims []TRESCount, base int, first func(int) bool, used *LimitTRES, j *LimitJob, reasons [numLimTRES]string) string {
	for _, c := range lims {
		k, ok := limTRESIndex(c.Name)
		if !ok || !first(base+k) {
			continue
		}
		have := uint64(0)
		if used != nil {
			have = used[k]
		}
		if have+j.TRES[k] > c.Count {
			return reasons[k]
		}
	}
	return ""
}

// perJobMinsCheck holds the job when one of its TRES times its time limit in
// minutes (rounded up, as Slurm keeps time limits in minutes) exceeds a
// MaxTRESMins that this QOS is the first to set: job_tres_time_limit
// against max_tres_mins_pj in _qos_job_runnable_post_select (checked
// just before MaxTRES per job), and at submit _validate_tres_time_limits.
// A job without a time limit is not held: Slurm would give it one of
// floor(limit / TRES) minutes at submit (_validate_time_limit), which
// fairsim does not model.
func perJobMinsCheck(lims []TRESCount, first func(int) bool, j *LimitJob) string {
	if j.Wall <= 0 {
		return ""
	}
	mins := uint64(j.Wall+59) / 60
	for _, c := range lims {
		k, ok := limTRESIndex(c.Name)
		if !ok || !first(fMaxTRESMins+k) {
			continue
		}
		if j.TRES[k] > 0 && mins > c.Count/j.TRES[k] {
			return reasonMinsPJ[k]
		}
	}
	return ""
}

// perNodeCheck holds the job when one of its TRES divided by its node
// count (integer division, none when it asks no nodes) exceeds a
// MaxTRESPerNode that this QOS is the first to set: the divisor of
// _validate_tres_limits_for_qos, called with max_tres_pn_ctld from
// _qos_job_runnable_post_select after the per-job maximum.
func perNodeCheck(lims []TRESCount, first func(int) bool, j *LimitJob) string {
	for _, c := range lims {
		k, ok := limTRESIndex(c.Name)
		if !ok || !first(fMaxTRESPN+k) {
			continue
		}
		per := j.TRES[k]
		if n := j.TRES[LimNode]; n > 0 {
			per /= n
		}
		if per > c.Count {
			return reasonPN[k]
		}
	}
	return ""
}

// IsLimitReason reports whether a pending or end reason names a QOS or
// association limit (job_state_reason.c's WAIT_QOS_* and WAIT_ASSOC_*
// reasons, the per-account ones named Max…PerAccount).
func IsLimitReason(r string) bool {
	return strings.HasPrefix(r, "QOS") || strings.HasPrefix(r, "Assoc") || strings.HasPrefix(r, "Max")
}

// NeverRuns returns the reason a job would be held even with nothing
// running: a per-job limit (MaxTRES, MinTRES, MaxWall) it breaks on its
// own, or a count or TRES limit its request alone is over. Slurm refuses
// such a job at submit under DenyOnLimit and otherwise leaves it pending
// with that reason for good.
func (t *LimitTracker) NeverRuns(j *LimitJob) string {
	return NewLimitTracker(t.qos).check(j)
}
