package policy

// AccrueMode says which of Slurm's three accrue-time rules applies
// (acct_policy_handle_accrue_time).
type AccrueMode uint8

// Accrue modes.
const (
	// AccrueAtBegin: AccountingStorageEnforce lacks "limits"; a job accrues
	// from its begin (eligible) time, whatever its state.
	AccrueAtBegin AccrueMode = iota
	// AccrueLimits: AccountingStorageEnforce has "limits"; the QOS accrue
	// caps decide which eligible pending jobs accrue.
	AccrueLimits
	// AccrueAlways: PriorityFlags=ACCRUE_ALWAYS; a job accrues from its
	// submit time, ignoring holds, dependencies and caps.
	AccrueAlways
)

// AccrueModeFor derives the mode from PriorityFlags and whether
// AccountingStorageEnforce includes "limits"; ACCRUE_ALWAYS wins.
func AccrueModeFor(flags PriorityFlags, enforceLimits bool) AccrueMode {
	switch {
	case flags&FlagAccrueAlways != 0:
		return AccrueAlways
	case enforceLimits:
		return AccrueLimits
	}
	return AccrueAtBegin
}

// AccrueJob is what the tracker needs to know of one pending job. ID is a
// small dense integer (such as the job's index in arrival order): the
// tracker keeps per-job state in slices indexed by it. User, Account and
// QOS are small dense integers too; a negative QOS means the job has none.
type AccrueJob struct {
	ID      int
	User    int
	Account int
	QOS     int
	Submit  int64 // submit time
	Begin   int64 // begin (eligible) time; 0 until the job is eligible
	// Held is a job with priority 0; Dependent one waiting on a dependency.
	Held      bool
	Dependent bool
	// Assoc is the job's association, for the association accrue caps
	// (SetAssocCaps); -1 for none. Without SetAssocCaps it is not read.
	Assoc int
}

// MaxAccrueJobID bounds job IDs, which size the tracker's per-job slice;
// jobs with larger (or negative) IDs are ignored and never accrue.
const MaxAccrueJobID = 1<<26 - 1

type accrueState struct {
	accrue  int64
	qos     int32
	account int32
	user    int32
	assoc   int32 // association counted in (assocCnt), -1 none
	counted bool  // holds a slot in the accrue counters
}

// AccrueTracker assigns accrue times as Slurm does each time it builds the
// job queue (every main-scheduler and backfill pass). The simulator calls
// Update with the pending jobs in creation order, reads AccrueTime, and
// calls Release when a job stops pending (starts or is cancelled).
//
// With AccrueLimits it counts accruing jobs per QOS (GrpJobsAccrue), per
// QOS and account (MaxJobsAccruePA) and per QOS and user
// (MaxJobsAccruePU), for the job's own QOS only, and, with SetAssocCaps,
// per association up the tree (GrpJobsAccrue, MaxJobsAccrue). Counters are slices indexed by the small ints, so
// Update does no hashing and, once the slices have grown, no allocation.
type AccrueTracker struct {
	mode  AccrueMode
	qos   *QOSSet
	jobs  []accrueState
	grp   []int   // by QOS
	acct  [][]int // by QOS, then account
	user  [][]int // by QOS, then user
	nJobs int     // accruing jobs holding a slot

	// Association caps (SetAssocCaps): parent links, GrpJobsAccrue per
	// association, MaxJobsAccrue as the association's own or its nearest
	// ancestor's (passed down as sacctmgr does), Unset where none; and the
	// accruing jobs per association, counted up the tree.
	aParent, aGrp, aMax, aCnt []int
}

// NewAccrueTracker returns a tracker for mode; qos supplies the caps and
// may be nil (no caps).
func NewAccrueTracker(mode AccrueMode, qos *QOSSet) *AccrueTracker {
	return &AccrueTracker{mode: mode, qos: qos}
}

// AccrueTime returns job id's accrue time (0: not accruing), the value the
// age factor measures from.
func (t *AccrueTracker) AccrueTime(id int) int64 {
	if id < 0 || id >= len(t.jobs) {
		return 0
	}
	return t.jobs[id].accrue
}

// SetAssocCaps gives the association tree (parent links, -1 at the root)
// and each association's GrpJobsAccrue and MaxJobsAccrue (Unset for
// none; MaxJobsAccrue already passed down from the nearest ancestor that
// sets it). The caps apply with AccrueLimits to jobs whose QOS set none.
func (t *AccrueTracker) SetAssocCaps(parent, grp, maxJobs []int) {
	t.aParent, t.aGrp, t.aMax = parent, grp, maxJobs
	t.aCnt = make([]int, len(parent))
}

// AssocAccruing returns the accruing jobs of association a and those
// below it.
func (t *AccrueTracker) AssocAccruing(a int) int {
	if a < 0 || a >= len(t.aCnt) {
		return 0
	}
	return t.aCnt[a]
}

// Accruing returns how many pending jobs hold an accrue slot.
func (t *AccrueTracker) Accruing() int { return t.nJobs }

// Counts returns the accrue counters of a QOS: the whole QOS, one account
// in it and one user in it.
func (t *AccrueTracker) Counts(qos, account, user int) (grp, perAccount, perUser int) {
	if qos < 0 || qos >= len(t.grp) {
		return 0, 0, 0
	}
	return t.grp[qos], at(t.acct[qos], account), at(t.user[qos], user)
}

func at(s []int, i int) int {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

// Update visits the pending jobs, which must be in creation (submit)
// order, at time now, and sets accrue times as acct_policy.c
// acct_policy_handle_accrue_time does:
//
//   - AccrueAlways: accrue = submit time, once.
//   - AccrueAtBegin: accrue = begin time, once the job has one.
//   - AccrueLimits: held, dependent and not-yet-eligible jobs (begin 0 or in
//     the future) are skipped. A job that already accrues keeps its time.
//     Otherwise the smallest cap set on the job's QOS decides (see
//     tightestCap): with no cap the job accrues from its begin time; with
//     room under that cap it accrues from now, the moment room was found;
//     at the cap it waits. Each accruing job takes a slot at once, so
//     earlier-created jobs win.
//
// A QOS with GrpJobsAccrue=10 and MaxJobsAccruePU=2 lets one user's 8
// jobs accrue 2 at a time.
func (t *AccrueTracker) Update(now int64, pending []AccrueJob) {
	for i := range pending {
		j := &pending[i]
		if j.ID < 0 || j.ID > MaxAccrueJobID {
			continue
		}
		st := t.state(j.ID)
		if st.accrue != 0 {
			continue
		}
		switch t.mode {
		case AccrueAlways:
			st.accrue = j.Submit
			continue
		case AccrueAtBegin:
			st.accrue = j.Begin
			continue
		}
		if j.Held || j.Dependent || j.Begin == 0 || j.Begin > now {
			continue
		}
		limit, used := t.tightestCap(j)
		switch {
		case limit == Unset:
			st.accrue = j.Begin
		case used < limit:
			st.accrue = now
		default:
			continue
		}
		t.take(st, j)
	}
}

// tightestCap returns the cap that decides for the job and the count it
// is measured against, or Unset. It follows acct_policy.c
// _get_accrue_limits: the QOS's GrpJobsAccrue, then MaxJobsAccruePA, then
// MaxJobsAccruePU are offered to _get_accrue_create_cnt, which ignores an
// unset cap and one not below the cap already kept, so the smallest value
// wins (the first of equal ones), and the room is that cap minus its own
// count: a smaller per-user cap with room lets a job accrue even when the
// larger GrpJobsAccrue is full.
func (t *AccrueTracker) tightestCap(j *AccrueJob) (limit, used int) {
	if t.qos == nil || j.QOS < 0 || j.QOS >= t.qos.Len() {
		return Unset, 0
	}
	q := t.qos.QOS(j.QOS)
	t.grow(j.QOS, j.Account, j.User)
	limit, used = Unset, 0
	offer := func(cap, count int) {
		if cap == Unset || (limit != Unset && limit <= cap) {
			return
		}
		limit, used = cap, count
	}
	offer(q.GrpJobsAccrue, t.grp[j.QOS])
	if j.Account >= 0 {
		offer(q.MaxJobsAccruePA, t.acct[j.QOS][j.Account])
	}
	if j.User >= 0 {
		offer(q.MaxJobsAccruePU, t.user[j.QOS][j.User])
	}
	// _get_accrue_limits then walks the association chain only while no
	// cap is found: the job's association offers its GrpJobsAccrue and
	// MaxJobsAccrue, each ancestor its GrpJobsAccrue, each counted against
	// the accruing jobs at and below that association; the first
	// association with a cap (the smaller of the job's own two) decides.
	for a, own := j.Assoc, true; limit == Unset && t.aCnt != nil && a >= 0 && a < len(t.aCnt); a, own = t.aParent[a], false {
		offer(t.aGrp[a], t.aCnt[a])
		if own {
			offer(t.aMax[a], t.aCnt[a])
		}
	}
	return limit, used
}

// take counts an accruing job in every counter of its QOS, as Slurm does
// whether or not a cap is set.
func (t *AccrueTracker) take(st *accrueState, j *AccrueJob) {
	st.counted = true
	st.qos, st.account, st.user, st.assoc = int32(j.QOS), int32(j.Account), int32(j.User), -1
	t.nJobs++
	if t.aCnt != nil && j.Assoc >= 0 && j.Assoc < len(t.aCnt) {
		st.assoc = int32(j.Assoc)
		for a := j.Assoc; a >= 0; a = t.aParent[a] {
			t.aCnt[a]++
		}
	}
	if j.QOS < 0 || t.qos == nil || j.QOS >= t.qos.Len() {
		st.qos = -1
		return
	}
	t.grow(j.QOS, j.Account, j.User)
	t.grp[j.QOS]++
	if j.Account >= 0 {
		t.acct[j.QOS][j.Account]++
	}
	if j.User >= 0 {
		t.user[j.QOS][j.User]++
	}
}

// Release is called when job id stops pending (it started or was
// cancelled): its slot is freed for the next queue build. Its accrue time
// is kept, as Slurm keeps it on the job record. Releasing twice, or a job
// that never accrued, does nothing.
func (t *AccrueTracker) Release(id int) {
	if id < 0 || id >= len(t.jobs) {
		return
	}
	st := &t.jobs[id]
	if !st.counted {
		return
	}
	st.counted = false
	t.nJobs--
	if st.assoc >= 0 && int(st.assoc) < len(t.aCnt) {
		for a := int(st.assoc); a >= 0; a = t.aParent[a] {
			dec(&t.aCnt[a])
		}
	}
	if q := int(st.qos); q >= 0 && q < len(t.grp) {
		dec(&t.grp[q])
		if a := int(st.account); a >= 0 && a < len(t.acct[q]) {
			dec(&t.acct[q][a])
		}
		if u := int(st.user); u >= 0 && u < len(t.user[q]) {
			dec(&t.user[q][u])
		}
	}
}

// Reset frees job id's slot and clears its accrue time, for a job that
// stays pending but must start accruing afresh (held, or requeued), as
// acct_policy_remove_accrue_time does.
func (t *AccrueTracker) Reset(id int) {
	t.Release(id)
	if id >= 0 && id < len(t.jobs) {
		t.jobs[id].accrue = 0
	}
}

func dec(p *int) {
	if *p > 0 {
		*p--
	}
}

func (t *AccrueTracker) state(id int) *accrueState {
	if id >= len(t.jobs) {
		n := 2 * len(t.jobs)
		if n <= id {
			n = id + 1
		}
		grown := make([]accrueState, n)
		copy(grown, t.jobs)
		t.jobs = grown
	}
	return &t.jobs[id]
}

func (t *AccrueTracker) grow(qos, account, user int) {
	for len(t.grp) <= qos {
		t.grp = append(t.grp, 0)
		t.acct = append(t.acct, nil)
		t.user = append(t.user, nil)
	}
	t.acct[qos] = growTo(t.acct[qos], account)
	t.user[qos] = growTo(t.user[qos], user)
}

func growTo(s []int, i int) []int {
	if i < len(s) {
		return s
	}
	n := 2 * len(s)
	if n <= i {
		n = i + 1
	}
	g := make([]int, n)
	copy(g, s)
	return g
}
