package sim

import (
	"cmp"
	"fmt"
	"math"
)

// CheckInvariants verifies a finished run from its records alone, as an
// independent witness of the engine: every job is in a final state (or
// still pending, never started); no job starts before it was submitted or
// became eligible; ends follow starts; and at no instant does any node
// hold more cores, memory or GRES than it has, nor a partition's jobs more
// of its CPUs than the partition's MaxCPUsPerNode as one of them starts.
// A job holds the GRES it asked for, of the types it asked for (all of its
// nodes' GRES when it has whole nodes). The first fault of a job comes
// first, in job order.
func CheckInvariants(r *Result) error {
	v := NewInvariantStream(r.Cluster)
	v.tick = r.TimeLimitTick
	for _, j := range r.Jobs {
		v.Add(j)
	}
	v.Advance(math.MaxInt64)
	return v.err
}

// InvariantStream is CheckInvariants on a run that forgets its jobs as
// they retire (Options.Retire): Options.Check hands it each job as it
// retires, with the instant before which every job it has not had yet
// starts no earlier (the watermark), and Close takes the jobs the run
// left. The capacity check sweeps the run's instants once, over every
// node at a time: each started job gives an event at its start and end,
// and suspension two more (its cores are free then, its memory and GRES
// not); events before the watermark are final and applied, the rest wait
// in a heap. (A list of two edges per allocation slice per node, sorted
// node by node, took 1.7 GB on CEA-Curie's 13 million slices.)
type InvariantStream struct {
	// Every is how many jobs the run retires between two watermarks
	// (0: 1024): finding one reads every live job, and the events wait
	// in memory until it passes them.
	Every  int
	c      *Cluster
	seen   []bool // by arrival index
	events invHeap
	done   int64 // the watermark applied so far
	cores  []int
	mem    []int64
	gres   [][MaxNodeGres]int
	// capped is, as Cluster.caps.used, the CPUs each capped partition's
	// jobs hold on each node.
	capped []int
	jobs   int
	// tick is the run's Options.TimeLimitTick: a job may run its
	// partition's OverTime and up to one tick past its limit.
	tick int64
	err  error
}

// The kinds of event: frees (evEnd, evSuspend) come before takes
// (evResume, evStart) at an instant, so a core freed at t may be reused
// at t.
const (
	evEnd = iota
	evSuspend
	evResume
	evStart
)

type invEvent struct {
	t    int64
	job  *Job
	kind int8
}

// before orders events by time, frees before takes, then by job and
// kind, for a stable report.
func (a *invEvent) before(b *invEvent) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if fa, fb := a.kind <= evSuspend, b.kind <= evSuspend; fa != fb {
		return fa
	}
	return cmp.Or(cmp.Compare(a.job.Idx, b.job.Idx), cmp.Compare(a.kind, b.kind)) < 0
}

// invHeap is a min-heap of events by before.
type invHeap []invEvent

func (h *invHeap) push(e invEvent) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(&q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *invHeap) pop() invEvent {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q[last] = invEvent{}
	q = q[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(q) && q[l].before(&q[m]) {
			m = l
		}
		if l+1 < len(q) && q[l+1].before(&q[m]) {
			m = l + 1
		}
		if m == i {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}

// NewInvariantStream is an empty check of a run on c.
func NewInvariantStream(c *Cluster) *InvariantStream {
	n := len(c.Nodes)
	return &InvariantStream{c: c, done: math.MinInt64, cores: make([]int, n), mem: make([]int64, n), gres: make([][MaxNodeGres]int, n),
		capped: make([]int, len(c.caps.max)*n)}
}

// Jobs is how many jobs were added.
func (v *InvariantStream) Jobs() int { return v.jobs }

// Close adds the jobs r left (r.Jobs when the run retired the others),
// applies every event, and returns the first fault found.
func (v *InvariantStream) Close(r *Result) error {
	for _, j := range r.Jobs {
		v.Add(j)
	}
	v.Advance(math.MaxInt64)
	return v.err
}

// Add checks job j, in its final state, and queues its events; after a
// fault it does nothing.
func (v *InvariantStream) Add(j *Job) {
	if v.err != nil {
		return
	}
	v.jobs++
	if v.err = v.job(j); v.err != nil || j.Start < 0 || len(j.Alloc) == 0 {
		return
	}
	if j.Start < v.done {
		v.err = fmt.Errorf("job %d starts at %d, before %d, which was checked as final", j.ID, j.Start, v.done)
		return
	}
	v.events.push(invEvent{j.Start, j, evStart})
	v.events.push(invEvent{j.End, j, evEnd})
	for _, sp := range j.susp.spans {
		v.events.push(invEvent{sp[0], j, evSuspend})
		v.events.push(invEvent{sp[1], j, evResume})
	}
}

// job is the checks of one job's record.
func (v *InvariantStream) job(j *Job) error {
	for len(v.seen) <= j.Idx {
		v.seen = append(v.seen, false)
	}
	if v.seen[j.Idx] {
		return fmt.Errorf("job %d appears twice", j.ID)
	}
	v.seen[j.Idx] = true
	switch {
	case j.State == Running:
		return fmt.Errorf("job %d still running at the end", j.ID)
	case j.State == Suspended:
		return fmt.Errorf("job %d still suspended at the end", j.ID)
	case j.State == Pending:
		if j.Start >= 0 {
			return fmt.Errorf("job %d pending with a start time", j.ID)
		}
		return nil
	case j.State == Rejected:
		if j.Start >= 0 {
			return fmt.Errorf("rejected job %d has a start time", j.ID)
		}
		return nil
	}
	if j.Start < 0 && j.State == Cancelled {
		return nil // cancelled before it started
	}
	if j.Start < j.Submit || j.Start < j.EligibleTime {
		return fmt.Errorf("job %d starts at %d before its submit %d or eligibility %d", j.ID, j.Start, j.Submit, j.EligibleTime)
	}
	if j.End < j.Start {
		return fmt.Errorf("job %d ends at %d before its start %d", j.ID, j.End, j.Start)
	}
	if ran, most := j.End-j.Start-j.SuspendedSecs, v.mostRun(j); most >= 0 && ran > most {
		if most > j.Limit {
			return fmt.Errorf("job %d ran %d s, over its limit %d s and the %d s the time-limit check lets it run past it", j.ID, ran, j.Limit, most-j.Limit)
		}
		return fmt.Errorf("job %d ran %d s, over its limit %d s", j.ID, ran, j.Limit)
	}
	if j.Alloc.Cores() < j.CPUs {
		return fmt.Errorf("job %d got %d cores for %d asked", j.ID, j.Alloc.Cores(), j.CPUs)
	}
	for _, s := range j.Alloc {
		if !v.c.InPartition(j.Part, s.Node) {
			return fmt.Errorf("job %d ran on node %s outside partition %s", j.ID, v.c.Nodes[s.Node].Name, v.c.Parts[j.Part].Name)
		}
	}
	return gresHeld(v.c, j)
}

// mostRun is the longest job j may run (-1: no bound): its limit, and
// with time-limit checks its partition's overRun and up to one tick.
func (v *InvariantStream) mostRun(j *Job) int64 {
	if j.Limit <= 0 {
		return -1
	}
	if v.tick <= 0 {
		return j.Limit
	}
	return j.Limit + v.c.overRun(j.Part) + v.tick
}

// Advance applies the events before w: no job added later may start
// before w.
func (v *InvariantStream) Advance(w int64) {
	for v.err == nil && len(v.events) > 0 && v.events[0].t < w {
		v.apply(v.events.pop())
	}
	v.done = max(v.done, w)
}

// apply takes or frees an event's job on each of its nodes, checking
// every node it takes on.
func (v *InvariantStream) apply(e invEvent) {
	j := e.job
	sign := 1
	if e.kind <= evSuspend {
		sign = -1
	}
	whole := e.kind == evStart || e.kind == evEnd // memory and GRES too
	nodes := v.c.Nodes
	k := v.c.capOf(j.Part)
	for _, s := range j.Alloc {
		n := s.Node
		nd := &nodes[n]
		v.cores[n] += sign * s.Cores
		if k >= 0 {
			// Checked at starts only: gang resumes a suspended job
			// without looking at MaxCPUsPerNode, as Slurm does.
			i := k*len(nodes) + n
			if v.capped[i] += sign * s.Cores; e.kind == evStart && v.capped[i] > v.c.caps.max[k] {
				v.err = fmt.Errorf("partition %s's jobs hold %d CPUs of node %s at %d (MaxCPUsPerNode %d), job %d starting",
					v.c.Parts[j.Part].Name, v.capped[i], nd.Name, e.t, v.c.caps.max[k], j.ID)
				return
			}
		}
		if whole {
			v.mem[n] += int64(sign) * s.MemMB
			for p, g := range nd.Gres {
				if v.gres[n][p] += sign * s.Gres.At(p); v.gres[n][p] > g.Count {
					v.err = fmt.Errorf("node %s holds %d GRES %s at %d (it has %d), job %d starting",
						nd.Name, v.gres[n][p], v.c.GresKinds[g.Kind], e.t, g.Count, j.ID)
					return
				}
			}
		}
		if v.cores[n] > nd.Cores || v.mem[n] > nd.MemMB {
			v.err = fmt.Errorf("node %s holds %d cores and %d MB at %d (it has %d and %d), job %d starting",
				nd.Name, v.cores[n], v.mem[n], e.t, nd.Cores, nd.MemMB, j.ID)
			return
		}
	}
}

// gresHeld checks that a started job holds what its GRES requests ask, on
// nodes of the types asked, and nothing else unless it has whole nodes.
func gresHeld(c *Cluster, j *Job) error {
	if len(j.Alloc) == 0 || len(j.Req.Gres) == 0 && j.Alloc[0].Gres == 0 {
		return nil
	}
	whole := j.Req.Exclusive || c.Parts[j.Part].Exclusive
	var mask uint64
	for _, g := range j.Req.Gres {
		mask |= g.Mask
		total := 0
		for _, s := range j.Alloc {
			got := 0
			for p, ng := range c.Nodes[s.Node].Gres {
				if g.Mask&(1<<uint(ng.Kind)) != 0 {
					got += s.Gres.At(p)
				}
			}
			if got < g.PerNode {
				return fmt.Errorf("job %d holds %d GRES %s on node %s, %d per node asked", j.ID, got, g.label(), c.Nodes[s.Node].Name, g.PerNode)
			}
			total += got
		}
		if total < g.PerJob {
			return fmt.Errorf("job %d holds %d GRES %s, %d asked", j.ID, total, g.label(), g.PerJob)
		}
	}
	if whole {
		return nil
	}
	for _, s := range j.Alloc {
		for p, ng := range c.Nodes[s.Node].Gres {
			if s.Gres.At(p) > 0 && mask&(1<<uint(ng.Kind)) == 0 {
				return fmt.Errorf("job %d holds GRES %s on node %s, which it did not ask for", j.ID, c.GresKinds[ng.Kind], c.Nodes[s.Node].Name)
			}
		}
	}
	return nil
}
