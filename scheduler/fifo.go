package scheduler

import (
	"slices"

	"fairsim/sim"
)

// byArrival orders jobs first come, first served: submit time, then the
// order they arrived in (which follows the trace's job order).
func byArrival(a, b *sim.Job) int {
	if a.Submit != b.Submit {
		if a.Submit < b.Submit {
			return -1
		}
		return 1
	}
	return a.Idx - b.Idx
}

// sortedQueue copies the pending jobs into buf in arrival order.
func sortedQueue(ctx *sim.Context, buf []*sim.Job) []*sim.Job {
	buf = append(buf[:0], ctx.Pending()...)
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
func (f *FIFO) Schedule(ctx *sim.Context, _ sim.PassKind) {
	f.queue = sortedQueue(ctx, f.queue)
	for _, j := range f.queue {
		var fit sim.Fit
		f.alloc, fit = ctx.Cluster.TryAlloc(&j.Req, j.Part, f.alloc[:0])
		if fit != sim.FitsNow {
			return
		}
		if err := ctx.Start(j, f.alloc, sim.ByMain); err != nil {
			panic("fifo: " + err.Error()) // TryAlloc and Start disagree: a bug, not an input problem
		}
	}
}
