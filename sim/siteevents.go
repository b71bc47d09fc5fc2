package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// SiteEvent is a change of a node's or a partition's state during a run,
// as an administrator's scontrol update or a node failure makes it.
type SiteEvent struct {
	// At is when it happens: seconds since the trace epoch, or with
	// FromFirst seconds after the first submission.
	At        int64
	FromFirst bool
	// Nodes are the nodes a node event changes to NodeState (NodeUp for
	// RESUME); empty for a partition event.
	Nodes     []int
	NodeState NodeState
	// Part is the partition a partition event changes to PartState, -1
	// for a node event.
	Part      int
	PartState PartState
	Reason    string
	// Line is the events file's line, for messages.
	Line int
	// ResvStart, when set (> 0), makes this the creation of a maintenance
	// reservation of Nodes from ResvStart to ResvEnd (same time base as
	// At): from At on no job whose time limit would cross ResvStart is
	// placed on those nodes; at ResvStart they go into NodeMaint, at
	// ResvEnd back UP.
	ResvStart, ResvEnd int64
	// Resv, with ResvStart set, makes the reservation one that is not
	// MAINT: its nodes (Nodes, or Resv.NodeCnt picked at At) run only the
	// jobs that ask for it from ResvStart to ResvEnd.
	Resv    *Reservation
	resvEnd bool // the end of a reservation: its nodes' protection lifts
	wake    bool // a reservation starts or ends: only a pass is due
}

// heldRes is what a node out of service keeps out of play.
type heldRes struct {
	cores int
	mem   int64
	gres  GresTake
}

// hold takes resources of node n out of play (they are neither free nor
// busy) while it allocates nothing.
func (c *Cluster) hold(n, cores int, mem int64, g GresTake) {
	nd := &c.Nodes[n]
	nd.held.cores += cores
	nd.held.mem += mem
	for p := range nd.Gres {
		nd.held.gres = nd.held.gres.with(p, nd.held.gres.At(p)+g.At(p))
	}
	c.DownCores += cores
	c.DownGPUs += c.gpusOf(n, g)
}

// holdFree takes node n's free resources out of play: its running jobs
// keep theirs, and give them to the hold when they end.
func (c *Cluster) holdFree(n int) {
	nd := &c.Nodes[n]
	var t GresTake
	for p, g := range nd.Gres {
		t = t.with(p, g.Free)
	}
	cores, mem := nd.FreeCores, nd.FreeMem
	c.take(n, -1, cores, mem, t)
	c.hold(n, cores, mem, t)
}

// SetNodeState changes node n's state, keeping the cluster's counters
// exact: a node leaving service holds its free resources (and, through
// give, those its jobs return), a node coming back frees what it held.
// Running jobs are not touched: the simulator ends those of a failed node.
func (c *Cluster) SetNodeState(n int, st NodeState) {
	c.touch(n)
	nd := &c.Nodes[n]
	was := nd.State.Usable()
	if c.hashing {
		c.nodeHash += nodeKey(n, nd.FreeCores, nd.FreeMem, st) - nodeKey(n, nd.FreeCores, nd.FreeMem, nd.State)
	}
	nd.State = st
	if st.Usable() {
		c.downBits[n>>6] &^= 1 << (n & 63)
	} else {
		c.downBits[n>>6] |= 1 << (n & 63)
	}
	switch {
	case was && !st.Usable():
		c.holdFree(n)
	case !was && st.Usable():
		h := nd.held
		nd.held = heldRes{}
		c.DownCores -= h.cores
		c.DownGPUs -= c.gpusOf(n, h.gres)
		c.give(n, -1, h.cores, h.mem, h.gres)
	}
}

// checkCounters recounts the cluster's counters from its nodes and
// jobs and says where they differ: the witness that state changes keep
// them exact. Running jobs and ended ones whose nodes are still
// COMPLETING hold their whole allocation; suspended jobs hold memory and
// GRES only.
func (c *Cluster) checkCounters(running, suspended, completing []*Job) error {
	busy := make([]heldRes, len(c.Nodes))
	for k, j := range slices.Concat(running, completing, suspended) {
		for _, s := range j.Alloc {
			b := &busy[s.Node]
			if k < len(running)+len(completing) {
				b.cores += s.Cores // a suspended job holds no cores
			}
			b.mem += s.MemMB
			for p := range c.Nodes[s.Node].Gres {
				b.gres = b.gres.with(p, b.gres.At(p)+s.Gres.At(p))
			}
		}
	}
	free, down, freeGPU, downGPU := 0, 0, 0, 0
	partFree := make([]int, len(c.Parts))
	tight := 0
	for n := range c.Nodes {
		nd := &c.Nodes[n]
		if nd.memTight() {
			tight++
		}
		if !nd.State.Usable() && (nd.FreeCores != 0 || nd.FreeMem != 0) {
			return fmt.Errorf("node %s is %s with %d cores and %d MB free", nd.Name, nd.State, nd.FreeCores, nd.FreeMem)
		}
		if down := c.downBits[n>>6]&(1<<(n&63)) != 0; down == nd.State.Usable() {
			return fmt.Errorf("node %s is %s and its down bit is %v", nd.Name, nd.State, down)
		}
		if nd.State.Usable() && nd.held != (heldRes{}) {
			return fmt.Errorf("node %s is %s and holds %+v", nd.Name, nd.State, nd.held)
		}
		if got := nd.FreeCores + nd.held.cores + busy[n].cores; got != nd.Cores {
			return fmt.Errorf("node %s: %d free + %d held + %d busy cores, it has %d", nd.Name, nd.FreeCores, nd.held.cores, busy[n].cores, nd.Cores)
		}
		if got := nd.FreeMem + nd.held.mem + busy[n].mem; got != nd.MemMB {
			return fmt.Errorf("node %s: %d MB free + held + busy, it has %d", nd.Name, got, nd.MemMB)
		}
		for p, g := range nd.Gres {
			if got := g.Free + nd.held.gres.At(p) + busy[n].gres.At(p); got != g.Count {
				return fmt.Errorf("node %s: GRES %d: %d free + held + busy, it has %d", nd.Name, p, got, g.Count)
			}
			if c.GresKinds[g.Kind].Name == "gpu" {
				freeGPU += g.Free
				downGPU += nd.held.gres.At(p)
			}
		}
		free += nd.FreeCores
		down += nd.held.cores
		for _, p := range nd.parts {
			partFree[p] += nd.FreeCores
		}
		bit := c.freeBits[nd.rank/64]&(1<<(nd.rank%64)) != 0
		if bit != (nd.FreeCores > 0) {
			return fmt.Errorf("node %s: free bit %v with %d free cores", nd.Name, bit, nd.FreeCores)
		}
	}
	switch {
	case free != c.FreeCores:
		return fmt.Errorf("FreeCores %d, recount %d", c.FreeCores, free)
	case down != c.DownCores:
		return fmt.Errorf("DownCores %d, recount %d", c.DownCores, down)
	case freeGPU != c.FreeGPUs:
		return fmt.Errorf("FreeGPUs %d, recount %d", c.FreeGPUs, freeGPU)
	case downGPU != c.DownGPUs:
		return fmt.Errorf("DownGPUs %d, recount %d", c.DownGPUs, downGPU)
	case tight != c.memTight:
		return fmt.Errorf("memTight %d, recount %d", c.memTight, tight)
	case c.hashing && c.nodeHash != c.recountNodeHash():
		return fmt.Errorf("NodeHash %x, recount %x", c.nodeHash, c.recountNodeHash())
	}
	for p := range c.Parts {
		if partFree[p] != c.Parts[p].FreeCores {
			return fmt.Errorf("partition %s: FreeCores %d, recount %d", c.Parts[p].Name, c.Parts[p].FreeCores, partFree[p])
		}
	}
	if err := c.fl.check(c.Nodes); err != nil {
		return err
	}
	set := 0
	for _, w := range c.freeBits {
		set += bits.OnesCount64(w)
	}
	if set > len(c.Nodes) {
		return fmt.Errorf("%d free bits for %d nodes", set, len(c.Nodes))
	}
	return nil
}

// armSites queues the site events once the first submission t0 is known,
// in time order (file order among equals).
func (s *Simulator) armSites(t0 int64) {
	s.sites = make([]SiteEvent, len(s.opt.Events))
	copy(s.sites, s.opt.Events)
	for i := range s.sites {
		if s.sites[i].FromFirst {
			s.sites[i].At += t0
			if s.sites[i].ResvStart > 0 {
				s.sites[i].ResvStart += t0
				s.sites[i].ResvEnd += t0
			}
		}
	}
	slices.SortStableFunc(s.sites, func(a, b SiteEvent) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	for i := range s.sites {
		s.heap.push(Event{T: s.sites[i].At, Kind: EvSite, Job: int32(i)})
	}
	s.sitesLeft = len(s.sites)
}

// site applies one site event.
func (s *Simulator) site(e *SiteEvent) {
	s.changed()
	if e.wake {
		s.wantPass(s.now)
		return
	}
	if e.ResvStart > 0 && e.Resv != nil {
		s.reserveFor(e)
		return
	}
	if e.ResvStart > 0 {
		s.reserve(e)
		return
	}
	if len(e.Nodes) == 0 {
		pt := &s.c.Parts[e.Part]
		pt.State = e.PartState
		if pt.State.Schedules() {
			s.wantPass(s.now)
		}
		return
	}
	for _, n := range e.Nodes {
		if e.resvEnd && s.c.resvFrom != nil {
			s.c.resvFrom[n] = noResv
		}
		if s.c.Nodes[n].State == e.NodeState {
			continue
		}
		s.c.SetNodeState(n, e.NodeState)
		if e.NodeState == NodeDown || e.NodeState == NodeFail {
			s.killOn(n)
		}
	}
	s.resumeSuspended()
	if e.NodeState.Usable() {
		s.wantPass(s.now)
	}
	// Site events are few: recounting after each keeps the engine honest
	// where node states change under running jobs.
	if err := s.c.checkCounters(s.running, s.suspended, s.completing); err != nil && s.err == nil {
		s.err = fmt.Errorf("after the site event of line %d at %d: %w", e.Line, s.now, err)
	}
}

// reserve creates a maintenance reservation (scontrol create reservation
// Flags=MAINT): its nodes take no job that would still run at its start,
// and go into maintenance from its start to its end, queued here as two
// node events of their own.
func (s *Simulator) reserve(e *SiteEvent) {
	c := s.c
	if c.resvFrom == nil {
		c.resvFrom = make([]int64, len(c.Nodes))
		for i := range c.resvFrom {
			c.resvFrom[i] = noResv
		}
	}
	for _, n := range e.Nodes {
		c.resvFrom[n] = min(c.resvFrom[n], e.ResvStart)
	}
	s.maint = append(s.maint, maintWindow{e.Nodes, e.ResvStart, e.ResvEnd})
	start := SiteEvent{At: e.ResvStart, Nodes: e.Nodes, NodeState: NodeMaint, Part: -1, Reason: e.Reason, Line: e.Line}
	end := SiteEvent{At: e.ResvEnd, Nodes: e.Nodes, NodeState: NodeUp, Part: -1, Reason: e.Reason, Line: e.Line, resvEnd: true}
	for _, ev := range []SiteEvent{start, end} {
		s.sites = append(s.sites, ev)
		s.heap.push(Event{T: ev.At, Kind: EvSite, Job: int32(len(s.sites) - 1)})
		s.sitesLeft++
	}
}

// noResv is a node's reservation start when it has none.
const noResv = int64(1) << 62

// killOn ends the jobs running on failed node n, in index order, as
// slurmctld's kill_running_job_by_node_ptr does: a batch job that may be
// requeued (JobRequeue=1, Slurm's default, and no --no-requeue) goes back
// to the queue; any other ends NODE_FAIL. fairsim does not model
// --no-kill, so a job of several nodes is killed whole.
func (s *Simulator) killOn(n int) {
	var victims []*Job
	for _, j := range s.running {
		for _, sl := range j.Alloc {
			if sl.Node == n {
				victims = append(victims, j)
				break
			}
		}
	}
	for k := 0; k < len(s.suspended); k++ {
		if j := s.suspended[k]; slices.ContainsFunc(j.Alloc, func(sl Slice) bool { return sl.Node == n }) {
			// A suspended job dies with its node too; it holds its
			// memory and GRES only.
			for _, sl := range j.Alloc {
				s.c.give(sl.Node, -1, 0, sl.MemMB, sl.Gres)
			}
			j.State = Running // ended below as a running job is
			j.runIdx = -1
			s.suspended = slices.Delete(s.suspended, k, k+1)
			k--
			victims = append(victims, j)
		}
	}
	slices.SortFunc(victims, func(a, b *Job) int { return a.Idx - b.Idx })
	for _, j := range victims {
		j.NodeFails++
		if j.runIdx >= 0 {
			s.removeRunning(j, true)
		}
		j.gen++ // its end event is now stale
		if s.pol != nil {
			s.pol.Ended(j, s.now)
		}
		if s.opt.NoRequeue {
			j.State = NodeFailed
			j.End = s.now
			j.Reason = fmt.Sprintf("node %s failed", s.c.Nodes[n].Name)
			s.finish(j)
			continue
		}
		s.requeue(j, true)
	}
	if len(victims) > 0 {
		// The killed jobs' surviving nodes report their epilogs, which
		// asks for a pass as a job's end does.
		s.released()
	}
	s.lastProgress = s.now
}

// requeue puts a job that was running back in the queue as Slurm does
// (job_mgr.c _job_requeue_op, then batch_requeue_fini): it is eligible
// again only Options.RequeueDelay (121 s) from now, its submit time is now
// (one second later if that is its submit time already, so its records
// differ) and its age starts afresh (accrue_time cleared; the policy is
// told through Requeuer).
func (s *Simulator) requeue(j *Job, nodeFail bool) {
	j.State = Pending
	j.Start, j.End = -1, -1
	j.Alloc = j.Alloc[:0]
	j.SuspendedSecs = 0
	j.susp = preemptState{}
	j.StartedBy = NotStarted
	j.TotalCPUs = 0 // _job_requeue_op clears total_cpus
	j.Accrue = NotAccruing
	submit := s.now
	if submit == j.Submit {
		submit++
	}
	j.SubmitShift += int32(min(submit-j.Submit, math.MaxInt32))
	j.Submit = submit
	j.gen++
	// Out of the pending list until it is eligible again: a scheduler
	// that kept its place there must not take it for the same stay
	// (EligSeq identifies one), though it is PENDING again.
	j.EligSeq = 0
	if r, ok := s.pol.(Requeuer); ok {
		r.Requeued(j, s.now, nodeFail)
	}
	s.push(Event{T: s.now + s.opt.RequeueDelay, Kind: EvEligible, Job: int32(j.Idx), Gen: j.gen})
}
