package scheduler

import (
	"cmp"
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
	// MinPrioThreshold is QOS q's MinPrioThreshold (0: unset), which
	// overrides bf_min_prio_reserve for its jobs.
	MinPrioThreshold(q int) uint32
}

// canPreempt tells whether pending job p may preempt running job v, and
// whether v is then requeued (else cancelled).
func (s *Slurm) canPreempt(c *sim.Cluster, p *cand, v *sim.Holding) (ok, requeue bool) {
	mode := s.P.PreemptMode
	switch s.P.PreemptType {
	case "preempt/partition_prio":
		pv := &c.Parts[v.Part]
		if c.Parts[p.part].PriorityTier <= pv.PriorityTier {
			return false, false
		}
		mode = pv.PreemptMode.Or(mode)
	case "preempt/qos":
		if s.QOS == nil || p.j.QOSIdx < 0 || v.Job.QOSIdx < 0 || !s.QOS.CanPreempt(p.j.QOSIdx, v.Job.QOSIdx) {
			return false, false
		}
		mode = s.QOS.Mode(v.Job.QOSIdx).Or(mode)
	default:
		return false, false
	}
	switch {
	case mode&policy.PreemptRequeue != 0:
		return true, true
	case mode&policy.PreemptCancel != 0:
		return true, false
	}
	return false, false // OFF, or SUSPEND/GANG which fairsim does not simulate
}

// preemptFor tries to make room for record x by preempting lower-priority
// running jobs (slurmctld's preemption through the select plugin's
// will-run test, select_p_job_test with PREEMPT_MODE). Candidates overlap j's partition and are taken
// lowest plugin priority first (partition PriorityTier or QOS Priority,
// then fewer nodes, then most recently started), until j would fit. The
// preemptor does not start in this pass: it starts in a later one, once
// its victims have left, as in Slurm.
func (s *Slurm) preemptFor(view *sim.View, plan *sim.Plan, x *cand) bool {
	if s.P.PreemptType != "preempt/partition_prio" && s.P.PreemptType != "preempt/qos" {
		return false
	}
	c := view.Cluster()
	type victim struct {
		v       sim.Holding
		rank    int64
		requeue bool
	}
	var cands []victim
	s.bf.hold = view.Holdings(s.bf.hold[:0])
	for _, v := range s.bf.hold {
		ok, rq := s.canPreempt(c, x, &v)
		if !ok {
			continue
		}
		overlap := false
		for _, sl := range v.Alloc {
			if c.InPartition(x.part, sl.Node) && !s.mask[sl.Node] {
				overlap = true
				break
			}
		}
		if !overlap {
			continue
		}
		var prio int64
		if s.P.PreemptType == "preempt/qos" {
			prio = int64(s.QOS.Priority(v.Job.QOSIdx))
		} else {
			prio = int64(c.Parts[v.Part].PriorityTier)
		}
		cands = append(cands, victim{v, prio<<16 + int64(len(v.Alloc)), rq})
	}
	if len(cands) == 0 {
		return false
	}
	slices.SortFunc(cands, func(a, b victim) int {
		// Lowest rank first; among equals the youngest, then job order.
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(b.v.Start, a.v.Start), cmp.Compare(a.v.Job.Idx, b.v.Job.Idx))
	})
	// Free the candidates one by one on a view of now until j fits; nodes
	// this pass has taken out of play count as busy.
	s.ensure(c)
	b := &s.bf
	b.invalidate()
	defer b.invalidate()
	gmask := x.req.GresMask()
	see := func(n int) {
		if b.vstamp[n] != b.vgen {
			b.vstamp[n] = b.vgen
			b.free[n], b.mem[n] = c.Nodes[n].FreeCores, c.Nodes[n].FreeMem
			b.gres[n] = c.FreeGres(n, gmask)
			if s.mask[n] {
				b.free[n], b.mem[n], b.gres[n] = 0, 0, 0
			}
			b.vnodes = append(b.vnodes, n)
		}
	}
	for _, n := range c.AppendFree(nil) {
		if s.mask[n] {
			see(n)
		}
	}
	need := 0
	var use []int
	for i, cd := range cands {
		for _, sl := range cd.v.Alloc {
			if c.InPartition(x.part, sl.Node) && !s.mask[sl.Node] {
				see(sl.Node)
				b.free[sl.Node] += sl.Cores
				b.mem[sl.Node] += sl.MemMB
				b.gres[sl.Node] += c.SliceGres(sl, gmask)
			}
		}
		if use = s.fitView(c, x); use != nil {
			need = i + 1
			break
		}
	}
	if need == 0 {
		return false
	}
	// Only the candidates on nodes the preemptor would take are preempted
	// (cons_tres keeps the preemptees "whose resources are actually used").
	for _, cd := range cands[:need] {
		for _, sl := range cd.v.Alloc {
			if slices.Contains(use, sl.Node) {
				plan.Preempt(cd.v.Job, cd.requeue)
				break
			}
		}
	}
	plan.Pass(view.Now() + 1)
	return true
}
