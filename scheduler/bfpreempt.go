package scheduler

import (
	"fairsim/sim"
)

// bfPreempt is the backfill pass's preemption state, per pass: which
// (partition, QOS) records have preemption candidates at all, and the
// jobs whose preemption this pass started.
type bfPreempt struct {
	plan    *sim.Plan // the pass the state belongs to
	may     map[[2]int]bool
	started map[*sim.Job]bool
	// allGone are the nodes the last preemptOn's job fits on with every
	// candidate gone: _will_run_test's answer, which backfill reserves
	// when the start waits for the victims.
	allGone []int
}

// sync resets the state when a new pass begins.
func (p *bfPreempt) sync(plan *sim.Plan) {
	if p.plan == plan {
		return
	}
	p.plan = plan
	if p.may == nil {
		p.may, p.started = map[[2]int]bool{}, map[*sim.Job]bool{}
	}
	clear(p.may)
	clear(p.started)
}

// bfMayPreempt reports whether record x has a preemption candidate: a
// running job it may preempt (canPreempt) on a node of its partition
// (preempt.c slurm_find_preemptable_jobs, _add_preemptable_job). Such a
// record may start now in backfill although it fits nowhere free, so
// the pass must reach it. The answer depends on the record's partition
// and QOS only, and is kept for the pass.
func (s *Slurm) bfMayPreempt(v *sim.View, plan *sim.Plan, x *cand) bool {
	if s.P.PreemptType != "preempt/partition_prio" && s.P.PreemptType != "preempt/qos" {
		return false
	}
	p := &s.bfp
	p.sync(plan)
	key := [2]int{x.part, x.j.QOSIdx}
	if ok, seen := p.may[key]; seen {
		return ok
	}
	c := v.Cluster()
	ok := false
	v.EachHolding(func(h sim.Holding) {
		if ok {
			return
		}
		if can, _, _ := s.canPreempt(c, v.Now(), x, &h); !can {
			return
		}
		for _, sl := range h.Alloc {
			if c.InPartition(x.part, sl.Node) {
				ok = true
				return
			}
		}
	})
	p.may[key] = ok
	return ok
}

// planJobPreempt is planJob with backfill's preemption (backfill.c
// _try_sched passes slurm_find_preemptable_jobs to select_g_job_test in
// will-run mode). cons_common's _will_run_test first tries the job on
// the free resources (planJob's test now); failing that, and before it
// steps through the running jobs' ends, it tries again with every
// preemptable job gone and answers "now" when the job then fits. The
// backfill pass then starts it (_start_job → select_nodes), which
// preempts as the main scheduler does (preemptOn: candidates freed one
// by one until the job fits, only those on the nodes it takes are
// preempted), on the nodes free of backfill reservations over the job's
// run (_start_job excludes the others).
//
// When every victim is suspended under GANG the job starts now
// (node_scheduler.c _preempt_jobs counts no job to wait for), and the
// result is now with s.alloc its allocation. Otherwise select_nodes
// returns ESLURM_NODES_BUSY: backfill.c treats the failed start as
// "planned start failed" and reserves the nodes it picked from now over
// the job's limit; the job starts in a later pass once its victims have
// left. That is returned as now+1 with s.alloc naming those nodes (no
// cores), which the caller reserves and reports as the expected start.
// A job whose preemption is in progress is not tried again in the pass
// (backfill.c skips a record whose job has preempt_in_progress set).
//
// One difference remains: when the job does not fit even with every
// preemptable job gone, the later start is planJob's, which counts
// preemptable jobs as running to their limits, where _will_run_test
// leaves them out of the future it steps through.
func (s *Slurm) planJobPreempt(v *sim.View, plan *sim.Plan, x *cand, tl int64, nowOnly bool, horizon int64) (int64, bool) {
	may := s.bfMayPreempt(v, plan, x)
	if may && s.bfp.started[x.j] {
		return -1, false
	}
	t, counted := s.planJob(v, x, tl, nowOnly, horizon)
	now := v.Now()
	if t == now || !may {
		return t, counted
	}
	b := &s.bf
	c := v.Cluster()
	// The will-run tests moved only the releases' shadows: the cluster
	// itself, which preemptOn reads, is the present.
	copy(b.avail, b.base)
	if _, ok := b.ns.availOver(b.avail, now, now+tl, x.req.MinNodeCount()); !ok {
		return t, counted
	}
	s.maskOutside(c, b.avail)
	preempted, fits, use, held := s.preemptOn(v, plan, x)
	if held != "" {
		plan.Pend(x.j, held)
		return heldByLimit, counted // backfill.c: ESLURM_ACCOUNTING_POLICY, the job is skipped
	}
	if !preempted {
		return t, counted
	}
	s.bfp.started[x.j] = true
	s.memo.reset()
	// The victims left the view's holdings: the releases must not give
	// their resources back a second time.
	b.hs = v.Holdings(b.hs[:0])
	b.sortByRelease(b.hs)
	b.rel.Reset(b.hs)
	b.relDirty = true // made without the cycle's fingerprint
	b.moves.reset()   // resources came back: moves made before need not hold
	s.wr.stale = true // the victims' resources are free
	if fits {
		return now, true
	}
	if b.preempted == nil {
		b.preempted = make([]bool, len(c.Nodes))
	}
	for _, n := range use {
		b.preempted[n] = true
	}
	b.nodesSet = false // preemption placed the job elsewhere: s.alloc has its nodes
	s.alloc = s.alloc[:0]
	// backfill.c reserves the nodes _will_run_test chose with every
	// preemptable job gone, not those _start_job preempted on: on the
	// 22.05 harness a 6-CPU job preempting the job on n2 was reserved on
	// n1, and the next record planned on n2 for now + 1, preempting
	// nothing.
	if len(s.bfp.allGone) > 0 {
		use = s.bfp.allGone
	}
	for _, n := range use {
		s.alloc = append(s.alloc, sim.Slice{Node: n})
	}
	plan.Pend(x.j, "Resources (preemption in progress)")
	return now + 1, true
}

// maskOutside marks in s.mask the nodes not in avail: out of play for
// preemptOn.
func (s *Slurm) maskOutside(c *sim.Cluster, avail []uint64) {
	if len(s.mask) != len(c.Nodes) {
		s.mask = make([]bool, len(c.Nodes))
	}
	for n := range s.mask {
		s.mask[n] = !hasBit(avail, n)
	}
}

// preemptKey tells apart, in backfill's memo of failed record shapes,
// records whose preemption candidates may differ: under preempt/qos the
// QOS decides them (the partition is part of the shape already).
func (s *Slurm) preemptKey(x *cand) int {
	if s.P.PreemptType == "preempt/qos" {
		return x.j.QOSIdx
	}
	return 0
}
