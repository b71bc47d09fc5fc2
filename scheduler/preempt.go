package scheduler

import (
	"cmp"
	"math"
	"slices"

	"fairsim/policy"
	"fairsim/sim"
)

// QOSPreemption gives the slurm scheduler what it needs from the policy
// layer's QOS table: preempt/qos rules and the QOS backfill settings.
type QOSPreemption interface {
	// CanPreempt reports whether QOS a's Preempt list names QOS b.
	CanPreempt(a, b int) bool
	// Mode is QOS q's PreemptMode, policy.PreemptCluster when unset.
	Mode(q int) policy.PreemptMode
	// Priority is QOS q's Priority, used to order preemption candidates.
	Priority(q int) uint32
	// NoReserve reports QOS q's NoReserve flag: its jobs never get a
	// backfill reservation and are planned with a one-minute limit.
	NoReserve(q int) bool
	// GraceTime is QOS q's GraceTime in seconds; ExemptTime its
	// PreemptExemptTime, negative when unset.
	GraceTime(q int) int64
	ExemptTime(q int) int64
	// MinPrioThreshold is QOS q's MinPrioThreshold (0: unset), which
	// overrides bf_min_prio_reserve for its jobs.
	MinPrioThreshold(q int) uint32
}

// preemptReorderCount is cons_tres's preempt_reorder_count, at its
// default: how many times _run_now reorders the candidates once the
// preemptor fits.
const preemptReorderCount = 1

// preemptAct is what preemption does to a victim.
type preemptAct uint8

const (
	actCancel preemptAct = iota
	actRequeue
	actSuspend
)

// canPreempt tells whether pending job p may preempt running job v, and
// what is then done to v: requeued, cancelled, or suspended. SUSPEND
// suspends only under the cluster's GANG (node_scheduler.c _preempt_jobs
// leaves it to the gang scheduler); without GANG slurm_job_preempt knows
// no SUSPEND and kills the job. A job that has run less than its
// PreemptExemptTime (its QOS's, else slurm.conf's:
// acct_policy_get_preemptable_time) is no candidate
// (preempt.c _is_job_preempt_exempt).
func (s *Slurm) canPreempt(c *sim.Cluster, now int64, p *cand, v *sim.Holding) (ok bool, act preemptAct, grace int64) {
	mode := s.P.PreemptMode
	switch s.P.PreemptType {
	case "preempt/partition_prio":
		pv := &c.Parts[v.Part]
		if c.Parts[p.part].PriorityTier <= pv.PriorityTier {
			return false, 0, 0
		}
		mode = pv.PreemptMode.Or(mode)
		grace = pv.GraceTime // preempt_partition_prio.c: the partition's grace_time
	case "preempt/qos":
		if s.QOS == nil || p.j.QOSIdx < 0 || v.Job.QOSIdx < 0 || !s.QOS.CanPreempt(p.j.QOSIdx, v.Job.QOSIdx) {
			return false, 0, 0
		}
		mode = s.QOS.Mode(v.Job.QOSIdx).Or(mode)
		grace = s.QOS.GraceTime(v.Job.QOSIdx) // preempt_qos.c: the QOS's grace_time
	default:
		return false, 0, 0
	}
	exempt := s.P.PreemptExemptTime
	if s.QOS != nil && v.Job.QOSIdx >= 0 {
		if q := s.QOS.ExemptTime(v.Job.QOSIdx); q >= 0 {
			exempt = q
		}
	}
	if exempt > 0 && now < v.Job.Start+exempt {
		return false, 0, 0
	}
	switch {
	case mode&policy.PreemptRequeue != 0:
		return true, actRequeue, grace
	case mode&policy.PreemptCancel != 0:
		return true, actCancel, grace
	case mode&policy.PreemptSuspend != 0 && s.P.PreemptMode&policy.PreemptGang != 0:
		return true, actSuspend, 0
	case mode&policy.PreemptSuspend != 0:
		return true, actCancel, grace
	}
	return false, 0, 0 // OFF
}

// preemptFor is the main scheduler's preemption: preemptOn on the nodes
// the pass has not taken out of play, and the preemptor's start when its
// victims are all suspended. held is the limit that the allocation found
// breaks (View.HoldOn): the victims are suspended, the preemptor is not
// started.
func (s *Slurm) preemptFor(view *sim.View, plan *sim.Plan, x *cand) (preempted, started bool, held string) {
	preempted, fits, _, held := s.preemptOn(view, plan, x)
	if held != "" {
		return false, false, held
	}
	if fits {
		if why := view.HoldOn(x.j, x.part, s.alloc); why != "" {
			return true, false, why
		}
		if err := plan.Start(x.j, x.part, s.alloc, sim.ByMain); err != nil {
			panic("slurm: " + err.Error()) // TryAlloc and Start disagree: a bug
		}
		return true, true, ""
	}
	return preempted, false, ""
}

// preemptOn tries to make room for record x by preempting lower-priority
// running jobs (slurmctld's preemption through the select plugin's
// will-run test, select_p_job_test with PREEMPT_MODE). Candidates overlap
// j's partition and are taken lowest plugin priority first (partition
// PriorityTier or QOS Priority, then fewer nodes, then slurmctld's job
// list order), or youngest first under preempt_youngest_first
// (preempt.c _sort_by_youngest), until j would fit, then reordered as
// cons_tres _run_now does (preemptReorderCount); a job to be suspended
// frees only its cores. Nodes marked in s.mask are out of play. When
// every victim is to be suspended, they are suspended and the preemptor
// can start at once on their cores (node_scheduler.c _preempt_jobs counts
// no job to wait for when the gang scheduler suspends): fits is true and
// s.alloc is its allocation, for the caller to start. Otherwise the victims are cancelled or
// requeued, after their grace time if any, those to be suspended are left
// running, and the preemptor starts in a later pass, once its victims
// have left, as in Slurm; use lists the nodes it was fitted on.
//
// held is the limit the preemptor's allocation on those nodes
// (Cluster.Provisional: whole nodes for --exclusive) breaks: nothing is
// preempted for it, as select_nodes checks the limits after selection,
// before it preempts.
func (s *Slurm) preemptOn(view *sim.View, plan *sim.Plan, x *cand) (preempted, fits bool, use []int, held string) {
	if s.P.PreemptType != "preempt/partition_prio" && s.P.PreemptType != "preempt/qos" {
		return false, false, nil, ""
	}
	c := view.Cluster()
	type victim struct {
		v     sim.Holding
		rank  int64
		act   preemptAct
		grace int64
		hold  int // the reorder's key (_get_usable_nodes)
	}
	var cands []victim
	now := view.Now()
	// Each holding is looked at where it is: most cannot be preempted
	// by x, and copying every running job's holding first was most of
	// a call's cost.
	// Under partition_prio only jobs of partitions of a lower tier can
	// be victims (canPreempt's first test): the others are skipped
	// before their holdings are made.
	var lower func(int) bool
	if s.P.PreemptType == "preempt/partition_prio" {
		tier := c.Parts[x.part].PriorityTier
		lower = func(p int) bool { return c.Parts[p].PriorityTier < tier }
	}
	view.EachHoldingIn(lower, func(v sim.Holding) {
		ok, act, grace := s.canPreempt(c, now, x, &v)
		if !ok {
			return
		}
		overlap := false
		for _, sl := range v.Alloc {
			if c.InPartition(x.part, sl.Node) && !s.mask[sl.Node] {
				overlap = true
				break
			}
		}
		if !overlap {
			return
		}
		var prio int64
		if s.P.PreemptType == "preempt/qos" {
			prio = int64(s.QOS.Priority(v.Job.QOSIdx))
		} else {
			prio = int64(c.Parts[v.Part].PriorityTier)
		}
		cands = append(cands, victim{v: v, rank: prio<<16 + int64(len(v.Alloc)), act: act, grace: grace})
	})
	if len(cands) == 0 {
		return false, false, nil, ""
	}
	// preempt.c sorts slurmctld's job list (list_sort: glibc's stable
	// qsort), so equals keep the list's order (sim.Job.ListOrder): on the
	// 22.05 harness a 6-CPU high job preempted the one 8-CPU low job that
	// started first, not the four small ones started after it.
	slices.SortFunc(cands, func(a, b victim) int {
		if s.P.PreemptYoungestFirst {
			return cmp.Or(cmp.Compare(b.v.Start, a.v.Start), cmp.Compare(a.v.Job.ListOrder(), b.v.Job.ListOrder()), cmp.Compare(a.v.Job.Idx, b.v.Job.Idx))
		}
		// Lowest rank first; among equals the job list's order.
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.v.Job.ListOrder(), b.v.Job.ListOrder()), cmp.Compare(a.v.Job.Idx, b.v.Job.Idx))
	})
	// Free the candidates one by one on a view of now until j fits; nodes
	// this pass has taken out of play count as busy.
	s.ensure(c)
	b := &s.bf
	defer b.invalidate()
	gmask := x.req.GresMask()
	see := func(n int) {
		if b.vstamp[n] != b.vgen {
			b.vstamp[n] = b.vgen
			b.free[n], b.mem[n] = c.Nodes[n].FreeCores, c.Nodes[n].FreeMem
			b.gres[n] = c.FreeGres(n, gmask)
			b.capLeft[n] = c.CapLeft(x.part, n)
			if s.mask[n] {
				b.free[n], b.mem[n], b.gres[n] = 0, 0, 0
			}
			b.vnodes = append(b.vnodes, n)
		}
	}
	// free releases candidate cd's resources in the view.
	free := func(cd victim) {
		for _, sl := range cd.v.Alloc {
			if c.InPartition(x.part, sl.Node) && !s.mask[sl.Node] {
				see(sl.Node)
				b.free[sl.Node] += sl.Cores
				if cd.v.Part == x.part && c.Capped(x.part) {
					b.capLeft[sl.Node] += sl.Cores
				}
				if cd.act != actSuspend {
					// A suspended job keeps its memory and GRES
					// (cons_tres select_p_job_suspend frees cores only).
					b.mem[sl.Node] += sl.MemMB
					b.gres[sl.Node] += c.SliceGres(sl, gmask)
				}
			}
		}
	}
	// reset starts the view again from the present, the nodes out of
	// play counted busy.
	reset := func() {
		b.invalidate()
		for _, n := range c.AppendFree(nil) {
			if s.mask[n] {
				see(n)
			}
		}
	}
	fitAfter := func(order []victim) (need int, use []int) {
		reset()
		for i, cd := range order {
			free(cd)
			if use = s.fitView(c, x); use != nil {
				return i + 1, use
			}
		}
		return 0, nil
	}
	// A job the present already holds (on nodes still completing, say)
	// preempts nobody: _run_now tries it without preemption first.
	reset()
	if s.fitView(c, x) != nil {
		return false, false, nil, ""
	}
	need, use := fitAfter(cands)
	// cons_tres _run_now then reorders to preempt fewer jobs (the default
	// preempt_reorder_count=1): the candidate that made the job fit goes
	// first, then those before it by how many of the nodes chosen they
	// hold, the rest in their order, and the freeing starts again, until
	// the count of fits passes the reorder count or the candidates.
	for pass := 0; need > 0; {
		old := pass
		pass++
		if old > preemptReorderCount || len(cands) <= pass {
			break
		}
		for i := range cands {
			cd := &cands[i]
			cd.hold = 0
			switch {
			case i == need-1:
				cd.hold = math.MaxInt
			case i < need-1:
				for _, sl := range cd.v.Alloc {
					if slices.Contains(use, sl.Node) {
						cd.hold++
					}
				}
			}
		}
		slices.SortStableFunc(cands, func(a, b victim) int { return cmp.Compare(b.hold, a.hold) })
		need, use = fitAfter(cands)
	}
	if need == 0 {
		return false, false, nil, ""
	}
	// The nodes with every candidate gone (backfill reserves those).
	reset()
	for _, cd := range cands {
		free(cd)
	}
	s.bfp.allGone = append(s.bfp.allGone[:0], s.fitView(c, x)...)
	s.alloc = c.Provisional(&x.req, use, s.alloc[:0])
	if why := view.HoldOn(x.j, x.part, s.alloc); why != "" {
		return false, false, nil, why
	}
	// Only the candidates on nodes the preemptor would take are preempted
	// (cons_tres keeps the preemptees "whose resources are actually used").
	victims := cands[:0]
	allSuspend := true
	for _, cd := range cands[:need] {
		for _, sl := range cd.v.Alloc {
			if slices.Contains(use, sl.Node) {
				victims = append(victims, cd)
				allSuspend = allSuspend && cd.act == actSuspend
				break
			}
		}
	}
	if len(victims) == 0 {
		return false, false, nil, "" // nobody on the nodes it takes: nothing to preempt
	}
	if allSuspend {
		for _, cd := range victims {
			plan.Suspend(cd.v.Job)
		}
		s.memo.reset() // the map changed: the failed fit is no longer known
		if s.tryAlloc(c, x, s.mask) == sim.FitsNow {
			return true, true, use, ""
		}
		plan.Pass(view.Now() + 1)
		return true, false, use, ""
	}
	freed := false
	for _, cd := range victims {
		if cd.act == actSuspend {
			continue // suspended by the gang scheduler once the preemptor starts
		}
		plan.PreemptAfter(cd.v.Job, cd.act == actRequeue, cd.grace)
		freed = freed || cd.grace == 0
	}
	if freed {
		plan.Pass(view.Now() + 1)
	}
	return true, false, use, ""
}
