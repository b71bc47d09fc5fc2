package policy

// AssocLimits are an association's limits as sacctmgr sets them (GrpJobs,
// GrpTRES, MaxJobs, MaxTRES per job, MaxWall), read; Unset (-1) or nil
// where not set.
type AssocLimits struct {
	GrpJobs, MaxJobs int
	GrpTRES, MaxTRES []TRESCount
	MaxWall          int64 // seconds
	// GrpSubmit and MaxSubmit count pending and running jobs (sacctmgr
	// GrpSubmitJobs, MaxSubmitJobs), refused at submit over them.
	GrpSubmit, MaxSubmit int
	// GrpJobsAccrue and MaxJobsAccrue cap the pending jobs accruing age.
	GrpJobsAccrue, MaxJobsAccrue int
	// GrpTRESMins caps decayed TRES-minutes, GrpTRESRunMins the TRES ×
	// time limit left of running jobs; GrpWall (seconds) decayed wall time.
	GrpTRESMins, GrpTRESRunMins []TRESCount
	GrpWall                     int64
	// MaxTRESPN caps each TRES of a job divided by its node count
	// (MaxTRESPerNode), from the nearest association that sets it.
	MaxTRESPN []TRESCount
}

// ParseAssocLimits reads the raw values the sacctmgr dump gives (a TRES
// list such as "cpu=8,gres/gpu=4", counts, MaxWall in seconds).
func ParseAssocLimits(grpJobs, maxJobs int, grpTRES, maxTRES string, maxWall int64) (*AssocLimits, error) {
	l := &AssocLimits{GrpJobs: grpJobs, MaxJobs: maxJobs, MaxWall: maxWall, GrpSubmit: Unset, MaxSubmit: Unset,
		GrpJobsAccrue: Unset, MaxJobsAccrue: Unset, GrpWall: Unset}
	var err error
	if grpTRES != "" {
		if l.GrpTRES, err = parseTRESCounts(grpTRES); err != nil {
			return nil, err
		}
	}
	if maxTRES != "" {
		if l.MaxTRES, err = parseTRESCounts(maxTRES); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// AddPerNode reads MaxTRESPerNode, a TRES list as the dump gives it.
func (l *AssocLimits) AddPerNode(maxTRESPerNode string) error {
	if maxTRESPerNode == "" {
		return nil
	}
	var err error
	l.MaxTRESPN, err = parseTRESCounts(maxTRESPerNode)
	return err
}

// AddUsageLimits reads the limits on submissions, accrue and usage the
// dump gives (counts, -1 unset; TRES-minute lists; GrpWall in seconds).
func (l *AssocLimits) AddUsageLimits(grpSubmit, maxSubmit, grpAccrue, maxAccrue int, grpTRESMins, grpTRESRunMins string, grpWall int64) error {
	l.GrpSubmit, l.MaxSubmit, l.GrpJobsAccrue, l.MaxJobsAccrue, l.GrpWall = grpSubmit, maxSubmit, grpAccrue, maxAccrue, grpWall
	var err error
	if grpTRESMins != "" {
		if l.GrpTRESMins, err = parseTRESCounts(grpTRESMins); err != nil {
			return err
		}
	}
	if grpTRESRunMins != "" {
		if l.GrpTRESRunMins, err = parseTRESCounts(grpTRESRunMins); err != nil {
			return err
		}
	}
	return nil
}

// Reason names of association limits (job_state_reason.c).
var (
	reasonAssocGrp = [numLimTRES]string{"AssocGrpCpuLimit", "AssocGrpMemLimit", "AssocGrpNodeLimit", "AssocGrpBilling", "AssocGrpGRES"}
	reasonAssocPN  = [numLimTRES]string{"AssocMaxCpuPerNode", "AssocMaxMemPerNode", "AssocMaxUnknownPerNode", "AssocMaxBillingPerNode", "AssocMaxGRESPerNode"}
	reasonAssocPJ  = [numLimTRES]string{"AssocMaxCpuPerJobLimit", "AssocMaxMemPerJob", "AssocMaxNodePerJobLimit", "AssocMaxBillingPerJob", "AssocMaxGRESPerJob"}
)

// AssocTracker counts running jobs and their TRES per association, each job
// in its association and every ancestor, and holds jobs at the limits of
// their chain as acct_policy_job_runnable_pre_select/post_select do:
//   - Grp limits (GrpJobs, GrpTRES) of every association up the chain,
//     counting all jobs below it;
//   - Max limits (MaxJobs, MaxTRES per job, MaxWall) from the nearest
//     association of the chain that sets each, MaxJobs counting the jobs of
//     the job's own association (an account's Max limits are its users'
//     defaults, as sacctmgr passes them down).
type AssocTracker struct {
	parent []int // per association, -1 at the root
	lims   []*AssocLimits
	jobs   []int
	tres   []LimitTRES
	submit []int // pending and running jobs, per association and up the tree
	chain  []int // scratch
}

// NewAssocTracker tracks a tree given as parent links and limits per
// association (nil: none).
func NewAssocTracker(parent []int, lims []*AssocLimits) *AssocTracker {
	return &AssocTracker{parent: parent, lims: lims, jobs: make([]int, len(parent)), tres: make([]LimitTRES, len(parent)),
		submit: make([]int, len(parent))}
}

// Any reports whether any association sets a limit.
func (t *AssocTracker) Any() bool {
	for _, l := range t.lims {
		if l != nil {
			return true
		}
	}
	return false
}

func (t *AssocTracker) up(a int) []int {
	c := t.chain[:0]
	for ; a >= 0 && a < len(t.parent); a = t.parent[a] {
		c = append(c, a)
	}
	t.chain = c
	return c
}

// Begin counts a running job of association a; End uncounts it.
func (t *AssocTracker) Begin(a int, tr *LimitTRES) { t.add(a, tr, 1) }

// End uncounts a job counted by Begin.
func (t *AssocTracker) End(a int, tr *LimitTRES) { t.add(a, tr, -1) }

func (t *AssocTracker) add(a int, tr *LimitTRES, sign int) {
	for _, x := range t.up(a) {
		t.jobs[x] += sign
		for k := range tr {
			if sign > 0 {
				t.tres[x][k] += tr[k]
			} else {
				t.tres[x][k] -= min(tr[k], t.tres[x][k])
			}
		}
	}
}

// Placed is a job the current pass has planned to start: its association
// and TRES, counted as running by Hold.
type Placed struct {
	Assoc int
	TRES  LimitTRES
}

// Hold returns the reason job j (of association a, asking tr, with time
// limit wall seconds, <= 0 for none) waits at its chain's limits, counting
// the pass's placed jobs as running; "" when none holds it. A limit the
// job's QOS sets (q, nil for none) replaces the association's of the same
// kind and TRES at every level (acct_policy.c checks an association's
// limit only where qos_rec left it INFINITE): a QOS GrpTRES=cpu=12 lets
// its jobs past an account's GrpTRES=cpu=16.
func (t *AssocTracker) Hold(a int, tr *LimitTRES, wall int64, placed []Placed, q *QOSSetLimits) string {
	if a < 0 || a >= len(t.parent) {
		return ""
	}
	if q == nil {
		q = &QOSSetLimits{}
	}
	chain := append([]int(nil), t.up(a)...)
	var maxJobs, maxWall = -1, int64(-1)
	var maxTRES, maxPN []TRESCount
	for _, x := range chain {
		l := t.lims[x]
		if l == nil {
			continue
		}
		if maxJobs < 0 && l.MaxJobs >= 0 {
			maxJobs = l.MaxJobs
		}
		if maxWall < 0 && l.MaxWall >= 0 {
			maxWall = l.MaxWall
		}
		if maxTRES == nil && l.MaxTRES != nil {
			maxTRES = l.MaxTRES
		}
		if maxPN == nil && l.MaxTRESPN != nil {
			maxPN = l.MaxTRESPN
		}
	}
	own := t.jobs[a]
	for _, p := range placed {
		if p.Assoc == a {
			own++
		}
	}
	if maxJobs >= 0 && !q.MaxJobs && own >= maxJobs {
		return "AssocMaxJobsLimit"
	}
	if maxWall >= 0 && !q.MaxWall && wall > maxWall {
		return "AssocMaxWallDurationPerJobLimit"
	}
	for _, c := range maxTRES {
		if k, ok := limTRESIndex(c.Name); ok && !q.MaxTRES[k] && tr[k] > c.Count {
			return reasonAssocPJ[k]
		}
	}
	// Per node after per job, as _validate_tres_limits_for_assoc is
	// called with max_tres_pn_ctld and the node count as divisor.
	for _, c := range maxPN {
		k, ok := limTRESIndex(c.Name)
		if !ok || q.MaxTRESPN[k] {
			continue
		}
		per := tr[k]
		if n := tr[LimNode]; n > 0 {
			per /= n
		}
		if per > c.Count {
			return reasonAssocPN[k]
		}
	}
	for _, x := range chain {
		l := t.lims[x]
		if l == nil {
			continue
		}
		jobs, used := t.jobs[x], t.tres[x]
		for _, p := range placed {
			if t.below(p.Assoc, x) {
				jobs++
				for k := range used {
					used[k] += p.TRES[k]
				}
			}
		}
		if l.GrpJobs >= 0 && !q.GrpJobs && jobs >= l.GrpJobs {
			return "AssocGrpJobsLimit"
		}
		for _, c := range l.GrpTRES {
			if k, ok := limTRESIndex(c.Name); ok && !q.GrpTRES[k] && used[k]+tr[k] > c.Count {
				return reasonAssocGrp[k]
			}
		}
	}
	return ""
}

// below reports whether association a is x or one of its descendants.
func (t *AssocTracker) below(a, x int) bool {
	for ; a >= 0 && a < len(t.parent); a = t.parent[a] {
		if a == x {
			return true
		}
	}
	return false
}
