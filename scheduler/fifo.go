package scheduler

import (
	"cmp"
	"slices"

	"fairsim/sim"
)

// byArrival orders jobs first come, first served: submit time, then the
// order they arrived in (which follows the trace's job order).
func byArrival(a, b *sim.Job) int {
	return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.Idx, b.Idx))
}

// sortedQueue copies the pending jobs into buf in arrival order.
func sortedQueue(v *sim.View, buf []*sim.Job) []*sim.Job {
	buf = buf[:0]
	c := v.Cluster()
	for _, j := range v.Pending() {
		// A job of a DOWN or INACTIVE partition waits without being in
		// line: nothing can start it (job_scheduler.c skips it too).
		if c.Parts[j.Part].State.Schedules() {
			buf = append(buf, j)
		}
	}
	// The pending list is nearly always in arrival order already (it is
	// in eligibility order); checking is linear, sorting is not.
	if !slices.IsSortedFunc(buf, byArrival) {
		slices.SortFunc(buf, byArrival)
	}
	return buf
}

// FIFO starts jobs strictly in arrival order and stops at the first one
// that does not fit: no job ever overtakes another.
type FIFO struct {
	queue []*sim.Job
	alloc sim.Alloc
}

// Name implements sim.Scheduler.
func (*FIFO) Name() string { return "fifo" }

// Triggers implements sim.Scheduler: a pass at every submit and end.
func (*FIFO) Triggers() sim.Triggers { return sim.Triggers{SubmitDelay: 0, OnEnd: true} }

// Schedule implements sim.Scheduler.
func (f *FIFO) Schedule(v *sim.View, _ sim.PassKind) *sim.Plan {
	p := v.Plan()
	f.queue = sortedQueue(v, f.queue)
	for _, j := range f.queue {
		var fit sim.Fit
		f.alloc, fit = v.Cluster().TryAlloc(&j.Req, j.Part, f.alloc[:0])
		if fit != sim.FitsNow {
			break
		}
		start(p, j, f.alloc, sim.ByMain)
	}
	return p
}

// start plans j on a in its first partition; the baselines try jobs there
// only.
func start(p *sim.Plan, j *sim.Job, a sim.Alloc, by sim.StartKind) {
	if err := p.Start(j, j.Part, a, by); err != nil {
		panic(err.Error()) // TryAlloc and Start disagree: a bug, not an input problem
	}
}
