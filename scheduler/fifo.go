package scheduler

import (
	"cmp"
	"slices"
	"sort"

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
	line  arrivalLine
	alloc sim.Alloc
}

// arrivalLine is the pending jobs in arrival order, kept across passes:
// the jobs that joined the pending list since the last pass (EligSeq past
// seq) are inserted, and entries of jobs that left it (started,
// cancelled, or joined again after a requeue) are dropped as they are
// met. FIFO looks only at the head of the line, so a pass costs the jobs
// it starts and the jobs that joined, not a sort of a line that can hold
// tens of thousands of jobs.
type arrivalLine struct {
	q    []lineEntry
	head int    // q[:head] are spent
	seq  uint64 // the largest EligSeq taken in
	dead int    // entries past head no longer valid
}

type lineEntry struct {
	j      *sim.Job
	seq    uint64 // j.EligSeq when it joined
	idx    int    // j.Idx, for View.Live: j may have been retired since
	submit int64  // j.Submit: with idx, the entry's place in line
}

// after orders entries as byArrival orders their jobs, from the entries'
// own copies: an entry's job may have been retired.
func (e lineEntry) after(o lineEntry) bool {
	return e.submit > o.submit || e.submit == o.submit && e.idx > o.idx
}

func (e lineEntry) valid(v *sim.View) bool {
	return v.Live(e.j, e.idx) && sim.Pending == e.j.State && e.j.EligSeq == e.seq
}

// sync takes in the jobs that joined the pending list since the last pass.
func (l *arrivalLine) sync(v *sim.View) {
	pend := v.Pending()
	k := len(pend)
	for k > 0 && pend[k-1].EligSeq > l.seq {
		k-- // the list is in EligSeq order: the newcomers are its tail
	}
	for _, j := range pend[k:] {
		e := lineEntry{j, j.EligSeq, j.Idx, j.Submit}
		i := len(l.q)
		if i > l.head && l.q[i-1].after(e) {
			i = l.head + sort.Search(len(l.q)-l.head, func(k int) bool { return l.q[l.head+k].after(e) })
		}
		l.q = slices.Insert(l.q, i, e)
		l.seq = max(l.seq, j.EligSeq)
	}
	for l.head < len(l.q) && !l.q[l.head].valid(v) {
		l.q[l.head] = lineEntry{}
		l.head++
	}
	if l.head > len(l.q)/2 || l.dead > len(l.q)/2 {
		l.compact(v)
	}
}

// compact drops the spent and invalid entries.
func (l *arrivalLine) compact(v *sim.View) {
	q := l.q[:0]
	for _, e := range l.q[l.head:] {
		if e.j != nil && e.valid(v) {
			q = append(q, e)
		}
	}
	clear(l.q[len(q):])
	l.q, l.head, l.dead = q, 0, 0
}

// Name implements sim.Scheduler.
func (*FIFO) Name() string { return "fifo" }

// ChecksLive implements sim.ChecksLive: the line's entries are checked
// with View.Live before they are read.
func (*FIFO) ChecksLive() {}

// Triggers implements sim.Scheduler: a pass at every submit and end.
func (*FIFO) Triggers() sim.Triggers { return sim.Triggers{SubmitDelay: 0, OnEnd: true} }

// Schedule implements sim.Scheduler.
func (f *FIFO) Schedule(v *sim.View, _ sim.PassKind) *sim.Plan {
	p := v.Plan()
	c := v.Cluster()
	f.line.sync(v)
	for i := f.line.head; i < len(f.line.q); i++ {
		e := f.line.q[i]
		if !e.valid(v) {
			f.line.dead++
			continue
		}
		j := e.j
		// A job of a DOWN or INACTIVE partition waits without being in
		// line: nothing can start it (job_scheduler.c skips it too).
		if !c.Parts[j.Part].State.Schedules() {
			continue
		}
		var fit sim.Fit
		f.alloc, fit = c.TryAlloc(&j.Req, j.Part, f.alloc[:0])
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
