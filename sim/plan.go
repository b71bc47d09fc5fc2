package sim

import (
	"fmt"
	"slices"
)

// ActionKind says what an Action of a Plan does.
type ActionKind uint8

// Action kinds.
const (
	ActStart     ActionKind = iota + 1 // start a pending job on an allocation
	ActPreempt                         // end a running job to make room
	ActPend                            // say why a pending job waits (its Reason)
	ActExpect                          // backfill's expected start of a pending job
	ActSuspend                         // suspend a running job (PreemptMode=SUSPEND)
	ActWholeNode                       // a job of several partitions takes whole nodes from now on
)

// Action is one decision of a pass. Only the fields of its kind are set.
type Action struct {
	Kind ActionKind
	Job  *Job
	// ActStart: the partition it runs in (one of Job.Parts), where, which
	// pass started it, and its expected end (start plus the time limit in
	// force on that allocation).
	Part        int
	Alloc       Alloc
	By          StartKind
	ExpectedEnd int64
	// ActPreempt: requeue (back to pending) rather than cancel, and the
	// grace time it runs on before it is stopped (0: stopped now).
	Requeue bool
	Grace   int64
	// ActPend: the reason, in Slurm's words ("Priority", "Resources", a
	// limit's name); ActExpect: the expected start.
	Reason string
	At     int64
	// ActExpect: the CPUs of the nodes its will-run test found, which
	// become its total_cpus (Job.TotalCPUs; 0 leaves it).
	CPUs int32
}

// Plan is what a scheduler pass returns, as Nomad's schedulers return a
// plan to SubmitPlan: the starts with their allocations, preemptions,
// pending reasons and expected starts, in the order decided. Starts and
// preemptions are validated when added and show in the View at once; the
// simulator commits the plan after the pass, in order.
type Plan struct {
	v       *View
	Actions []Action
	// WantPass asks for an event-triggered pass at this time (for example
	// after a preemption, once the preempted jobs have left); -1 for none.
	WantPass int64
	// Duration is how long the pass took in simulated seconds (0, the
	// default, for an instant pass). Its decisions take effect at its
	// start; the next backfill cycle and sched_min_interval count from
	// its end, as backfill.c backfill_agent and job_scheduler.c
	// _sched_agent measure from the end of the previous run.
	Duration int64
}

// Start plans pending job j to start now on allocation a in partition
// part. It returns an error, and plans nothing, when j is not pending and
// eligible, is already started by this plan, part is not one of its
// partitions, or the allocation is not free in part.
func (p *Plan) Start(j *Job, part int, a Alloc, by StartKind) error {
	v := p.v
	c := v.c
	if j.State != Pending || j.pendIdx < 0 || v.Placed(j) {
		return fmt.Errorf("job %d is not pending and eligible", j.ID)
	}
	if len(a) == 0 || a.Cores() < j.CPUs {
		return fmt.Errorf("job %d: allocation of %d CPUs for %d asked", j.ID, a.Cores(), j.CPUs)
	}
	if part < 0 || part >= len(c.Parts) || len(j.Parts) > 0 && !slices.Contains(j.Parts, part) || len(j.Parts) == 0 && part != j.Part {
		return fmt.Errorf("job %d: partition %d is not one it was submitted to", j.ID, part)
	}
	seen := c.markGen()
	for _, sl := range a {
		if sl.Node < 0 || sl.Node >= len(c.Nodes) || !c.InPartition(part, sl.Node) {
			return fmt.Errorf("job %d: node %d is not in partition %s", j.ID, sl.Node, c.Parts[part].Name)
		}
		if c.seen[sl.Node] == seen {
			return fmt.Errorf("job %d: node %s allocated twice", j.ID, c.Nodes[sl.Node].Name)
		}
		c.seen[sl.Node] = seen
		nd := &c.Nodes[sl.Node]
		if sl.Cores <= 0 || sl.Cores > nd.FreeCores || sl.MemMB > nd.FreeMem || sl.MemMB < 0 {
			return fmt.Errorf("job %d: node %s has %d CPUs and %d MB free, %d and %d asked",
				j.ID, nd.Name, nd.FreeCores, nd.FreeMem, sl.Cores, sl.MemMB)
		}
		if left := c.CapLeft(part, sl.Node); sl.Cores > left {
			return fmt.Errorf("job %d: node %s has %d CPUs left under partition %s's MaxCPUsPerNode, %d asked",
				j.ID, nd.Name, left, c.Parts[part].Name, sl.Cores)
		}
		if sl.Gres != 0 {
			for p := range nd.Gres {
				if k := sl.Gres.At(p); k > nd.Gres[p].Free {
					return fmt.Errorf("job %d: node %s has %d GRES %s free, %d asked", j.ID, nd.Name, nd.Gres[p].Free, c.GresKinds[nd.Gres[p].Kind], k)
				}
			}
			if sl.Gres>>(16*uint(len(nd.Gres))) != 0 {
				return fmt.Errorf("job %d: node %s has no GRES of the kind asked", j.ID, nd.Name)
			}
		}
	}
	_, limit, _ := c.runOn(j, a)
	if c.resvFrom != nil {
		for _, sl := range a {
			if r := c.resvFrom[sl.Node]; r < noResv && (limit <= 0 || v.now+limit > r) {
				return fmt.Errorf("job %d: node %s is reserved from %d, within its time limit", j.ID, c.Nodes[sl.Node].Name, r)
			}
		}
	}
	if c.resvWin != nil || j.Req.Resv != 0 {
		end := noResv
		if limit > 0 {
			end = v.now + limit
		}
		for _, sl := range a {
			if c.resvBars(sl.Node, j.Req.Resv, v.now, end) {
				return fmt.Errorf("job %d: node %s is not open to it by reservation from %d to %d", j.ID, c.Nodes[sl.Node].Name, v.now, end)
			}
		}
	}
	c.apply(a, part, true)
	j.planMark = v.mark(markPlaced)
	if v.sim != nil {
		// job_array_split runs as the task starts, within the pass: a
		// will-run test later in the pass sees the task in the array
		// record's place (Job.ListOrder).
		v.sim.list.started(j)
	}
	end := v.now + 365*86400
	if limit > 0 {
		end = v.now + limit
	}
	// Allocations share one pool per pass rather than one allocation each.
	from := len(v.pool)
	v.pool = append(v.pool, a...)
	p.Actions = append(p.Actions, Action{Kind: ActStart, Job: j, Part: part, Alloc: v.pool[from:len(v.pool):len(v.pool)], By: by, ExpectedEnd: end})
	return nil
}

// Preempt plans running job j (or one this plan started) to end now,
// requeued or cancelled; its resources are free in the View at once.
func (p *Plan) Preempt(j *Job, requeue bool) { p.PreemptAfter(j, requeue, 0) }

// PreemptAfter plans running job j to be stopped, requeued or cancelled,
// after grace seconds (the QOS or partition GraceTime: preempt.c
// _job_check_grace_internal moves its end to now + GraceTime). With no
// grace its resources are free in the View at once; with one they stay
// held until it stops, and a job already in its grace time is left as it
// is (slurm_job_preempt does nothing to a job in its grace period).
func (p *Plan) PreemptAfter(j *Job, requeue bool, grace int64) {
	v := p.v
	var a Alloc
	part := j.Part
	switch {
	case v.Placed(j):
		v.unplaced++ // it leaves the placed jobs Hold keeps
		for i := len(p.Actions) - 1; i >= 0; i-- {
			if p.Actions[i].Kind == ActStart && p.Actions[i].Job == j {
				a, part = p.Actions[i].Alloc, p.Actions[i].Part
				break
			}
		}
		grace = 0
	case j.State == Running && j.planMark != v.mark(markPreempted):
		if j.susp.inGrace {
			return
		}
		if grace > 0 {
			// Still running: it stays in Running and Holdings, ending
			// at its grace end (ExpectedEnd).
			p.Actions = append(p.Actions, Action{Kind: ActPreempt, Job: j, Requeue: requeue, Grace: grace})
			return
		}
		a = j.Alloc
		v.preempted++
	default:
		return
	}
	v.c.apply(a, part, false)
	j.planMark = v.mark(markPreempted)
	p.Actions = append(p.Actions, Action{Kind: ActPreempt, Job: j, Requeue: requeue})
}

// Suspend plans running job j to be suspended now (PreemptMode=SUSPEND
// under GANG): its cores are free in the View at once, its memory and
// GRES stay held (cons_tres select_p_job_suspend releases cores only,
// job_res_rm_job with JOB_RES_ACTION_RESUME). The simulator resumes it
// once its cores are free again.
func (p *Plan) Suspend(j *Job) {
	v := p.v
	if j.State != Running || j.susp.inGrace || j.planMark == v.mark(markPreempted) || v.Placed(j) {
		return
	}
	v.preempted++
	v.c.giveCores(j.Alloc, j.Part)
	j.planMark = v.mark(markPreempted)
	p.Actions = append(p.Actions, Action{Kind: ActSuspend, Job: j})
}

// Pend records why pending job j does not start in this pass.
func (p *Plan) Pend(j *Job, reason string) {
	p.Actions = append(p.Actions, Action{Kind: ActPend, Job: j, Reason: reason})
}

// Expect records backfill's expected start t of pending job j, and cpus,
// the CPUs its will-run test counted on the nodes it found, which become
// its total_cpus as select's test sets it (Job.TotalCPUs; 0 leaves it).
func (p *Plan) Expect(j *Job, t int64, cpus int) {
	p.Actions = append(p.Actions, Action{Kind: ActExpect, Job: j, At: t, CPUs: int32(cpus)})
}

// WholeNode records that a main pass tried pending job j in an
// OverSubscribe=EXCLUSIVE partition, which leaves details->whole_node set
// (select_nodes' _resolve_shared_status): j takes whole nodes in every
// partition from then on (Job.WholeNode).
func (p *Plan) WholeNode(j *Job) {
	p.Actions = append(p.Actions, Action{Kind: ActWholeNode, Job: j})
}

// Pass asks for an event-triggered pass at time t (not before now).
func (p *Plan) Pass(t int64) {
	t = max(t, p.v.now)
	if p.WantPass < 0 || t < p.WantPass {
		p.WantPass = t
	}
}

// Starts counts the plan's starts.
func (p *Plan) Starts() int {
	n := 0
	for i := range p.Actions {
		if p.Actions[i].Kind == ActStart {
			n++
		}
	}
	return n
}

// Outcome is what committing the plan will make of job j: whether it
// starts, and the pending reason and expected start it will then show (its
// current ones where the plan says nothing of them). Wrappers that trace a
// job pass by pass read it.
func (p *Plan) Outcome(j *Job) (started bool, reason string, expect int64) {
	reason, expect = j.Reason, j.ExpectStart
	for i := range p.Actions {
		a := &p.Actions[i]
		if a.Job != j {
			continue
		}
		switch a.Kind {
		case ActStart:
			started, reason, expect = true, "", -1
		case ActPreempt, ActSuspend:
			started = false
		case ActPend:
			reason = a.Reason
		case ActExpect:
			expect = a.At
		}
	}
	return started, reason, expect
}
