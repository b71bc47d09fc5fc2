package scheduler

import (
	"math/bits"
	"slices"

	"fairsim/sim"
)

// Slurm is slurmctld's scheduling: the main scheduler (job_scheduler.c
// _schedule) and the backfill scheduler (backfill.c), with preemption.
//
// Simplifications, each a deliberate reading of Slurm's code for a
// simulation (job_scheduler.c _schedule, backfill.c _attempt_backfill,
// preemption through slurm_preempt.c and the select plugin):
//   - Passes are instantaneous unless sim.backfill_tests_per_second gives
//     backfill a cost (BackfillBudget, BackfillDuration); max_sched_time
//     and RPC load do not exist in simulated time.
//   - sched_min_interval (µs) is below the simulator's one-second clock
//     unless it is a second or more.
//   - A job submitted to several partitions has one queue record (and one
//     priority) per partition and starts in the first that can run it;
//     jobs have one QOS, so there are no per-QOS records.
//   - Node selection is cons_tres's _eval_nodes (sim.TryAlloc) for jobs
//     without GRES, with GRES per node, or with one GRES over the job;
//     the other GRES jobs keep the simulator's documented best fit (see
//     the package doc), and there is no topology-aware selection.
//   - Backfill plans with backfill.c's node_space map of whole-node
//     reservations and a node-level will-run test; the differences that
//     remain from backfill.c are listed in the package doc.
//   - Preempted jobs release their resources at once; the preemptor starts
//     in a later pass (one second later), as in Slurm it starts once the
//     preempted jobs have left.
//   - Licenses and --time-min are not modelled; job arrays are the
//     trace's (sacct JobID 123_4), see the package doc.
type Slurm struct {
	P Params
	// QOS answers preempt/qos and QOS backfill questions (NoReserve,
	// MinPrioThreshold); nil without a QOS table.
	QOS QOSPreemption
	// ArrayOf, when set, is the job array a job is a task of (0: none),
	// for backfill's bf_max_job_array_resv and its rejected-array skip;
	// nil takes the trace's (workload.Job.ArrayJobID).
	ArrayOf func(j *sim.Job) int64
	// Estimates keeps every backfill cycle going to its end, for the
	// expected start of each record it tests (explain reads them); off,
	// a cycle ends once no record left can start in it (settled).
	Estimates bool
	// WholeNodeCPUs says the priority weighs a job's total_cpus
	// (PriorityWeightJobSize > 0), which select's will-run test sets for a
	// whole-node job to its nodes' CPUs: a cycle then reaches every
	// whole-node record, as backfill.c tests each, and not only those up
	// to the last record that could start now.
	WholeNodeCPUs bool
	// Trace, when set, is told each backfill cycle's beginning, starts
	// and reservations, the lines slurmctld logs with
	// DebugFlags=Backfill; its cycles then plan every record to their
	// end, as backfill.c does. The event's allocation is reused after
	// the call.
	Trace func(BackfillEvent)
	q     queue
	alloc sim.Alloc
	mask  []bool // nodes taken out of play in the current pass
	// provNodes and prov are scratch for the limit check on nodes a job
	// would get later (limitsOnLater).
	provNodes []int
	prov      sim.Alloc
	failed    []bool // partitions blocked in the current pass
	partCnt   []int
	// wholeJobs are the jobs the current main pass left whole_node on
	// (Plan.WholeNode): their later records of the pass take whole nodes.
	wholeJobs []*sim.Job
	// left is per partition nodesLeft's count, made when leftAt held the
	// pass's count of blocked partitions + 1 (the mask changes only as
	// partitions are blocked).
	left, leftAt []int

	bfVersion uint64
	bf        backfillState
	bfp       bfPreempt
	memo      fitMemo
	shapes    shapeIDs
	wr        wrMemo // will-run answers from cycle to cycle (wrmemo.go)
	cycle     uint64 // backfill cycles run
	// settledCycles counts cycles ended by settled, boundSkips the will-run
	// tests MayHaveCores spared (for tests and profiles).
	settledCycles, boundSkips int
}

// shapeKey identifies a request's shape: jobs of one shape in one
// partition fit or not alike.
type shapeKey struct {
	part, cpus, nodes, typ int
	// maxNodes is Request.MaxNodes: the partition's, but none for a job
	// asking a node count whose QOS lifts it (Flags=PartitionMaxNodes).
	// Placement reads it only without a node count, where every job of
	// the partition has the partition's; keyed all the same, so that
	// the memos never rest on that.
	maxNodes int
	// minNodes is Request.MinNodes: a partition's MinNodes spreads a job
	// without a node count.
	minNodes             int
	mem, memNode, memGPU int64
	limit                int64 // only where reservations make placement depend on it
	gres                 int32
	excl                 bool
	resv                 int32 // the reservation asked: it decides the nodes
}

// fitMemo remembers, within a pass and until the next start, where each
// request shape fits or that it does not: queues hold many jobs of the same
// shape, and a placement scans every free node.
type fitMemo struct {
	failed map[shapeKey]bool
	fits   map[shapeKey]sim.Alloc
	pool   []sim.Slice
}

func (m *fitMemo) reset() {
	if m.failed == nil {
		m.failed = map[shapeKey]bool{}
		m.fits = map[shapeKey]sim.Alloc{}
	}
	clear(m.failed)
	clear(m.fits)
	m.pool = m.pool[:0]
}

func keyOf(x *cand) shapeKey {
	r := &x.req
	k := shapeKey{x.part, r.CPUs, r.Nodes, r.Type, r.MaxNodes, r.MinNodes, r.MemPerCPU, r.MemPerNode, r.MemPerGPU, 0, r.GresID, r.Exclusive, r.Resv}
	if x.resv {
		k.limit = r.Limit
	}
	return k
}

// tryAlloc is TryAllocExcept through the memo; a start must call
// s.memo.reset().
func (s *Slurm) tryAlloc(c *sim.Cluster, x *cand, mask []bool) sim.Fit {
	k := keyOf(x)
	if memoOff {
		var fit sim.Fit
		s.alloc, fit = c.TryAllocExcept(&x.req, x.part, mask, s.alloc[:0])
		return fit
	}
	if s.memo.failed[k] {
		return sim.NotNow
	}
	if a, ok := s.memo.fits[k]; ok {
		s.alloc = append(s.alloc[:0], a...)
		return sim.FitsNow
	}
	var fit sim.Fit
	s.alloc, fit = c.TryAllocExcept(&x.req, x.part, mask, s.alloc[:0])
	if fit != sim.FitsNow {
		s.memo.failed[k] = true
	} else {
		start := len(s.memo.pool)
		s.memo.pool = append(s.memo.pool, s.alloc...)
		s.memo.fits[k] = s.memo.pool[start:len(s.memo.pool):len(s.memo.pool)]
	}
	return fit
}

// NewSlurm returns the Slurm scheduler with the given parameters.
func NewSlurm(p Params) *Slurm { return &Slurm{P: p} }

// Name implements sim.Scheduler.
func (*Slurm) Name() string { return "slurm" }

// Triggers implements sim.Scheduler as slurmctld 22.05 triggers passes
// (see sim.Triggers): submits queue a pass the background loop runs once
// batch_sched_delay has passed since its previous one
// (controller.c _slurmctld_background); a job's release runs one at once
// through schedule(), or queues one under defer
// (proc_req.c _slurm_rpc_epilog_complete); full passes every
// sched_interval; passes at least sched_min_interval apart
// (job_scheduler.c _sched_agent); backfill bf_interval after the previous
// cycle ended (backfill.c backfill_agent).
func (s *Slurm) Triggers() sim.Triggers {
	t := sim.Triggers{SubmitDelay: s.P.BatchSchedDelay, OnEnd: true, Defer: s.P.Defer, MinInterval: s.P.SchedMinInterval}
	if s.P.SchedInterval > 0 {
		t.Interval = s.P.SchedInterval
	}
	if s.P.BackfillEnabled && s.P.BfInterval > 0 {
		t.BackfillInterval = s.P.BfInterval
	}
	if s.P.SchedInterval < 0 {
		t.SubmitDelay, t.OnEnd = -1, false
	}
	return t
}

// Schedule implements sim.Scheduler.
func (s *Slurm) Schedule(v *sim.View, kind sim.PassKind) *sim.Plan {
	p := v.Plan()
	if kind == sim.PassBackfill {
		s.backfill(v, p)
	} else {
		s.main(v, p, kind == sim.PassFull)
	}
	return p
}

func (s *Slurm) scratch(c *sim.Cluster) {
	if len(s.mask) != len(c.Nodes) {
		s.mask = make([]bool, len(c.Nodes))
	}
	if len(s.failed) != len(c.Parts) {
		s.failed = make([]bool, len(c.Parts))
		s.partCnt = make([]int, len(c.Parts))
		s.left, s.leftAt = make([]int, len(c.Parts)), make([]int, len(c.Parts))
	}
	clear(s.leftAt)
	clear(s.mask)
	clear(s.failed)
	clear(s.partCnt)
	s.wholeJobs = s.wholeJobs[:0]
}

// mayTurnWhole reports whether a main pass's try of job j in an
// OverSubscribe=EXCLUSIVE partition would leave whole_node on it
// (select_nodes' _resolve_shared_status), which the job's later records
// of the pass then see: a job of several partitions, one of them
// EXCLUSIVE, not yet whole-node.
func mayTurnWhole(c *sim.Cluster, j *sim.Job) bool {
	if len(j.Parts) < 2 || j.WholeNode() || j.Job.Exclusive {
		return false
	}
	for _, p := range j.Parts {
		if c.Parts[p].Exclusive {
			return true
		}
	}
	return false
}

// main is one main-scheduler pass (job_scheduler.c _schedule): records in
// queue order; the first record of a partition that cannot start for lack
// of resources blocks the partition for the rest of the pass and takes its
// nodes out of play, so overlapping partitions cannot use them either.
func (s *Slurm) main(v *sim.View, plan *sim.Plan, full bool) {
	c := v.Cluster()
	jobs := s.q.sync(v)
	s.scratch(c)
	s.memo.reset()
	nFailed, depth, started := 0, 0, 0
	for _, r := range jobs {
		if v.Placed(r.Job) {
			continue // started from an earlier record of the same job
		}
		if s.P.SchedMaxJobStart > 0 && started >= s.P.SchedMaxJobStart {
			break
		}
		x := candOf(c, r)
		j, p := x.j, x.part
		if len(s.wholeJobs) > 0 && slices.Contains(s.wholeJobs, j) {
			x.req.Exclusive = true // an earlier record of the pass left whole_node
		}
		if v.ArrayThrottled(j) {
			plan.Pend(j, sim.ReasonArrayTaskLimit)
			continue // not in slurmctld's queue: no depth counts it
		}
		if s.P.PartitionJobDepth > 0 {
			s.partCnt[p]++
			if s.partCnt[p] > s.P.PartitionJobDepth {
				plan.Pend(j, "Priority")
				continue
			}
		}
		if !full {
			if depth > s.P.DefaultQueueDepth { // Slurm tests depth++ > depth: depth+1 records
				break
			}
			depth++
		}
		if s.failed[p] {
			plan.Pend(j, "Priority")
			continue
		}
		if st := c.Parts[p].State; !st.Schedules() {
			plan.Pend(j, partStateReason(st))
			continue // a partition that starts nothing blocks nothing
		}
		if why := v.HoldFor(j, p); why != "" {
			plan.Pend(j, why)
			if !s.P.AssocLimitStop || why == sim.ReasonArrayTaskLimit {
				continue // limit-held jobs do not block their partition
			}
		} else {
			if nFailed > 0 && s.nodesLeft(c, p, nFailed) < x.req.MinNodeCount() {
				// _schedule, before select_nodes: fewer nodes of the
				// partition left than the job's min_nodes ("reserved for
				// jobs in higher priority partitions"): Resources, and the
				// partition is blocked, with no selection made.
				plan.Pend(j, "Resources")
				goto blocked
			}
			if c.Parts[p].Exclusive && mayTurnWhole(c, j) && !slices.Contains(s.wholeJobs, j) {
				// select_nodes' _resolve_shared_status: whole_node, for
				// good (the differential run exclusive-list2).
				plan.WholeNode(j)
				s.wholeJobs = append(s.wholeJobs, j)
			}
			mask := s.mask
			if nFailed == 0 {
				mask = nil // nothing out of play: placement may take its fast path
			}
			fits := s.tryAlloc(c, &x, mask) == sim.FitsNow
			if fits {
				if why := v.HoldOn(j, p, s.alloc); why != "" {
					// select_nodes: ESLURM_ACCOUNTING_POLICY after selection
					// (the whole nodes of an --exclusive job count).
					plan.Pend(j, why)
					if !s.P.AssocLimitStop {
						continue
					}
					goto blocked
				}
				if err := plan.Start(j, p, s.alloc, sim.ByMain); err != nil {
					panic("slurm: " + err.Error()) // TryAlloc and Start disagree: a bug
				}
				s.memo.reset()
				started++
				continue
			}
			if preempted, now, why := s.preemptFor(v, plan, &x); why != "" {
				plan.Pend(j, why)
				if !s.P.AssocLimitStop {
					continue
				}
			} else if now {
				s.memo.reset()
				started++
				continue
			} else if preempted {
				plan.Pend(j, "Resources (preemption in progress)")
				s.memo.reset()
			} else if why := s.limitsOnBusy(v, c, &x); why != "" {
				// select_nodes checks the limits on its test-only
				// selection too (whole nodes for --exclusive): an
				// accounting-policy failure replaces Resources and, as
				// for any limit, blocks nothing without assoc_limit_stop.
				plan.Pend(j, why)
				if !s.P.AssocLimitStop {
					continue
				}
			} else if nFailed > 0 && notAvail(c, &x, s.mask) {
				// _pick_best_nodes: not runnable on the nodes the pass
				// left it, idle, none busy: ESLURM_NODE_NOT_AVAIL,
				// which blocks nothing (job_scheduler.c).
				plan.Pend(j, "ReqNodeNotAvail")
				continue
			} else {
				plan.Pend(j, "Resources")
			}
		}
	blocked:
		block := true
		if s.P.BfMinAgeReserve > 0 && v.Now()-j.EligibleTime < s.P.BfMinAgeReserve {
			block = false
		}
		if s.belowPrioReserve(&x) {
			block = false
		}
		if block {
			s.failed[p] = true
			nFailed++
			if nFailed == len(c.Parts) {
				// Every partition is blocked: the rest of the queue can
				// only be marked as waiting on priority. The pass ends,
				// so no later record reads the mask (with one partition
				// of 5,544 nodes, marking them was 2 % of a CEA-Curie run).
				break
			}
			for _, n := range c.Parts[p].Nodes {
				s.mask[n] = true
			}
		}
	}
}

// nodesLeft is how many of partition p's nodes in service the main pass
// has not taken out (mask) once nFailed partitions are blocked:
// _schedule's bit_overlap(avail_node_bitmap, part nodes), which it
// compares with the job's min_nodes. Counted once per partition and
// count of blocked partitions: a pass of many records reads it often.
func (s *Slurm) nodesLeft(c *sim.Cluster, p, nFailed int) int {
	if s.leftAt[p] == nFailed+1 {
		return s.left[p]
	}
	k := 0
	for _, n := range c.Parts[p].Nodes {
		if !s.mask[n] && c.Nodes[n].State.Usable() {
			k++
		}
	}
	s.left[p], s.leftAt[p] = k, nFailed+1
	return k
}

// notAvail reports whether x could not run even idle on the nodes its
// partition has left in a main pass that took others out (mask), with
// none of them busy: select_nodes' ESLURM_NODE_NOT_AVAIL.
func notAvail(c *sim.Cluster, x *cand, mask []bool) bool {
	runnable, busy := c.RunnableOn(&x.req, x.part, mask)
	return !runnable && !busy
}

// partStateReason is the pending reason of a job whose partition does not
// schedule (slurm_protocol_defs.c: WAIT_PART_DOWN, WAIT_PART_INACTIVE).
func partStateReason(st sim.PartState) string {
	if st == sim.PartInactive {
		return "PartitionInactive"
	}
	return "PartitionDown"
}

// limitsOnBusy is the limit check select_nodes makes for an --exclusive
// job that cannot start now: on the whole nodes its test-only selection
// would give (node_scheduler.c, tres_req_cnt from total_cpus), here the
// partition's usable nodes in allocation order until they hold its CPUs
// and node count. A job sharing nodes counts its request, billing
// included, checked before (View.HoldFor), or, asking no memory, with the
// memory select_nodes counts without nodes (View.HoldBusy).
func (s *Slurm) limitsOnBusy(v *sim.View, c *sim.Cluster, x *cand) string {
	if !v.EnforcesLimits() {
		return ""
	}
	if !x.req.Exclusive {
		if x.req.MemPerCPU == sim.MemWholeNode || x.req.MemPerCPU == sim.MemCoreShare {
			// Asking no memory, the request counts more without nodes
			// than before selection (multifactor reqLimitTRES).
			return v.HoldBusy(x.j, x.part)
		}
		return ""
	}
	nodes, cores := s.provNodes[:0], 0
	for _, n := range c.Parts[x.part].Nodes {
		nd := &c.Nodes[n]
		if !nd.State.Usable() || x.req.Type >= 0 && nd.Type != x.req.Type {
			continue
		}
		nodes = append(nodes, n)
		cores += nd.Cores
		if cores >= x.req.CPUs && len(nodes) >= x.req.MinNodeCount() {
			break
		}
	}
	s.provNodes = nodes
	if cores < x.req.CPUs || len(nodes) < x.req.MinNodeCount() {
		return "" // no selection at all: not a limit's doing
	}
	s.prov = c.Provisional(&x.req, nodes, s.prov[:0])
	return v.HoldOn(x.j, x.part, s.prov)
}

// limitsOnLater is backfill.c's check before it adds a reservation
// (acct_policy_job_runnable_post_select on the nodes the will-run test
// chose, whole nodes for --exclusive): a job those nodes put over a limit
// gets no reservation. nodes is the reservation's node bitmap.
func (s *Slurm) limitsOnLater(v *sim.View, c *sim.Cluster, x *cand, nodes []uint64) string {
	if !v.EnforcesLimits() || s.P.AssocLimitStop {
		return ""
	}
	list := s.provNodes[:0]
	for w, word := range nodes {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			list = append(list, w*64+b)
		}
	}
	s.provNodes = list
	if len(list) == 0 {
		return ""
	}
	s.prov = c.Provisional(&x.req, list, s.prov[:0])
	return v.HoldOn(x.j, x.part, s.prov)
}
