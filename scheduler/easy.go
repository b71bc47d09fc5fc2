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
	queue    []*sim.Job
	releases []release
	alloc    sim.Alloc
}

// release is when a holder is expected to end and how many cores the
// reserved job could use that it then frees; sorting these small values
// is cheaper than sorting the holders.
type release struct {
	end   int64
	idx   int32 // job index: ties in end time in job order
	cores int32
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
		if !endsInTime && head.Part == j.Part && j.CPUs > extra {
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
// cores will be spare then, every release at that instant included.
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
	e.releases = e.releases[:0]
	v.EachHolding(func(h sim.Holding) {
		r := release{end: h.End, idx: int32(h.Job.Idx)}
		for _, s := range h.Alloc {
			if e.usable(c, head, s.Node) {
				r.cores += int32(s.Cores)
			}
		}
		e.releases = append(e.releases, r)
	})
	slices.SortFunc(e.releases, func(a, b release) int {
		return cmp.Or(cmp.Compare(a.end, b.end), cmp.Compare(a.idx, b.idx))
	})
	for i, r := range e.releases {
		free += int(r.cores)
		if free >= head.CPUs {
			// Every job ending at the shadow time frees its cores then:
			// the spare cores count them all, not only up to the one
			// that made room.
			for _, o := range e.releases[i+1:] {
				if o.end != r.end {
					break
				}
				free += int(o.cores)
			}
			return r.end, free - head.CPUs
		}
	}
	return math.MaxInt64, 0
}
