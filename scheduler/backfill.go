package scheduler

import (
	"slices"

	"fairsim/sim"
)

// backfillState is per-pass scratch (kube's CycleState idea): rebuilt at
// the start of every pass, never carried between passes.
type backfillState struct {
	t0      int64         // start of slot 0: now rounded down to bf_resolution
	nslots  int           // slots in the window
	profs   []slotProfile // per partition and CPU type (see profKey)
	profOK  []bool
	lastRel [][]int64 // per profile and slot: the latest release counted from that slot
	ntypes  int       // CPU types + 1 (the "all types" profile)
	mixed   []bool    // per partition: nodes of several CPU types
	badType []bool    // CPU types a placement could not use (keepsReservations)
	badNode func(int) bool
	vals    []int
	reach   []int64
	touched []int // cores a candidate would take, per partition
	parts   []int // partitions with touched > 0

	perUser  map[int32]int
	perAssoc map[int]int
	perPart  []int
	hold     []sim.Holding // scratch for View.Holdings

	// A node-level view of now, for preemption.
	free   []int
	mem    []int64
	gres   []int // free GRES of the kinds the preemptor asks
	vstamp []uint32
	vgen   uint32
	vnodes []int
	stamp  []uint32
	gen    uint32
	pick   []uint64
}

// backfill is one backfill pass (backfill.c _attempt_backfill). Its only effect on the schedule is
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
func (s *Slurm) backfill(v *sim.View, plan *sim.Plan) {
	if v.Version() == s.bfVersion {
		return // nothing changed since the last pass: Slurm skips the cycle
	}
	// Slurm compares with the time the previous cycle ended, and its own
	// starts update last_job_update within it: a cycle that started jobs
	// is followed by another. Remember the version from before our starts.
	s.bfVersion = v.Version()
	c := v.Cluster()
	jobs := s.q.sync(v)
	b := &s.bf
	s.ensure(c)
	clear(b.perPart)
	clear(b.perUser)
	clear(b.perAssoc)
	clear(b.profOK)

	s.memo.reset()
	last := -1
	b.reach = b.reach[:0]
	for i, r := range jobs {
		if i >= s.P.BfMaxJobTest {
			break
		}
		b.reach = append(b.reach, 0)
		x := candOf(c, r)
		if c.Parts[x.part].FreeCores >= x.j.CPUs {
			if s.tryAlloc(c, &x, nil) == sim.FitsNow {
				last = i
				b.reach[i] = s.planLimit(c, &x)
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
	now := v.Now()
	b.t0 = now / res * res
	b.nslots = int((now+s.P.BfWindow-b.t0+res-1)/res) + 1

	tested, started := 0, 0
	for i, r := range jobs {
		if i > last || tested >= s.P.BfMaxJobTest {
			break
		}
		if v.Placed(r.Job) {
			continue
		}
		if s.P.BfMaxJobStart > 0 && started >= s.P.BfMaxJobStart {
			break
		}
		x := candOf(c, r)
		if !c.Parts[x.part].State.Schedules() {
			continue // backfill.c: "partition not usable"
		}
		j := x.j
		if !s.bfCount(&x) {
			continue
		}
		if why := v.Hold(j); why != "" {
			plan.Pend(j, why)
			continue // limit-held: no reservation, blocks nobody
		}
		tested++
		tl := s.planLimit(c, &x)
		if s.qosNoReserve(j) {
			tl = 60 // a NoReserve QOS job is planned with a one-minute limit
		}
		// Slots [0, held) a job started now would hold: up to and including
		// the slot of its end, since Slurm tests a plan slot against a job's
		// end inclusively (begin_time <= end_time).
		held := min(s.slot(now+tl, false)+1, b.nslots)
		if c.Parts[x.part].FreeCores >= j.CPUs {
			ok := s.tryAlloc(c, &x, nil) == sim.FitsNow && s.keepsReservations(v, s.alloc, held)
			if !ok && b.anyBad() {
				// Placed on nodes of a CPU type the reservations need: try
				// again without that type's nodes, as Slurm's will-run would
				// test only the nodes no reservation holds.
				var fit sim.Fit
				s.alloc, fit = c.TryAllocFunc(&x.req, x.part, b.badNode, s.alloc[:0])
				ok = fit == sim.FitsNow && s.keepsReservations(v, s.alloc, held)
			}
			b.clearBad()
			if ok {
				if err := plan.Start(j, x.part, s.alloc, sim.ByBackfill); err != nil {
					panic("slurm backfill: " + err.Error())
				}
				s.memo.reset()
				for _, k := range b.parts {
					b.profs[k].add(0, held, -b.touched[k])
				}
				started++
				continue
			}
		}
		if s.noReserve(v, &x) {
			continue
		}
		d := max(int((tl+res-1)/res), 1)
		pr, key := s.profileFor(v, &x)
		st := pr.earliest(1, d, j.CPUs)
		if st < 0 {
			continue
		}
		// The job can start when the last release it needs happens, not at
		// the slot boundary; its reservation covers the slots from the one
		// holding that moment to the one holding its end (Slurm quantises
		// outwards: floor(start/res), ceil(end/res)).
		start := b.t0 + int64(st)*res
		if rel := b.lastRel[key][st]; rel > 0 {
			start = rel
		}
		if i+1 < len(b.reach) && s.slot(start, false) > s.slot(now+b.reach[i+1], false) {
			continue // no job left in this pass could collide with it
		}
		plan.Expect(j, start)
		from, to := s.slot(start, false), s.slot(start+tl, true)
		pr.add(from, to, -j.CPUs)
		if tot := s.profKey(x.part, -1); tot != key {
			s.profileAt(v, tot).add(from, to, -j.CPUs)
		}
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
// leaves every partition it touches, and every CPU type of it, enough
// cores for its reservations. When a CPU type falls short it is marked in
// b.badType so the caller can place the job again without those nodes.
func (s *Slurm) keepsReservations(v *sim.View, a sim.Alloc, n int) bool {
	c := v.Cluster()
	b := &s.bf
	for _, k := range b.parts {
		b.touched[k] = 0
	}
	b.parts = b.parts[:0]
	touch := func(k, cores int) {
		if b.touched[k] == 0 {
			b.parts = append(b.parts, k)
		}
		b.touched[k] += cores
	}
	for _, sl := range a {
		t := c.Nodes[sl.Node].Type
		for p := range c.Parts {
			if c.InPartition(p, sl.Node) {
				touch(s.profKey(p, -1), sl.Cores)
				if b.mixed[p] {
					touch(s.profKey(p, t), sl.Cores)
				}
			}
		}
	}
	ok := true
	for _, k := range b.parts {
		if s.profileAt(v, k).min(0, n) < b.touched[k] {
			ok = false
			if t := k%(len(c.Types)+1) - 1; t >= 0 {
				b.badType[t] = true
			}
		}
	}
	return ok
}

// profKey indexes the profile of partition p, of CPU type t (-1: all).
func (s *Slurm) profKey(p, t int) int { return p*s.bf.ntypes + t + 1 }

// profileFor is the profile a job's reservation uses: its CPU type's in a
// partition of several types, else the partition's.
func (s *Slurm) profileFor(v *sim.View, x *cand) (*slotProfile, int) {
	k := s.profKey(x.part, -1)
	if x.req.Type >= 0 && s.bf.mixed[x.part] {
		k = s.profKey(x.part, x.req.Type)
	}
	return s.profileAt(v, k), k
}

// profileAt builds (once per pass) profile k's free cores: free now plus
// what running jobs release by each slot, on the partition's nodes (of one
// CPU type for a typed profile).
func (s *Slurm) profileAt(v *sim.View, k int) *slotProfile {
	b := &s.bf
	c := v.Cluster()
	if b.profOK[k] {
		return &b.profs[k]
	}
	p, typ := k/b.ntypes, k%b.ntypes-1
	vals := b.vals[:0]
	rel := b.lastRel[k][:0]
	for range b.nslots {
		vals = append(vals, 0)
		rel = append(rel, 0)
	}
	if typ < 0 {
		vals[0] = c.Parts[p].FreeCores
	} else {
		for _, n := range c.AppendFree(nil) {
			if c.Nodes[n].Type == typ && c.InPartition(p, n) {
				vals[0] += c.Nodes[n].FreeCores
			}
		}
	}
	v.EachHolding(func(r sim.Holding) {
		e := r.End
		slot := s.slot(e, true) // cores count as free from the first slot after the release
		if slot >= b.nslots {
			return
		}
		slot = max(slot, 1) // a job ending within slot 0 is still running at now
		got := false
		for _, sl := range r.Alloc {
			// A drained or failed node keeps what its jobs release.
			if c.InPartition(p, sl.Node) && (typ < 0 || c.Nodes[sl.Node].Type == typ) && c.Nodes[sl.Node].State.Usable() {
				vals[slot] += sl.Cores
				got = true
			}
		}
		if got {
			rel[slot] = max(rel[slot], e)
		}
	})
	b.lastRel[k] = rel
	for i := 1; i < len(vals); i++ {
		vals[i] += vals[i-1]
	}
	b.vals = vals
	b.profs[k].reset(vals)
	b.profOK[k] = true
	return &b.profs[k]
}

// bfCount applies bf_max_job_user/assoc/part: the counts of jobs examined
// per user, association or partition in this pass.
func (s *Slurm) bfCount(x *cand) bool {
	b := &s.bf
	j := x.j
	if s.P.BfMaxJobPart > 0 {
		if b.perPart[x.part]++; b.perPart[x.part] > s.P.BfMaxJobPart {
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
// by its partition's MaxTime; unlimited is one year (backfill.c
// _attempt_backfill caps time_limit by the partition's max_time, and plans
// INFINITE as YEAR_MINUTES).
func (s *Slurm) planLimit(c *sim.Cluster, x *cand) int64 {
	tl := x.j.TimeLimit
	if mt := c.Parts[x.part].MaxTime; mt != sim.Unlimited && (tl <= 0 || tl > mt) {
		tl = mt
	}
	if tl <= 0 {
		tl = 365 * 86400
	}
	return tl
}

// noReserve is Slurm's "test now only" (backfill.c _attempt_backfill: such
// a job may start now but gets no reservation): a QOS with NoReserve, a
// priority below the reserve threshold (the QOS MinPrioThreshold, else
// bf_min_prio_reserve), or eligible for less than bf_min_age_reserve.
func (s *Slurm) noReserve(v *sim.View, x *cand) bool {
	if s.qosNoReserve(x.j) || s.belowPrioReserve(x) {
		return true
	}
	return s.P.BfMinAgeReserve > 0 && v.Now()-x.j.EligibleTime < s.P.BfMinAgeReserve
}

func (s *Slurm) qosNoReserve(j *sim.Job) bool {
	return s.QOS != nil && j.QOSIdx >= 0 && s.QOS.NoReserve(j.QOSIdx)
}

// belowPrioReserve applies the QOS MinPrioThreshold, else
// bf_min_prio_reserve; the main scheduler honours it too.
func (s *Slurm) belowPrioReserve(x *cand) bool {
	th := s.P.BfMinPrioReserve
	if s.QOS != nil && x.j.QOSIdx >= 0 {
		if q := s.QOS.MinPrioThreshold(x.j.QOSIdx); q > 0 {
			th = q
		}
	}
	return th > 0 && x.prio < th
}

// ensure sizes the per-node and per-partition scratch for the cluster.
func (s *Slurm) ensure(c *sim.Cluster) {
	b := &s.bf
	if len(b.free) == len(c.Nodes) && b.ntypes == len(c.Types)+1 && len(b.mixed) == len(c.Parts) {
		return
	}
	b.ntypes = len(c.Types) + 1
	nprof := len(c.Parts) * b.ntypes
	b.mixed = make([]bool, len(c.Parts))
	for p := range c.Parts {
		for _, n := range c.Parts[p].Nodes {
			if c.Nodes[n].Type != c.Nodes[c.Parts[p].Nodes[0]].Type {
				b.mixed[p] = true
			}
		}
	}
	b.badType = make([]bool, len(c.Types))
	b.badNode = func(n int) bool { return b.badType[c.Nodes[n].Type] }
	b.free = make([]int, len(c.Nodes))
	b.mem = make([]int64, len(c.Nodes))
	b.gres = make([]int, len(c.Nodes))
	b.vstamp = make([]uint32, len(c.Nodes))
	b.stamp = make([]uint32, len(c.Nodes))
	b.profs = make([]slotProfile, nprof)
	b.profOK = make([]bool, nprof)
	b.lastRel = make([][]int64, nprof)
	b.touched = make([]int, nprof)
	b.perPart = make([]int, len(c.Parts))
	b.perUser = map[int32]int{}
	b.perAssoc = map[int]int{}
}

func (b *backfillState) anyBad() bool {
	for _, v := range b.badType {
		if v {
			return true
		}
	}
	return false
}

func (b *backfillState) clearBad() { clear(b.badType) }

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

// viewGres is node n's free GRES of the kinds in mask in the view.
func (b *backfillState) viewGres(c *sim.Cluster, n int, mask uint64) int {
	if b.vstamp[n] == b.vgen {
		return b.gres[n]
	}
	return c.FreeGres(n, mask)
}

// fitView tests whether j fits on the node-level view, and returns the
// nodes it would take: the fewest nodes, most usable cores first, then
// allocation order.
func (s *Slurm) fitView(c *sim.Cluster, x *cand) []int {
	b := &s.bf
	b.gen++
	req := &x.req
	part := &c.Parts[x.part]
	exclusive := req.Exclusive || part.Exclusive
	per := 1
	switch {
	case req.Nodes == 1:
		per = req.CPUs // -N1: one node must hold it all
	case req.Nodes > 1:
		per = (req.CPUs + req.Nodes - 1) / req.Nodes
	}
	b.pick = b.pick[:0]
	total, gtotal := 0, 0
	gmask, gper := req.GresMask(), req.GresPerNode()
	if req.Nodes == 1 {
		gper += req.GresPerJob()
	}
	// Nodes with free cores in the view: free now, or freed by a release.
	consider := func(n int) {
		if b.stamp[n] == b.gen || !c.InPartition(x.part, n) || (req.Type >= 0 && c.Nodes[n].Type != req.Type) || !c.Nodes[n].State.Usable() {
			return
		}
		b.stamp[n] = b.gen // each node once
		nd := &c.Nodes[n]
		k, mem := b.viewFree(c, n)
		if exclusive {
			if k != nd.Cores {
				return
			}
		} else {
			k = req.UsableCores(nd.Cores, nd.MemMB, k, mem)
		}
		if k < per || k <= 0 {
			return
		}
		if gmask != 0 {
			g := b.viewGres(c, n, gmask)
			if g < gper || g == 0 {
				return
			}
			gtotal += g
		}
		total += k
		b.pick = append(b.pick, uint64(1<<20-1-k)<<44|uint64(nd.Weight)<<24|uint64(n))
	}
	for _, n := range c.AppendFree(nil) {
		consider(n)
	}
	for _, n := range b.vnodes {
		consider(n)
	}
	if total < req.CPUs || len(b.pick) < max(req.Nodes, 1) || gtotal < req.GresPerJob() {
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
