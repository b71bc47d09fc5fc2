package sim

import "sync/atomic"

// View is what a scheduler pass may read: the clock, the cluster, the
// pending queue and the running jobs, as the pass's own plan has left them.
// A start or preemption put in the pass's Plan shows in the View at once
// (the cluster's free counters, Holdings, Placed), as Nomad's EvalContext
// shows state plus the plan in progress; jobs themselves are not touched
// until the simulator commits the plan.
//
// A View is built by the simulator for each pass, or by NewView for tests
// of scheduler rules that need no engine.
type View struct {
	now     int64
	c       *Cluster
	pending []*Job
	running []*Job
	compl   []*Job
	version uint64
	churn   uint64
	epoch   uint64
	hold    func(*Job, int64) string
	holdIn  func(*Job, int, int64, []PlacedJob, Alloc) string
	limits  bool // the policy enforces limits (LimitEnforcer)
	// placed are the jobs the plan starts, for HoldPlaced: kept from
	// call to call within a pass, from the first placedN actions, while
	// no placed job was preempted (unplaced counts those).
	placed            []PlacedJob
	placedPass        uint64
	placedN, unplaced int
	placedUnplaced    int

	sim       *Simulator // the owner, for Live; nil for NewView's views
	pass      uint64     // numbers the passes of this view's owner, for marks
	plan      Plan       // reused pass after pass: a plan lives until its commit
	pool      []Slice
	preempted int
	scratch   []*Job
}

// ViewState is what NewView builds a View from.
type ViewState struct {
	Now     int64
	Cluster *Cluster
	// Pending are the eligible pending jobs in arrival order (EligSeq
	// increasing); Running the jobs running now.
	Pending, Running []*Job
	// Version and Epoch are as View.Version and View.Epoch. Churn is
	// the simulator's; NewView ignores it and gives each hand-made view
	// a Churn of its own (View.Churn).
	Version, Churn, Epoch uint64
	// Hold is the limit check (Policy.Hold); nil for none.
	Hold func(j *Job, now int64) string
	// HoldPlaced, when set, replaces Hold and is also given the jobs the
	// pass's plan has started so far (PlacedHolder).
	HoldPlaced func(j *Job, part int, now int64, placed []PlacedJob, alloc Alloc) string
	// Limits says the policy enforces limits (LimitEnforcer).
	Limits bool
	// Completing are ended jobs whose nodes are still COMPLETING
	// (Options.CompletingTime): their resources are not free yet.
	Completing []*Job
}

// PlacedHolder is a Policy whose limit check counts the starts the pass
// has planned but not committed, as Slurm counts each start at once.
// part is the partition of the job's record being tested (its Part is
// its first partition until it starts), and each placed job comes with
// the partition it starts in: a partition's QOS orders the limits of the
// jobs tested or started there.
//
// alloc is nil for the check of the request, before nodes are chosen;
// given, it is the check after selection, with the nodes chosen for j
// (View.HoldOn), made only once the request passed. Empty but not nil
// (View.HoldBusy), it is the check of a selection that found no nodes
// now: the request as select_nodes then counts it.
type PlacedHolder interface {
	HoldPlaced(j *Job, part int, now int64, placed []PlacedJob, alloc Alloc) string
}

// LimitEnforcer is a Policy that says whether it enforces limits at all
// (AccountingStorageEnforce=limits): a scheduler then checks the nodes a
// job would get in the future against them too (View.EnforcesLimits).
type LimitEnforcer interface {
	EnforcesLimits() bool
}

// PlacedJob is a start the pass has planned: the job, the partition it
// starts in and its allocation.
type PlacedJob struct {
	Job   *Job
	Part  int
	Alloc Alloc
}

// NewView builds a View of a hand-made state, for scheduler tests: jobs
// must be pending (State Pending) or running (State Running, with Alloc,
// Start and Limit set and their resources taken with Occupy).
func NewView(st ViewState) *View {
	for i, j := range st.Pending {
		j.pendIdx = i
	}
	for i, j := range st.Running {
		j.runIdx = i
	}
	st.Churn = handMade.Add(1) | 1<<63 // never one a simulator's or another view's
	v := &View{}
	v.reset(st)
	return v
}

// handMade numbers NewView's views, so that each has a Churn of its own:
// a test may change its cluster between two views.
var handMade atomic.Uint64

func (v *View) reset(st ViewState) {
	v.now, v.c, v.pending, v.running, v.compl = st.Now, st.Cluster, st.Pending, st.Running, st.Completing
	v.version, v.churn, v.epoch, v.hold, v.holdIn, v.limits = st.Version, st.Churn, st.Epoch, st.Hold, st.HoldPlaced, st.Limits
	v.pass++
	v.plan = Plan{v: v, Actions: v.plan.Actions[:0], WantPass: -1}
	v.pool = v.pool[:0]
	v.preempted = 0
}

// Now is the time of the pass.
func (v *View) Now() int64 { return v.now }

// Cluster is the cluster with the pass's plan applied: free cores and
// memory already count the plan's starts and preemptions. A pass must not
// change it other than through its Plan.
func (v *View) Cluster() *Cluster { return v.c }

// Pending returns the eligible pending jobs in arrival order, as they were
// when the pass began (jobs the plan starts are still listed: see Placed).
// The slice is the simulator's: do not modify it.
func (v *View) Pending() []*Job { return v.pending }

// Running returns the jobs that were running when the pass began, less the
// ones its plan preempted, in no particular but deterministic order.
func (v *View) Running() []*Job {
	if v.preempted == 0 {
		return v.running
	}
	v.scratch = v.scratch[:0]
	for _, j := range v.running {
		if j.planMark != v.mark(markPreempted) {
			v.scratch = append(v.scratch, j)
		}
	}
	return v.scratch
}

// Holding is an allocation held over time, as a pass sees it: a running
// job's, or one the pass's plan has placed.
type Holding struct {
	Job   *Job
	Part  int
	Alloc Alloc
	Start int64
	// End is when the holder is expected to end: start plus the time limit
	// in force on its allocation, never the actual runtime.
	End int64
}

// Holdings appends to dst what holds resources now: the running jobs (less
// preempted ones) and the plan's starts.
func (v *View) Holdings(dst []Holding) []Holding {
	v.EachHolding(func(h Holding) { dst = append(dst, h) })
	return dst
}

// EachHolding calls fn with each of Holdings in turn without building a
// slice, for passes that only need a few numbers of
// each.
func (v *View) EachHolding(fn func(h Holding)) { v.EachHoldingIn(nil, fn) }

// EachHoldingIn is EachHolding for the holders in the partitions in says
// yes to (nil: all): the others' holdings are not even made.
func (v *View) EachHoldingIn(in func(part int) bool, fn func(h Holding)) {
	for _, j := range v.Running() {
		if in == nil || in(j.Part) {
			fn(Holding{Job: j, Part: j.Part, Alloc: j.Alloc, Start: j.Start, End: ExpectedEnd(j)})
		}
	}
	for i := range v.plan.Actions {
		a := &v.plan.Actions[i]
		if a.Kind == ActStart && a.Job.planMark == v.mark(markPlaced) && (in == nil || in(a.Part)) {
			fn(Holding{Job: a.Job, Part: a.Part, Alloc: a.Alloc, Start: v.now, End: a.ExpectedEnd})
		}
	}
}

// Completing appends to dst the allocations of ended jobs whose nodes are
// still COMPLETING, each with End the time its resources are released. A
// planner adds them to Holdings: their resources are busy now and free at
// that End. They are not in Holdings because nothing may preempt them.
func (v *View) Completing(dst []Holding) []Holding {
	for _, j := range v.compl {
		dst = append(dst, Holding{Job: j, Part: j.Part, Alloc: j.Alloc, Start: j.Start, End: j.Release})
	}
	return dst
}

// Placed reports whether the pass's plan starts job j.
func (v *View) Placed(j *Job) bool { return j.planMark == v.mark(markPlaced) }

// Version changes whenever something a pass depends on changes (a submit,
// an end, a start, a priority tick), so schedulers can skip idle passes.
func (v *View) Version() uint64 { return v.version }

// Live reports whether j, the job of arrival index idx, is still one of
// the run's jobs, not retired (Options.Retire). A scheduler that keeps a
// job from one pass to a later one asks this before it reads the job
// again, unless nothing can have ended it meanwhile: the record of a
// retired job may be reused for a job read later (ChecksLive). It reads
// only the simulator's own table, never j. Views made by NewView retire
// nothing.
func (v *View) Live(j *Job, idx int) bool { return v.sim == nil || v.sim.job(int32(idx)) == j }

// Churn changes with Version except when the only change is jobs joining
// the pending list (submitted, or eligible from now): equal Churn says
// the cluster, the running jobs and the pending jobs seen before are as
// they were (starts, ends, releases, cancellations, preemptions,
// suspensions, site events, limits and priority ticks all change it). A
// view made by NewView has a Churn no other view has.
func (v *View) Churn() uint64 { return v.churn }

// Epoch changes when pending priorities are recomputed.
func (v *View) Epoch() uint64 { return v.epoch }

// Hold returns why a job is held by a limit now, "" when it is not (and
// always "" without a policy).
func (v *View) Hold(j *Job) string { return v.HoldFor(j, j.Part) }

// HoldFor is Hold for a job's record in partition part, one of its
// partitions (sbatch -p a,b): the partition's QOS orders the limits, as
// acct_policy does for the partition a record is tested in, and the jobs
// the plan starts count in the partitions they start in. A policy
// without PlacedHolder sees only the job, in its first partition.
func (v *View) HoldFor(j *Job, part int) string {
	return v.holdFor(j, part, nil)
}

// HoldOn is HoldFor once nodes are chosen: the limits count allocation a
// (whole nodes for an --exclusive job), as select_nodes checks
// acct_policy_job_runnable_post_select with the job's total_cpus before
// it starts the job. Call it only for a record HoldFor let through; a
// policy without PlacedHolder checks requests only.
func (v *View) HoldOn(j *Job, part int, a Alloc) string {
	if v.holdIn == nil {
		return ""
	}
	return v.holdFor(j, part, a)
}

// HoldBusy is HoldOn for a record the pass cannot start now, on no
// nodes: select_nodes still checks the limits, on the request as it
// counts one without nodes (tres_req_cnt: a job asking no memory counts
// the memory of the partition's first node on each), and an
// accounting-policy failure there replaces Resources. Call it only for a
// record HoldFor let through.
func (v *View) HoldBusy(j *Job, part int) string {
	if v.holdIn == nil {
		return ""
	}
	return v.holdFor(j, part, noNodes)
}

// noNodes is HoldBusy's allocation: empty, not nil.
var noNodes = Alloc{}

// EnforcesLimits says whether HoldOn can hold anything: false for a
// policy without limits, so a scheduler need not build the allocations
// it would check.
func (v *View) EnforcesLimits() bool { return v.limits && v.holdIn != nil }

func (v *View) holdFor(j *Job, part int, a Alloc) string {
	if j.ArrayMaxRun > 0 && v.arrayFull(j) {
		return ReasonArrayTaskLimit
	}
	if a == nil && j.Req.Resv != 0 {
		if why := v.c.resvWait(j.Req.Resv, v.now); why != "" {
			return why
		}
	}
	if v.holdIn != nil {
		// A record after record reads the same starts: only the
		// actions since the last call are new, unless a placed job was
		// preempted since.
		if v.placedPass != v.pass || v.placedUnplaced != v.unplaced || v.placedN > len(v.plan.Actions) {
			v.placed, v.placedN = v.placed[:0], 0
			v.placedPass, v.placedUnplaced = v.pass, v.unplaced
		}
		for i := v.placedN; i < len(v.plan.Actions); i++ {
			if act := &v.plan.Actions[i]; act.Kind == ActStart && v.Placed(act.Job) {
				v.placed = append(v.placed, PlacedJob{act.Job, act.Part, act.Alloc})
			}
		}
		v.placedN = len(v.plan.Actions)
		return v.holdIn(j, part, v.now, v.placed, a)
	}
	if v.hold == nil {
		return ""
	}
	return v.hold(j, v.now)
}

// ReasonArrayTaskLimit is the pending reason of a task its array's
// throttle holds (sbatch --array=...%N): job_array_start_test's
// WAIT_ARRAY_TASK_LIMIT. slurmctld leaves such an array out of the
// queues it builds (job_independent), so a scheduler neither counts nor
// reserves for it.
const ReasonArrayTaskLimit = "JobArrayTaskLimit"

// ArrayThrottled reports whether task j's array ran as many tasks as its
// throttle allows when the pass began: slurmctld's queue then leaves the
// array out (job_independent), so no queue depth counts it.
func (v *View) ArrayThrottled(j *Job) bool {
	return j.ArrayMaxRun > 0 && v.sim != nil && j.ArrayJobID != 0 && v.sim.arrayRun[j.ArrayJobID] >= j.ArrayMaxRun
}

// arrayFull reports whether task j's array runs as many tasks as its
// throttle allows, counting those the pass's plan starts.
func (v *View) arrayFull(j *Job) bool {
	if v.sim == nil || j.ArrayJobID == 0 {
		return false
	}
	n := v.sim.arrayRun[j.ArrayJobID]
	for i := range v.plan.Actions {
		if act := &v.plan.Actions[i]; act.Kind == ActStart && act.Job.ArrayJobID == j.ArrayJobID && v.Placed(act.Job) {
			n++
		}
	}
	return n >= j.ArrayMaxRun
}

// Plan is the pass's plan, empty when the pass begins. A View has one
// plan: the simulator commits it before the next pass reuses it.
func (v *View) Plan() *Plan { return &v.plan }

// Plan-mark kinds: a job's planMark says what the current pass's plan did
// to it, so View queries cost O(1) without maps.
const (
	markPlaced = iota + 1
	markPreempted
)

func (v *View) mark(kind uint64) uint64 { return v.pass<<2 | kind }

// Occupy takes the resources of an allocation on a hand-built cluster, so
// tests can set up running jobs for NewView without running the engine.
func (c *Cluster) Occupy(a Alloc) { c.apply(a, -1, true) }

// OccupyIn is Occupy for a job of partition p: its CPUs count towards
// p's MaxCPUsPerNode.
func (c *Cluster) OccupyIn(a Alloc, p int) { c.apply(a, p, true) }
