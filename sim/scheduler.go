package sim

// PassKind says what kind of pass the simulator asks a scheduler for.
type PassKind uint8

// Pass kinds.
const (
	PassEvent    PassKind = iota // after a submit or a job end (Slurm: limited to default_queue_depth)
	PassFull                     // the periodic full-queue pass (sched_interval)
	PassBackfill                 // a backfill pass (bf_interval)
)

// Triggers tells the simulator when a scheduler wants to run, the way
// slurmctld triggers its passes.
type Triggers struct {
	// SubmitDelay is the delay from a submit to the pass it triggers
	// (batch_sched_delay); negative for none.
	SubmitDelay int64
	// OnEnd triggers a pass at the instant a job ends.
	OnEnd bool
	// Interval is the period of full passes (sched_interval); 0 for none.
	Interval int64
	// BackfillInterval is the period of backfill passes (bf_interval); 0
	// for none.
	BackfillInterval int64
}

// Scheduler decides which pending jobs start and where. A pass reads the
// world through a View and returns its decisions as a Plan (from
// View.Plan), which the simulator commits: a scheduler changes nothing
// itself.
type Scheduler interface {
	Name() string
	Triggers() Triggers
	Schedule(v *View, kind PassKind) *Plan
}

// Policy is the priority and fair-share layer as the simulator drives it:
// it is told of arrivals, starts, ends and calc ticks, and sets the
// Priority, Accrue, Billing and Assoc of jobs.
type Policy interface {
	// CalcPeriod is PriorityCalcPeriod in seconds; 0 disables ticks.
	CalcPeriod() int64
	// Submit sets a new job's association, QOS and initial priority.
	Submit(j *Job, now int64)
	// Started is called when a job starts on its allocation.
	Started(j *Job, now int64)
	// Ended is called when a job leaves its allocation (end or requeue).
	Ended(j *Job, now int64)
	// Tick is the PriorityCalcPeriod tick: decay, charge running jobs,
	// recompute fair-share and pending priorities.
	Tick(now int64, running, pending []*Job)
	// Queue is called before each pass with the pending jobs in arrival
	// order, so accrue limits can be applied as Slurm does when it builds
	// its queue.
	Queue(now int64, pending []*Job)
	// Hold returns why a pending job may not start now because of a limit
	// (QOS or association GrpTRESMins, ...), or "" when it may.
	Hold(j *Job, now int64) string
	// Epoch changes whenever pending priorities were recomputed, so a
	// scheduler knows when to re-sort its queue.
	Epoch() uint64
}

// ExpectedEnd is when a running job is expected to end as a scheduler can
// know it: start plus time limit, never the actual runtime.
func ExpectedEnd(j *Job) int64 {
	if j.Limit > 0 {
		return j.Start + j.Limit
	}
	return j.Start + 365*86400
}
