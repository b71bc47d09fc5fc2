package sim

import "slices"

// preemptState is a job's suspension and grace-time bookkeeping.
type preemptState struct {
	// suspendedAt is when its current suspension began; remaining the
	// seconds it still had to run then.
	suspendedAt, remaining int64
	// spans are its suspensions of this run, [from, to), for the
	// invariant check: its cores were free meanwhile, its memory not.
	spans [][2]int64
	// inGrace says a preempted job runs on in its grace time until
	// graceEnd; graceRequeue says whether it is then requeued.
	inGrace      bool
	graceEnd     int64
	graceRequeue bool
}

// giveCores frees an allocation's cores only: what cons_tres releases of a
// suspended job (select_p_job_suspend, JOB_RES_ACTION_RESUME in
// job_res_rm_job), its memory and GRES staying allocated.
func (c *Cluster) giveCores(a Alloc, p int) {
	for _, s := range a {
		c.give(s.Node, p, s.Cores, 0, 0)
	}
}

// canResume reports whether a suspended allocation's cores are all free
// again: gang.c _job_fits_in_active_row. On a node out of service the
// cores it gave back are in the node's hold, and gang resumes regardless
// of the node's state.
func (c *Cluster) canResume(a Alloc) bool {
	for _, s := range a {
		nd := &c.Nodes[s.Node]
		if nd.State.Usable() && nd.FreeCores < s.Cores || !nd.State.Usable() && nd.held.cores < s.Cores {
			return false
		}
	}
	return true
}

// takeCores takes back a resumed allocation's cores (from the hold on a
// node out of service).
func (c *Cluster) takeCores(a Alloc, p int) {
	for _, s := range a {
		nd := &c.Nodes[s.Node]
		if nd.State.Usable() {
			c.take(s.Node, p, s.Cores, 0, 0)
			continue
		}
		c.capMove(p, s.Node, s.Cores)
		nd.held.cores -= s.Cores
		c.DownCores -= s.Cores
	}
}

// suspend stops a running job as a plan's ActSuspend says (its cores are
// already free): its end event goes stale and the seconds it had left are
// kept for its resume. It leaves the running list, so the policy neither
// charges it at ticks (priority_multifactor.c charges running jobs only)
// nor ends it: it keeps counting against its limits, as acct_policy.c is
// not told of a suspension.
func (s *Simulator) suspend(j *Job) {
	if j.State != Running {
		return
	}
	s.removeRunning(j, false)
	s.arrayRunning(j, 1) // a suspended task still counts against its array's throttle
	j.State = Suspended
	j.gen++
	j.Preemptions++
	j.susp.suspendedAt = s.now
	j.susp.remaining = j.End - s.now
	s.suspended = append(s.suspended, j)
	s.changed()
}

// resumeSuspended resumes, in the order they started, the suspended jobs
// whose cores are free again, as gang.c _update_all_active_rows does when
// a job ends (gs_job_fini): it runs before any pass can give those cores
// to a pending job. A resumed job's end moves by the time it was
// suspended (job_mgr.c _job_suspend_op extends end_time on resume).
func (s *Simulator) resumeSuspended() {
	if len(s.suspended) == 0 {
		return
	}
	slices.SortFunc(s.suspended, func(a, b *Job) int {
		if a.Start != b.Start {
			return int(a.Start - b.Start)
		}
		return a.Idx - b.Idx
	})
	keep := s.suspended[:0]
	for _, j := range s.suspended {
		if !s.c.canResume(j.Alloc) {
			keep = append(keep, j)
			continue
		}
		s.c.takeCores(j.Alloc, j.Part)
		j.State = Running
		j.SuspendedSecs += s.now - j.susp.suspendedAt
		j.susp.spans = append(j.susp.spans, [2]int64{j.susp.suspendedAt, s.now})
		j.End = s.now + j.susp.remaining
		if !j.susp.inGrace {
			j.End = s.runEnd(j) // on the time-limit check's clock again
		}
		j.runIdx = len(s.running)
		s.running = append(s.running, j)
		s.push(Event{T: j.End, Kind: EvJobEnd, Job: int32(j.Idx), Gen: j.gen})
		s.changed()
	}
	clear(s.suspended[len(keep):])
	s.suspended = keep
}

// graceStop gives a job preempted with a grace time until now + grace to
// stop (preempt.c _job_check_grace_internal: end_time = MIN(end_time,
// preempt_time + grace)); a job that ends by itself before then just ends.
func (s *Simulator) graceStop(j *Job, requeue bool, grace int64) {
	if j.State != Running || j.susp.inGrace || j.End <= s.now+grace {
		return
	}
	j.susp.inGrace = true
	j.susp.graceEnd = s.now + grace
	j.susp.graceRequeue = requeue
	j.End = j.susp.graceEnd
	j.gen++
	s.push(Event{T: j.End, Kind: EvJobEnd, Job: int32(j.Idx), Gen: j.gen})
	// The job's expected end moved: a pass that kept its releases from
	// the last one must not see the same Churn. Version stays, as it
	// always has here, so that the passes Version gates are unchanged.
	s.churn++
}

// graceEnded stops a job at the end of its grace time: cancelled or
// requeued as its preemption said, its resources free now.
func (s *Simulator) graceEnded(j *Job) {
	requeue := j.susp.graceRequeue
	j.susp.inGrace = false
	s.c.apply(j.Alloc, j.Part, false)
	s.preempt(j, requeue)
	s.released()
	s.resumeSuspended()
}
