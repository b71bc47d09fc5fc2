package scheduler

import (
	"slices"

	"fairsim/sim"
)

// reservation is a whole-node reservation in the backfill plan.
type reservation struct {
	start, end int64
	nodes      []int
	part       int // partition whose cores are cached in cores
	cores      int
}

// backfillState is per-pass scratch (kube's CycleState idea): rebuilt at
// the start of every pass, never carried between passes.
type backfillState struct {
	plan     []reservation
	rel      []*sim.Job // running jobs by expected end
	relBuilt bool
	free     []int   // view: free cores per node at a planned time
	mem      []int64 // view: free memory per node
	stamp    []uint32
	gen      uint32
	nowMask  []bool
	touched  []int
	perUser  map[int32]int
	perAssoc map[int]int
	perPart  []int
	pick     []uint64
	ev       []resEvent // reserved-core changes of partition evPart, for plan[:evN]
	evPart   int
	evN      int
	reach    []int64
	ts       []int64
	as       []int
	dq       []int
	prof     []profile
	profOK   []bool
}

// backfill is one backfill pass (§6.2). Its only effect on the schedule is
// the jobs it starts now; reservations for jobs that cannot start protect
// them from later jobs. A job may start now only if its resources are free
// now and reserved by no higher job during its time limit. Reservations
// are computed only up to the last job that could start now at all: past
// it, the pass could change nothing but estimates.
func (s *Slurm) backfill(ctx *sim.Context) {
	if ctx.Version() == s.bfVersion {
		return // nothing changed since the last pass: Slurm skips the cycle
	}
	c := ctx.Cluster
	jobs := s.q.sync(ctx)
	b := &s.bf
	b.plan = b.plan[:0]
	b.evPart, b.evN = -1, 0
	b.relBuilt = false // the release profile is rebuilt lazily each pass
	if len(b.nowMask) != len(c.Nodes) {
		b.nowMask = make([]bool, len(c.Nodes))
		b.free = make([]int, len(c.Nodes))
		b.mem = make([]int64, len(c.Nodes))
		b.stamp = make([]uint32, len(c.Nodes))
		b.perPart = make([]int, len(c.Parts))
		b.perUser = map[int32]int{}
		b.perAssoc = map[int]int{}
	}
	clear(b.perPart)
	clear(b.perUser)
	clear(b.perAssoc)

	// The jobs that could start on what is free now, ignoring
	// reservations. Only they can start in this pass, and a reservation
	// matters only if it begins within the longest limit among the ones
	// after it: reach[i] is how far ahead reservations for job i matter.
	last := -1
	b.reach = b.reach[:0]
	for i, j := range jobs {
		if i >= s.P.BfMaxJobTest {
			break
		}
		b.reach = append(b.reach, 0)
		if j.State == sim.Pending && c.Parts[j.Part].FreeCores >= j.CPUs {
			if _, fit := c.TryAlloc(&j.Req, j.Part, s.alloc[:0]); fit == sim.FitsNow {
				last = i
				b.reach[i] = s.planLimit(c, j)
			}
		}
	}
	if last < 0 {
		s.bfVersion = ctx.Version()
		return
	}
	for i := len(b.reach) - 2; i >= 0; i-- {
		b.reach[i] = max(b.reach[i], b.reach[i+1]) // now: the longest limit at or after i
	}
	tested, started := 0, 0
	for i, j := range jobs {
		if i > last || tested >= s.P.BfMaxJobTest {
			break
		}
		if s.P.BfMaxJobStart > 0 && started >= s.P.BfMaxJobStart {
			break
		}
		if j.State != sim.Pending {
			continue
		}
		if !s.bfCount(j) {
			continue
		}
		if why := ctx.Hold(j); why != "" {
			j.Reason = why
			continue // limit-held: no reservation, blocks nobody
		}
		tested++
		tl := s.planLimit(c, j)
		s.markReserved(ctx.Now, ctx.Now+tl)
		var fit sim.Fit
		s.alloc, fit = c.TryAllocExcept(&j.Req, j.Part, b.nowMask, s.alloc[:0])
		s.unmarkReserved()
		if fit == sim.FitsNow {
			if err := ctx.Start(j, s.alloc, sim.ByBackfill); err != nil {
				panic("slurm backfill: " + err.Error())
			}
			j.Reason = ""
			started++
			continue
		}
		if s.noReserve(ctx, j) {
			continue
		}
		t, nodes := s.earliest(ctx, j, tl, ctx.Now+b.reach[min(i+1, len(b.reach)-1)])
		if t < 0 {
			continue
		}
		j.ExpectStart = t
		res := s.P.BfResolution
		start := t / res * res
		end := (t + tl + res - 1) / res * res
		if end <= start {
			end = start + res
		}
		b.plan = append(b.plan, reservation{start: start, end: end, nodes: nodes, part: -1})
	}
	s.bfVersion = ctx.Version()
}

// bfCount applies bf_max_job_user/assoc/part: the counts of jobs examined
// per user, association or partition in this pass.
func (s *Slurm) bfCount(j *sim.Job) bool {
	b := &s.bf
	if s.P.BfMaxJobPart > 0 {
		if b.perPart[j.Part]++; b.perPart[j.Part] > s.P.BfMaxJobPart {
			return false
		}
	}
	if s.P.BfMaxJobAssoc > 0 {
		if b.perAssoc[j.Assoc]++; b.perAssoc[j.Assoc] > s.P.BfMaxJobAssoc {
			return false
		}
	} else if s.P.BfMaxJobUser > 0 {
		if b.perUser[j.User]++; b.perUser[j.User] > s.P.BfMaxJobUser {
			return false
		}
	}
	return true
}

// planLimit is the time limit backfill plans with: the job's limit capped
// by its partition's MaxTime; unlimited is one year (§6.2c).
func (s *Slurm) planLimit(c *sim.Cluster, j *sim.Job) int64 {
	tl := j.TimeLimit
	if mt := c.Parts[j.Part].MaxTime; mt != sim.Unlimited && (tl <= 0 || tl > mt) {
		tl = mt
	}
	if tl <= 0 {
		tl = 365 * 86400
	}
	return tl
}

// noReserve is Slurm's "test now only": low priority, too young, or a
// QOS with NoReserve (which the policy reports as a negative priority
// reserve through Hold-free jobs; here priority and age only).
func (s *Slurm) noReserve(ctx *sim.Context, j *sim.Job) bool {
	if s.P.BfMinPrioReserve > 0 && j.Priority < s.P.BfMinPrioReserve {
		return true
	}
	if s.P.BfMinAgeReserve > 0 && ctx.Now-j.Eligible < s.P.BfMinAgeReserve {
		return true
	}
	return false
}

// markReserved marks in nowMask the nodes of every reservation that
// overlaps [from, to).
func (s *Slurm) markReserved(from, to int64) {
	b := &s.bf
	for _, r := range b.plan {
		if r.start < to && from < r.end {
			for _, n := range r.nodes {
				if !b.nowMask[n] {
					b.nowMask[n] = true
					b.touched = append(b.touched, n)
				}
			}
		}
	}
}

func (s *Slurm) unmarkReserved() {
	b := &s.bf
	for _, n := range b.touched {
		b.nowMask[n] = false
	}
	b.touched = b.touched[:0]
}

// profile is, for one partition, the running jobs' cores released at
// each expected end (cumulative), built once per pass.
type profile struct {
	t   []int64
	cum []int
}

// maxViewTries bounds the node-level placements tried per reservation
// when the core counts say a job fits but its nodes, memory or CPU type do
// not; past it the job gets no reservation in this pass.
const maxViewTries = 32

// earliest finds when job j could start, releasing running jobs at their
// expected ends and honouring the plan's reservations, within bf_window.
// It returns the start and the whole nodes to reserve, or -1. A start
// after reach could not stop any job that may still start in this pass, so
// the search ends there: such a job gets no reservation (and no estimate).
//
// The search is in two steps: the partition's free-core profile minus the
// cores of overlapping reservations must hold the job over its whole
// limit (cheap, a necessary condition); then the nodes are chosen on a
// node-level view of that time (fitView).
func (s *Slurm) earliest(ctx *sim.Context, j *sim.Job, tl, reach int64) (int64, []int) {
	c := ctx.Cluster
	b := &s.bf
	pr := s.profileOf(ctx, j.Part)
	horizon := min(ctx.Now+s.P.BfWindow, reach)
	live := c.Parts[j.Part].FreeCores
	ev := s.resEvents(c, j.Part)
	// Merge release times and reservation bounds into one step function
	// A(T[k]) = free cores not reserved, from T[k] to T[k+1].
	ts, as := b.ts[:0], b.as[:0]
	ri, ei, cum, res := 0, 0, 0, 0
	t := ctx.Now
	for {
		for ri < len(pr.t) && pr.t[ri] <= t {
			cum = pr.cum[ri]
			ri++
		}
		for ei < len(ev) && ev[ei].t <= t {
			res += ev[ei].d
			ei++
		}
		ts = append(ts, t)
		as = append(as, live+cum-res)
		next := int64(-1)
		if ri < len(pr.t) {
			next = pr.t[ri]
		}
		if ei < len(ev) && (next < 0 || ev[ei].t < next) {
			next = ev[ei].t
		}
		if next < 0 || next > horizon {
			break
		}
		t = next
	}
	b.ts, b.as = ts, as
	// Slide a window [T[k], T[k]+tl) over the steps, keeping its minimum
	// in a monotonic deque of step indices.
	dq := b.dq[:0]
	m := 0 // next step to enter the window
	tries := 0
	for k := 1; k < len(ts); k++ {
		for m < len(ts) && ts[m] < ts[k]+tl {
			for len(dq) > 0 && as[dq[len(dq)-1]] >= as[m] {
				dq = dq[:len(dq)-1]
			}
			dq = append(dq, m)
			m++
		}
		for len(dq) > 0 && dq[0] < k {
			dq = dq[1:]
		}
		if len(dq) == 0 || as[dq[0]] < j.CPUs {
			continue
		}
		if m == len(ts) && ts[len(ts)-1] < ts[k]+tl && len(ts) > 0 {
			// The window runs past the last known step: A stays at its
			// last value, which the deque already holds.
		}
		s.viewAt(c, j.Part, ts[k])
		if nodes := s.fitView(c, j, ts[k], ts[k]+tl, true); nodes != nil {
			b.dq = dq
			return ts[k], nodes
		}
		if tries++; tries >= maxViewTries {
			break
		}
	}
	b.dq = dq
	return -1, nil
}

// resEvents returns the changes of reserved cores of partition p in time
// order, kept sorted as reservations are added during the pass.
func (s *Slurm) resEvents(c *sim.Cluster, p int) []resEvent {
	b := &s.bf
	if b.evPart != p {
		b.evPart, b.evN = p, 0
		b.ev = b.ev[:0]
	}
	for ; b.evN < len(b.plan); b.evN++ {
		r := &b.plan[b.evN]
		k := s.resCores(c, r, p)
		if k == 0 {
			continue
		}
		for _, e := range [2]resEvent{{r.start, k}, {r.end, -k}} {
			i, _ := slices.BinarySearchFunc(b.ev, e, cmpEvent)
			b.ev = slices.Insert(b.ev, i, e)
		}
	}
	return b.ev
}

func cmpEvent(x, y resEvent) int {
	if x.t != y.t {
		if x.t < y.t {
			return -1
		}
		return 1
	}
	return x.d - y.d
}

// resEvent is a change of reserved cores at time t.
type resEvent struct {
	t int64
	d int
}

// profileOf builds (once per pass) the release profile of partition p.
func (s *Slurm) profileOf(ctx *sim.Context, p int) *profile {
	b := &s.bf
	c := ctx.Cluster
	if !b.relBuilt {
		b.rel = append(b.rel[:0], ctx.Running()...)
		slices.SortFunc(b.rel, func(x, y *sim.Job) int {
			ex, ey := sim.ExpectedEnd(x), sim.ExpectedEnd(y)
			if ex != ey {
				if ex < ey {
					return -1
				}
				return 1
			}
			return x.Idx - y.Idx
		})
		b.relBuilt = true
		if len(b.prof) != len(c.Parts) {
			b.prof = make([]profile, len(c.Parts))
			b.profOK = make([]bool, len(c.Parts))
		}
		clear(b.profOK)
	}
	pr := &b.prof[p]
	if b.profOK[p] {
		return pr
	}
	pr.t, pr.cum = pr.t[:0], pr.cum[:0]
	sum := 0
	for _, r := range b.rel {
		k := 0
		for _, sl := range r.Alloc {
			if c.InPartition(p, sl.Node) {
				k += sl.Cores
			}
		}
		if k == 0 {
			continue
		}
		sum += k
		t := sim.ExpectedEnd(r)
		if n := len(pr.t); n > 0 && pr.t[n-1] == t {
			pr.cum[n-1] = sum
			continue
		}
		pr.t = append(pr.t, t)
		pr.cum = append(pr.cum, sum)
	}
	b.profOK[p] = true
	return pr
}

// resCores is how many cores of partition p reservation r holds.
func (s *Slurm) resCores(c *sim.Cluster, r *reservation, p int) int {
	if r.part == p {
		return r.cores
	}
	k := 0
	for _, n := range r.nodes {
		if c.InPartition(p, n) {
			k += c.Nodes[n].Cores
		}
	}
	r.part, r.cores = p, k
	return k
}

// viewAt sets the node-level view of partition p at time t: free cores and
// memory now plus what running jobs release by t.
func (s *Slurm) viewAt(c *sim.Cluster, p int, t int64) {
	b := &s.bf
	for _, n := range c.Parts[p].Nodes {
		b.free[n] = c.Nodes[n].FreeCores
		b.mem[n] = c.Nodes[n].FreeMem
	}
	for _, r := range b.rel {
		if sim.ExpectedEnd(r) > t {
			break
		}
		for _, sl := range r.Alloc {
			if c.InPartition(p, sl.Node) {
				b.free[sl.Node] += sl.Cores
				b.mem[sl.Node] += sl.MemMB
			}
		}
	}
}

// fitView tests whether j fits on the planning view at [from, to), on
// nodes no reservation holds then, and returns the whole nodes it would
// take: the fewest nodes, most usable cores first, then allocation order.
func (s *Slurm) fitView(c *sim.Cluster, j *sim.Job, from, to int64, usePlan bool) []int {
	b := &s.bf
	b.gen++
	for _, r := range b.plan {
		if usePlan && r.start < to && from < r.end {
			for _, n := range r.nodes {
				b.stamp[n] = b.gen
			}
		}
	}
	req := &j.Req
	part := &c.Parts[j.Part]
	exclusive := req.Exclusive || part.Exclusive
	per := 1
	if req.Nodes > 1 {
		per = (req.CPUs + req.Nodes - 1) / req.Nodes
	}
	b.pick = b.pick[:0]
	total := 0
	for _, n := range part.Nodes {
		if b.stamp[n] == b.gen || (req.Type >= 0 && c.Nodes[n].Type != req.Type) {
			continue
		}
		nd := &c.Nodes[n]
		k := b.free[n]
		if exclusive {
			if k != nd.Cores {
				continue
			}
		} else if req.MemPerCPU > 0 {
			k = min(k, int(b.mem[n]/req.MemPerCPU))
		}
		if k < per || k <= 0 {
			continue
		}
		total += k
		b.pick = append(b.pick, uint64(1<<20-1-k)<<44|uint64(nd.Weight)<<24|uint64(n))
	}
	if total < req.CPUs || len(b.pick) < max(req.Nodes, 1) {
		return nil
	}
	slices.Sort(b.pick)
	var nodes []int
	got := 0
	for _, key := range b.pick {
		n := int(key & (1<<24 - 1))
		k := 1<<20 - 1 - int(key>>44)
		nodes = append(nodes, n)
		got += k
		if got >= req.CPUs && len(nodes) >= max(req.Nodes, 1) {
			return nodes
		}
	}
	return nil
}
