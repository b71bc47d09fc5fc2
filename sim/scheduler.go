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

// Scheduler decides which pending jobs start and where. A pass sees the
// world through ctx and acts only through ctx.Start and ctx.Preempt.
type Scheduler interface {
	Name() string
	Triggers() Triggers
	Schedule(ctx *Context, kind PassKind)
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

// Context is what a scheduler pass may see and do.
type Context struct {
	Now     int64
	Cluster *Cluster
	s       *Simulator
}

// Pending returns the eligible pending jobs in arrival order. The slice is
// the simulator's: do not modify it, and call again after starting jobs.
func (x *Context) Pending() []*Job { return x.s.pendingList() }

// Running returns the running jobs in no particular but deterministic
// order.
func (x *Context) Running() []*Job { return x.s.running }

// Version changes whenever something a pass depends on changes (a submit,
// an end, a start, a priority tick), so schedulers can skip idle passes.
func (x *Context) Version() uint64 { return x.s.version }

// Hold returns why a job is held by a limit now, "" when it is not (and
// always "" without a policy).
func (x *Context) Hold(j *Job) string {
	if x.s.pol == nil {
		return ""
	}
	return x.s.pol.Hold(j, x.Now)
}

// Epoch changes when pending priorities are recomputed.
func (x *Context) Epoch() uint64 {
	if x.s.pol == nil {
		return 0
	}
	return x.s.pol.Epoch()
}

// WantPass asks for an event-triggered pass at time t (for example after a
// preemption, once the preempted jobs have left).
func (x *Context) WantPass(t int64) { x.s.wantPass(max(t, x.Now)) }

// Start starts pending job j on allocation a in its partition j.Part. It
// returns an error, and changes nothing, when the allocation is not free or
// not in that partition, or j.Part is not one of the job's partitions.
func (x *Context) Start(j *Job, a Alloc, by StartKind) error { return x.s.start(j, a, by) }

// UsePartition makes the k-th of a pending job's partitions the one it is
// tried in (j.Part, its request's exclusivity, and its priority there), as
// Slurm evaluates one queue record per partition of a multi-partition job.
func UsePartition(c *Cluster, j *Job, k int) {
	j.Part = j.Parts[k]
	j.Req.Exclusive = c.Parts[j.Part].Exclusive
	if k < len(j.PartPrio) {
		j.Priority = j.PartPrio[k]
	}
}

// Preempt ends running job j to make room: requeued (back to pending with
// its id, restarting from the beginning) or cancelled.
func (x *Context) Preempt(j *Job, requeue bool) { x.s.preempt(j, requeue) }

// ExpectedEnd is when a running job is expected to end as a scheduler can
// know it: start plus time limit, never the actual runtime.
func ExpectedEnd(j *Job) int64 {
	if j.Limit > 0 {
		return j.Start + j.Limit
	}
	return j.Start + 365*86400
}
