package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"fairsim/workload"
)

// Options are the simulator's own settings (not Slurm's).
type Options struct {
	// MissingLimit says what a job with no time limit gets when its
	// partition has no DefaultTime: "slurm" (the default; "maxtime" is
	// an alias) gives the partition MaxTime, else no limit, as slurmctld
	// does; "runtime" gives the job's actual runtime, which hands
	// backfill perfect knowledge and must be asked for.
	MissingLimit string
	// FailImpossible makes a job that can never run (bigger than its
	// partition, over MaxTime) an error instead of a counted rejection.
	FailImpossible bool
	// IgnoreDependencies ignores SWF fields 17-18 (preceding job, think time).
	IgnoreDependencies bool
	// SampleInterval is the period of utilisation samples (default 3600 s).
	SampleInterval int64
	// Progress, when set, is called now and then with the simulated time
	// and the number of jobs submitted so far.
	Progress func(now int64, submitted int)
	// File names the trace in error messages.
	File string
	// StopAt, when positive, ends the run after the last event at or
	// before this time (seconds since the trace epoch), leaving jobs
	// pending and running as they are then: sprio and sshare views.
	StopAt int64
	// StopWithin ends the run inside StopAt's second: its events after
	// millisecond StopMs do not run (a Timeline's events carry their
	// milliseconds, every other event is at 0), for a snapshot taken
	// within that second.
	StopWithin bool
	StopMs     int16
	// StallLimit ends a run whose remaining pending jobs have not moved for
	// this long with nothing running and nothing left to arrive (they can
	// never start); default 366 days. They stay PENDING in the results.
	StallLimit int64
	// Events are the site's node and partition state changes, in any
	// order (the run sorts them by time, keeping their order among equals).
	Events []SiteEvent
	// Retire, when set, is called once for each job that has reached its
	// final state and holds nothing any more (its nodes done COMPLETING);
	// the engine then forgets the job, so that a run's memory follows its
	// running and pending jobs rather than the length of the trace.
	// Result.Jobs then holds only the jobs never retired (pending,
	// running or waiting when the run stopped).
	Retire func(*Job)
	// Check, when set with Retire, checks each job as it retires
	// (CheckInvariants), so that --check needs no job kept: the engine
	// tells it, now and then, the instant before which every job still
	// live started, which orders the events it may apply. The caller
	// closes it with the result.
	Check *InvariantStream
	// EnforcePartLimitsAll is EnforcePartLimits=ALL: a job that breaks a
	// limit (MaxTime, MaxNodes, MaxMemPerNode, an access list, a State
	// that takes no jobs) of any partition it names is refused, though
	// another could run it.
	EnforcePartLimitsAll bool
	// NoRequeue is JobRequeue=0: a job killed by a node failure ends
	// NODE_FAIL instead of going back to the queue.
	NoRequeue bool
	// TimeLimitTick is how often slurmctld's background loop checks time
	// limits (controller.c: job_time_limit every PERIODIC_TIMEOUT, 30 s,
	// on the loop's clock, LoopDelay after the controller's start): a
	// job that runs past its limit plus its partition's OverTime is
	// killed at the next check. 0 kills it at its limit exactly, as the
	// textbook schedulers assume.
	TimeLimitTick int64
	// KillWait is slurm.conf's KillWait, seconds: with OverTime, what a
	// will-run test adds to the end of a job past its limit
	// (_guess_job_end). Read only when TimeLimitTick is set.
	KillWait int64
	// ControllerUptime is how long slurmctld had been running at the
	// first submission: its periodic timers (sched_interval, bf_interval,
	// PriorityCalcPeriod) count from its start, as
	// controller.c _slurmctld_background, backfill.c backfill_agent and
	// the priority plugin's decay thread start their clocks then. 0 (the
	// default) starts the controller with the first submission.
	ControllerUptime int64
	// CompletingTime is how long an ended job's nodes stay COMPLETING:
	// its resources are released, and the release-triggered pass runs,
	// this many seconds after its end (the epilog complete message,
	// proc_req.c _slurm_rpc_epilog_complete). 0 releases at the end.
	CompletingTime int64
	// DecayThreadDelay is how long after the controller's start
	// (BOOT_TIME) its decay thread first ticks: slurmctld starts the
	// thread when it loads the priority plugin, after setting its boot
	// time. 1 s on a real 22.05 controller (the reference runs), 0 by
	// default, where the controller's start is itself a model.
	DecayThreadDelay int64
	// LoopDelay is how long after the controller's start its background
	// loop (controller.c _slurmctld_background: the batch_sched_delay and
	// sched_interval clocks, and the pass the nodes' registrations ask
	// for) has its first whole-second tick: the loop polls on its own
	// phase within the second. 0 by default.
	LoopDelay int64
	// RequeueDelay is how long a requeued job waits before it is
	// eligible again: job_mgr.c batch_requeue_fini sets its begin time to
	// now + the credential lifetime + 1 (AuthInfo cred_expire, default
	// 120 s in slurm_cred.c, so 121). 0 means Slurm's 121.
	RequeueDelay int64
	// Timeline, when set, is a controller's recorded timing: passes run
	// at its instants, and events of one second follow its milliseconds
	// (validate --timing log).
	Timeline *Timeline
}

// DefaultRequeueDelay is Slurm's requeue delay: slurm_cred.c's default
// credential lifetime (120 s) plus one (job_mgr.c batch_requeue_fini).
const DefaultRequeueDelay = 121

// Sample is one point of the utilisation time series.
type Sample struct {
	T         int64
	BusyCores int // cores held by running jobs (not those of nodes that allocate nothing)
	Running   int
	Pending   int
	// BusyGPUs counts GPUs held by running jobs (not those of nodes that
	// allocate nothing); ByGres counts held GRES per Cluster.GresKinds
	// index (nil when the cluster has no GRES).
	BusyGPUs int
	ByGres   []int
}

// Result is everything a run produced, for the report layer.
type Result struct {
	Cluster   *Cluster
	Jobs      []*Job // in arrival order
	Samples   []Sample
	Read      *workload.ReadStats
	Header    *workload.Header
	Names     *workload.Names
	Rejected  workload.Tally // jobs refused at submit, by reason
	Defaulted workload.Tally // values the simulator filled in
	First     int64          // first submit
	Last      int64          // last end
	Now       int64          // when the run stopped (StopAt, or the last event)
	// QOSNames names the policy's QOS by Job.QOSIdx (nil without a QOS
	// table), so outputs show the QOS a job ran in, its default included.
	QOSNames  []string
	Pending   []*Job // eligible jobs still pending at Now
	Scheduler string
	// TimeLimitTick is Options.TimeLimitTick as run, for the invariants.
	TimeLimitTick int64
	// MissingLimit is Options.MissingLimit as run, for the summary to
	// flag the perfect-knowledge "runtime" choice.
	MissingLimit string
	// SiteEvents counts the site events the run applied.
	SiteEvents int
	// Stalled is set when the run went on only for jobs that never
	// started: from StalledFrom, its last submission, start, end or site
	// event, nothing ran and nothing was left to arrive, and it ended
	// after StallLimit (or at once, when no partition could start them).
	Stalled     bool
	StalledFrom int64
}

// Simulator runs one simulation. It is single-use.
type Simulator struct {
	allocs Alloc   // keepAlloc's array
	list   jobList // the job records' order in slurmctld's job list
	c      *Cluster
	sched  Scheduler
	pol    Policy
	src    workload.Source
	opt    Options
	trig   Triggers

	now  int64
	heap eventHeap
	// jobs are the jobs not yet retired, by arrival index less base: a
	// retired job leaves nil, and the nils at the front are cut off, so
	// the slice spans the oldest live job to the newest.
	jobs    []*Job
	base    int
	arrived int   // jobs read so far
	first   int64 // first submit
	lastEnd int64 // latest end of a retired job
	byID    jobIndex
	waiters map[int][]int // predecessor index -> dependent job indices
	// pend is the pending list; holes counts its entries that left it
	// (pendIdx -1, or nil once retired), dropped at the next pendingList.
	// A job's place in it is pendIdx - pendOff: cutting holes off the
	// front moves the rest without rewriting their pendIdx.
	pend    []*Job
	holes   int
	pendOff int
	// starts are the runs started, in order, while Options.Check is set:
	// the first of them still live gives the check its watermark.
	starts  []startRec
	running []*Job
	// suspended are the jobs a SUSPEND preemption stopped, until their
	// cores are free again.
	suspended []*Job
	// arrayRun counts the running (and suspended) tasks of each
	// throttled array (workload.Job.ArrayMaxRun), job_mgr.c's
	// tot_run_tasks: View.HoldFor holds the array's next task at the
	// throttle.
	arrayRun map[int64]int32
	version  uint64
	// churn counts the changes of version other than a job joining the
	// pending list (View.Churn).
	churn uint64

	srcDone    bool
	lastSubmit int64
	// Pass timing (see Triggers): lastBatch is the background loop's
	// last pass (last_sched_time), batchAt the time of the queued
	// request's pass (-1: none queued), agentAt the scheduling agent's
	// next pass (-1: none asked) and agentFull whether it is a full one,
	// lastMainEnd the end of the last main pass (sched_last); bfEnd the
	// end of the last backfill cycle, bfWaiting that the backfill agent
	// waits for a change, lastChange the time of the latest change
	// (last_job_update and its kin).
	lastBatch    int64
	batchAt      int64
	tlLeft       int  // timeline passes still queued
	tlDone       bool // the timeline's passes are over (or there are none)
	agentAt      int64
	agentFull    bool
	lastMainEnd  int64
	bfEnd        int64
	tlBase       int64 // the background loop's clock: time-limit checks fall on tlBase + k·TimeLimitTick
	bfWaiting    bool
	lastChange   int64
	completing   []*Job               // ended jobs whose resources are held while their nodes are COMPLETING (Options.CompletingTime)
	nodeRel      map[int]*nodeRelease // ended jobs of a log replay whose nodes are COMPLETING, their resources free (noderelease.go)
	rejected     workload.Tally
	defaulted    workload.Tally
	samples      []Sample
	view         View
	hold         func(*Job, int64) string
	holdIn       func(*Job, int, int64, []PlacedJob, Alloc) string
	limits       bool // the policy enforces limits (LimitEnforcer)
	eligSeq      uint64
	realEvents   int   // queued submit, eligible and end events
	lastProgress int64 // last submit, start or end
	waitingDeps  int
	err          error
	// spanOver are dependents whose release would come past the span a
	// run may have (releaseOverSpan), to reject one after another:
	// rejecting one releases its own dependents, which may join.
	spanOver    []int
	spanRunning bool

	sites        []SiteEvent   // Options.Events by time, At resolved
	maint        []maintWindow // the MAINT reservations created so far
	sitesLeft    int           // site events still queued
	sitesApplied int
}

// New prepares a simulation. pol may be nil (no priorities, no usage).
func New(c *Cluster, sched Scheduler, pol Policy, src workload.Source, opt Options) *Simulator {
	if opt.SampleInterval <= 0 {
		opt.SampleInterval = 3600
	}
	if opt.StallLimit <= 0 {
		opt.StallLimit = 366 * 86400
	}
	if opt.MissingLimit == "" {
		opt.MissingLimit = "slurm"
	}
	if opt.Check != nil {
		opt.Check.tick = opt.TimeLimitTick
	}
	if opt.TimeLimitTick > 0 {
		c.KillWait = opt.KillWait
	}
	s := &Simulator{c: c, sched: sched, pol: pol, src: src, opt: opt, trig: sched.Triggers(),
		waiters: map[int][]int{}, rejected: workload.Tally{},
		defaulted: workload.Tally{}, batchAt: -1, agentAt: -1, lastMainEnd: math.MinInt64 / 2,
		lastChange: math.MinInt64 / 2}
	s.view.sim = s
	if opt.RequeueDelay <= 0 {
		s.opt.RequeueDelay = DefaultRequeueDelay
	}
	if pol != nil {
		s.hold = pol.Hold
		if ph, ok := pol.(PlacedHolder); ok {
			s.holdIn = ph.HoldPlaced
		}
		if le, ok := pol.(LimitEnforcer); ok {
			s.limits = le.EnforcesLimits()
		}
	}
	return s
}

// Run simulates until every job has ended and returns the result.
func (s *Simulator) Run() (*Result, error) {
	if s.opt.MissingLimit != "runtime" && s.opt.MissingLimit != "slurm" && s.opt.MissingLimit != "maxtime" {
		return nil, fmt.Errorf("missing time limit policy %q: want slurm (DefaultTime, else MaxTime, else unlimited) or runtime", s.opt.MissingLimit)
	}
	if s.opt.StopAt > 0 {
		ReadDirect(s.src) // Stats then count what was read when the run stopped
	}
	if !s.readNext() {
		if err := s.src.Err(); err != nil {
			return nil, err
		}
		if st := s.src.Stats(); st.Records > 0 {
			// Every record was left out: say why, the reason that took
			// the most first.
			keys := st.Skipped.Keys()
			slices.SortStableFunc(keys, func(a, b string) int { return st.Skipped[b] - st.Skipped[a] })
			why := make([]string, 0, len(keys))
			for _, k := range keys {
				why = append(why, fmt.Sprintf("%s (%d)", k, st.Skipped[k]))
			}
			return nil, fmt.Errorf("%s: no job left to simulate: all %d records were left out: %s", s.opt.File, st.Records, strings.Join(why, "; "))
		}
		return nil, fmt.Errorf("%s: the trace has no jobs", s.opt.File)
	}
	if s.opt.ControllerUptime < 0 || s.opt.CompletingTime < 0 || s.opt.DecayThreadDelay < 0 {
		return nil, fmt.Errorf("controller uptime %d s, completing time %d s and decay thread delay %d s: want 0 or more", s.opt.ControllerUptime, s.opt.CompletingTime, s.opt.DecayThreadDelay)
	}
	t0 := s.first
	if h := s.src.Header(); h != nil {
		s.c.wall = h.UnixStartTime
	}
	s.arm(t0-s.opt.ControllerUptime, t0)
	s.defineReservations()
	s.armSites(t0)
	events := 0
	for s.heap.Len() > 0 {
		if p := s.heap.peek(); s.opt.StopAt > 0 && (p.T > s.opt.StopAt || s.opt.StopWithin && p.T == s.opt.StopAt && p.Ms > s.opt.StopMs) {
			s.now = s.opt.StopAt
			break
		}
		e := s.heap.pop()
		if e.Kind == EvSite {
			s.sitesLeft--
			if s.done() {
				continue // nothing is left for it to change
			}
		}
		if e.Kind == EvSubmit || e.Kind == EvEligible || e.Kind == EvJobEnd || e.Kind == EvRelease {
			s.realEvents--
		}
		s.now = e.T
		switch e.Kind {
		case EvSubmit:
			s.submit(s.job(e.Job))
			if !s.readNext() && s.src.Err() != nil {
				return nil, s.src.Err()
			}
		case EvEligible:
			j := s.job(e.Job)
			if j != nil && j.State == Pending && e.Gen == j.gen && j.pendIdx < 0 {
				s.makeEligible(j)
			}
		case EvJobEnd:
			j := s.job(e.Job)
			switch {
			case j == nil || e.Gen != j.gen: // stale: retired, or started or requeued since
			case j.State == Running && j.susp.inGrace && j.susp.graceEnd == s.now:
				s.graceEnded(j)
			case j.State == Running:
				s.end(j)
			case j.State == Pending && j.CancelledPending:
				s.cancelPending(j)
			}
		case EvRelease:
			s.release(s.job(e.Job), e.T*1000+int64(e.Ms))
		case EvSite:
			s.sitesApplied++
			s.site(&s.sites[e.Job])
		case EvCalc:
			if s.pol != nil {
				pending := s.pendingList()
				s.pol.Tick(s.now, s.running, pending)
				s.version++
				s.churn++
				if len(pending) > 0 {
					// Pending priorities were recomputed: a change
					// (priority_multifactor.c sets last_job_update).
					s.changed()
				}
				s.limitTimeOuts()
			}
			s.rearm(e, s.pol.CalcPeriod())
		case EvSchedTick:
			s.schedTick(e)
		case EvWake:
			s.request(false)
		case EvPass:
			if s.timed() {
				s.timedPass(e)
				break
			}
			if e.T != s.agentAt {
				break // served by an earlier pass of the same instant
			}
			kind := PassEvent
			if s.agentFull {
				kind = PassFull
			}
			s.agentAt, s.agentFull = -1, false
			s.lastMainEnd = s.now + s.pass(kind)
		case EvBackfill:
			if s.timed() {
				s.timedPass(e)
				break
			}
			s.backfill(e)
		case EvSample:
			s.sample()
			s.rearm(e, s.opt.SampleInterval)
		}
		if s.err != nil {
			return nil, s.err
		}
		events++
		if s.opt.Progress != nil && events&0xffff == 0 {
			s.opt.Progress(s.now, s.arrived)
		}
	}
	if s.opt.Progress != nil {
		s.opt.Progress(s.now, s.arrived)
	}
	return s.result(), nil
}

// arm queues the first periodic events of a controller started at start,
// for a trace whose first submission is at t0: each timer's first tick at
// or after t0 on its grid from start. The backfill agent runs a cycle
// bf_interval after the start (the nodes' registrations are changes),
// then its next one bf_interval later or at its poll after the first
// change (t0 + 1), whichever is later.
func (s *Simulator) arm(start, t0 int64) {
	s.tlBase = start + s.opt.LoopDelay
	if s.pol != nil && s.pol.CalcPeriod() > 0 {
		// The decay thread ticks first once the priority plugin has
		// loaded (_decay_thread runs its loop at once), so a controller up
		// before t0 has ticked already.
		ds := start + s.opt.DecayThreadDelay
		first := onGrid(ds, s.pol.CalcPeriod(), t0, 0)
		s.heap.push(Event{T: first, Ms: s.calcMs(), Kind: EvCalc})
		if cp, ok := s.pol.(CalcPhaser); ok && first-s.pol.CalcPeriod() >= ds {
			cp.LastCalc(first - s.pol.CalcPeriod())
		}
	}
	if s.opt.Timeline != nil {
		s.armTimeline(start)
		if s.timed() {
			s.bfEnd = start
			s.heap.push(Event{T: t0, Kind: EvSample})
			return
		}
	}
	ls := start + s.opt.LoopDelay // the background loop's clocks
	if s.trig.Interval > 0 {
		s.heap.push(Event{T: onGrid(ls, s.trig.Interval, t0, 1), Kind: EvSchedTick, Pass: PassFull})
	}
	// The nodes registering at the controller's start come up
	// (proc_req.c _slurm_rpc_node_registration: newly_up queues a
	// request), so the background loop runs a pass batch_sched_delay
	// after the start (controller.c _slurmctld_background sets
	// last_sched_time at start). That pass, on an empty queue, restarts
	// the batch_sched_delay clock: submits in the seconds after it wait
	// for the next one. A sched_interval pass before t0 restarts it too.
	s.lastBatch = ls
	if d := s.trig.SubmitDelay; d >= 0 {
		if ls+d <= t0 {
			s.lastBatch = ls + d
			if i := s.trig.Interval; i > 0 && t0-ls > i {
				s.lastBatch = max(s.lastBatch, ls+(t0-ls-1)/i*i)
			}
		} else {
			s.batchAt = ls + d
			s.heap.push(Event{T: s.batchAt, Kind: EvSchedTick, Pass: PassEvent})
		}
	}
	s.bfEnd = start
	if bi := s.trig.BackfillInterval; bi > 0 {
		first := start + bi
		if first < t0 {
			// The nodes' registrations are changes (_more_work), so the
			// agent's first wake-up runs a cycle, with no job to test,
			// and its clock restarts there: the next cycle comes
			// bf_interval later, with the submissions of that second
			// when it is t0's, or at the poll after the first change.
			s.bfEnd = first
			if first += bi; first < t0 {
				first = t0 + 1
			}
		}
		s.heap.push(Event{T: first, Kind: EvBackfill})
	}
	s.heap.push(Event{T: t0, Kind: EvSample})
}

// runEnd is when running job j ends, from its start and the time it
// was suspended: after its runtime, or, when that passes its limit, when
// it is killed. With Options.TimeLimitTick that is the first time-limit
// check at or after its limit plus its partition's OverTime
// (job_mgr.c job_time_limit: end_time <= now - over_time_limit; a year
// for an unlimited one: overRun); without, at its limit.
func (s *Simulator) runEnd(j *Job) int64 {
	base := j.Start + j.SuspendedSecs
	end := base + j.AllocRuntime
	if j.Limit <= 0 || j.AllocRuntime <= j.Limit {
		return end
	}
	kill := base + j.Limit
	if tick := s.opt.TimeLimitTick; tick > 0 {
		kill = onGrid(s.tlBase, tick, kill+s.c.overRun(j.Part), 0)
	}
	return min(end, kill)
}

// onGrid is the first time start + k·period (k ≥ kmin) at or after t.
func onGrid(start, period, t int64, kmin int64) int64 {
	k := max((t-start+period-1)/period, kmin)
	return start + k*period
}

// changed records that the state a pass reads has changed now: the
// version schedulers cache on, and the time backfill.c _more_work
// compares with its last cycle's end. A backfill agent waiting for work
// runs at its next poll (backfill_agent sleeps a second between polls):
// the next second, after the main passes this change asks for.
func (s *Simulator) changed() {
	s.churn++
	s.joined()
}

// joined records a change that only adds a job to the pending list (a
// submission, or a job becoming eligible), which View.Churn leaves out.
func (s *Simulator) joined() {
	s.version++
	s.lastChange = s.now
	if s.bfWaiting && !s.timed() {
		s.bfWaiting = false
		s.heap.push(Event{T: s.now + 1, Kind: EvBackfill})
	}
}

// queue is controller.c queue_job_scheduler: the background loop turns
// the request into a pass at its first check at least SubmitDelay after
// its previous pass.
func (s *Simulator) queue() {
	if s.trig.SubmitDelay < 0 || s.batchAt >= 0 || s.timed() {
		return
	}
	s.batchAt = max(s.now, s.lastBatch+s.trig.SubmitDelay)
	s.heap.push(Event{T: s.batchAt, Kind: EvSchedTick, Pass: PassEvent})
}

// schedTick is one timer of controller.c _slurmctld_background: the
// sched_interval timer asks for a full pass, which also serves queued
// requests; the batch_sched_delay check turns the queued request into a
// pass. Both restart the batch_sched_delay clock.
func (s *Simulator) schedTick(e Event) {
	switch {
	case e.Pass == PassFull:
		s.lastBatch, s.batchAt = s.now, -1
		s.request(true)
		s.rearm(e, s.trig.Interval)
	case e.T == s.batchAt:
		s.lastBatch, s.batchAt = s.now, -1
		s.request(false)
	}
}

// request is job_scheduler.c schedule(): the scheduling agent runs a pass
// once sched_min_interval has passed since the end of its previous one;
// requests made meanwhile are served by that one pass, a full one if any
// asked for it.
func (s *Simulator) request(full bool) {
	if s.timed() {
		return // the timeline's passes are the only ones
	}
	s.agentFull = s.agentFull || full
	if s.agentAt >= 0 {
		return
	}
	s.agentAt = max(s.now, s.lastMainEnd+s.trig.minGap())
	s.heap.push(Event{T: s.agentAt, Kind: EvPass, Pass: PassEvent})
}

// backfill is one wake-up of backfill.c backfill_agent: a cycle when
// anything changed since the previous cycle ended (_more_work), else a
// wait for the next change; the next wake-up is bf_interval after this
// cycle's end.
func (s *Simulator) backfill(e Event) {
	if s.lastChange < s.bfEnd {
		s.bfWaiting = s.busy()
		return
	}
	s.bfEnd = s.now + s.pass(PassBackfill)
	if s.busy() {
		e.T = s.bfEnd + s.trig.BackfillInterval
		s.heap.push(e)
	}
}

// busy reports whether anything is left to simulate, so periodic events
// stop once the last job has ended, or once the jobs left pending have
// been stuck on an idle cluster for StallLimit.
func (s *Simulator) busy() bool {
	// Jobs waiting on a dependency are not counted: each waits, through
	// a chain, on a job that is running, suspended or pending, which the
	// rest of this test counts. Counting them kept a run whose last
	// pending job can never start (a QOS MaxWall below its limit) and its
	// dependent going forever.
	if !s.idle() {
		return true
	}
	if len(s.pend) <= s.holes || s.now-s.lastProgress > s.opt.StallLimit {
		return false
	}
	if s.sitesLeft > 0 {
		return true // a node or partition may come back for the waiting jobs
	}
	// With no site event left, partition states do not change: when
	// every waiting job can only run in partitions that start nothing
	// (DOWN, INACTIVE), no pass can ever start one.
	for _, j := range s.pend {
		if j == nil || j.pendIdx < 0 {
			continue
		}
		for _, p := range j.Parts {
			if s.c.Parts[p].State.Schedules() {
				return true
			}
		}
	}
	return false
}

// idle reports whether nothing runs, is suspended or is left to arrive,
// end or become eligible: only pending jobs can still change anything.
func (s *Simulator) idle() bool {
	return s.srcDone && len(s.running) == 0 && len(s.suspended) == 0 && s.realEvents == 0
}

// done reports whether every job has ended, so no site event is left to
// change anything.
func (s *Simulator) done() bool {
	return s.idle() && s.waitingDeps == 0 && len(s.pend) <= s.holes
}

// push queues an event that belongs to a job (not a periodic one).
func (s *Simulator) push(e Event) {
	s.realEvents++
	s.heap.push(e)
}

func (s *Simulator) rearm(e Event, period int64) {
	if period > 0 && s.busy() {
		e.T += period
		s.heap.push(e)
	}
}

// readNext pulls the next job from the source and queues its submission.
func (s *Simulator) readNext() bool {
	if s.srcDone {
		return false
	}
	var j *Job
	if t, ok := s.src.(JobTaker); ok {
		if j, ok = t.Take(); !ok {
			s.srcDone = true
			return false
		}
	} else {
		// The source fills the new job in place: a workload.Job of its
		// own would escape through the interface call, one more
		// allocation and copy per job.
		j = new(Job)
		if !s.src.Next(&j.Job) {
			s.srcDone = true
			return false
		}
	}
	j.Idx, j.Start, j.End, j.pendIdx, j.runIdx, j.holeAt = s.arrived, -1, -1, -1, -1, -1
	j.Assoc, j.QOSIdx, j.ExpectStart, j.Accrue = -1, -1, -1, NotAccruing
	w := &j.Job
	j.origin = w.Line
	if s.arrived > 0 && w.Submit < s.lastSubmit {
		s.err = &workload.Error{File: s.opt.File, Line: w.Line, Field: "submit time",
			Msg: fmt.Sprintf("job %d is submitted at %d, before the previous job (%d): the trace must be sorted by submit time", w.ID, w.Submit, s.lastSubmit)}
		s.srcDone = true
		return false
	}
	if s.arrived > 0 && w.Submit-s.first > workload.MaxSpan {
		s.err = &workload.Error{File: s.opt.File, Line: w.Line, Field: "submit time",
			Msg: fmt.Sprintf("job %d is submitted %d s after the first job (%.0f years): more than the %d s (100 years) a run may span", w.ID, w.Submit-s.first, float64(w.Submit-s.first)/(365.25*86400), workload.MaxSpan)}
		s.srcDone = true
		return false
	}
	s.lastSubmit = w.Submit
	if s.arrived == 0 {
		s.first = w.Submit
	}
	s.jobs = append(s.jobs, j)
	s.arrived++
	s.push(Event{T: w.Submit, Ms: s.submitMs(j), Kind: EvSubmit, Job: int32(j.Idx)})
	return true
}

// submit places a new job in its partitions, resolves its time limit,
// rejects it when it can never run, and queues it until its begin time and
// dependency allow it to pend.
func (s *Simulator) submit(j *Job) {
	s.joined()
	s.lastProgress = s.now
	s.byID.add(j.ID, j.Idx)
	s.list.submitted(j)
	j.lifts = 0
	j.wholeNode = false // a reused record's, before the request is made
	if pl, ok := s.pol.(PartLimitLifter); ok {
		j.lifts = liftsOf(pl.LiftsPartLimits(j))
	}
	s.placeRequest(j)
	if class, why := overSpan(j); class != "" {
		s.reject(j, class, why)
		return
	}
	if why := s.resvRefusal(j); why != "" {
		s.reject(j, "reservation", why)
		return
	}
	s.resolveLimit(j, &s.c.Parts[j.Part])
	j.Req.Limit = s.c.longestLimit(j)
	if class, why := s.keepPartitions(j); len(j.Parts) == 0 {
		s.reject(j, class, why)
		return
	}
	if s.pol != nil {
		s.pol.Submit(j, s.now)
		if s.refusedAtSubmit(j) {
			return
		}
	}
	if j.CancelledPending {
		// The trace says the user gave up waiting: leave the queue then,
		// unless the simulated schedule started it sooner.
		s.push(Event{T: j.Submit + max(j.Job.Wait, 0), Kind: EvJobEnd, Job: int32(j.Idx), Gen: j.gen})
	}
	s.await(j)
}

// liftsOf packs the partition limits a QOS lifts.
func liftsOf(maxNodes, maxTime, minNodes bool) partLifts {
	var l partLifts
	if maxNodes {
		l |= liftMaxNodes
	}
	if maxTime {
		l |= liftMaxTime
	}
	if minNodes {
		l |= liftMinNodes
	}
	return l
}

// overSpan tells why a job's times cannot be simulated: a run time, a
// begin time after submit or a think time longer than workload.MaxSpan.
// Such a job is impossible, like one bigger than its partition.
func overSpan(j *Job) (class, why string) {
	const y = 365.25 * 86400
	switch w := &j.Job; {
	case w.Runtime > workload.MaxSpan:
		return "run time over 100 years", fmt.Sprintf("run time %d s (%.0f years) over the 100 years a run may span", w.Runtime, float64(w.Runtime)/y)
	case w.Eligible-w.Submit > workload.MaxSpan:
		return "begin time over 100 years after submit", fmt.Sprintf("begin time %d s (%.0f years) after submit, over the 100 years a run may span", w.Eligible-w.Submit, float64(w.Eligible-w.Submit)/y)
	case w.Preceding != workload.Unset && w.ThinkTime > workload.MaxSpan:
		return "think time over 100 years", fmt.Sprintf("think time %d s (%.0f years) over the 100 years a run may span", w.ThinkTime, float64(w.ThinkTime)/y)
	}
	return "", ""
}

// placeRequest finds the job's home partition (the default one when the
// trace names none or one the cluster lacks) and builds its request there,
// with the CPU type its constraint names.
func (s *Simulator) placeRequest(j *Job) {
	c, names := s.c, s.src.Names()
	j.Part = -1
	if name := names.Partitions.Name(j.Partition); name != "" {
		if p, ok := c.Partition(name); ok {
			j.Part = p
		} else {
			s.defaulted.Add("partition not in the cluster: default partition used")
		}
	}
	if j.Part < 0 {
		j.Part = c.DefaultPartition()
	}
	j.Req = Request{Nodes: j.Nodes, Exclusive: c.Parts[j.Part].Exclusive || j.exclusive(), Type: -1}
	if j.Nodes == 1 && j.MaxNodes != 1 && (j.Gres == 0 || j.AllocNodes > 1) {
		// A minimum of one node (sacct's ReqNodes) says nothing: the
		// allocator chooses, as for a job that gives no count. A GPU job
		// too where the trace shows the controller spread it (the 22.05
		// harness ran -n 2 --gpus=2, ReqNodes 1, on two nodes), when
		// cons_tres's rules for GPUs over the job place it (evalPerJob).
		// A GPU job the trace puts on one node stays on one: a count of
		// GPUs the trace gives only as a total may have been asked per
		// node, and the simulator's other spread is not Slurm's.
		j.Req.Nodes = 0
	}
	if mn := c.Parts[j.Part].MinNodes; mn > 1 && j.MaxNodes == workload.Unset && j.Nodes > 1 && j.Nodes <= mn {
		// sacct's ReqNodes of a job without -N in a MinNodes partition is
		// the partition's MinNodes (get_node_cnts raised its min_nodes):
		// no count of its own, as SubmitLine shows when sacct gives it
		// (the 22.05 harness: -n 20 under MinNodes=2, ReqNodes 2 on 4
		// nodes). Without SubmitLine a -N k of k up to MinNodes reads so
		// too.
		j.Req.Nodes = 0
	}
	j.Req.MaxNodes = c.maxNodesIn(j, j.Part) // after the node count it reads
	if j.ReqNodeList > 0 || j.ExcNodeList > 0 {
		s.defaulted.Add("node list asked (-w/-x): not simulated, any node of the partition")
	}
	var reqs []workload.GresReq
	if j.Gres > 0 {
		var err error
		if reqs, err = names.GresOf(&j.Job); err != nil {
			s.defaulted.Add("GRES request unreadable: ignored")
		}
		j.Req.Gres, j.Req.GresID = c.Needs(reqs, j.Req.Nodes), j.Gres
	}
	j.Req.CPUs, j.Req.MemPerCPU, j.Req.MemPerNode, j.Req.MemPerGPU = memRequest(c, &c.Parts[j.Part], j, j.Req.Gres, j.Req.Nodes)
	if j.Gres > 0 && j.Nodes == 1 && j.Req.Nodes == 0 && !j.Req.perJobGres() && !j.Req.perNodeGres() {
		// Spread in the trace, but not a request evalPerJob places: on
		// one node, as before.
		j.Req.Nodes = 1
		j.Req.Gres = c.Needs(reqs, 1)
		j.Req.CPUs, j.Req.MemPerCPU, j.Req.MemPerNode, j.Req.MemPerGPU = memRequest(c, &c.Parts[j.Part], j, j.Req.Gres, 1)
	}
	if f := names.Features.Name(j.Feature); f != "" {
		if t, err := LookupCPUType(f); err == nil {
			for i := range c.Types {
				if c.Types[i].Name == t.Name {
					j.Req.Type = i
				}
			}
		}
		if j.Req.Type < 0 {
			s.defaulted.Add("constraint names no CPU type of the cluster: ignored")
		}
	}
}

// resolveLimit gives a job with no time limit one: its partition's
// DefaultTime, else (by Options.MissingLimit) its actual runtime or the
// partition's MaxTime, else unlimited.
func (s *Simulator) resolveLimit(j *Job, part *Partition) {
	if j.TimeLimit != workload.Unset {
		return
	}
	switch {
	case part.DefaultTime != Unlimited:
		j.TimeLimit = part.DefaultTime
		s.defaulted.Add("time limit from partition DefaultTime")
	case s.opt.MissingLimit == "runtime":
		j.TimeLimit = max(j.Runtime, 1)
		s.defaulted.Add("time limit from actual run time")
	case part.MaxTime != Unlimited:
		j.TimeLimit = part.MaxTime
		s.defaulted.Add("time limit from partition MaxTime")
	default:
		j.TimeLimit = 0 // unlimited
		s.defaulted.Add("time limit UNLIMITED")
	}
}

// keepPartitions sets j.Parts to the partitions the job may run in: its
// home partition and those of its list (sbatch -p a,b) that could ever
// hold it. When none can, j.Parts is empty and class and why say why the
// first one could not.
func (s *Simulator) keepPartitions(j *Job) (class, why string) {
	c := s.c
	j.Parts = append(j.Parts[:0], j.Part)
	if j.PartitionList > 0 {
		for _, name := range strings.Split(s.src.Names().PartitionLists.Name(j.PartitionList-1), ",") {
			if p, ok := c.Partition(name); ok && !slices.Contains(j.Parts, p) {
				j.Parts = append(j.Parts, p)
			} else if !ok {
				s.defaulted.Add("partition of a list not in the cluster: ignored")
			}
		}
	}
	// _valid_job_part: a job without -N gets the smallest MinNodes of the
	// partitions it names (1 at least) as its min_nodes.
	j.minNodes = 0
	if j.Req.Nodes < 1 {
		mn := math.MaxInt32
		for _, p := range j.Parts {
			mn = min(mn, max(c.Parts[p].MinNodes, 1))
		}
		j.minNodes = int32(mn)
	}
	var named []int // the list as submitted, for wholeNodes
	if len(j.Parts) > 1 {
		named = slices.Clone(j.Parts)
	}
	keep := j.Parts[:0]
	var limitClass, limitWhy string // the first partition limit the job breaks
	refused := func(c2, w string, limit bool) {
		if class == "" {
			class, why = c2, w
		}
		if limit && limitClass == "" {
			limitClass, limitWhy = c2, w
		}
	}
	for _, p := range j.Parts {
		pt := &c.Parts[p]
		req := RequestIn(c, j, p)
		if c2, w := s.refuses(j, pt, &req); c2 != "" {
			refused(c2, w, true)
			continue
		}
		switch fit, short := c.Capacity(&req, p); {
		case len(pt.Nodes) == 0:
			// A placeholder partition (Nodes= empty, as slurm.conf
			// allows): job_mgr.c refuses too many CPUs for its 0.
			refused("bigger than its partition", fmt.Sprintf("partition %s has no nodes", pt.Name), false)
		case req.MaxNodes > 0 && req.Nodes > req.MaxNodes:
			// get_node_cnts: min_nodes over max_nodes. With
			// EnforcePartLimits=NO (the default) slurmctld keeps it
			// pending (PartitionNodeLimit) for as long as the
			// partition stays so; a replay counts it refused.
			refused("nodes over partition MaxNodes", fmt.Sprintf("%d nodes asked, MaxNodes %d of %s", req.Nodes, req.MaxNodes, pt.Name), true)
		case c.underMinNodes(j, p):
			// _part_access_check: min_nodes under the partition's
			// (PartitionNodeLimit), PENDING for as long as the
			// partition stays so (the 22.05 harness: -N 1 under
			// MinNodes=2); a replay counts it refused.
			refused("nodes under partition MinNodes", fmt.Sprintf("%d nodes asked, MinNodes %d of %s", max(req.Nodes, int(j.minNodes), 1), pt.MinNodes, pt.Name), true)
		case pt.MaxTime != Unlimited && j.TimeLimit > pt.MaxTime && j.lifts&liftMaxTime == 0:
			refused("time limit over partition MaxTime", fmt.Sprintf("time limit %ds over MaxTime %ds of %s", j.TimeLimit, pt.MaxTime, pt.Name), true)
		case fit == Never:
			refused("bigger than its partition", short, false)
		default:
			keep = append(keep, p)
		}
	}
	if s.opt.EnforcePartLimitsAll && limitClass != "" {
		// EnforcePartLimits=ALL: the limits of every partition named.
		keep = keep[:0]
		class, why = limitClass, limitWhy
	}
	j.Parts = keep
	if len(keep) > 0 {
		s.wholeNodes(j, named)
		c.rehome(j, keep[0])
	}
	return class, why
}

// wholeNodes sets the whole_node an OverSubscribe=EXCLUSIVE partition
// leaves on a job of several: job_allocate tries the job's partitions at
// submission (_select_nodes_parts, by PriorityTier, in list order among
// equals) until one could run it, and select_nodes' _resolve_shared_status
// sets details->whole_node in each EXCLUSIVE one it tries, for good: the
// job then takes whole nodes in its other partitions too (the 22.05
// harness: -p p1,p2 -n 2 with p1 EXCLUSIVE ran in p2 on a whole 8-CPU
// node, and a QOS cpu=6 limit held -n 1 for good). named is the job's
// partitions as submitted, before keepPartitions dropped any. A main
// pass's selection in an EXCLUSIVE partition further down the list sets
// it too (Plan.WholeNode).
func (s *Simulator) wholeNodes(j *Job, named []int) {
	c := s.c
	if len(named) < 2 {
		return
	}
	order := slices.Clone(named)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(c.Parts[b].PriorityTier, c.Parts[a].PriorityTier) })
	for _, p := range order {
		if c.Parts[p].Exclusive {
			j.wholeNode = true
		}
		if slices.Contains(j.Parts, p) {
			return // the first it could run in ends the tries
		}
	}
}

// refuses says why partition pt refuses job j at submission, as
// slurmctld's _valid_job_part and _part_access_check do: a partition that
// takes no new jobs (State=DRAIN or INACTIVE), an account, QOS or group it
// does not allow, or memory over MaxMemPerNode. "" when it takes the job.
func (s *Simulator) refuses(j *Job, pt *Partition, req *Request) (class, why string) {
	names := s.src.Names()
	switch {
	case !pt.State.Submits():
		return "partition State refuses submissions", fmt.Sprintf("partition %s is %s", pt.Name, pt.State)
	case (pt.AllowAccounts != nil || pt.DenyAccounts != nil) && !admits(pt.AllowAccounts, pt.DenyAccounts, names.Accounts.Name(j.Account)):
		return "account not allowed in partition", fmt.Sprintf("account %q not allowed in partition %s", names.Accounts.Name(j.Account), pt.Name)
	case (pt.AllowQOS != nil || pt.DenyQOS != nil) && !admits(pt.AllowQOS, pt.DenyQOS, jobQOSName(names, j)):
		return "QOS not allowed in partition", fmt.Sprintf("QOS %q not allowed in partition %s", jobQOSName(names, j), pt.Name)
	case pt.MaxMemPerNode > 0 && max(req.MemPerNode, req.MemPerCPU) > pt.MaxMemPerNode:
		// A per-CPU request is held to the cap for one CPU per node, as
		// _valid_pn_min_mem compares it for a task's CPUs.
		return "memory over partition MaxMemPerNode", fmt.Sprintf("memory per node over MaxMemPerNode %d MB of %s", pt.MaxMemPerNode, pt.Name)
	}
	if pt.AllowGroups != nil {
		g := names.Groups.Name(j.Group)
		switch {
		case g == "":
			s.defaulted.Add("AllowGroups not checked: the job has no group")
		case !admits(pt.AllowGroups, nil, g):
			return "group not allowed in partition", fmt.Sprintf("group %q not allowed in partition %s", g, pt.Name)
		}
	}
	return "", ""
}

// jobQOSName is the QOS a job names, or "normal", the QOS sacctmgr gives
// every association unless told otherwise.
func jobQOSName(names *workload.Names, j *Job) string {
	if q := names.QOS.Name(j.QOS); q != "" {
		return q
	}
	return "normal"
}

// await makes a submitted job pending now, or queues its eligibility for
// its begin time, or parks it until the job it depends on ends.
func (s *Simulator) await(j *Job) {
	begin := j.Submit
	if j.Job.Eligible > begin {
		begin = j.Job.Eligible
	}
	if j.Preceding != workload.Unset && !s.opt.IgnoreDependencies {
		pi, ok := s.byID.find(j.Preceding)
		pj := s.job(int32(pi))
		switch {
		case !ok || pi == j.Idx:
			s.defaulted.Add("dependency on a job not in the trace: ignored")
		case pj == nil || pj.State.Final():
			var end int64
			if pj == nil {
				end = s.byID.end(pi) // retired: it has ended
			} else {
				end = pj.End
			}
			if releaseOverSpan(s.first, end, j) {
				s.reject(j, classReleaseSpan, releaseSpanWhy(s.first, end, j))
				return
			}
			begin = max(begin, end+j.ThinkTime)
		default:
			s.waiters[pi] = append(s.waiters[pi], j.Idx)
			s.waitingDeps++
			return
		}
	}
	if begin > s.now {
		s.push(Event{T: begin, Kind: EvEligible, Job: int32(j.Idx), Gen: j.gen})
		return
	}
	s.makeEligible(j)
}

func (s *Simulator) reject(j *Job, class, why string) {
	if s.opt.FailImpossible && s.err == nil {
		s.err = &workload.Error{File: s.opt.File, Line: j.origin, Field: fmt.Sprintf("job %d", j.ID), Msg: why}
	}
	j.State = Rejected
	j.Reason = why
	j.End = s.now
	s.rejected.Add(class)
	s.finish(j)
}

// makeEligible puts a job in the pending list and queues a request for a
// pass.
func (s *Simulator) makeEligible(j *Job) {
	if j.Preemptions > 0 || j.NodeFails > 0 {
		// A requeued job: the list may still hold its slot from before
		// it started, which would otherwise count twice.
		s.pendingList()
	}
	j.EligibleTime = s.now
	if rp, ok := s.pol.(Repricer); ok && s.now > j.Submit {
		// It waited outside the list the ticks reprice, a requeued job
		// too: slurmctld repriced the requeued job of preempt-requeue
		// while it waited (Prio=8250 at its first test, from 250).
		rp.Reprice(j, s.now)
	}
	j.pendIdx = len(s.pend) + s.pendOff
	s.eligSeq++
	j.EligSeq = s.eligSeq
	s.pend = append(s.pend, j)
	s.joined()
	s.queue()
}

// wantPass asks for a main pass at t (now or later).
func (s *Simulator) wantPass(t int64) {
	if t <= s.now {
		s.request(false)
		return
	}
	s.heap.push(Event{T: t, Kind: EvWake})
}

// pendingList compacts the pending list (started jobs leave holes) and
// returns it.
func (s *Simulator) pendingList() []*Job {
	if s.holes > 0 {
		// Jobs mostly leave from the front (the oldest start first): then
		// the list is cut there instead of copied, or a queue of tens of
		// thousands costs its length at every pass.
		k := 0
		for k < len(s.pend) && (s.pend[k] == nil || s.pend[k].pendIdx < 0) {
			k++
		}
		if k == s.holes {
			for _, j := range s.pend[:k] {
				if j != nil {
					j.holeAt = -1 // a live job's hole, dropped
				}
			}
			clear(s.pend[:k])
			s.pend = s.pend[k:]
			s.pendOff += k
			s.holes = 0
			return s.pend
		}
		k = 0
		for _, j := range s.pend {
			switch {
			case j == nil: // a hole whose job has retired
			case j.pendIdx >= 0:
				j.pendIdx = k
				s.pend[k] = j
				k++
			default:
				j.holeAt = -1 // a live job's hole, dropped
			}
		}
		clear(s.pend[k:])
		s.pend = s.pend[:k]
		s.pendOff = 0
		s.holes = 0
	}
	return s.pend
}

// pass runs one scheduler pass and returns its simulated duration.
func (s *Simulator) pass(kind PassKind) int64 {
	if len(s.pend)-s.holes == 0 {
		return 0
	}
	if s.pol != nil {
		s.pol.Queue(s.now, s.pendingList())
	}
	s.c.Now = s.now
	s.view.reset(ViewState{Now: s.now, Cluster: s.c, Pending: s.pendingList(), Running: s.running,
		Version: s.version, Churn: s.churn, Epoch: s.epoch(), Hold: s.hold, HoldPlaced: s.holdIn, Limits: s.limits, Completing: s.completing})
	p := s.sched.Schedule(&s.view, kind)
	s.commit(p)
	if p == nil {
		return 0
	}
	return max(p.Duration, 0)
}

func (s *Simulator) epoch() uint64 {
	if s.pol == nil {
		return 0
	}
	return s.pol.Epoch()
}

// commit applies a pass's plan in the order it was decided: the plan has
// validated starts and preemptions against the pass's view, and already
// applied their effect on the cluster's free resources; here the jobs
// change state, the policy is told, and end events are queued.
func (s *Simulator) commit(p *Plan) {
	if p == nil {
		return
	}
	for i := range p.Actions {
		a := &p.Actions[i]
		switch a.Kind {
		case ActStart:
			s.start(a)
		case ActPreempt:
			if a.Grace > 0 {
				s.graceStop(a.Job, a.Requeue, a.Grace)
				break
			}
			s.preempt(a.Job, a.Requeue)
		case ActSuspend:
			s.suspend(a.Job)
		case ActPend:
			s.pendReason(a.Job, a.Reason)
		case ActWholeNode:
			a.Job.wholeNode, a.Job.Req.Exclusive = true, true
		case ActExpect:
			a.Job.ExpectStart = a.At
			if a.CPUs > 0 {
				a.Job.TotalCPUs = a.CPUs
			}
		}
	}
	if p.WantPass >= 0 {
		s.wantPass(p.WantPass)
	}
}

// allocSlab is how many slices the arrays of keepAlloc hold.
const allocSlab = 2048

// keepAlloc is a copy of a in an array shared by the allocations of the
// starts around it, each with its own part (and no room to grow into
// the next): an array per start made KTH-SP2's replay spend 7 % of its
// time allocating and faulting in 28,500 small arrays. An array lives
// until its last job is retired.
func (s *Simulator) keepAlloc(a Alloc) Alloc {
	if cap(s.allocs)-len(s.allocs) < len(a) {
		s.allocs = make(Alloc, 0, max(allocSlab, len(a)))
	}
	k := len(s.allocs)
	s.allocs = append(s.allocs, a...)
	return s.allocs[k:len(s.allocs):len(s.allocs)]
}

// runOn is what job j gets on allocation a: its runtime (scaled by the
// slowest node's CPU speed when runtimes scale), the time limit in force
// there (scaled too with ScaleLimit; 0 for unlimited), and the slowest
// node's CPU type.
func (c *Cluster) runOn(j *Job, a Alloc) (runtime, limit int64, typ int) {
	slow := a[0].Node
	for _, sl := range a[1:] {
		if c.Speed(sl.Node) < c.Speed(slow) {
			slow = sl.Node
		}
	}
	runtime, limit = j.Runtime, j.TimeLimit
	if c.ScaleRuntime {
		runtime = scaledTime(j.Runtime, c.RefSpeed, c.Speed(slow))
		if c.ScaleLimit && j.TimeLimit > 0 {
			limit = scaledTime(j.TimeLimit, c.RefSpeed, c.Speed(slow))
		}
	}
	return runtime, limit, c.Nodes[slow].Type
}

// longestLimit is job j's time limit on the slowest CPU type of the
// cluster (0: none), what a reservation's start must stay clear of
// wherever the job lands.
func (c *Cluster) longestLimit(j *Job) int64 {
	if j.TimeLimit <= 0 {
		return 0
	}
	if !c.ScaleRuntime || !c.ScaleLimit {
		return j.TimeLimit
	}
	slow := c.Types[0].Speed
	for _, t := range c.Types {
		slow = min(slow, t.Speed)
	}
	return scaledTime(j.TimeLimit, c.RefSpeed, slow)
}

// scaledTime is t seconds measured on a CPU of speed ref, run on one of
// the given speed: rounded up (the work is not done sooner), but with the
// floating-point noise removed first, so a job on the reference type runs
// exactly its t (219 × 1.2 / 1.2 is 219.00000000000003, which a bare ceil
// made 220).
func scaledTime(t int64, ref, speed float64) int64 {
	if ref == speed {
		return t
	}
	x := float64(t) * ref / speed
	return int64(math.Ceil(x - 1e-9*math.Max(1, x)))
}

// start starts a job as a plan's start action says; its resources are
// already taken.
func (s *Simulator) start(a *Action) {
	j, c := a.Job, s.c
	if a.Part != j.Part {
		// A job of several partitions runs in the one that could start it,
		// with its priority there.
		for k, p := range j.Parts {
			if p == a.Part && k < len(j.PartPrio) {
				j.Priority = j.PartPrio[k]
			}
		}
		c.rehome(j, a.Part)
	}
	// A run's allocation is never written after its start, not even by
	// a requeued job's next run: Releases keep referring to it across
	// passes (Reset), so each run gets an array of its own.
	j.Alloc = s.keepAlloc(a.Alloc)
	j.State = Running
	j.Start = s.now
	s.arrayRunning(j, 1)
	if s.opt.Check != nil {
		s.starts = append(s.starts, startRec{j, s.now})
	}
	j.StartedBy = a.By
	j.TotalCPUs = int32(j.Alloc.Cores())
	s.closeReason(j)
	j.Reason = ""
	j.ExpectStart = -1
	j.pendIdx, j.holeAt = -1, int32(j.pendIdx-s.pendOff)
	if j.CancelledPending {
		j.gen++ // it started before the trace's cancel time: that event is stale
	}
	s.holes++
	j.AllocRuntime, j.Limit, j.NodeType = c.runOn(j, j.Alloc)
	j.End = s.runEnd(j)
	end := j.End
	j.runIdx = len(s.running)
	s.running = append(s.running, j)
	s.lastProgress = s.now
	s.changed()
	if s.pol != nil {
		s.pol.Started(j, s.now)
	}
	s.push(Event{T: end, Ms: s.endMs(j, end), Kind: EvJobEnd, Job: int32(j.Idx), Gen: j.gen})
}

// removeRunning takes j out of the running list; free says whether its
// resources are given back here (a job's end) or were already (a plan's
// preemption).
func (s *Simulator) removeRunning(j *Job, free bool) {
	last := s.running[len(s.running)-1]
	s.running[j.runIdx] = last
	last.runIdx = j.runIdx
	s.running = s.running[:len(s.running)-1]
	j.runIdx = -1
	s.arrayRunning(j, -1)
	if free {
		s.c.apply(j.Alloc, j.Part, false)
	}
}

// arrayRunning counts a task of a throttled array in or out of its
// array's running tasks (job_array_start and _job_array_comp keep
// tot_run_tasks).
func (s *Simulator) arrayRunning(j *Job, d int32) {
	if j.ArrayMaxRun <= 0 || j.ArrayJobID == 0 {
		return
	}
	if s.arrayRun == nil {
		s.arrayRun = map[int64]int32{}
	}
	if n := s.arrayRun[j.ArrayJobID] + d; n > 0 {
		s.arrayRun[j.ArrayJobID] = n
	} else {
		delete(s.arrayRun, j.ArrayJobID)
	}
}

// end completes a running job at its end event. Its nodes stay
// COMPLETING for Options.CompletingTime: its resources are released, and
// a pass asked for, then.
func (s *Simulator) end(j *Job) {
	lat, logged := s.epilog(j)
	// A log replay frees the resources at the end and keeps only the
	// nodes COMPLETING (noderelease.go); the timer model holds them.
	s.removeRunning(j, s.opt.CompletingTime == 0 || logged)
	switch {
	case j.Limit > 0 && s.now-j.Start-j.SuspendedSecs < j.AllocRuntime:
		j.State = Timeout // killed before its runtime was done
	case j.Limit > 0 && s.now-j.Start-j.SuspendedSecs > j.Limit && j.Status == workload.StatusFailed:
		// Past its limit and ended abnormally: a trace's job killed at
		// its limit (sacct TIMEOUT, read as failed), which the replay's
		// time-limit check came a little after.
		j.State = Timeout
	case j.Status == workload.StatusFailed:
		j.State = Failed
	case j.Status == workload.StatusCancelled:
		j.State = Cancelled
	default:
		j.State = Completed
	}
	j.End = s.now
	if s.pol != nil {
		s.pol.Ended(j, s.now)
	}
	s.changed()
	s.ended(j)
	j.Release = s.now + s.opt.CompletingTime
	ms := s.endMs(j, s.now)
	if logged {
		// The controller's log says when the job's nodes left COMPLETING.
		endMs := ms
		at := int64(ms) + int64(lat)
		j.Release, ms = s.now+at/1000, int16(at%1000)
		s.completeNodes(j, endMs, j.Release*1000+int64(ms))
		return
	}
	if s.opt.CompletingTime > 0 {
		s.completing = append(s.completing, j)
		s.push(Event{T: j.Release, Ms: ms, Kind: EvRelease, Job: int32(j.Idx), Gen: j.gen})
		return
	}
	s.resumeSuspended()
	s.released()
	s.retire(j)
}

// release frees an ended job's resources when its nodes finish
// COMPLETING (at is the event's millisecond); in a log replay its nodes
// leave one by one, its resources already free (noderelease.go).
func (s *Simulator) release(j *Job, at int64) {
	if s.nodeRel[j.Idx] != nil {
		if s.releaseNodes(j, at) {
			return
		}
	} else {
		k := slices.Index(s.completing, j)
		s.completing = slices.Delete(s.completing, k, k+1)
		s.c.apply(j.Alloc, j.Part, false)
	}
	s.lastProgress = s.now
	s.changed()
	s.resumeSuspended()
	s.released()
	s.retire(j)
}

// released asks for the pass of an epilog complete message
// (proc_req.c _slurm_rpc_epilog_complete): at once, or queued under
// SchedulerParameters=defer.
func (s *Simulator) released() {
	switch {
	case !s.trig.OnEnd:
	case s.trig.Defer:
		s.queue()
	default:
		s.request(false)
	}
}

// finish ends a job that holds nothing (its resources already free):
// ended, then retired.
func (s *Simulator) finish(j *Job) {
	s.ended(j)
	s.retire(j)
}

// ended tells the policy a job has reached its final state and releases
// the jobs that depend on it (afterany).
func (s *Simulator) ended(j *Job) {
	s.left(j)
	s.list.gone(j)
	s.lastProgress = s.now
	for _, d := range s.waiters[j.Idx] {
		dj := s.job(int32(d))
		s.waitingDeps--
		if dj == nil {
			continue // cancelled while it waited, and retired
		}
		if releaseOverSpan(s.first, s.now, dj) {
			s.spanOver = append(s.spanOver, d)
			continue
		}
		s.push(Event{T: max(s.now+dj.ThinkTime, dj.Submit, dj.Job.Eligible), Kind: EvEligible, Job: int32(d), Gen: dj.gen})
	}
	delete(s.waiters, j.Idx)
	if !s.spanRunning {
		// One after another, not nested: a chain of a million dependents
		// would otherwise nest as deep.
		s.spanRunning = true
		for len(s.spanOver) > 0 {
			d := s.spanOver[len(s.spanOver)-1]
			s.spanOver = s.spanOver[:len(s.spanOver)-1]
			if dj := s.job(int32(d)); dj != nil && dj.State == Pending {
				s.reject(dj, classReleaseSpan, releaseSpanWhy(s.first, s.now, dj))
			}
		}
		s.spanRunning = false
	}
}

// classReleaseSpan counts the jobs releaseOverSpan rejects.
const classReleaseSpan = "released over 100 years after the first submission"

// releaseOverSpan reports whether job j, released end + its think time
// after the job it depends on ended at end, would pend more than
// workload.MaxSpan after the first submission: an impossible job. Each
// think time is within the span (overSpan), but a chain of them is not,
// and the run's clock would follow it for ever.
func releaseOverSpan(first, end int64, j *Job) bool {
	return end+j.ThinkTime-first > workload.MaxSpan
}

func releaseSpanWhy(first, end int64, j *Job) string {
	d := end + j.ThinkTime - first
	return fmt.Sprintf("released after the job it depends on %d s (%.0f years) after the first submission, over the 100 years a run may span", d, float64(d)/(365.25*86400))
}

// cancelPending removes a job that was cancelled while it waited.
func (s *Simulator) cancelPending(j *Job) {
	if j.pendIdx >= 0 {
		j.pendIdx, j.holeAt = -1, int32(j.pendIdx-s.pendOff)
		s.holes++
	}
	j.State = Cancelled
	j.End = s.now
	j.Reason = "cancelled while pending (trace)"
	s.changed()
	s.finish(j)
}

// preempt ends a running job early, requeueing or cancelling it, as a
// plan's preemption says; its resources are already free.
func (s *Simulator) preempt(j *Job, requeue bool) {
	if j.State != Running {
		return
	}
	ran := s.now - j.Start - j.SuspendedSecs
	j.susp.inGrace = false
	j.Preemptions++
	j.LostCoreSecs += float64(ran) * float64(j.Alloc.Cores())
	j.LostBilling += float64(ran) * j.Billing
	s.removeRunning(j, false)
	j.gen++ // its end event is now stale
	if s.pol != nil {
		s.pol.Ended(j, s.now)
	}
	s.changed()
	if requeue {
		s.requeue(j, false)
		return
	}
	j.State = Cancelled
	j.End = s.now
	s.finish(j)
}

func (s *Simulator) sample() {
	sm := Sample{T: s.now, BusyCores: s.c.TotalCores - s.c.FreeCores - s.c.DownCores, Running: len(s.running),
		Pending: len(s.pend) - s.holes}
	if len(s.c.GresKinds) > 0 {
		sm.BusyGPUs = s.c.GPUs - s.c.FreeGPUs - s.c.DownGPUs
		sm.ByGres = make([]int, len(s.c.GresKinds))
		for _, j := range s.running {
			sm.ByGres = s.c.AllocGres(j.Alloc, sm.ByGres)
		}
	}
	s.samples = append(s.samples, sm)
}

func (s *Simulator) result() *Result {
	jobs := s.jobs
	if s.opt.Retire != nil {
		jobs = make([]*Job, 0, len(s.jobs))
		for _, j := range s.jobs {
			if j != nil {
				jobs = append(jobs, j)
			}
		}
	}
	r := &Result{Cluster: s.c, Jobs: jobs, Samples: s.samples, Read: s.src.Stats(), Header: s.src.Header(),
		Names: s.src.Names(), Rejected: s.rejected, Defaulted: s.defaulted, Scheduler: s.sched.Name(), MissingLimit: s.opt.MissingLimit,
		TimeLimitTick: s.opt.TimeLimitTick}
	r.First, r.Last = s.first, s.lastEnd
	for _, j := range jobs {
		r.Last = max(r.Last, j.End)
	}
	if s.waitingDeps > 0 {
		s.defaulted["jobs left waiting on a dependency"] = s.waitingDeps
	}
	r.Now = s.now
	s.closeWaits()
	r.SiteEvents = s.sitesApplied
	r.Pending = append([]*Job(nil), s.pendingList()...)
	if s.idle() && len(s.pend) > s.holes &&
		(s.opt.StopAt <= 0 || s.now < s.opt.StopAt) {
		r.Stalled, r.StalledFrom = true, s.lastProgress
	}
	return r
}
