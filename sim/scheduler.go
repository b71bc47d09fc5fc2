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
// slurmctld 22.05 triggers its passes:
//
//   - A submit (or a job becoming eligible) queues a request
//     (controller.c queue_job_scheduler). The background loop
//     (controller.c _slurmctld_background, one check a second) turns it
//     into a pass once SubmitDelay has passed since the loop's previous
//     pass: at once when the controller has been quiet, never "exactly
//     SubmitDelay after the submit".
//   - Every Interval the loop asks for a full pass; that pass also serves
//     the queued requests and restarts the SubmitDelay clock.
//   - A job's release (its epilog complete, proc_req.c
//     _slurm_rpc_epilog_complete) asks for a pass at once when OnEnd is
//     set, or queues a request like a submit under Defer.
//   - Every request goes through the scheduling agent (job_scheduler.c
//     _sched_agent), which starts a pass only MinInterval after the end
//     of the previous one; requests that wait are served by one pass.
//   - The backfill agent (backfill.c backfill_agent) wakes
//     BackfillInterval after its previous cycle ENDED and runs when
//     anything changed since (_more_work), else at the next change.
//
// Periodic timers count from the controller's start (Options.ControllerUptime).
type Triggers struct {
	// SubmitDelay is batch_sched_delay: a queued request becomes a pass
	// once this long has passed since the background loop's previous
	// pass; negative: submits trigger nothing.
	SubmitDelay int64
	// OnEnd asks for a pass when an ended job's resources are released.
	OnEnd bool
	// Defer is SchedulerParameters=defer: a release queues a request (as
	// a submit does) instead of asking for a pass at once. Batch submits
	// are queued either way (proc_req.c _slurm_rpc_submit_batch_job).
	Defer bool
	// MinInterval is sched_min_interval in MICROseconds: the least gap
	// between the end of a main pass and the start of the next. Gaps
	// under a second are below the simulator's clock and vanish (Slurm's
	// default is 2 µs); longer ones round up to whole seconds.
	MinInterval int64
	// Interval is the period of full passes (sched_interval); 0 for none.
	Interval int64
	// BackfillInterval is bf_interval, from the end of one backfill cycle
	// to the start of the next; 0 for no backfill.
	BackfillInterval int64
}

// minGap is MinInterval in whole seconds of the simulator's clock.
func (t Triggers) minGap() int64 {
	if t.MinInterval < 1e6 {
		return 0
	}
	return (t.MinInterval + 1e6 - 1) / 1e6
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

// Repricer is a Policy that recomputes one job's priority on demand. A
// job waiting on a dependency or a begin time is not in the pending list
// the calc ticks recompute, but slurmctld recomputes every pending job of
// non-zero priority at each tick (decay_apply_weighted_factors), held or
// not: when such a job becomes eligible the simulator asks for the
// priority the last tick would have given it.
type Repricer interface {
	Reprice(j *Job, now int64)
}

// PartLimitLifter is a Policy whose QOS may lift partition limits: at
// submission, before Submit, it says whether job j's QOS has
// Flags=PartitionMaxNodes (the partition's MaxNodes neither holds nor
// caps it; get_node_cnts, job_limits_check), PartitionTimeLimit (a
// limit over the partition's MaxTime is allowed) and PartitionMinNodes
// (a -N under the partition's MinNodes may run).
type PartLimitLifter interface {
	LiftsPartLimits(j *Job) (maxNodes, maxTime, minNodes bool)
}

// CalcPhaser is a Policy that must hear of the calc ticks the controller
// ran before the trace's first submission: LastCalc(t) gives the latest
// (priority_multifactor.c _decay_thread's g_last_ran when the first job
// arrives), so the first tick in the run decays over the whole period.
type CalcPhaser interface {
	LastCalc(t int64)
}

// Requeuer is a Policy that must hear of a requeue: Slurm restarts a
// requeued job's age (job_mgr.c batch_requeue_fini clears accrue_time),
// and a job requeued because a node of its failed gets its priority set
// again (set_job_prio in kill_running_job_by_node_name).
type Requeuer interface {
	Requeued(j *Job, now int64, nodeFail bool)
}

// ExpectedEnd is when a running job is expected to end as a scheduler can
// know it: start plus time limit plus the time it was suspended, never the
// actual runtime; a preempted job in its grace time ends at the grace end.
func ExpectedEnd(j *Job) int64 {
	end := j.Start + 365*86400
	if j.Limit > 0 {
		end = j.Start + j.Limit + j.SuspendedSecs
	}
	if j.susp.inGrace {
		end = min(end, j.susp.graceEnd)
	}
	return end
}
