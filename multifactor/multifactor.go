package multifactor

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// Config is everything the multifactor policy needs: Slurm's
// priority parameters, the fair-share engine configuration, the QOS table
// and the association tree.
type Config struct {
	Priority   policy.Params
	FairShare  fairshare.Config
	CalcPeriod int64 // PriorityCalcPeriod, seconds
	QOS        *policy.QOSSet
	DefaultQOS string // QOS of jobs that name none ("normal" when it exists)
	Tree       *fairshare.Tree
	// EnforceLimits mirrors AccountingStorageEnforce containing "limits":
	// accrue caps and GrpTRESMins are enforced only then.
	EnforceLimits bool
	// EnforceAssocs and EnforceQOS mirror AccountingStorageEnforce's
	// "associations" and "qos": a job without an association, or asking
	// a QOS its association may not use, is refused at submit (see
	// enforce.go).
	EnforceAssocs, EnforceQOS bool
	// EnforceSafe mirrors AccountingStorageEnforce containing "safe": a
	// job starts only if it can finish within GrpTRESMins and GrpWall,
	// and no running job is ended at them.
	EnforceSafe bool
	// PartitionBilling holds each partition's TRESBillingWeights, nil
	// where the partition has none (the job's CPUs then, as Slurm bills).
	PartitionBilling []policy.TRESWeights
	// CPUTypeBilling bills jobs in partitions without TRESBillingWeights
	// per node by CPU type (seed 001's rule, sim.billing: cpu_type)
	// instead of by CPU count.
	CPUTypeBilling bool
	// FairshareSample is the period of fair-share snapshots for
	// fairshare.csv (0: every calc tick).
	FairshareSample int64
	// Basic is PriorityType=priority/basic: each job gets, at submission,
	// one less than the job before (priority_basic.c priority_p_set from
	// job_mgr.c's lowest_prio, which starts at 0xffff0000), and no tick
	// changes it: first in, first served, whatever the weights. No usage
	// is charged (priority_basic.c has no decay thread and charges none
	// at a job's end), so usage limits (GrpTRESMins, GrpWall) never
	// bind, and grp_used_tres_run_secs drops only as jobs end.
	Basic bool
	// Epoch is the Unix time of simulated time 0 (the trace's
	// UnixStartTime): PriorityUsageResetPeriod boundaries are calendar
	// dates, so the fair-share engine works in Unix time.
	Epoch int64
}

// Policy is Slurm's priority/multifactor plugin as the simulator
// drives it (sim.Policy): usage charged in TRES-billing units to the
// association tree, decayed at every PriorityCalcPeriod tick, fair-share
// from the configured algorithm, and job priorities recomputed at each
// tick, not at each pass.
type Policy struct {
	cfg Config
	// lowest is job_mgr.c's lowest_prio under priority/basic: the next
	// job gets one less.
	lowest  uint32
	names   *workload.Names
	cluster *sim.Cluster
	engine  *fairshare.Engine
	qosOf   map[int][]string // association → its QOS list (enforce.go)
	accrue  *policy.AccrueTracker
	limits  *policy.LimitTracker
	begun   []policy.LimitJob // per job index: what Started counted, QOS[0] < -1 when nothing
	partQOS []int             // per partition: its QOS index, -1 for none
	// partMems are the partitions' node sizes (partNodes), nil until
	// looked at.
	partMems []*partMem
	inPass   []policy.LimitJob // scratch for HoldPlaced
	assocs   *policy.AssocTracker
	begunA   []int           // per job index: the association Started counted, -1 none
	placedA  []policy.Placed // scratch for HoldPlaced
	subm     []submitted     // per job index: what Refuse counted
	// usageLimits is set when a QOS or association has GrpTRESMins,
	// GrpTRESRunMins or GrpWall, so holds and time-outs read usage.
	usageLimits bool
	norm        policy.Normalizers
	partTR      []policy.TRESAlloc
	gpuMask     uint64 // GPU kinds counted by the tracked gres/gpu TRES
	epoch       uint64
	ajobs       []policy.AccrueJob
	defQOS      int
	acctIdx     map[int32]int // workload account -> dense account id for accrue
	userIdx     map[int32]int

	// Unmapped counts jobs whose (account, user) is not in the tree, by
	// "account/user".
	Unmapped workload.Tally
	// UnknownQOS counts jobs by a QOS name the QOS list does not have
	// and what they ran under instead: the default QOS, or none
	// (slurmctld would refuse them, "Invalid qos specification").
	UnknownQOS workload.Tally
	// Snapshots is the fair-share time series (fairshare.csv).
	Snapshots   []Snapshot
	lastSample  int64
	factors     jobTable[policy.Factors] // per job index: the breakdown behind its priority, until the job ends
	snapRows    []fairshare.Row          // names and shares of the snapshots' rows
	partFactors map[int][]policy.Factors // multi-partition jobs: per partition
	lastTick    int64
}

// Snapshot is the association tree's figures at one tick, in the
// order of Policy.SnapshotRows.
type Snapshot struct {
	T    int64
	Vals []fairshare.Value
}

// New builds the policy for a cluster; names resolve the trace's
// users and accounts.
func New(cfg Config, c *sim.Cluster, names *workload.Names) (*Policy, error) {
	if cfg.Tree == nil {
		return nil, fmt.Errorf("multifactor: no association tree")
	}
	if !cfg.Tree.Finalized() {
		if err := cfg.Tree.Finalize(); err != nil {
			return nil, err
		}
	}
	if cfg.QOS == nil {
		qs, err := policy.NewQOSSet([]policy.QOS{policy.NewQOS("normal")})
		if err != nil {
			return nil, err
		}
		cfg.QOS = qs
	}
	noDecay := make([]bool, cfg.QOS.Len())
	for i := range noDecay {
		noDecay[i] = cfg.QOS.QOS(i).Flags&policy.QOSNoDecay != 0
	}
	cfg.FairShare.QOSNoDecay = noDecay
	cfg.FairShare.TrackTRES = cfg.EnforceLimits
	eng, err := fairshare.NewEngine(cfg.Tree, cfg.FairShare)
	if err != nil {
		return nil, err
	}
	if cfg.CalcPeriod <= 0 {
		cfg.CalcPeriod = 300
	}
	m := &Policy{cfg: cfg, names: names, cluster: c, engine: eng, Unmapped: workload.Tally{}, UnknownQOS: workload.Tally{},
		acctIdx: map[int32]int{}, userIdx: map[int32]int{}, defQOS: -1}
	m.accrue = policy.NewAccrueTracker(policy.AccrueModeFor(cfg.Priority.Flags, cfg.EnforceLimits), cfg.QOS)
	m.limits = policy.NewLimitTracker(cfg.QOS)
	if err := m.buildAssocLimits(); err != nil {
		return nil, err
	}
	for i := 0; i < cfg.QOS.Len(); i++ {
		q := cfg.QOS.QOS(i)
		if len(q.GrpTRESMins) > 0 || len(q.Limits.GrpTRESRunMins) > 0 || q.Limits.GrpWall != policy.Unset {
			m.usageLimits = true
		}
	}
	if m.assocs != nil && m.assocs.HasUsageLimits() {
		m.usageLimits = true
	}
	for _, p := range c.Parts {
		qi := -1
		if p.QOS != "" {
			if i, ok := cfg.QOS.Index(p.QOS); ok {
				qi = i
			}
		}
		m.partQOS = append(m.partQOS, qi)
	}
	name := cfg.DefaultQOS
	if name == "" {
		name = "normal"
	}
	if i, ok := cfg.QOS.Index(strings.ToLower(name)); ok {
		m.defQOS = i
	} else if cfg.DefaultQOS != "" {
		return nil, fmt.Errorf("default QOS %q is not defined", cfg.DefaultQOS)
	}
	m.norm = policy.Normalizers{Nodes: uint32(len(c.Nodes)), CPUs: uint32(c.TotalCores),
		MaxQOSPriority: cfg.QOS.MaxPriority()}
	for _, p := range c.Parts {
		m.norm.MaxPartJobFactor = max(m.norm.MaxPartJobFactor, uint32(p.PriorityJobFactor))
	}
	for p := range c.Parts {
		m.partTR = append(m.partTR, c.PartTRES(p))
	}
	for _, t := range c.TRESGres {
		if t.Name == "gres/gpu" {
			m.gpuMask = t.Mask
		}
	}
	for i := 0; i < cfg.Tree.Len(); i++ {
		m.norm.MaxAssocPriority = max(m.norm.MaxAssocPriority, cfg.Tree.Priority(i))
	}
	return m, nil
}

// Engine exposes the fair-share engine (sshare views).
func (m *Policy) Engine() *fairshare.Engine { return m.engine }

// Tree is the association tree the policy charges.
func (m *Policy) Tree() *fairshare.Tree { return m.cfg.Tree }

// QOSSet exposes the QOS table.
func (m *Policy) QOSSet() *policy.QOSSet { return m.cfg.QOS }

// Params exposes the priority parameters (sprio -w).
func (m *Policy) Params() *policy.Params { return &m.cfg.Priority }

// CalcPeriod implements sim.Policy.
func (m *Policy) CalcPeriod() int64 { return m.cfg.CalcPeriod }

// Epoch implements sim.Policy.
func (m *Policy) Epoch() uint64 { return m.epoch }

// Submit implements sim.Policy: it finds the job's association and QOS
// and sets its initial priority (age 0, as at submission in Slurm).
func (m *Policy) Submit(j *sim.Job, now int64) {
	acct := strings.ToLower(m.names.Accounts.Name(j.Account))
	user := strings.ToLower(m.names.Users.Name(j.User))
	// job_mgr.c job_allocate looks the association up with the job's
	// (first) partition: that partition's association, else the
	// partition-less one (assoc_mgr_fill_in_assoc).
	if a, ok := m.cfg.Tree.LookupJob(acct, user, m.cluster.Parts[j.Part].Name); ok {
		j.Assoc = a
	} else {
		j.Assoc = -1
		if !m.cfg.EnforceAssocs {
			m.Unmapped.Add(acct + "/" + user) // refused at submit otherwise
		}
	}
	j.QOSIdx = m.jobQOS(j, true)
	if m.cfg.Basic {
		j.Priority = m.basic(j)
		return
	}
	j.Priority = m.set(j, now)
}

// basic is a submitted job's priority under priority/basic: one less
// than the last job's (at least 1), in each of its partitions.
func (m *Policy) basic(j *sim.Job) uint32 {
	if m.lowest == 0 {
		m.lowest = basicTop
	}
	if m.lowest >= 2 {
		m.lowest--
	}
	if len(j.Parts) > 1 {
		if len(j.PartPrio) != len(j.Parts) {
			j.PartPrio = make([]uint32, len(j.Parts))
		}
		for k := range j.PartPrio {
			j.PartPrio[k] = m.lowest
		}
	}
	return m.lowest
}

// basicTop is job_mgr.c's TOP_PRIORITY, where priority/basic starts.
const basicTop = 0xffff0000

// jobQOS is the QOS job j runs under: the one the trace names, else the
// default; note counts a name the QOS table lacks.
func (m *Policy) jobQOS(j *sim.Job, note bool) int {
	q := m.names.QOS.Name(j.Job.QOS)
	if q == "" {
		return m.defQOS
	}
	if i, ok := m.cfg.QOS.Index(strings.ToLower(q)); ok {
		return i
	}
	switch {
	case !note:
	case m.defQOS >= 0:
		m.UnknownQOS.Add(q + " (run under " + m.cfg.QOS.QOS(m.defQOS).Name + ")")
	default:
		m.UnknownQOS.Add(q + " (run without a QOS)")
	}
	return m.defQOS
}

// LiftsPartLimits implements sim.PartLimitLifter: the QOS flags
// PartitionMaxNodes, PartitionTimeLimit and PartitionMinNodes of the
// job's QOS.
func (m *Policy) LiftsPartLimits(j *sim.Job) (maxNodes, maxTime, minNodes bool) {
	q := m.jobQOS(j, false)
	if q < 0 || m.cfg.QOS == nil {
		return false, false, false
	}
	f := m.cfg.QOS.QOS(q).Flags
	return f&policy.QOSPartitionMaxNodes != 0, f&policy.QOSPartitionTimeLimit != 0, f&policy.QOSPartitionMinNodes != 0
}

// set computes a job's priority and keeps its breakdown for sprio. A job
// submitted to several partitions gets one priority per partition, with
// that partition's factor and TRES denominators, as priority_multifactor.c
// fills job_ptr->priority_array for each entry of part_ptr_list; they are
// kept in PartPrio, and its Priority and breakdown are its first
// partition's.
func (m *Policy) set(j *sim.Job, now int64) uint32 {
	flags := m.cfg.Priority.Flags
	if len(j.Parts) > 1 {
		if len(j.PartPrio) != len(j.Parts) {
			j.PartPrio = make([]uint32, len(j.Parts))
		}
		pf := m.partFactors[j.Idx]
		if len(pf) != len(j.Parts) {
			pf = make([]policy.Factors, len(j.Parts))
			if m.partFactors == nil {
				m.partFactors = map[int][]policy.Factors{}
			}
			m.partFactors[j.Idx] = pf
		}
		for k, p := range j.Parts {
			pr, f := m.compute(j, p, now)
			j.PartPrio[k] = policy.UpdatePriority(flags, j.PartPrio[k], pr)
			pf[k] = f
			if k == 0 {
				*m.factors.at(j.Idx) = f
			}
		}
		return j.PartPrio[0]
	}
	p, f := m.compute(j, j.Part, now)
	*m.factors.at(j.Idx) = f
	return policy.UpdatePriority(flags, j.Priority, p)
}

// Factors returns the breakdown behind a job's current priority, as sprio
// shows it: the factors of the calc tick (or submission) that set it;
// zero once the job has ended (sprio lists pending and running jobs).
func (m *Policy) Factors(j *sim.Job) policy.Factors {
	f, _ := m.factors.get(j.Idx)
	return f
}

// SnapshotRows describes the rows of every snapshot: names, shares and
// which cells sshare leaves blank; fairshare.Value.At fills in a tick.
func (m *Policy) SnapshotRows() []fairshare.Row { return m.snapRows }

// PartFactors returns, for a job submitted to several partitions, the
// breakdown behind its priority in each of j.Parts (sprio prints a row per
// partition); nil for a job of one partition.
func (m *Policy) PartFactors(j *sim.Job) []policy.Factors { return m.partFactors[j.Idx] }

// LastTick is the time of the latest calc tick.
func (m *Policy) LastTick() int64 { return m.lastTick }

// compute is job j's priority and its breakdown in partition p.
func (m *Policy) compute(j *sim.Job, p int, now int64) (uint32, policy.Factors) {
	part := &m.cluster.Parts[p]
	in := policy.Job{AccrueTime: policyAccrue(j.Accrue), MinNodes: uint32(max(j.Nodes, j.Req.MinNodes, 1)), CPUs: policy.JobCPUs(uint32(max(j.TotalCPUs, 0)), policy.NoVal, uint32(j.CPUs)),
		PartJobFactor: uint32(part.PriorityJobFactor), TimeLimit: policy.NoVal, PartMaxTime: policy.Infinite}
	if j.TimeLimit > 0 {
		in.TimeLimit = uint32((j.TimeLimit + 59) / 60)
	}
	if part.MaxTime != sim.Unlimited {
		in.PartMaxTime = uint32((part.MaxTime + 59) / 60)
	}
	if j.QOSIdx >= 0 {
		in.QOSPriority = m.cfg.QOS.QOS(j.QOSIdx).Priority
	}
	if j.Assoc >= 0 {
		in.AssocPriority = m.cfg.Tree.Priority(j.Assoc)
		in.FairShare = m.engine.FairShare(j.Assoc)
	}
	var tr policy.TRESAlloc
	if j.State == sim.Running {
		tr = m.cluster.AllocTRES(j.Alloc)
	} else {
		tr = m.reqTRES(j)
	}
	in.TRES, in.PartTRES = &tr, &m.partTR[p]
	return m.cfg.Priority.Compute(&m.norm, &in, now+epoch)
}

// epoch is where simulated second 0 lies on the policy layer's clock.
// Package policy follows Slurm in taking time 0 for "not set" (accrue
// time, begin time), which the simulated clock, starting at 0, would
// otherwise hit: a job submitted at 0 would never accrue age.
const epoch int64 = 1 << 40

// policyAccrue is a job's accrue time on the policy clock, 0 when its age
// does not accrue.
func policyAccrue(a int64) int64 {
	if a == sim.NotAccruing {
		return 0
	}
	return a + epoch
}

// reqTRES is a pending job's requested TRES as Slurm's tres_req_cnt holds
// it: CPUs, memory asked, its minimum node count, and for each tracked GRES
// TRES the count of the requests it covers (gres/gpu counts every GPU
// request, gres/gpu:a100 only requests of that type).
func (m *Policy) reqTRES(j *sim.Job) policy.TRESAlloc {
	nodes := max(j.Req.Nodes, 1)
	tr := policy.TRESAlloc{CPU: uint64(j.Req.CPUs), Node: uint64(nodes)}
	switch {
	case j.Req.MemPerCPU > 0:
		tr.MemMB = uint64(j.Req.MemPerCPU) * uint64(j.Req.CPUs)
	case j.Req.MemPerNode > 0:
		tr.MemMB = uint64(j.Req.MemPerNode) * uint64(nodes)
	}
	for _, t := range m.cluster.TRESGres {
		var k uint64
		for _, g := range j.Req.Gres {
			if g.Mask != 0 && g.Mask&^t.Mask == 0 {
				k += uint64(g.PerJob + g.PerNode*nodes)
			}
		}
		if k > 0 {
			tr.Other = append(tr.Other, policy.TRESCount{Name: t.Name, Count: k})
		}
	}
	return tr
}

// Queue implements sim.Policy: accrue limits are applied as Slurm applies
// them whenever it builds its job queue. Accrue times feed the age factor
// alone, so with PriorityWeightAge=0 (a trace replayed without a
// scenario: every weight 0) there is nothing to keep (2.5 % of
// CEA-Curie's run).
func (m *Policy) Queue(now int64, pending []*sim.Job) {
	if m.cfg.Priority.Weights.Age == 0 {
		return
	}
	aj := m.ajobs[:0]
	for _, j := range pending {
		aj = append(aj, policy.AccrueJob{ID: j.Idx, User: m.dense(m.userIdx, j.User), Account: m.dense(m.acctIdx, j.Account),
			QOS: max(j.QOSIdx, 0), Submit: j.Submit + epoch, Begin: j.EligibleTime + epoch, Assoc: j.Assoc})
	}
	m.ajobs = aj
	m.accrue.Update(now+epoch, aj)
	for _, j := range pending {
		j.Accrue = sim.NotAccruing
		if a := m.accrue.AccrueTime(j.Idx); a != 0 {
			j.Accrue = a - epoch
		}
	}
}

func (m *Policy) dense(t map[int32]int, id int32) int {
	if v, ok := t[id]; ok {
		return v
	}
	v := len(t)
	t[id] = v
	return v
}

// Hold implements sim.Policy with AccountingStorageEnforce=limits: the
// QOS limits on running jobs (policy.LimitTracker.Hold, counting the jobs
// running now), the association limits (policy.AssocTracker.Hold), then
// the usage limits (GrpWall, GrpTRESMins, GrpTRESRunMins) of both.
func (m *Policy) Hold(j *sim.Job, now int64) string {
	return m.HoldPlaced(j, j.Part, now, nil, nil)
}

// EnforcesLimits implements sim.LimitEnforcer:
// AccountingStorageEnforce=limits.
func (m *Policy) EnforcesLimits() bool { return m.cfg.EnforceLimits }

// HoldPlaced is Hold counting as running the jobs placed, which the
// current pass has planned to start but not yet started, so that two jobs
// of one user cannot both start in one pass past MaxJobsPU=1. part is the
// partition of the record tested, whose QOS orders the limits; each
// placed job counts its allocation in the partition it starts in, as
// acct_policy_job_begin counts tres_alloc_cnt.
//
// With alloc, the nodes chosen for j, it is the check after selection
// (node_scheduler.c select_nodes, acct_policy_job_runnable_post_select):
// the TRES limits count the allocation (whole nodes for --exclusive), not
// the request. It is made only after the request passed, so an
// allocation that counts no more than the request passes at once.
func (m *Policy) HoldPlaced(j *sim.Job, part int, now int64, placed []sim.PlacedJob, alloc sim.Alloc) string {
	if !m.cfg.EnforceLimits {
		return ""
	}
	lj := m.limitJob(j, part, nil)
	if alloc != nil {
		// The TRES count the allocation, as select_nodes counts
		// job_resrcs once it has nodes. A provisional allocation
		// (sim.Cluster.Provisional) holds no GRES: they count as the
		// request asks, in its billing too, as select_nodes takes
		// tres_req_cnt's GRES from the job's request.
		req := lj.TRES
		lj = m.limitJob(j, part, alloc)
		lj.Wall = j.TimeLimit
		if lj.TRES[policy.LimGPU] < req[policy.LimGPU] {
			lj.TRES[policy.LimGPU] = req[policy.LimGPU]
			lj.TRES[policy.LimBilling] = max(lj.TRES[policy.LimBilling], m.billingWithRequestGres(j, alloc, part))
		}
		more := false
		for k := range lj.TRES {
			more = more || lj.TRES[k] > req[k]
		}
		if !more {
			return ""
		}
	}
	in := m.inPass[:0]
	for _, p := range placed {
		if p.Job != j {
			in = append(in, m.placedLimitJob(p))
		}
	}
	m.inPass = in
	if why := m.limits.Hold(&lj, in); why != "" {
		return why
	}
	if m.assocs != nil && j.Assoc >= 0 {
		pl := m.placedA[:0]
		for _, p := range placed {
			if p.Job != j && p.Job.Assoc >= 0 {
				pl = append(pl, policy.Placed{Assoc: p.Job.Assoc, TRES: m.placedLimitJob(p).TRES})
			}
		}
		m.placedA = pl
		set := m.limits.SetBy(lj.QOS)
		if why := m.assocs.Hold(j.Assoc, &lj.TRES, lj.Wall, pl, &set); why != "" {
			return why
		}
	}
	return m.usageHold(j, &lj, placed)
}

// billingWithRequestGres is the billing of allocation a of job j in
// partition part with the GRES the job asks (sim.Cluster.RequestTRES: the
// typed and untyped TRES as gres_ctld.c counts a request) where a holds
// fewer, for an allocation that holds none yet (Cluster.Provisional); 0
// where the partition has no TRESBillingWeights (the CPUs then bill,
// whatever the GRES).
func (m *Policy) billingWithRequestGres(j *sim.Job, a sim.Alloc, part int) uint64 {
	if part < 0 || part >= len(m.cfg.PartitionBilling) || m.cfg.PartitionBilling[part] == nil {
		return 0
	}
	tr := m.cluster.AllocTRES(a)
	asked := m.cluster.RequestTRES(m.requestIn(j, part), 0, 0, uint64(len(a)))
	for _, o := range asked.Other {
		i := slices.IndexFunc(tr.Other, func(x policy.TRESCount) bool { return x.Name == o.Name })
		if i < 0 {
			tr.Other = append(tr.Other, o)
		} else {
			tr.Other[i].Count = max(tr.Other[i].Count, o.Count)
		}
	}
	return uint64(math.Floor(policy.Billing(tr, m.cfg.PartitionBilling[part], m.cfg.Priority.Flags)))
}

// placedLimitJob is a job the pass placed as the limits count it: its
// allocation, or its request for a caller that gave none.
func (m *Policy) placedLimitJob(p sim.PlacedJob) policy.LimitJob {
	if len(p.Alloc) == 0 {
		return m.limitJob(p.Job, p.Part, nil)
	}
	lj := m.limitJob(p.Job, p.Part, p.Alloc)
	lj.Wall = p.Job.TimeLimit
	return lj
}

// limitJob is a job as the QOS limits count it: allocation a in
// partition part when given (tres_alloc_cnt: the CPUs, memory, nodes,
// billing and GPUs of the nodes chosen), else its request (reqLimitTRES,
// and its billing: reqBilling).
func (m *Policy) limitJob(j *sim.Job, part int, a sim.Alloc) policy.LimitJob {
	pq := -1
	if part >= 0 && part < len(m.partQOS) {
		pq = m.partQOS[part]
	}
	lj := policy.LimitJob{QOS: policy.QOSOrder(m.cfg.QOS, j.QOSIdx, pq),
		User: m.dense(m.userIdx, j.User), Account: m.dense(m.acctIdx, j.Account), Wall: j.TimeLimit}
	if len(a) > 0 {
		lj.Wall = j.Limit
		t := m.allocTRES(a, m.billingOn(a, part))
		lj.TRES = policy.LimitTRES{policy.LimCPU: uint64(t[fairshare.TRESCPU]), policy.LimMem: uint64(t[fairshare.TRESMem]),
			policy.LimNode: uint64(t[fairshare.TRESNode]), policy.LimBilling: uint64(t[fairshare.TRESBilling]), policy.LimGPU: uint64(t[fairshare.TRESGPU])}
		return lj
	}
	// A nil a is the check before selection; an empty one the check of
	// a selection that found no nodes (sim.View.HoldBusy).
	lj.TRES = m.reqLimitTRES(j, part, a != nil)
	lj.TRES[policy.LimBilling] = m.reqBilling(j, part, &lj.TRES)
	return lj
}

// reqBilling is the billing of a job's request t in partition part, as
// select_nodes weighs tres_req_cnt for the limits even when it selected
// no nodes (assoc_mgr_tres_weighted, truncated): the partition's
// TRESBillingWeights over the request's CPUs, memory, nodes and GRES,
// else its CPUs. CPU-type billing, fairsim's own, needs the nodes: the
// request bills its CPUs, as Slurm without weights would.
func (m *Policy) reqBilling(j *sim.Job, part int, t *policy.LimitTRES) uint64 {
	if part < 0 || part >= len(m.cfg.PartitionBilling) || m.cfg.PartitionBilling[part] == nil || m.cluster == nil {
		return t[policy.LimCPU]
	}
	tr := m.cluster.RequestTRES(&j.Req, t[policy.LimCPU], t[policy.LimMem], t[policy.LimNode])
	return uint64(math.Floor(max(policy.Billing(tr, m.cfg.PartitionBilling[part], m.cfg.Priority.Flags), 0)))
}

// Started implements sim.Policy: the job's TRES billing rate is fixed from
// its allocation, as Slurm caches billable_tres at the first charge.
//
// With AccountingStorageEnforce=limits the job's TRES × time limit join its
// associations' and QOS's grp_used_tres_run_secs (acct_policy_job_begin),
// sshare's TRESRunMins.
func (m *Policy) Started(j *sim.Job, now int64) {
	j.Billing = m.billingOn(j.Alloc, j.Part)
	m.accrue.Release(j.Idx)
	if m.cfg.EnforceLimits && j.Idx >= 0 {
		for len(m.begun) <= j.Idx {
			m.begun = append(m.begun, policy.LimitJob{QOS: [2]int{-2, -2}})
		}
		m.begun[j.Idx] = m.limitJob(j, j.Part, j.Alloc)
		m.limits.Begin(&m.begun[j.Idx])
		for len(m.begunA) <= j.Idx {
			m.begunA = append(m.begunA, -1)
		}
		if m.assocs != nil && j.Assoc >= 0 {
			m.begunA[j.Idx] = j.Assoc
			m.assocs.Begin(j.Assoc, &m.begun[j.Idx].TRES)
		}
	}
	if j.Assoc >= 0 || j.QOSIdx >= 0 {
		m.engine.RunStart(j.Assoc, j.QOSIdx, m.jobTRES(j), float64(runLimit(j)), m.usageFactor(j))
	}
}

// runLimit is the time limit run-seconds count with: the limit in force,
// or Slurm's INFINITE minutes for a job without one.
func runLimit(j *sim.Job) int64 {
	if j.Limit > 0 {
		return j.Limit
	}
	return int64(^uint32(0)) * 60
}

func (m *Policy) usageFactor(j *sim.Job) float64 {
	if j.QOSIdx >= 0 {
		return m.cfg.QOS.QOS(j.QOSIdx).UsageFactor
	}
	return 1
}

// jobTRES is a running job's tres_alloc_cnt as the fair-share engine
// counts it: CPUs, memory, nodes, the billing truncated to a whole number
// (as Slurm stores it), and its GPUs when accounting tracks gres/gpu.
func (m *Policy) jobTRES(j *sim.Job) fairshare.TRES { return m.allocTRES(j.Alloc, j.Billing) }

// allocTRES is jobTRES for allocation a billed at billing.
func (m *Policy) allocTRES(a sim.Alloc, billing float64) fairshare.TRES {
	tres := fairshare.TRES{float64(a.Cores()), float64(a.MemMB()), float64(len(a)), math.Floor(max(billing, 0)), 0}
	if m.gpuMask != 0 {
		k := 0
		for _, s := range a {
			k += m.cluster.SliceGres(s, m.gpuMask)
		}
		tres[fairshare.TRESGPU] = float64(k)
	}
	return tres
}

// billingOn is the TRES billing per second of allocation a in partition
// part
// (calc_job_billable_tres): with the partition's TRESBillingWeights if it
// has them (summed, or MAX_TRES/MAX_TRES_GRES as PriorityFlags say, over
// every TRES the job holds, GPUs included when accounting tracks them),
// else the job's CPUs.
//
// With CPUTypeBilling, a partition without weights bills per node with its
// CPU type's weights instead, where a node's memory costs what its cores
// cost and a job pays the larger of its core and memory shares (seed 001's
// Odyssey policy: a job that takes all of a node's memory pays for the
// whole node).
func (m *Policy) billingOn(a sim.Alloc, part int) float64 {
	c := m.cluster
	flags := m.cfg.Priority.Flags
	if part >= 0 && part < len(m.cfg.PartitionBilling) && m.cfg.PartitionBilling[part] != nil {
		tr := c.AllocTRES(a)
		return policy.Billing(tr, m.cfg.PartitionBilling[part], flags)
	}
	if !m.cfg.CPUTypeBilling {
		return float64(a.Cores())
	}
	var b float64
	for _, sl := range a {
		nd := &c.Nodes[sl.Node]
		if c.Types[nd.Type].Name == sim.GenericCPU {
			b += float64(sl.Cores) // no known generation: Slurm's own billing, the CPUs
			continue
		}
		w := policy.CPUTypeWeights(nd.Cores, c.Types[nd.Type].Weight, float64(nd.MemMB)/1024)
		b += policy.Billing(policy.TRESAlloc{CPU: uint64(sl.Cores), MemMB: uint64(sl.MemMB)}, w, flags|policy.FlagMaxTRES)
	}
	return b
}

func (m *Policy) charge(j *sim.Job, now int64, atEnd bool) {
	uf := m.usageFactor(j)
	tres := m.jobTRES(j)
	if j.Assoc >= 0 {
		if atEnd {
			m.engine.ChargeAtEnd(j.Assoc, j.Start+m.cfg.Epoch, now+m.cfg.Epoch, j.Billing, uf, tres)
		} else {
			m.engine.Charge(j.Assoc, j.Start+m.cfg.Epoch, now+m.cfg.Epoch, j.Billing, uf, tres)
		}
	}
	if j.QOSIdx >= 0 {
		m.engine.ChargeQOS(j.QOSIdx, j.Start+m.cfg.Epoch, now+m.cfg.Epoch, j.Billing, uf, tres)
	}
}

// Ended implements sim.Policy: the partial slice since the last tick is
// charged (Slurm's priority_p_job_end).
func (m *Policy) Ended(j *sim.Job, now int64) {
	m.factors.drop(j.Idx)
	switch {
	case j.Start < 0 || j.Start > now:
	case m.cfg.Basic:
		// priority_basic.c priority_p_job_end charges no usage and takes
		// the job's whole TRES × time limit off grp_used_tres_run_secs,
		// which no tick decreased (nor does it weigh a usage factor).
		if j.Assoc >= 0 || j.QOSIdx >= 0 {
			m.engine.RunEnd(j.Assoc, j.QOSIdx, m.jobTRES(j), float64(runLimit(j)), 1)
		}
	default:
		m.charge(j, now, true)
		if j.Assoc >= 0 || j.QOSIdx >= 0 {
			m.engine.RunEnd(j.Assoc, j.QOSIdx, m.jobTRES(j), float64(j.Start+runLimit(j)-now), m.usageFactor(j))
		}
	}
	m.accrue.Release(j.Idx)
	if j.Idx >= 0 && j.Idx < len(m.begun) && m.begun[j.Idx].QOS[0] != -2 {
		if j.Idx < len(m.begunA) && m.begunA[j.Idx] >= 0 {
			m.assocs.End(m.begunA[j.Idx], &m.begun[j.Idx].TRES)
			m.begunA[j.Idx] = -1
		}
		m.limits.End(&m.begun[j.Idx])
		m.begun[j.Idx] = policy.LimitJob{QOS: [2]int{-2, -2}}
	}
}

// LastCalc implements sim.CalcPhaser: the controller's decay thread last
// ticked at t, before any job of the trace, so nothing was charged then.
func (m *Policy) LastCalc(t int64) {
	m.engine.SetLastRan(t + m.cfg.Epoch)
	m.lastTick = t
}

// Requeued implements sim.Requeuer: a requeued job's age starts afresh,
// as job_mgr.c batch_requeue_fini clears its accrue_time. Under
// priority/basic a job requeued for a failed node goes to the back of
// the line: kill_running_job_by_node_name calls set_job_prio, which gives
// it one less than the last job's priority; a preempted job keeps its
// own (_job_requeue_op sets none). Multifactor's recomputation there
// would give what the next tick gives.
func (m *Policy) Requeued(j *sim.Job, _ int64, nodeFail bool) {
	m.accrue.Reset(j.Idx)
	if nodeFail && m.cfg.Basic {
		j.Priority = m.basic(j)
	}
}

// Tick implements sim.Policy in the order of Slurm's decay thread: decay,
// charge running jobs, fair-share, then every pending job's priority.
func (m *Policy) Tick(now int64, running, pending []*sim.Job) {
	m.engine.BeginTick(now + m.cfg.Epoch)
	if !m.cfg.Basic { // priority/basic has no decay thread: nothing is charged
		for _, j := range running {
			m.charge(j, now, false)
		}
	}
	m.engine.EndTick(now + m.cfg.Epoch)
	flags := m.cfg.Priority.Flags
	for _, j := range pending {
		if !m.cfg.Basic {
			j.Priority = m.set(j, now)
		}
	}
	if flags.Has(policy.FlagCalculateRunning) && !m.cfg.Basic {
		for _, j := range running {
			j.Priority = m.set(j, now)
		}
	}
	m.lastTick = now
	m.epoch++
	if len(m.Snapshots) == 0 || now-m.lastSample >= m.cfg.FairshareSample {
		m.lastSample = now
		if m.snapRows == nil {
			m.snapRows = m.engine.Rows()
		}
		m.Snapshots = append(m.Snapshots, Snapshot{T: now, Vals: m.engine.Snapshot(nil)})
	}
}

// Reprice implements sim.Repricer: the priority of a job that waited on a
// dependency or a begin time, as the calc ticks it missed would have
// recomputed it. Fair-share moves only at ticks and its age accrues only
// from now, so computing it now gives the last tick's figure.
func (m *Policy) Reprice(j *sim.Job, now int64) {
	if !m.cfg.Basic { // priority/basic set it once, at submission
		j.Priority = m.set(j, now)
	}
}

// buildAssocLimits reads the associations' limits from the tree (sacctmgr
// dump GrpJobs, GrpTRES, MaxJobs, MaxTRES, MaxWall) into the tracker; a
// tree without limits gets none, and Hold skips it.
func (m *Policy) buildAssocLimits() error {
	t := m.cfg.Tree
	parent := make([]int, t.Len())
	lims := make([]*policy.AssocLimits, t.Len())
	anySet := false
	for i := range parent {
		parent[i] = t.Parent(i)
		if l, ok := t.AssocLimits(i); ok {
			al, err := policy.ParseAssocLimits(l.GrpJobs, l.MaxJobs, l.GrpTRES, l.MaxTRES, l.MaxWall)
			if err == nil {
				err = al.AddUsageLimits(l.GrpSubmit, l.MaxSubmit, l.GrpJobsAccrue, l.MaxJobsAccrue, l.GrpTRESMins, l.GrpTRESRunMins, l.GrpWall)
			}
			if err == nil {
				err = al.AddPerNode(l.MaxTRESPerNode)
			}
			if err != nil {
				return fmt.Errorf("association %s: limits: %w", t.Account(i), err)
			}
			lims[i], anySet = al, true
		}
	}
	if !anySet {
		return nil
	}
	m.assocs = policy.NewAssocTracker(parent, lims)
	// Accrue caps: GrpJobsAccrue per association; MaxJobsAccrue passed
	// down from the nearest association that sets it, as sacctmgr
	// propagates an account's Max limits to its users.
	grp, most := make([]int, len(parent)), make([]int, len(parent))
	anyAccrue := false
	for i := range parent {
		grp[i], most[i] = policy.Unset, policy.Unset
		if lims[i] != nil {
			grp[i] = lims[i].GrpJobsAccrue
			anyAccrue = anyAccrue || grp[i] != policy.Unset
		}
		for x := i; x >= 0 && most[i] == policy.Unset; x = parent[x] {
			if lims[x] != nil && lims[x].MaxJobsAccrue != policy.Unset {
				most[i], anyAccrue = lims[x].MaxJobsAccrue, true
			}
		}
	}
	if anyAccrue {
		m.accrue.SetAssocCaps(parent, grp, most)
	}
	return nil
}
