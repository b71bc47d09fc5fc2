package scheduler

import (
	"cmp"
	"math"
	"slices"

	"fairsim/sim"
)

// EASY is EASY backfilling (Mu'alem & Feitelson): jobs start in arrival
// order; when the first job in the queue cannot start, it gets a
// reservation at the "shadow time", the earliest moment enough cores free
// up assuming running jobs run to their time limits. A later job may start
// now ("backfill") if it fits now and either ends by the shadow time or
// uses only cores the reserved job will not need ("extra" cores).
//
// Simplification: the shadow time and extra cores are counted in cores of
// the reserved job's partition (of its CPU type, when it asks for one), the
// classic formulation; node counts and memory are not part of the
// reservation. On clusters of identical nodes
// where jobs may spread over nodes (the SP2 traces) this is exact.
type EASY struct {
	queue   []*sim.Job
	running []sim.Holding
	alloc   sim.Alloc
}

// Name implements sim.Scheduler.
func (*EASY) Name() string { return "easy" }

// Triggers implements sim.Scheduler: a pass at every submit and end.
func (*EASY) Triggers() sim.Triggers { return sim.Triggers{SubmitDelay: 0, OnEnd: true} }

// Schedule implements sim.Scheduler.
func (e *EASY) Schedule(v *sim.View, _ sim.PassKind) *sim.Plan {
	p := v.Plan()
	c := v.Cluster()
	e.queue = sortedQueue(v, e.queue)
	i := 0
	for ; i < len(e.queue); i++ {
		j := e.queue[i]
		var fit sim.Fit
		e.alloc, fit = c.TryAlloc(&j.Req, j.Part, e.alloc[:0])
		if fit != sim.FitsNow {
			break
		}
		start(p, j, e.alloc, sim.ByMain)
	}
	if i >= len(e.queue) {
		return p
	}
	head := e.queue[i]
	shadow, extra := e.shadow(v, head)
	for _, j := range e.queue[i+1:] {
		if c.Parts[j.Part].FreeCores < j.CPUs {
			continue
		}
		endsInTime := j.TimeLimit > 0 && v.Now()+j.TimeLimit <= shadow
		if !endsInTime && j.Part == head.Part && j.CPUs > extra {
			continue // all its cores would be the reserved job's: no need to place it
		}
		var fit sim.Fit
		e.alloc, fit = c.TryAlloc(&j.Req, j.Part, e.alloc[:0])
		if fit != sim.FitsNow {
			continue
		}
		inHead := 0 // cores it would hold that the reserved job could use
		for _, s := range e.alloc {
			if e.usable(c, head, s.Node) {
				inHead += s.Cores
			}
		}
		if !endsInTime && inHead > extra {
			continue
		}
		if !endsInTime {
			extra -= inHead
		}
		start(p, j, e.alloc, sim.ByBackfill)
	}
	return p
}

// usable reports whether node n could serve the reserved job: in its
// partition and of the CPU type it asks for.
func (e *EASY) usable(c *sim.Cluster, head *sim.Job, n int) bool {
	return c.InPartition(head.Part, n) && (head.Req.Type < 0 || c.Nodes[n].Type == head.Req.Type)
}

// shadow returns when the head job's partition will have enough free cores
// for it, releasing running jobs at their expected ends, and how many
// cores will be spare then.
func (e *EASY) shadow(v *sim.View, head *sim.Job) (int64, int) {
	c := v.Cluster()
	free := 0
	if head.Req.Type < 0 {
		free = c.Parts[head.Part].FreeCores
	} else {
		for _, n := range c.Parts[head.Part].Nodes {
			if e.usable(c, head, n) {
				free += c.Nodes[n].FreeCores
			}
		}
	}
	e.running = v.Holdings(e.running[:0])
	slices.SortFunc(e.running, func(a, b sim.Holding) int {
		return cmp.Or(cmp.Compare(a.End, b.End), cmp.Compare(a.Job.Idx, b.Job.Idx))
	})
	for _, r := range e.running {
		for _, s := range r.Alloc {
			if e.usable(c, head, s.Node) {
				free += s.Cores
			}
		}
		if free >= head.CPUs {
			return r.End, free - head.CPUs
		}
	}
	return math.MaxInt64, 0
}
