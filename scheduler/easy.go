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
// classic formulation; node counts, memory and a partition's
// MaxCPUsPerNode are not part of the reservation (placement counts them
// all). On clusters of identical nodes
// where jobs may spread over nodes (the SP2 traces) this is exact.
type EASY struct {
	queue []*sim.Job
	alloc sim.Alloc
	// rel are the holders by expected end (then job index), kept from
	// pass to pass: a pass finds each holder in it by binary search, adds
	// the holders that came and drops those that left, instead of
	// sorting all of them again.
	rel   []release
	fresh []release
	gen   uint32
	// relSame says rel still holds the holders: the last pass synced it
	// and started nothing, so its allocations are the running jobs' own;
	// relRunning is how many jobs ran then. Only passes start jobs under
	// EASY, and the others leave by ending, so while nothing started and
	// the count is the same nothing left either.
	relSame    bool
	relRunning int
	synced     bool // this pass synced rel
	// started are the jobs earlier passes started since rel was last
	// synced: with the entries whose jobs still run as they did, they
	// are the running jobs (sync checks the count).
	started   []liveJob
	fullSyncs int // syncs that read every holder (for tests)
	// last is what the last pass decided, for the next one to build on
	// when only jobs joined the queue since (arrivals).
	last  easyLast
	skips int // passes that tested only the jobs that joined (for tests)
}

// liveJob is a job kept from one pass to a later one, with its arrival
// index for View.Live: by then it may have ended and been retired.
type liveJob struct {
	j   *sim.Job
	idx int
}

// live reports whether the job is still one of the run's (View.Live).
func (l liveJob) live(v *sim.View) bool { return l.j != nil && v.Live(l.j, l.idx) }

// easyLast is a pass that left its head job waiting, after testing every
// job behind it: the reservation it made and the queue it saw.
type easyLast struct {
	ok     bool
	churn  uint64  // View.Churn then
	seq    uint64  // the largest EligSeq among the pending jobs then
	tail   liveJob // its queue's last job in arrival order
	head   liveJob
	shadow int64
	extra  int
}

// easyNoArrivals makes every pass test the whole queue, for the test
// that testing only the jobs that joined gives the same schedule.
var easyNoArrivals bool

// easyFullSync makes every sync read every holder, for the test that the
// incremental sync gives the same schedule.
var easyFullSync bool

// release is a holder by when it is expected to end, with its cores;
// sorting these small values is cheaper than sorting the holders.
type release struct {
	end     int64
	idx     int32 // job index: ties in end time in job order
	cores   int32 // all its cores
	start   int64
	gen     uint32    // the last pass that saw it
	planned bool      // a start of the pass that synced rel, not yet running
	job     *sim.Job  // the holder
	alloc   sim.Alloc // as that pass saw it (a start of the pass is in the pass's pool)
}

func byEnd(a, b release) int { return cmp.Or(cmp.Compare(a.end, b.end), cmp.Compare(a.idx, b.idx)) }

// Name implements sim.Scheduler.
func (*EASY) Name() string { return "easy" }

// ChecksLive implements sim.ChecksLive: the holders and starts EASY keeps
// from pass to pass are checked with View.Live before they are read.
func (*EASY) ChecksLive() {}

// Triggers implements sim.Scheduler: a pass at every submit and end.
func (*EASY) Triggers() sim.Triggers { return sim.Triggers{SubmitDelay: 0, OnEnd: true} }

// Schedule implements sim.Scheduler.
func (e *EASY) Schedule(v *sim.View, _ sim.PassKind) *sim.Plan {
	p := v.Plan()
	e.synced = false
	defer func() {
		e.relSame = e.synced && p.Starts() == 0
		e.relRunning = len(v.Running())
		for i := range p.Actions {
			if a := &p.Actions[i]; a.Kind == sim.ActStart {
				e.started = append(e.started, liveJob{a.Job, a.Job.Idx})
			}
		}
	}()
	c := v.Cluster()
	if e.arrivals(v, p) {
		return p
	}
	e.last.ok = false
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
	extra = e.backfill(v, p, head, shadow, extra, e.queue[i+1:])
	pend := v.Pending()
	tail := e.queue[len(e.queue)-1]
	e.last = easyLast{ok: !easyNoArrivals && !c.HasReservations(), churn: v.Churn(), seq: pend[len(pend)-1].EligSeq,
		tail: liveJob{tail, tail.Idx}, head: liveJob{head, head.Idx}, shadow: shadow, extra: extra}
	return p
}

// backfill starts the jobs of queue that fit now and either end by the
// shadow time or leave the reserved job the cores it needs then (extra
// of them spare), and returns the spare cores left.
func (e *EASY) backfill(v *sim.View, p *sim.Plan, head *sim.Job, shadow int64, extra int, queue []*sim.Job) int {
	c := v.Cluster()
	for _, j := range queue {
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
	return extra
}

// arrivals is a pass that tests only the jobs that joined the queue since
// the last, when that is all that changed (equal View.Churn: no job
// started, ended or left, no node or partition changed) and they joined
// at its end: the last pass's head still cannot start, its shadow time
// and spare cores are as they were, and every job it tested behind the
// head still cannot start now (the cluster is the same, and a job that
// did not end by the shadow time then does not now), so the pass would
// start only what testing the new jobs starts. It reports whether it ran;
// a start makes the next pass a whole one. Maintenance reservations make
// placement depend on the time: none is taken then.
func (e *EASY) arrivals(v *sim.View, p *sim.Plan) bool {
	l := &e.last
	// Equal churn says no job left since, so head and tail are live:
	// Live is asked all the same, as it costs nothing.
	if !l.ok || v.Churn() != l.churn || !l.head.live(v) || !l.tail.live(v) || l.head.j.State != sim.Pending {
		return false
	}
	pend := v.Pending()
	k := len(pend)
	for k > 0 && pend[k-1].EligSeq > l.seq {
		k--
	}
	c := v.Cluster()
	queue := e.queue[:0]
	tail := l.tail.j
	for _, j := range pend[k:] {
		if !c.Parts[j.Part].State.Schedules() {
			continue // not in line (sortedQueue)
		}
		if byArrival(tail, j) >= 0 {
			return false // it joined ahead of a job already in line
		}
		queue = append(queue, j)
		tail = j
	}
	e.queue = queue
	e.skips++
	e.synced = e.relSame // the holders are the last pass's
	// A start changes Churn: the next pass is a whole one, and the spare
	// cores left need not be kept.
	e.backfill(v, p, l.head.j, l.shadow, l.extra, queue)
	if len(pend) > 0 {
		l.seq = max(l.seq, pend[len(pend)-1].EligSeq)
	}
	l.tail = liveJob{tail, tail.Idx}
	return true
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
	// Every node serves the head job when it asks no CPU type and its
	// partition holds them all: a release then gives all its cores.
	whole := head.Req.Type < 0 && len(c.Parts[head.Part].Nodes) == len(c.Nodes)
	if head.Req.Type < 0 {
		free = c.Parts[head.Part].FreeCores
	} else {
		for _, n := range c.Parts[head.Part].Nodes {
			if e.usable(c, head, n) {
				free += c.Nodes[n].FreeCores
			}
		}
	}
	if !e.relSame || v.Plan().Starts() > 0 || len(v.Running()) != e.relRunning {
		e.sync(v)
	}
	e.synced = true
	coresOf := func(r *release) int {
		if whole {
			return int(r.cores)
		}
		k := 0
		for _, s := range r.alloc {
			if e.usable(c, head, s.Node) {
				k += s.Cores
			}
		}
		return k
	}
	for i := range e.rel {
		r := &e.rel[i]
		free += coresOf(r)
		if free >= head.CPUs {
			// Every job ending at the shadow time frees its cores then:
			// the spare cores count them all, not only up to the one
			// that made room.
			for k := i + 1; k < len(e.rel) && e.rel[k].end == r.end; k++ {
				free += coresOf(&e.rel[k])
			}
			return r.end, free - head.CPUs
		}
	}
	return math.MaxInt64, 0
}

// sync brings e.rel to the view's holders: those that left (or run
// again with another start or end) are dropped, those that came are
// merged in by (end, job index).
//
// Under EASY only its own passes start jobs, so rel changes by the jobs
// that ended (an entry whose job no longer runs as it did) and the jobs
// earlier passes started (started): sync keeps the one, adds the other
// and the pass's own planned starts, and reads every holder again
// (syncFull) only when the count of running jobs says something else
// happened.
func (e *EASY) sync(v *sim.View) {
	e.gen++
	// Compacted in place: an entry moves only once one before it left
	// (most passes drop a few of thousands).
	n := 0
	for i := range e.rel {
		r := &e.rel[i]
		if j := r.job; !r.planned && v.Live(j, int(r.idx)) && sim.Running == j.State && r.start == j.Start && sim.ExpectedEnd(j) == r.end {
			r.alloc = j.Alloc
			if n != i {
				e.rel[n] = *r
			}
			n++
		}
	}
	clear(e.rel[n:]) // no stale allocations kept alive
	e.rel = e.rel[:n]
	e.fresh = e.fresh[:0]
	for _, l := range e.started {
		j := l.j
		if !l.live(v) || j.State != sim.Running {
			continue
		}
		r := release{end: sim.ExpectedEnd(j), idx: int32(j.Idx), cores: int32(j.Alloc.Cores()), start: j.Start, job: j, alloc: j.Alloc}
		if k, found := slices.BinarySearchFunc(e.rel, r, byEnd); found && e.rel[k].start == r.start {
			continue // already kept (started again within the second it ended)
		}
		e.fresh = append(e.fresh, r)
	}
	clear(e.started)
	e.started = e.started[:0]
	if easyFullSync || len(e.rel)+len(e.fresh) != len(v.Running()) {
		e.fullSyncs++
		e.syncFull(v)
		return
	}
	p := v.Plan()
	for i := range p.Actions {
		if a := &p.Actions[i]; a.Kind == sim.ActStart && v.Placed(a.Job) {
			e.fresh = append(e.fresh, release{end: a.ExpectedEnd, idx: int32(a.Job.Idx), cores: int32(a.Alloc.Cores()), start: v.Now(), planned: true, job: a.Job, alloc: a.Alloc})
		}
	}
	e.merge()
}

// syncFull brings e.rel to the view's holders by reading each.
func (e *EASY) syncFull(v *sim.View) {
	e.fresh = e.fresh[:0]
	v.EachHolding(func(h sim.Holding) {
		idx := int32(h.Job.Idx)
		lo, hi := 0, len(e.rel) // the first at or after (End, idx)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if r := &e.rel[m]; r.end < h.End || r.end == h.End && r.idx < idx {
				lo = m + 1
			} else {
				hi = m
			}
		}
		planned := h.Job.State != sim.Running
		if lo < len(e.rel) {
			if r := &e.rel[lo]; r.end == h.End && r.idx == idx && r.start == h.Start {
				r.gen, r.alloc, r.planned, r.job = e.gen, h.Alloc, planned, h.Job
				return
			}
		}
		e.fresh = append(e.fresh, release{end: h.End, idx: idx, cores: int32(h.Alloc.Cores()), start: h.Start, gen: e.gen, planned: planned, job: h.Job, alloc: h.Alloc})
	})
	kept := e.rel[:0]
	for _, r := range e.rel {
		if r.gen == e.gen {
			kept = append(kept, r)
		}
	}
	clear(e.rel[len(kept):]) // no stale allocations kept alive
	e.rel = kept
	e.merge()
}

// merge merges e.fresh into e.rel by (end, job index).
func (e *EASY) merge() {
	if len(e.fresh) == 0 {
		return
	}
	slices.SortFunc(e.fresh, byEnd)
	// Merge from the back, in place.
	n, k := len(e.rel), len(e.fresh)
	e.rel = slices.Grow(e.rel, k)[:n+k]
	for i, j, w := n-1, k-1, n+k-1; j >= 0; w-- {
		if i >= 0 && byEnd(e.rel[i], e.fresh[j]) > 0 {
			e.rel[w] = e.rel[i]
			i--
		} else {
			e.rel[w] = e.fresh[j]
			j--
		}
	}
	clear(e.fresh)
}
