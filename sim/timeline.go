package sim

// Timeline is a controller's own timing, read from slurmctld's log, for
// validating fairsim's decisions apart from its timer model: the instants
// its main passes and backfill cycles ran, and where in their second jobs
// were submitted and completed. With one, the simulator runs its passes
// at those instants instead of modelling slurmctld's timers
// (controller.c _slurmctld_background, job_scheduler.c schedule(),
// backfill.c backfill_agent), and orders the events of one second by
// their milliseconds. After its last pass the model takes over.
type Timeline struct {
	// Passes are in time order; T is in Unix seconds.
	Passes []TimedPass
	// SubmitMs is the millisecond within its second at which a job (by
	// ID) was submitted; EndAt the Unix millisecond of its completion.
	SubmitMs map[int64]int16
	EndAt    map[int64]int64
	// EpilogMs is how long after its completion a job's last node left
	// COMPLETING (its answer to the kill request, or its epilog complete
	// message), when the log says (SlurmctldDebug=debug2): its resources
	// are free then, and a pass is asked for. Without it they are free at
	// the completion.
	EpilogMs map[int64]int32
	// NodeEpilogMs is, by job and node name, how long after its
	// completion a node of the job left COMPLETING before its last node
	// did: that node's resources are free then (node_mgr.c
	// make_node_idle), with no pass asked for (job_epilog_complete asks
	// for one only when the job is done). Nodes not in it are free with
	// the last, at EpilogMs.
	NodeEpilogMs map[int64]map[string]int32
	// CalcMs is the millisecond of the decay thread's ticks (its
	// PriorityCalcPeriod timer runs from its start, to the microsecond),
	// when the log shows its start (CalcPhase).
	CalcMs    int16
	CalcPhase bool
}

// TimedPass is one scheduling pass of the controller's log.
type TimedPass struct {
	T        int64 // Unix seconds
	Ms       int16 // milliseconds within T
	Backfill bool  // a backfill cycle ("_attempt_backfill: beginning"), else a main pass
	Full     bool  // a main pass over the full queue ("Running job scheduler for full queue")
}

// timed reports whether passes come from the timeline rather than the
// timer model.
func (s *Simulator) timed() bool { return s.opt.Timeline != nil && !s.tlDone }

// armTimeline queues the timeline's passes that fall at or after start
// (simulated seconds), each at its millisecond.
func (s *Simulator) armTimeline(start int64) {
	tl := s.opt.Timeline
	for i, p := range tl.Passes {
		t := p.T - s.c.wall
		if t < start {
			continue
		}
		e := Event{T: t, Ms: p.Ms, Kind: EvPass, Pass: PassEvent, Job: int32(i)}
		switch {
		case p.Backfill:
			e.Kind = EvBackfill
		case p.Full:
			e.Pass = PassFull
		}
		s.tlLeft++
		s.heap.push(e)
	}
	if s.tlLeft == 0 {
		s.tlDone = true
	}
}

// timedPass runs a pass of the timeline; after its last one, the timer
// model takes over for what is left, its clocks started there: the next
// submission, end or timer runs the next pass.
func (s *Simulator) timedPass(e Event) {
	if e.Kind == EvBackfill {
		// The controller's cycle ran, so it found work (_more_work):
		// no scheduler may skip it as unchanged.
		s.version++
		s.churn++
		s.bfEnd = s.now + s.pass(PassBackfill)
	} else {
		s.lastBatch = s.now
		s.lastMainEnd = s.now + s.pass(e.Pass)
	}
	if s.tlLeft--; s.tlLeft > 0 {
		return
	}
	s.tlDone = true
	if !s.busy() {
		return
	}
	if s.trig.Interval > 0 {
		s.heap.push(Event{T: s.now + s.trig.Interval, Kind: EvSchedTick, Pass: PassFull})
	}
	if bi := s.trig.BackfillInterval; bi > 0 {
		s.heap.push(Event{T: s.bfEnd + bi, Kind: EvBackfill})
	}
}

// submitMs is job j's millisecond within its submit second from the
// timeline (0 without one).
func (s *Simulator) submitMs(j *Job) int16 {
	if tl := s.opt.Timeline; tl != nil {
		return tl.SubmitMs[j.ID]
	}
	return 0
}

// endMs is the millisecond within second t (simulated) of job j's end:
// the logged completion's, or 999 when the log's line came in the next
// second, as slurmctld takes the job's end_time (sacct's End, and so t)
// when _job_complete begins and logs "done" after; 0 without a timeline.
func (s *Simulator) endMs(j *Job, t int64) int16 {
	tl := s.opt.Timeline
	if tl == nil {
		return 0
	}
	at, ok := tl.EndAt[j.ID]
	if !ok {
		return 0
	}
	sec, ms := at/1000, at%1000
	if ms < 0 {
		sec, ms = sec-1, ms+1000
	}
	if sec == t+s.c.wall+1 {
		return 999
	}
	return int16(ms)
}

// epilog is job j's epilog latency from the timeline, if it has one.
func (s *Simulator) epilog(j *Job) (int32, bool) {
	tl := s.opt.Timeline
	if tl == nil {
		return 0, false
	}
	ms, ok := tl.EpilogMs[j.ID]
	return ms, ok
}

// calcMs is the millisecond of the decay thread's ticks (0 without a
// timeline that knows it).
func (s *Simulator) calcMs() int16 {
	if tl := s.opt.Timeline; tl != nil && tl.CalcPhase {
		return tl.CalcMs
	}
	return 0
}
