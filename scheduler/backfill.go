package scheduler

import (
	"slices"

	"fairsim/sim"
)

// backfillState is per-pass scratch (kube's CycleState idea): rebuilt at
// the start of every pass, never carried between passes.
type backfillState struct {
	t0      int64 // start of slot 0: now rounded down to bf_resolution
	nslots  int   // slots in the window
	profs   []slotProfile
	profOK  []bool
	lastRel [][]int64 // per partition and slot: the latest release counted from that slot
	vals    []int
	reach   []int64
	touched []int // cores a candidate would take, per partition
	parts   []int // partitions with touched > 0

	perUser  map[int32]int
	perAssoc map[int]int
	perPart  []int

	// A node-level view of now, for preemption.
	free   []int
	mem    []int64
	vstamp []uint32
	vgen   uint32
	vnodes []int
	stamp  []uint32
	gen    uint32
	pick   []uint64
}

// backfill is one backfill pass (§6.2). Its only effect on the schedule is
// the jobs it starts now; reservations for jobs that cannot start protect
// them from later jobs. A job may start now only if it fits on the free
// nodes now and its partition keeps enough free cores for every
// reservation of a higher job during its time limit.
//
// The plan is a free-core profile per partition on the bf_resolution grid
// over bf_window (see slotProfile), not Slurm's node bitmaps: a
// reservation holds cores of its partition, not named nodes. Running jobs
// release their cores at their expected ends (start + time limit). Jobs
// get reservations only up to the last job that could start now at all,
// and only within the longest limit of the jobs after them: past that, a
// pass could change nothing but estimates.
func (s *Slurm) backfill(ctx *sim.Context) {
	if ctx.Version() == s.bfVersion {
		return // nothing changed since the last pass: Slurm skips the cycle
	}
	// Slurm compares with the time the previous cycle ended, and its own
	// starts update last_job_update within it: a cycle that started jobs
	// is followed by another. Remember the version from before our starts.
	s.bfVersion = ctx.Version()
	c := ctx.Cluster
	jobs := s.q.sync(ctx)
	b := &s.bf
	s.ensure(c)
	clear(b.perPart)
	clear(b.perUser)
	clear(b.perAssoc)
	clear(b.profOK)

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
		return
	}
	for i := len(b.reach) - 2; i >= 0; i-- {
		b.reach[i] = max(b.reach[i], b.reach[i+1]) // the longest limit at or after i
	}
	res := s.P.BfResolution
	b.t0 = ctx.Now / res * res
	b.nslots = int((ctx.Now+s.P.BfWindow-b.t0+res-1)/res) + 1

	tested, started := 0, 0
	for i, j := range jobs {
		if i > last || tested >= s.P.BfMaxJobTest {
			break
		}
		if s.P.BfMaxJobStart > 0 && started >= s.P.BfMaxJobStart {
			break
		}
		if j.State != sim.Pending || !s.bfCount(j) {
			continue
		}
		if why := ctx.Hold(j); why != "" {
			j.Reason = why
			continue // limit-held: no reservation, blocks nobody
		}
		tested++
		tl := s.planLimit(c, j)
		// Slots [0, now) a job started now would hold: up to and including
		// the slot of its end, since Slurm tests a plan slot against a job's
		// end inclusively (begin_time <= end_time).
		now := min(s.slot(ctx.Now+tl, false)+1, b.nslots)
		if c.Parts[j.Part].FreeCores >= j.CPUs {
			var fit sim.Fit
			s.alloc, fit = c.TryAlloc(&j.Req, j.Part, s.alloc[:0])
			if fit == sim.FitsNow && s.keepsReservations(ctx, s.alloc, now) {
				if err := ctx.Start(j, s.alloc, sim.ByBackfill); err != nil {
					panic("slurm backfill: " + err.Error())
				}
				for _, p := range b.parts {
					b.profs[p].add(0, now, -b.touched[p])
				}
				j.Reason = ""
				started++
				continue
			}
		}
		if s.noReserve(ctx, j) {
			continue
		}
		d := max(int((tl+res-1)/res), 1)
		pr := s.profileOf(ctx, j.Part)
		st := pr.earliest(1, d, j.CPUs)
		if st < 0 {
			continue
		}
		// The job can start when the last release it needs happens, not at
		// the slot boundary; its reservation covers the slots from the one
		// holding that moment to the one holding its end (Slurm quantises
		// outwards: floor(start/res), ceil(end/res)).
		start := b.t0 + int64(st)*res
		if rel := b.lastRel[j.Part][st]; rel > 0 {
			start = rel
		}
		if i+1 < len(b.reach) && s.slot(start, false) > s.slot(ctx.Now+b.reach[i+1], false) {
			continue // no job left in this pass could collide with it
		}
		j.ExpectStart = start
		pr.add(s.slot(start, false), s.slot(start+tl, true), -j.CPUs)
	}
}

// slot is the slot in which time t falls (up: the first slot starting at
// or after t), clamped to the window.
func (s *Slurm) slot(t int64, up bool) int {
	b := &s.bf
	res := s.P.BfResolution
	k := (t - b.t0) / res
	if up {
		k = (t - b.t0 + res - 1) / res
	}
	return int(max(0, min(k, int64(b.nslots))))
}

// keepsReservations reports whether an allocation held over slots [0, n)
// leaves every partition it touches enough cores for its reservations.
func (s *Slurm) keepsReservations(ctx *sim.Context, a sim.Alloc, n int) bool {
	c := ctx.Cluster
	b := &s.bf
	for _, p := range b.parts {
		b.touched[p] = 0
	}
	b.parts = b.parts[:0]
	for _, sl := range a {
		for p := range c.Parts {
			if c.InPartition(p, sl.Node) {
				if b.touched[p] == 0 {
					b.parts = append(b.parts, p)
				}
				b.touched[p] += sl.Cores
			}
		}
	}
	for _, p := range b.parts {
		if s.profileOf(ctx, p).min(0, n) < b.touched[p] {
			return false
		}
	}
	return true
}

// profileOf builds (once per pass) partition p's free-core profile: the
// free cores now plus what running jobs release by each slot.
func (s *Slurm) profileOf(ctx *sim.Context, p int) *slotProfile {
	b := &s.bf
	c := ctx.Cluster
	if b.profOK[p] {
		return &b.profs[p]
	}
	vals := b.vals[:0]
	rel := b.lastRel[p][:0]
	for range b.nslots {
		vals = append(vals, 0)
		rel = append(rel, 0)
	}
	vals[0] = c.Parts[p].FreeCores
	for _, r := range ctx.Running() {
		e := sim.ExpectedEnd(r)
		k := s.slot(e, true) // cores count as free from the first slot after the release
		if k >= b.nslots {
			continue
		}
		k = max(k, 1) // a job ending within slot 0 is still running at now
		got := false
		for _, sl := range r.Alloc {
			if c.InPartition(p, sl.Node) {
				vals[k] += sl.Cores
				got = true
			}
		}
		if got {
			rel[k] = max(rel[k], e)
		}
	}
	b.lastRel[p] = rel
	for k := 1; k < len(vals); k++ {
		vals[k] += vals[k-1]
	}
	b.vals = vals
	b.profs[p].reset(vals)
	b.profOK[p] = true
	return &b.profs[p]
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

// ensure sizes the per-node and per-partition scratch for the cluster.
func (s *Slurm) ensure(c *sim.Cluster) {
	b := &s.bf
	if len(b.free) == len(c.Nodes) && len(b.profs) == len(c.Parts) {
		return
	}
	b.free = make([]int, len(c.Nodes))
	b.mem = make([]int64, len(c.Nodes))
	b.vstamp = make([]uint32, len(c.Nodes))
	b.stamp = make([]uint32, len(c.Nodes))
	b.profs = make([]slotProfile, len(c.Parts))
	b.profOK = make([]bool, len(c.Parts))
	b.lastRel = make([][]int64, len(c.Parts))
	b.touched = make([]int, len(c.Parts))
	b.perPart = make([]int, len(c.Parts))
	b.perUser = map[int32]int{}
	b.perAssoc = map[int]int{}
}

// invalidate makes every node of the view read the cluster's live state.
func (b *backfillState) invalidate() {
	b.vgen++
	b.vnodes = b.vnodes[:0]
}

// viewFree is node n's free cores and memory in the view.
func (b *backfillState) viewFree(c *sim.Cluster, n int) (int, int64) {
	if b.vstamp[n] == b.vgen {
		return b.free[n], b.mem[n]
	}
	return c.Nodes[n].FreeCores, c.Nodes[n].FreeMem
}

// fitView tests whether j fits on the node-level view, and returns the
// nodes it would take: the fewest nodes, most usable cores first, then
// allocation order.
func (s *Slurm) fitView(c *sim.Cluster, j *sim.Job) []int {
	b := &s.bf
	b.gen++
	req := &j.Req
	part := &c.Parts[j.Part]
	exclusive := req.Exclusive || part.Exclusive
	per := 1
	if req.Nodes > 1 {
		per = (req.CPUs + req.Nodes - 1) / req.Nodes
	}
	b.pick = b.pick[:0]
	total := 0
	// Nodes with free cores in the view: free now, or freed by a release.
	consider := func(n int) {
		if b.stamp[n] == b.gen || !c.InPartition(j.Part, n) || (req.Type >= 0 && c.Nodes[n].Type != req.Type) {
			return
		}
		b.stamp[n] = b.gen // each node once
		nd := &c.Nodes[n]
		k, mem := b.viewFree(c, n)
		if exclusive {
			if k != nd.Cores {
				return
			}
		} else if req.MemPerCPU > 0 {
			k = min(k, int(mem/req.MemPerCPU))
		}
		if k < per || k <= 0 {
			return
		}
		total += k
		b.pick = append(b.pick, uint64(1<<20-1-k)<<44|uint64(nd.Weight)<<24|uint64(n))
	}
	for _, n := range c.FreeNodes() {
		consider(n)
	}
	for _, n := range b.vnodes {
		consider(n)
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
