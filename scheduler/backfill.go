package scheduler

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"fairsim/policy"
	"fairsim/sim"
)

// backfillState is per-pass scratch (kube's CycleState idea): rebuilt at
// the start of every pass, never carried between passes.
type backfillState struct {
	// preempted are the nodes this cycle's preemptions free: their
	// victims complete first (slurmctld requeues or cancels them, and
	// their nodes stay COMPLETING), so a later record that fits on them
	// is planned for now + 1, as on any completing node. nil when the
	// cycle preempted nothing.
	preempted []bool
	ns        nodeSpace
	words     int        // bitmap words for the cluster's nodes
	member    [][]uint64 // per partition: its nodes
	usable    []uint64   // nodes that allocate, this pass
	base      []uint64   // the record's partition nodes that allocate (partBase's: read only)
	// partBase is per partition its nodes that allocate, made once a
	// cycle (partBaseAt): every record of the partition starts from them.
	partBase   [][]uint64
	partBaseAt []uint64
	avail      []uint64 // base less the nodes reservations hold over the job's run
	nodes      []uint64 // the nodes of an allocation
	// nodesSet says nodes holds s.alloc's nodes: planJob left them
	// there with the start it found, and the reservation needs them.
	nodesSet bool
	pastAt   int64        // planJob's start past bf_window (pastWindow)
	rel      sim.Releases // expected releases, by (End, job index)
	// relFP is the fingerprint of the cluster and holders rel was last
	// made from; relDirty says a start or preemption changed rel since.
	relFP    uint64
	relDirty bool
	hs       []sim.Holding // scratch for rel
	x, sx    cand          // the record a cycle plans, and the one settled tests
	// pk is the key of failed being asked: a local one would move to the
	// heap, as the tables hash through a func value. pkHash is its hash,
	// for the tables that pk is asked of.
	pk     planKey
	pkHash uint64

	perUser     map[int32]int
	perAssoc    map[int]int
	perPart     []int
	perUserPart map[[2]int32]int
	arrResv     map[int64]int // reservations made per job array this pass
	// partResv counts each partition's reservations this pass, for
	// bf_job_part_count_reserve.
	partResv []int
	// est is, for jobs of several partitions, the earliest start a
	// record of this pass expected (backfill.c keeps the earliest across
	// a job's partitions; bf_one_resv_per_job tests its later records
	// now only).
	est map[*sim.Job]int64
	// running is scratch for bf_running_job_reserve's holders.
	running []sim.Holding
	// gen changes with every start and reservation of the pass; failed
	// remembers the record shapes that found no start at a generation,
	// as queues hold many records of one shape.
	gen0 uint64
	// cands are the records that could start now at all, by position;
	// those before front are settled (settled), checked the generation
	// last settled.
	cands []int
	// candKeys and candHash are the cands' keys in blocked and their
	// hashes, made by the scan that found them: settled skips record
	// after record of a blocked shape, and building the key again read
	// each record's job.
	candKeys []blockKey
	candHash []uint64
	front    int
	checked  uint64
	// The allocation the record at frontAt fitted now with, for its
	// limit frontTL, with the map's first frontResv reservations.
	frontAt    int
	frontTL    int64
	frontPart  int // the front record's partition, whose MaxCPUsPerNode its allocation met
	frontResv  int
	frontAlloc sim.Alloc
	blocked    keyTable[blockKey, bool] // shapes and limits settled this cycle
	// heldAt is the first record held by a limit at or after heldScan
	// (len(jobs): none), found since the last start (heldScan -1: not
	// looked for); heldFrom keeps it.
	heldAt, heldScan int
	failed           keyTable[planKey, planFail]
	moves            moveChains // the tries of the last record of each key (bfreplay.go)
	relKeys          []relKey   // scratch for sortByRelease
	relWords         []uint64   // scratch for sortByRelease's packed keys
	relTmp           []sim.Holding

	// A node-level view of now, for preemption.
	free []int
	mem  []int64
	gres []int // free GRES of the kinds the preemptor asks
	// capLeft is the CPUs the preemptor's partition's MaxCPUsPerNode
	// leaves it on each node (its jobs preempted give theirs back).
	capLeft []int
	vstamp  []uint32
	vgen    uint32
	vnodes  []int
	stamp   []uint32
	gen     uint32
	pick    []uint64
}

// backfill is one backfill pass (backfill.c _attempt_backfill). Its only
// effect on the schedule is the jobs it starts now; reservations for jobs
// that cannot start protect them from later jobs.
//
// The plan is backfill.c's node_space map (nodeSpace): records on the
// bf_resolution grid over bf_window, each with the nodes no reservation
// holds then. A record is tried on the nodes of its partition free of
// reservations over its whole run [start, start + limit]; the will-run
// test (sim.Cluster.WillRun, as cons_tres's _will_run_test) then finds
// when and where it fits there, counting cores, memory and GRES, with
// running jobs and this pass's starts giving theirs back at start + time
// limit. A job that fits now starts; one that fits later reserves the
// whole nodes chosen for it from its start to its end, both rounded down
// to bf_resolution (_add_reservation). Reservations are made only up to
// the last job that could start now at all, or held by a limit: past it,
// a pass could change nothing but estimates.
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
	clear(b.perUserPart)
	clear(b.arrResv)
	clear(b.partResv)
	clear(b.est)
	b.failed.reset()
	b.blocked.reset()
	b.moves.reset()
	b.gen0++

	// Which records could start now at all, ignoring reservations: the
	// last of them bounds the pass (a record after it could only reserve).
	s.memo.reset()
	last := -1
	b.cands = b.cands[:0]
	b.candKeys, b.candHash = b.candKeys[:0], b.candHash[:0]
	settle := !s.Estimates && s.Trace == nil && s.P.BfTestsPerSec <= 0
	keyed := settle // settled reads candKeys only while settle holds
	s.shapes.scan++
	resv := c.HasReservations()
	// The last whole-node record, when its test sets a total_cpus the
	// priority weighs (WholeNodeCPUs): the cycle must reach it.
	lastWhole := -1
	for i := range jobs {
		r := &jobs[i]
		// The job and partition are what the free-core check, preemption
		// and the planned limit read; the request only scanFits builds.
		x := cand{j: r.Job, part: r.Part()}
		if s.WholeNodeCPUs && (x.j.Req.Exclusive || c.Parts[x.part].Exclusive) {
			lastWhole = i
		}
		fits := c.Parts[x.part].FreeCores >= x.j.CPUs && s.scanFits(c, r, resv)
		if fits || s.bfMayPreempt(v, plan, &x) {
			last = i
			b.cands = append(b.cands, i)
			if keyed {
				k := blockKey{s.shapes.id(c, r, resv), s.bfLimit(c, &x)}
				b.candKeys = append(b.candKeys, k)
				b.candHash = append(b.candHash, hashBlockKey(&k))
			}
			settle = settle && fits && !s.preemptible()
		}
	}
	if planAll || s.Trace != nil {
		last = len(jobs) - 1
	}
	last = max(last, lastWhole)
	if s.Trace != nil {
		s.Trace(BackfillEvent{Kind: CycleBegins, Now: v.Now()})
	}
	b.heldScan = -1
	if last < 0 && !s.heldFrom(v, jobs, 0) {
		return // nothing to start, no pending reason to set
	}
	res := s.P.BfResolution
	now := v.Now()
	c.UsableNodes(b.usable)
	wall := c.Wall()
	b.ns.reset(b.words, floorRes(now, res, wall), floorRes(now+s.P.BfWindow, res, wall), b.usable)
	b.hs = v.Holdings(b.hs[:0])
	if s.P.BfRunningJobReserve {
		s.reserveRunning(c, b.hs)
	}
	// A cycle whose cluster and holders are those the releases were made
	// from, with no start or preemption since (relDirty), keeps them:
	// sorting and resetting them again gives the same (37 % of CEA-Curie's
	// cycles follow only a submission or a priority tick).
	fp := fingerprint(c, b.hs)
	if fp == 0 || fp != b.relFP || b.relDirty {
		b.sortByRelease(b.hs)
		b.rel.Reset(b.hs) // will-run tests move its shadows, never the cluster
		b.relFP, b.relDirty = fp, false
	}
	// Every will-run test of the pass is given b.avail, cut from its
	// partition's usable nodes (base): the test may take it as it is.
	b.rel.Cut = true
	s.cycle++
	s.wr.fp, s.wr.stale = fp, false // rel's holders are b.hs's (fingerprint is order-free)

	tested, started := 0, 0
	// The cost model (off by default): a cycle tests at most budget jobs
	// and lasts as long as its tests took.
	budget := s.P.BackfillBudget()
	defer func() {
		if d := s.P.BackfillDuration(tested); d > 0 {
			plan.Duration = d
		}
	}()
	var arrRej int64 // the array whose last task tried got nothing (backfill.c reject_array_job)
	arrRejPart := -1
	// The array whose task the record before started or reserved: its
	// next task is backfill.c's "goto next_task", which skips the limit
	// check before the counting (acct_policy_job_runnable_pre_select).
	var contArr int64
	contPart := -1
	// contResv is the task that record reserved for (nil when it
	// started), with its expected start and CPUs: slurmctld keeps an
	// array's pending tasks in one record, so the task a next test starts
	// is the array's first pending one, this one (arrayFirst).
	var contResv *sim.Job
	var contResvAt int64
	var contResvCPUs int
	b.front, b.checked, b.frontAt = 0, b.gen0-1, -1
	b.preempted = nil
	for i, r := range jobs {
		if settle && b.checked != b.gen0 && i > lastWhole {
			// Every start and reservation may be the one that leaves no
			// later record a start now.
			b.checked = b.gen0
			if s.settled(v, jobs, i, last) {
				s.settledCycles++
				return
			}
		}
		// bf_max_job_test counts the records that reached the will-run
		// test (backfill.c bf_last_depth_try), not queue positions.
		if tested >= s.P.BfMaxJobTest || (budget >= 0 && tested >= budget) {
			break
		}
		if i > last && !s.heldFrom(v, jobs, i) {
			// Past the last record that could start now, the records only
			// reserve; a held one still gets its pending reason.
			break
		}
		if v.Placed(r.Job) {
			continue
		}
		if s.P.BfMaxJobStart > 0 && started >= s.P.BfMaxJobStart {
			break
		}
		x := &b.x // reused: a cand of its own would move to the heap each record
		*x = candOf(c, r)
		j := x.j
		arr := s.arrayOf(j)
		if arr != 0 && b.arrResv[arr] >= max(s.P.BfMaxJobArrayResv, 1) {
			continue // _job_runnable_now: the array has its reservations
		}
		cont := arr != 0 && arr == contArr && x.part == contPart
		contArr = 0
		prevResv := contResv
		contResv = nil
		if !cont {
			prevResv = nil
		}
		if why := v.HoldFor(j, x.part); why != "" {
			plan.Pend(j, why)
			if cont && why == sim.ReasonArrayTaskLimit {
				// The array reached its throttle with the task this
				// cycle started: goto next_task counted the record
				// (job_test_count), then job_array_start_test refused it
				// before any other count.
				tested++
				arrRej, arrRejPart = arr, x.part
			} else if cont {
				// The next task of an array went past the counting and
				// the will-run test to _start_job, whose limit check held
				// it: it counts for bf_max_job_test and bf_max_job_user,
				// and the array's tasks after it wait for the next cycle
				// (a differential run: the third task of an array held
				// by MaxJobsPU=2 made bf_max_job_user=3 skip its user's
				// next job).
				s.bfCount(x)
				tested++
				arrRej, arrRejPart = arr, x.part
			}
			continue // limit-held: no reservation, blocks nobody, not counted
		}
		if arr != 0 {
			if arr == arrRej && x.part == arrRejPart {
				continue // backfill.c: "already rejected array element"
			}
			arrRej, arrRejPart = arr, x.part
		}
		if !s.bfCount(x) {
			continue
		}
		if !c.Parts[x.part].State.Schedules() {
			continue // backfill.c: "partition not usable"
		}
		tl := s.bfLimit(c, x)
		// Every reservation within bf_window is made, however far past
		// the limits of the records that could still start now: it
		// shapes where the records after it reserve, and those
		// reservations decide the starts.
		horizon := now + s.P.BfWindow
		nowOnly := s.noReserve(v, x) || s.reserveSpent(x)
		key := &b.pk
		*key = planKey{s.shapes.id(c, &jobs[i], x.resv), tl, horizon, nowOnly, s.preemptKey(x)}
		b.pkHash = hashPlanKey(key)
		past := s.estimatesPast(c, x, nowOnly)
		if f, ok := b.failed.getHashed(key, b.pkHash); ok && f.gen == b.gen0 && !memoOff && !past {
			if f.counted {
				tested++ // the same test on the same map: the same failure
			}
			continue
		}
		t, counted := s.planJobPreempt(v, plan, x, tl, nowOnly, horizon)
		if counted {
			tested++
		}
		if t >= 0 && t <= now {
			if why := v.HoldOn(j, x.part, s.alloc); why != "" {
				// _start_job → select_nodes: ESLURM_ACCOUNTING_POLICY
				// after selection (whole nodes counted); without
				// assoc_limit_stop the job is skipped, no reservation.
				// Its selection went through _resolve_shared_status.
				if c.Parts[x.part].Exclusive && mayTurnWhole(c, j) {
					plan.WholeNode(j)
				}
				plan.Pend(j, why)
				t = heldByLimit
				// A preemption may have suspended victims for it: the
				// failures remembered so far saw fewer free cores.
				b.gen0++
			}
		}
		if t == heldByLimit {
			continue // held by this job's limits, not by its shape: not memoised
		}
		if t == pastWindow {
			// backfill.c: "StartTime set to time after current backfill
			// window. No reservation created": the start stays the
			// job's (or an earlier one of its partitions'), and the
			// test's total_cpus with it. Not a failure of the shape:
			// another job's record of it has its own start to keep.
			if s.earliest(x.j, b.pastAt) {
				plan.Expect(j, b.pastAt, testedCPUs(c, &x.req, b.nodes))
			}
			continue
		}
		if t < 0 {
			b.failed.putHashed(key, b.pkHash, planFail{b.gen0, counted})
		} else {
			b.gen0++
		}
		switch {
		case t < 0:
			continue
		case t <= now:
			sj := j
			if prevResv != nil && s.arrayFirst(c, prevResv, x, tl) {
				// The array's record got its reservation in the test
				// before and starts now: as its first pending task,
				// which the reservation then leaves to this one.
				sj = prevResv
				plan.Expect(j, contResvAt, contResvCPUs)
			}
			if err := plan.Start(sj, x.part, s.alloc, sim.ByBackfill); err != nil {
				panic("slurm backfill: " + err.Error())
			}
			s.started(v, plan, x)
			started++
			arrRej = 0
			contArr, contPart = arr, x.part
			if s.Trace != nil {
				s.Trace(BackfillEvent{Kind: Started, Now: now, Job: sj, Part: x.part, Start: now, Alloc: s.alloc})
			}
		default:
			if !b.nodesSet {
				b.nodesOf(s.alloc)
				b.nodesSet = true
			}
			cpus := testedCPUs(c, &x.req, b.nodes)
			if why := s.limitsOnLater(v, c, x, b.nodes); why != "" {
				// backfill.c: no reservation, but the test's start_time
				// stays the job's, even where another partition's was
				// earlier (this path skips the orig_start_time check):
				// under bf_one_resv_per_job its later records test now
				// only.
				plan.Pend(j, why)
				plan.Expect(j, t, cpus)
				if len(x.j.Parts) > 1 {
					b.est[x.j] = t
				}
				continue
			}
			if s.earliest(x.j, t) {
				plan.Expect(j, t, cpus)
			}
			noResv := s.qosNoReserve(x.j)
			if arr != 0 && !noResv {
				contResv, contResvAt, contResvCPUs = j, t, cpus
			}
			if s.Trace != nil {
				s.Trace(BackfillEvent{Kind: Reserved, Now: now, Job: j, Part: x.part, Start: t, End: floorRes(t+tl, res, wall), Alloc: s.alloc})
			}
			if noResv {
				// A NoReserve QOS: the estimate stands (and is logged,
				// as the trace has it), but backfill.c adds no
				// reservation, and an array's rejected task stays
				// rejected.
				continue
			}
			if b.ns.full(s.nodeSpaceSize()) {
				return // backfill.c: "table size limit reached"
			}
			if !b.nodesSet {
				b.nodesOf(s.alloc)
			}
			b.ns.add(floorRes(t, res, wall), floorRes(t+tl, res, wall), res, b.nodes)
			b.partResv[x.part]++
			arrRej = 0
			contArr, contPart = arr, x.part
			if arr != 0 {
				b.arrResv[arr]++
			}
		}
	}
}

// settled reports whether no record from i on can start in this cycle:
// every record that could start now at all (b.cands) fails the test of
// now on the nodes the reservations so far leave it, and none is held by
// a limit (a held record's pending reason is the one thing a cycle sets
// beyond starts and expected starts). Reservations only grow within a
// cycle and starts only take resources, so a record that fails that test
// once fails it for the rest of the cycle; the rest of the cycle could
// only make reservations, whose one effect is each job's expected start.
func (s *Slurm) settled(v *sim.View, jobs []Record, i, last int) bool {
	b := &s.bf
	c := v.Cluster()
	now := v.Now()
	for ; b.front < len(b.cands); b.front++ {
		k := b.cands[b.front]
		if k < i || v.Placed(jobs[k].Job) {
			continue
		}
		if b.frontAt == b.front && b.stillFits(c, now) {
			return false
		}
		key, h := &b.candKeys[b.front], b.candHash[b.front]
		if blocked, _ := b.blocked.getHashed(key, h); blocked {
			continue // a record of the same shape and limit failed already
		}
		x := &b.sx
		*x = candOf(c, jobs[k])
		tl := key.tl
		b.base = b.baseOf(x.part, s.cycle)
		copy(b.avail, b.base)
		if _, ok := b.ns.availOver(b.avail, now, now+tl, x.req.MinNodeCount()); !ok {
			continue
		}
		var fit sim.Fit
		s.alloc, _, fit = c.WillRun(&x.req, x.part, b.avail, &b.rel, now-1, s.alloc[:0])
		if fit == sim.FitsNow {
			b.frontAt, b.frontTL, b.frontResv, b.frontPart = b.front, tl, len(b.ns.resv), x.part
			b.frontAlloc = append(b.frontAlloc[:0], s.alloc...)
			return false
		}
		b.blocked.putHashed(key, h, true)
	}
	return !s.heldFrom(v, jobs, i)
}

// heldFrom reports whether a record from i on is held by a limit now
// (its pending reason is set by the cycle that reaches it). Holds change
// only with starts, which drop what was found, and i only grows within a
// cycle: the queue is read about once between starts.
func (s *Slurm) heldFrom(v *sim.View, jobs []Record, i int) bool {
	b := &s.bf
	if b.heldScan < 0 || b.heldScan > i || b.heldAt < i {
		b.heldScan, b.heldAt = i, len(jobs)
		for k := i; k < len(jobs); k++ {
			if j := jobs[k].Job; !v.Placed(j) && v.HoldFor(j, jobs[k].Part()) != "" {
				b.heldAt = k
				break
			}
		}
	}
	return b.heldAt < len(jobs)
}

// stillFits reports whether the allocation the front record last fitted
// now still fits: no reservation made since meets its nodes over its
// run, and its nodes still have the cores and memory free. Then the
// record can still start now; otherwise only its full test says.
func (b *backfillState) stillFits(c *sim.Cluster, now int64) bool {
	if b.ns.meets(b.frontAlloc, b.frontResv, now, now+b.frontTL) {
		return false
	}
	for _, sl := range b.frontAlloc {
		nd := &c.Nodes[sl.Node]
		if sl.Gres != 0 || !nd.State.Usable() || nd.FreeCores < sl.Cores || nd.FreeMem < sl.MemMB || c.CapLeft(b.frontPart, sl.Node) < sl.Cores {
			return false
		}
	}
	b.frontResv = len(b.ns.resv)
	return true
}

// coreBoundOff makes planJob run every will-run test it would skip (for
// the test that skipping changes nothing).
var coreBoundOff bool

// planAll makes a cycle plan every record, as backfill.c does, rather
// than stop after the last one that could start now (for tests).
var planAll bool

// memoOff makes every fit and will-run test run rather than come from
// a memo (fitMemo, wrMemo, the failed records of a cycle), for tests.
var memoOff bool

// floorRes rounds t down to the bf_resolution grid of the wall clock
// (wall is the Unix time of t = 0): backfill.c divides Unix times.
func floorRes(t, res, wall int64) int64 {
	a := t + wall
	q := a / res
	if a%res < 0 {
		q--
	}
	return q*res - wall
}

// planKey is what a record's test depends on besides the map and the
// cluster: its request shape (its id in shapeIDs, one per shapeKey, as
// in blockKey), planned limit, horizon and test-now-only.
type planKey struct {
	shape   int32
	tl, hor int64
	nowOnly bool
	preempt int // bfpreempt.go preemptKey
}

// blockKey is what the test of now in settled depends on besides the
// map and the cluster: the record's request shape, as its id in
// shapeIDs (one id per shapeKey), and its limit. The id rather than the
// key: the scan makes one for every record that could start now, and
// building, copying and hashing the 100-byte key was 2 % of a CEA-Curie
// run.
type blockKey struct {
	shape int32
	tl    int64
}

type planFail struct {
	gen     uint64
	counted bool
}

// byRelease is the order _will_run_test gives back running jobs in: by
// expected end, and among equal ends in slurmctld's job list order
// (sim.Job.ListOrder: submission order, but an array task takes its
// array record's place when it starts). It decides which job closes a
// batch of ends: with job 3 (not on the nodes in play) last among the
// ends at 182 of a differential run, the next job in play, ending at
// 305, joined that batch and the start moved to 305, where the
// controller planned 182. The index breaks ties of jobs not in the list.
func byRelease(a, b sim.Holding) int {
	return cmp.Or(cmp.Compare(a.End, b.End), cmp.Compare(a.Job.ListOrder(), b.Job.ListOrder()), cmp.Compare(a.Job.Idx, b.Job.Idx))
}

// relKey is a holding's place in release order (byRelease) and its
// position in the list being sorted.
type relKey struct {
	end   int64
	order uint64
	idx   int
	pos   int
}

// sortByRelease sorts hs as slices.SortFunc(hs, byRelease) does, by
// sorting small keys and moving each holding once: sorting the holdings
// themselves moved them at every swap (a cycle sorts every running job,
// 2.3 % of a CEA-Curie run). (End, list order, job) is unique among
// holdings, so the order is the same.
func (b *backfillState) sortByRelease(hs []sim.Holding) {
	if b.sortPacked(hs) {
		return
	}
	keys := b.relKeys[:0]
	for i := range hs {
		keys = append(keys, relKey{hs[i].End, hs[i].Job.ListOrder(), hs[i].Job.Idx, i})
	}
	slices.SortFunc(keys, func(x, y relKey) int {
		return cmp.Or(cmp.Compare(x.end, y.end), cmp.Compare(x.order, y.order), cmp.Compare(x.idx, y.idx))
	})
	tmp := b.relTmp[:0]
	for _, k := range keys {
		tmp = append(tmp, hs[k.pos])
	}
	copy(hs, tmp)
	clear(tmp) // the scratch must not keep jobs and allocations alive
	b.relKeys, b.relTmp = keys, tmp
}

// sortPacked is sortByRelease for holdings whose ends (from the
// earliest), list orders (from the lowest) and positions fit one 64-bit
// word together: sorting the words as numbers is sorting by (End, list
// order), without a comparison call for each pair (CEA-Curie: 156,000
// cycles of about 120 holdings). It reports false, leaving hs as it was,
// when they do not fit, or when two holdings share an end and a list
// order (jobs of a hand-made view: the job index must then decide).
func (b *backfillState) sortPacked(hs []sim.Holding) bool {
	if len(hs) < 2 {
		return true
	}
	lo, hi := hs[0].End, hs[0].End
	loO, hiO := hs[0].Job.ListOrder(), hs[0].Job.ListOrder()
	for i := range hs {
		lo, hi = min(lo, hs[i].End), max(hi, hs[i].End)
		o := hs[i].Job.ListOrder()
		loO, hiO = min(loO, o), max(hiO, o)
	}
	if hi-lo < 0 {
		return false // overflowed: too far apart
	}
	posBits := bits.Len(uint(len(hs) - 1))
	oBits := bits.Len64(hiO - loO)
	if bits.Len64(uint64(hi-lo))+oBits+posBits > 64 {
		return false
	}
	words := b.relWords[:0]
	for i := range hs {
		words = append(words, uint64(hs[i].End-lo)<<(oBits+posBits)|(hs[i].Job.ListOrder()-loO)<<posBits|uint64(i))
	}
	slices.Sort(words)
	b.relWords = words
	for k := 1; k < len(words); k++ {
		if words[k]>>posBits == words[k-1]>>posBits {
			return false // the same end and list order: by job index instead
		}
	}
	tmp := b.relTmp[:0]
	mask := uint64(1)<<posBits - 1
	for _, w := range words {
		tmp = append(tmp, hs[w&mask])
	}
	copy(hs, tmp)
	clear(tmp)
	b.relTmp = tmp
	return true
}

// heldByLimit is planJobPreempt's and the start test's answer for a
// record whose nodes, once chosen, break a limit of its own: skipped in
// this cycle without a reservation, and not remembered as a failure of
// its shape, since another user's record of that shape may start.
const heldByLimit = -2

// pastWindow is planJob's answer for a record estimatesPast tested again
// without bf_window and found a start past it, at b.pastAt on b.nodes.
const pastWindow = -3

// estimatesPast reports whether record x, when it cannot start within
// bf_window, is tested again without the window: cons_tres's
// _will_run_test tries every running job's end, so backfill.c sets a
// start past the window as the job's start_time (and its total_cpus),
// reserving nothing. Only two things read that start: under
// bf_one_resv_per_job a job of several partitions whose start_time is
// set tests its later records now only, and a whole-node job's
// total_cpus is what WholeNodeCPUs' priority weighs. Other records are
// spared the longer test.
func (s *Slurm) estimatesPast(c *sim.Cluster, x *cand, nowOnly bool) bool {
	if nowOnly {
		return false
	}
	return s.P.BfOneResvPerJob && len(x.j.Parts) > 1 ||
		s.WholeNodeCPUs && (x.j.Req.Exclusive || c.Parts[x.part].Exclusive)
}

// planJob is one record's test in _attempt_backfill, from TRY_LATER on:
// the nodes free of reservations over its run, the will-run test on
// them, and a later try when reservations free more nodes later. It
// returns when the job can start (-1: not within horizon, or not now for
// a test-now-only record), leaving the allocation of a start now in
// s.alloc and the nodes of a later one in b.nodes, and whether
// the record reached the will-run test (what bf_max_job_test counts).
func (s *Slurm) planJob(v *sim.View, x *cand, tl int64, nowOnly bool, horizon int64) (int64, bool) {
	t, tried := s.planTries(v, x, tl, nowOnly, horizon)
	s.bf.moves.keep(&s.bf.pk, s.bf.pkHash)
	return t, tried
}

// planTries is planJob's tries, kept in b.moves.cur; b.pk is the
// record's key, b.pkHash its hash. It replays the moves of the last
// record of the key (bfreplay.go).
func (s *Slurm) planTries(v *sim.View, x *cand, tl int64, nowOnly bool, horizon int64) (int64, bool) {
	b := &s.bf
	c := v.Cluster()
	now := v.Now()
	res := s.P.BfResolution
	b.nodesSet = false
	b.base = b.baseOf(x.part, s.cycle)
	minNodes := x.req.MinNodeCount()
	tried := false
	retry := func(later int64) bool { return later > 0 && !nowOnly && later <= horizon }
	prev := b.moves.of(&b.pk, b.pkHash)
	if memoOff {
		prev = nil
	}
	rp := 0 // prev's next try, while this record's tries follow prev's
	b.moves.cur = b.moves.cur[:0]
	moved := func(start, later int64, kind moveKind) {
		b.moves.cur = append(b.moves.cur, bfMove{start, later, kind})
		if rp < len(prev) && prev[rp].start == start && prev[rp].later == later {
			rp++
		} else {
			rp = len(prev)
		}
	}
	// A replayed cores move counts as tried only if its nodes held the
	// node count, which replaying does not look at: untried, the record
	// looks again before it answers.
	unsure := false
	for startRes := now; ; {
		if rp < len(prev) && prev[rp].start == startRes && prev[rp].kind != moveTest {
			if later := b.ns.laterOver(b.base, startRes, startRes+tl); later == prev[rp].later {
				kind := prev[rp].kind
				b.moves.replayed++
				if kind == moveCores {
					unsure = true
					s.boundSkips++
				}
				moved(startRes, later, kind)
				startRes = later
				continue
			}
			rp = len(prev)
		}
		copy(b.avail, b.base)
		later, enough := b.ns.availOver(b.avail, startRes, startRes+tl, minNodes)
		if !enough {
			if retry(later) {
				moved(startRes, later, moveNodes)
				startRes = later
				continue
			}
			return -1, tried || unsure && b.triedIn(tl, minNodes)
		}
		tried = true
		until := horizon
		if nowOnly {
			until = now - 1 // TEST_NOW_ONLY: no releases tried
		}
		var t int64
		var fit sim.Fit
		if s.wr.stale {
			s.wr.fp, s.wr.stale = fingerprint(c, b.rel.Holdings()), false
		}
		// A reservation needs only the nodes of a later start (b.nodes),
		// which the memo keeps; a trace reports its whole allocation.
		memo := !memoOff && s.Trace == nil && s.wr.fp != 0
		// A start found after later sends the record to later, as does
		// none: the test need not place it then.
		by := int64(0)
		if retry(later) {
			by = later
		}
		var qh uint64
		var e *wrEntry
		hit := false
		if memo {
			qh = wrHash(&x.req, x.part, b.avail)
			e, hit = s.wr.lookup(qh, &x.req, x.part, b.avail, until, now, by)
		}
		// The bound comes after the memo: an answer kept spares it.
		if !hit && retry(later) && !coreBoundOff && !b.rel.MayHaveCores(c, x.part, b.avail, later, x.req.CPUs) {
			// No test up to later can fit, so the will-run test would
			// send the record to later anyway.
			s.boundSkips++
			moved(startRes, later, moveCores)
			startRes = later
			continue
		}
		if hit {
			t, fit = e.answer(b.nodes)
		} else {
			var cut bool
			if s.Trace == nil {
				s.alloc, t, fit, cut = c.WillRunNodes(&x.req, x.part, b.avail, &b.rel, until, by, s.alloc[:0], b.nodes)
			} else if s.alloc, t, fit, cut = c.WillRunBy(&x.req, x.part, b.avail, &b.rel, until, by, s.alloc[:0]); fit == sim.FitsNow {
				b.nodesOf(s.alloc)
			}
			if memo {
				cutBy := int64(0) // a cut test is not WillRun's answer, only that none comes by `by`
				if cut {
					cutBy = by
				}
				s.wr.store(qh, &x.req, x.part, b.avail, until, now, t, fit, b.nodes, cutBy)
			}
		}
		if fit != sim.FitsNow {
			if retry(later) {
				moved(startRes, later, moveTest)
				startRes = later
				continue
			}
			if s.estimatesPast(c, x, nowOnly) {
				if s.alloc, t, fit, _ = c.WillRunNodes(&x.req, x.part, b.avail, &b.rel, math.MaxInt64, 0, s.alloc[:0], b.nodes); fit == sim.FitsNow {
					b.pastAt = max(t, startRes)
					return pastWindow, tried
				}
			}
			return -1, tried
		}
		t = max(t, startRes)
		if t > horizon {
			// Only a past-limit job's guessed end (releaseAt) lies past
			// the releases tried: a start past bf_window, an estimate and
			// no reservation, as for a record estimatesPast tests again
			// (here the test has been made already).
			b.pastAt = t
			return pastWindow, tried
		}
		if t <= now && (c.OnCompleting(s.alloc) || b.onPreempted(s.alloc)) {
			// backfill.c: "Need to wait for in-progress
			// completion/epilog": nodes it chose are still COMPLETING
			// (a log replay's, sim completing.go), so it is planned for
			// now + 1 on them, with no later try.
			t, later = now+1, 0
			b.nodesOf(s.alloc)
		}
		switch {
		case t <= now:
			return now, tried
		case nowOnly:
			return -1, tried
		case later > 0 && t > later:
			moved(startRes, later, moveTest)
			startRes = later // try when reservations free more nodes
			continue
		}
		if b.ns.overlapsAfter(b.nodes, floorRes(t, res, c.Wall()), floorRes(t+tl, res, c.Wall()), startRes+tl) {
			if t <= startRes {
				return -1, tried // cannot happen: avail covered these records
			}
			moved(startRes, t, moveTest)
			startRes = t
			continue
		}
		b.nodesSet = true
		return t, tried
	}
}

// reserveSpent reports whether record x tests now only because its
// reservations are spent (backfill.c _attempt_backfill, TEST_NOW_ONLY):
// bf_one_resv_per_job and an earlier record of its job expected a start
// this pass, or bf_job_part_count_reserve and its partition has made
// that many reservations.
func (s *Slurm) reserveSpent(x *cand) bool {
	b := &s.bf
	if s.P.BfOneResvPerJob && len(x.j.Parts) > 1 {
		if _, ok := b.est[x.j]; ok {
			return true
		}
	}
	return s.P.BfJobPartCountReserve > 0 && b.partResv[x.part] >= s.P.BfJobPartCountReserve
}

// earliest reports whether start t of a record of job j is the job's
// expected start: the first a pass found, or earlier than it, as
// backfill.c keeps a job's earliest start over its partitions
// (orig_start_time). It notes t for a job of several partitions.
func (s *Slurm) earliest(j *sim.Job, t int64) bool {
	if len(j.Parts) <= 1 {
		return true
	}
	if prev, ok := s.bf.est[j]; ok && prev <= t {
		return false
	}
	s.bf.est[j] = t
	return true
}

// reserveRunning begins the cycle's map with the nodes of each running
// whole-node job, held until its expected end rounded down, in job_list order
// (bf_running_job_reserve: backfill.c _bf_reserve_running over job_list);
// none when jobs can be preempted, and none past the map's size. A
// will-run test gives these nodes back at the same ends, so the records
// change only where later tries begin.
func (s *Slurm) reserveRunning(c *sim.Cluster, hs []sim.Holding) {
	if s.preemptible() {
		return
	}
	b := &s.bf
	b.running = b.running[:0]
	for _, h := range hs {
		if h.Job.Req.Exclusive || c.Parts[h.Part].Exclusive {
			b.running = append(b.running, h)
		}
	}
	// job_list's order (sim.Job.ListOrder: submission order, an array
	// task in its array record's place), which decides which go in once
	// bf_node_space_size fills the map.
	slices.SortFunc(b.running, func(x, y sim.Holding) int {
		return cmp.Or(cmp.Compare(x.Job.ListOrder(), y.Job.ListOrder()), cmp.Compare(x.Job.Idx, y.Job.Idx))
	})
	for _, h := range b.running {
		if !s.holdInMap(c, h.Alloc, h.End) {
			return
		}
	}
}

// started records a start of this pass in the plan: its release at its
// expected end joins the releases, and a whole-node job that cannot be
// preempted also holds its nodes in the map until then
// (backfill.c _bf_reserve_running).
func (s *Slurm) started(v *sim.View, plan *sim.Plan, x *cand) {
	b := &s.bf
	a := &plan.Actions[len(plan.Actions)-1]
	b.heldScan = -1 // limits count the start
	h := sim.Holding{Job: a.Job, Part: a.Part, Alloc: a.Alloc, Start: v.Now(), End: a.ExpectedEnd}
	k, _ := slices.BinarySearchFunc(b.rel.Holdings(), h, byRelease)
	b.rel.Insert(k, h)
	b.relDirty = true
	s.memo.reset()
	s.wr.stale = true
	if (x.req.Exclusive || v.Cluster().Parts[x.part].Exclusive) && !s.preemptible() {
		s.holdInMap(v.Cluster(), a.Alloc, a.ExpectedEnd)
	}
}

// holdInMap holds allocation a's nodes in the cycle's map from its
// beginning to end rounded down (_bf_reserve_running), unless the map is
// full; it reports whether it did.
func (s *Slurm) holdInMap(c *sim.Cluster, a sim.Alloc, end int64) bool {
	b := &s.bf
	if b.ns.full(s.nodeSpaceSize()) {
		return false
	}
	res := s.P.BfResolution
	b.nodesOf(a)
	b.ns.add(0, floorRes(end, res, c.Wall()), res, b.nodes)
	return true
}

// arrayFirst reports whether task p, which the record before x reserved
// for, is the same array's earlier task with x's request and limit in
// x's partition, still pending: the one slurmctld's array record would
// start.
func (s *Slurm) arrayFirst(c *sim.Cluster, p *sim.Job, x *cand, tl int64) bool {
	if p.ArrayJobID != x.j.ArrayJobID || p.ArrayTaskID >= x.j.ArrayTaskID || p.State != sim.Pending ||
		!slices.Contains(p.Parts, x.part) && (len(p.Parts) > 0 || p.Part != x.part) {
		return false
	}
	px := cand{j: p, part: x.part, req: sim.RequestIn(c, p, x.part)}
	return sameRequest(&px.req, &x.req) && s.bfLimit(c, &px) == tl
}

// onPreempted reports whether allocation a takes a node this cycle's
// preemptions free.
func (b *backfillState) onPreempted(a sim.Alloc) bool {
	if b.preempted == nil {
		return false
	}
	for _, sl := range a {
		if b.preempted[sl.Node] {
			return true
		}
	}
	return false
}

// nodeSpaceSize is bf_node_space_size: records a cycle's map may make,
// bf_max_job_test unless set (backfill.c).
func (s *Slurm) nodeSpaceSize() int {
	if s.P.BfNodeSpaceSize > 0 {
		return s.P.BfNodeSpaceSize
	}
	return s.P.BfMaxJobTest
}

// preemptible reports whether running jobs may be preempted at all.
func (s *Slurm) preemptible() bool {
	return (s.P.PreemptType == "preempt/partition_prio" || s.P.PreemptType == "preempt/qos") && s.P.PreemptMode != 0
}

func (b *backfillState) nodesOf(a sim.Alloc) {
	clear(b.nodes)
	for _, sl := range a {
		setBit(b.nodes, sl.Node)
	}
}

// arrayOf is the job array j is a task of (0: none): the trace's
// ArrayJobID unless Slurm.ArrayOf says otherwise.
func (s *Slurm) arrayOf(j *sim.Job) int64 {
	if s.ArrayOf == nil {
		return j.ArrayJobID
	}
	return s.ArrayOf(j)
}

// bfCount applies bf_max_job_user_part, _part, _assoc and _user
// (backfill.c _job_exceeds_max_bf_param): the records examined per user
// and partition, partition, association or user in this pass. A record
// over any limit is skipped and counted nowhere; bf_max_job_assoc, when
// set, replaces bf_max_job_user.
func (s *Slurm) bfCount(x *cand) bool {
	b := &s.bf
	j := x.j
	up := [2]int32{j.User, int32(x.part)}
	over := (s.P.BfMaxJobUserPart > 0 && b.perUserPart[up] >= s.P.BfMaxJobUserPart) ||
		(s.P.BfMaxJobPart > 0 && b.perPart[x.part] >= s.P.BfMaxJobPart) ||
		(s.P.BfMaxJobAssoc > 0 && b.perAssoc[j.Assoc] >= s.P.BfMaxJobAssoc) ||
		(s.P.BfMaxJobAssoc <= 0 && s.P.BfMaxJobUser > 0 && b.perUser[j.User] >= s.P.BfMaxJobUser)
	if over {
		return false
	}
	if s.P.BfMaxJobUserPart > 0 {
		b.perUserPart[up]++
	}
	if s.P.BfMaxJobPart > 0 {
		b.perPart[x.part]++
	}
	if s.P.BfMaxJobAssoc > 0 {
		b.perAssoc[j.Assoc]++
	} else if s.P.BfMaxJobUser > 0 {
		b.perUser[j.User]++
	}
	return true
}

// bfLimit is the limit a backfill cycle plans record x over: planLimit,
// or one minute for a NoReserve QOS job when slurm.conf sets a
// PreemptMode (backfill.c sets time_limit = 1 only when preempt_mode is
// non-zero: such a job is meant to run in gaps it may be preempted
// from). settled must test the same run the cycle would plan.
func (s *Slurm) bfLimit(c *sim.Cluster, x *cand) int64 {
	if s.qosNoReserve(x.j) && s.preemptModeSet() {
		return 60
	}
	return s.planLimit(c, x)
}

// preemptModeSet is backfill.c's test of slurm_conf.preempt_mode: any
// PreemptMode but OFF, GANG alone included.
func (s *Slurm) preemptModeSet() bool {
	m := s.P.PreemptMode
	return m.IsSet() && m != policy.PreemptOff
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

// noReserve is Slurm's "test now only" (backfill.c _attempt_backfill:
// TEST_NOW_ONLY, such a job may start now but gets no reservation): a
// priority below the reserve threshold (the QOS MinPrioThreshold, else
// bf_min_prio_reserve), or eligible for less than bf_min_age_reserve. A
// QOS with NoReserve is not one: backfill.c runs its whole test, later
// tries included, and sets its expected start, but adds no reservation
// (the backfill loop's default case).
func (s *Slurm) noReserve(v *sim.View, x *cand) bool {
	if s.belowPrioReserve(x) {
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
	if len(b.free) == len(c.Nodes) && len(b.member) == len(c.Parts) {
		return
	}
	b.words = (len(c.Nodes) + 63) / 64
	b.member = make([][]uint64, len(c.Parts))
	for p := range c.Parts {
		b.member[p] = make([]uint64, b.words)
		for _, n := range c.Parts[p].Nodes {
			setBit(b.member[p], n)
		}
	}
	b.usable = make([]uint64, b.words)
	b.partBase = make([][]uint64, len(c.Parts))
	b.partBaseAt = make([]uint64, len(c.Parts))
	b.avail = make([]uint64, b.words)
	b.nodes = make([]uint64, b.words)
	b.free = make([]int, len(c.Nodes))
	b.mem = make([]int64, len(c.Nodes))
	b.gres = make([]int, len(c.Nodes))
	b.capLeft = make([]int, len(c.Nodes))
	b.vstamp = make([]uint32, len(c.Nodes))
	b.stamp = make([]uint32, len(c.Nodes))
	b.perPart = make([]int, len(c.Parts))
	b.perUser = map[int32]int{}
	b.perAssoc = map[int]int{}
	b.perUserPart = map[[2]int32]int{}
	b.arrResv = map[int64]int{}
	b.partResv = make([]int, len(c.Parts))
	b.est = map[*sim.Job]int64{}
	b.failed = keyTable[planKey, planFail]{hash: hashPlanKey}
	b.blocked = keyTable[blockKey, bool]{hash: hashBlockKey}
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

// viewCapLeft is what partition p's MaxCPUsPerNode leaves a job of it on
// node n in the view.
func (b *backfillState) viewCapLeft(c *sim.Cluster, p, n int) int {
	if b.vstamp[n] == b.vgen {
		return b.capLeft[n]
	}
	return c.CapLeft(p, n)
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
			if k != nd.Cores || !c.CapWhole(x.part, n) {
				return
			}
		} else {
			k = min(req.UsableCores(nd.Cores, nd.MemMB, k, mem), b.viewCapLeft(c, x.part, n))
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
	if total < req.CPUs || len(b.pick) < req.MinNodeCount() || gtotal < req.GresPerJob() {
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
		if got >= req.CPUs && len(nodes) >= req.MinNodeCount() {
			return nodes
		}
	}
	return nil
}

// testedCPUs is the total_cpus select's will-run test sets for a job of
// request req that it placed on nodes, a bitmap by node index
// (cons_common/job_test.c _job_test): every CPU of the nodes for a
// whole-node job, else 0, which leaves the job's count as it was (its
// CPUs, one at least per node, set at submission).
func testedCPUs(c *sim.Cluster, req *sim.Request, nodes []uint64) int {
	if !req.Exclusive {
		return 0
	}
	n := 0
	for wi, w := range nodes {
		for w != 0 {
			n += c.Nodes[wi*64+bits.TrailingZeros64(w)].Cores
			w &= w - 1
		}
	}
	return n
}

// baseOf is partition p's nodes that allocate in this cycle (cycle: the
// cycle's number), made at its first use in the cycle: the usable nodes
// do not change within a cycle.
func (b *backfillState) baseOf(p int, cycle uint64) []uint64 {
	if b.partBase[p] == nil || b.partBaseAt[p] != cycle {
		if b.partBase[p] == nil {
			b.partBase[p] = make([]uint64, b.words)
		}
		copy(b.partBase[p], b.member[p])
		and(b.partBase[p], b.usable)
		b.partBaseAt[p] = cycle
	}
	return b.partBase[p]
}
