package multifactor

import (
	"math"
	"slices"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// submitted is what Refuse counted for a job, so Left uncounts the same.
type submitted struct {
	lj    policy.LimitJob
	assoc int
	on    bool
}

// Refuse implements sim.SubmitLimiter: first the association and QOS
// checks of AccountingStorageEnforce=associations and qos (invalidAssoc),
// then with AccountingStorageEnforce=limits acct_policy_validate at
// submit. It refuses a job over GrpSubmit,
// MaxSubmitPA or MaxSubmitPU of its QOS, or GrpSubmitJobs or MaxSubmitJobs
// of its associations (counting the jobs pending and running), and under
// DenyOnLimit a job whose request breaks a Max limit on its own; an
// accepted job is counted as submitted until Left.
func (m *Policy) Refuse(j *sim.Job, now int64) string {
	if j.Idx < 0 {
		return ""
	}
	if why := m.invalidAssoc(j); why != "" {
		return why
	}
	if !m.cfg.EnforceLimits {
		return ""
	}
	lj := m.limitJob(j, j.Part, nil)
	if why := m.limits.SubmitRefusal(&lj); why != "" {
		return why
	}
	if m.assocs != nil && j.Assoc >= 0 {
		// Without any QOS Slurm checks strictly (_acct_policy_validate).
		strict := m.limits.Strict(&lj) || (lj.QOS[0] < 0 && lj.QOS[1] < 0)
		set := m.limits.SetBy(lj.QOS)
		if why := m.assocs.SubmitRefusal(j.Assoc, &lj.TRES, lj.Wall, strict, &set); why != "" {
			return why
		}
	}
	for len(m.subm) <= j.Idx {
		m.subm = append(m.subm, submitted{})
	}
	m.subm[j.Idx] = submitted{lj: lj, assoc: j.Assoc, on: true}
	m.limits.Submitted(&lj)
	if m.assocs != nil && j.Assoc >= 0 {
		m.assocs.Submitted(j.Assoc)
	}
	return ""
}

// Left implements sim.SubmitLimiter: a job that ends stops counting
// against the submit limits (acct_policy_remove_job_submit).
func (m *Policy) Left(j *sim.Job) {
	if j.Idx < 0 || j.Idx >= len(m.subm) || !m.subm[j.Idx].on {
		return
	}
	s := &m.subm[j.Idx]
	s.on = false
	m.limits.Unsubmitted(&s.lj)
	if m.assocs != nil && s.assoc >= 0 {
		m.assocs.Unsubmitted(s.assoc)
	}
}

// TimeOuts implements sim.LimitTimer: acct_policy_job_time_out for each
// running job, in job order. Slurm checks every running job periodically;
// the usage it compares only changes at the decay thread's ticks, so
// checking right after each tick ends the same jobs at the same usage.
// With AccountingStorageEnforce=safe nothing is ended (the job was let
// start only if it could finish).
func (m *Policy) TimeOuts(now int64, running []*sim.Job) []sim.LimitTimeOut {
	if !m.cfg.EnforceLimits || m.cfg.EnforceSafe || !m.usageLimits {
		return nil
	}
	var out []sim.LimitTimeOut
	for _, j := range running {
		if j.Idx < 0 || j.Idx >= len(m.begun) || m.begun[j.Idx].QOS[0] == -2 {
			continue
		}
		b := &m.begun[j.Idx]
		use := m.qosUsage(b.QOS, j)
		why := m.limits.UsageTimeOut(b.QOS, &use, &b.TRES)
		if why == "" && m.assocs != nil && j.Assoc >= 0 {
			set := m.limits.SetBy(b.QOS)
			why = m.assocs.UsageTimeOut(j.Assoc, func(x int) policy.Usage { return m.assocUsage(x, j) }, &b.TRES, &set)
		}
		if why != "" {
			out = append(out, sim.LimitTimeOut{Job: j, Reason: why})
		}
	}
	slices.SortFunc(out, func(a, b sim.LimitTimeOut) int { return a.Job.Idx - b.Job.Idx })
	return out
}

// usageHold is the usage limits' part of HoldPlaced: GrpWall, GrpTRESMins
// and GrpTRESRunMins of the job's QOS, then of its associations. The
// pass's placed jobs add their TRES × time limit to the running
// TRES-minutes, as acct_policy_job_begin adds them when each starts.
func (m *Policy) usageHold(j *sim.Job, lj *policy.LimitJob, placed []sim.PlacedJob) string {
	if !m.usageLimits {
		return ""
	}
	mins := limitMins(j.TimeLimit)
	if j.QOSIdx >= 0 {
		q := m.cfg.QOS.QOS(j.QOSIdx)
		if q.Flags&policy.QOSUsageFactorSafe != 0 && q.UsageFactor >= 0 && (mins != policy.InfiniteMins || q.UsageFactor < 1) {
			mins = uint64(float64(mins) * q.UsageFactor)
		}
	}
	use := m.qosUsage(lj.QOS, j)
	for i, q := range lj.QOS {
		for _, p := range placed {
			if p.Job != j && q >= 0 && p.Job.QOSIdx == q {
				addRun(&use[i], p.Job, m.placedLimitJob(p).TRES)
			}
		}
	}
	if why := m.limits.UsageHold(lj.QOS, &use, &lj.TRES, mins, m.cfg.EnforceSafe); why != "" {
		return why
	}
	if m.assocs == nil || j.Assoc < 0 {
		return ""
	}
	set := m.limits.SetBy(lj.QOS)
	au := func(x int) policy.Usage {
		u := m.assocUsage(x, j)
		for _, p := range placed {
			if p.Job != j && p.Job.Assoc >= 0 && m.inChain(p.Job.Assoc, x) {
				addRun(&u, p.Job, m.placedLimitJob(p).TRES)
			}
		}
		return u
	}
	return m.assocs.UsageHold(j.Assoc, au, &lj.TRES, mins, m.cfg.EnforceSafe, &set)
}

// addRun adds a placed job's TRES tr × time limit to running
// TRES-minutes.
func addRun(u *policy.Usage, p *sim.Job, tr policy.LimitTRES) {
	mins := limitMins(p.TimeLimit)
	for k, v := range tr {
		u.RunMins[k] += v * mins
	}
}

// reqLimitTRES is a pending job's request in partition part as the limits
// count it before it has nodes (select_nodes' tres_req_cnt): CPUs, nodes,
// GPUs asked per job or per node, and memory as job_get_tres_mem counts
// a request: per node, per GPU or per CPU as asked or defaulted. A job
// asking none where no default applies (or --mem=0) gets all the memory
// of its nodes: busy, for the check select_nodes makes when it selected
// nothing, it counts the memory of the partition's first node on each
// node (_mem_per_node_part); otherwise, as the check before selection
// that stands for the one after it, the smallest node's, which no
// allocation undercuts, so that the request never holds a job its nodes
// would let start.
func (m *Policy) reqLimitTRES(j *sim.Job, part int, busy bool) policy.LimitTRES {
	r := m.requestIn(j, part)
	nodes := r.MinNodeCount() // min_nodes: a partition's MinNodes too
	var t policy.LimitTRES
	t[policy.LimCPU] = uint64(max(r.CPUs, 0))
	t[policy.LimNode] = uint64(nodes)
	for _, g := range r.Gres {
		if g.Name == "gpu" {
			t[policy.LimGPU] += uint64(max(g.PerJob, 0) + max(g.PerNode, 0)*nodes)
		}
	}
	switch {
	case r.MemPerNode > 0:
		t[policy.LimMem] = uint64(r.MemPerNode) * uint64(nodes)
	case r.MemPerGPU > 0:
		t[policy.LimMem] = uint64(r.MemPerGPU) * t[policy.LimGPU]
	case r.MemPerCPU > 0:
		t[policy.LimMem] = uint64(r.MemPerCPU) * uint64(max(r.CPUs, 0))
	case r.MemPerCPU == sim.MemWholeNode:
		if n := m.partNodes(part); n != nil {
			mem := n.minMem
			if busy {
				mem = n.firstMem
			}
			t[policy.LimMem] = uint64(mem) * uint64(nodes)
		}
	case r.MemPerCPU == sim.MemCoreShare:
		// fairsim's own rule for traces without memory: a core's share
		// of its node's memory per CPU.
		if n := m.partNodes(part); n != nil {
			share := n.minShare
			if busy && n.firstCores > 0 {
				share = float64(n.firstMem) / float64(n.firstCores)
			}
			t[policy.LimMem] = uint64(share * float64(max(r.CPUs, 0)))
		}
	}
	return t
}

// requestIn is job j's request in partition part: its own in its home
// partition (or no partition), else as sim.RequestIn makes it there.
func (m *Policy) requestIn(j *sim.Job, part int) *sim.Request {
	if part < 0 || part == j.Part || m.cluster == nil || part >= len(m.cluster.Parts) {
		return &j.Req
	}
	r := sim.RequestIn(m.cluster, j, part)
	return &r
}

// partMem is what the limits read of a partition's node sizes for a job
// asking no memory (reqLimitTRES).
type partMem struct {
	firstMem   int64 // the first node by index (bit_ffs of the partition's bitmap)
	firstCores int
	minMem     int64   // the smallest node's
	minShare   float64 // the smallest memory per core
}

// partNodes is partition part's partMem, nil for no partition or one
// without nodes. Kept per partition: nodes do not change their size.
func (m *Policy) partNodes(part int) *partMem {
	c := m.cluster
	if c == nil || part < 0 || part >= len(c.Parts) || len(c.Parts[part].Nodes) == 0 {
		return nil
	}
	for len(m.partMems) < len(c.Parts) {
		m.partMems = append(m.partMems, nil)
	}
	if pm := m.partMems[part]; pm != nil {
		return pm
	}
	pm := &partMem{minMem: -1, minShare: -1}
	first := len(c.Nodes)
	for _, n := range c.Parts[part].Nodes {
		first = min(first, n)
		nd := &c.Nodes[n]
		if pm.minMem < 0 || nd.MemMB < pm.minMem {
			pm.minMem = nd.MemMB
		}
		if share := float64(nd.MemMB) / float64(max(nd.Cores, 1)); pm.minShare < 0 || share < pm.minShare {
			pm.minShare = share
		}
	}
	pm.firstMem, pm.firstCores = c.Nodes[first].MemMB, c.Nodes[first].Cores
	pm.minMem, pm.minShare = max(pm.minMem, 0), max(pm.minShare, 0)
	m.partMems[part] = pm
	return pm
}

// inChain reports whether association a is x or below it.
func (m *Policy) inChain(a, x int) bool {
	for ; a >= 0; a = m.cfg.Tree.Parent(a) {
		if a == x {
			return true
		}
	}
	return false
}

// limitMins is a time limit in seconds as Slurm's minutes, rounded up;
// no limit is INFINITE.
func limitMins(secs int64) uint64 {
	if secs <= 0 {
		return policy.InfiniteMins
	}
	return uint64((secs + 59) / 60)
}

// qosUsage is the usage of each QOS of order, for job j: with a job QOS
// of UsageFactor 0 it reads as none, as _qos_job_runnable_post_select
// clears it so that free jobs can run.
func (m *Policy) qosUsage(order [2]int, j *sim.Job) [2]policy.Usage {
	var out [2]policy.Usage
	for i, q := range order {
		if q < 0 {
			continue
		}
		out[i] = toUsage(m.engine.QOSTRESUsage(q), m.engine.QOSTRESRunSecs(q), m.engine.QOSUsedWall(q))
		if m.usageFactor(j) == 0 {
			out[i].TRESMins, out[i].RunMins = policy.LimitTRES{}, policy.LimitTRES{}
		}
	}
	return out
}

// assocUsage is association x's usage as j's limits read it.
func (m *Policy) assocUsage(x int, j *sim.Job) policy.Usage {
	u := toUsage(m.engine.TRESUsage(x), m.engine.TRESRunSecs(x), m.engine.UsedWall(x))
	if m.usageFactor(j) == 0 {
		u.TRESMins, u.RunMins = policy.LimitTRES{}, policy.LimitTRES{}
	}
	return u
}

// toUsage converts the engine's seconds to the minutes limits compare.
func toUsage(raw fairshare.TRES, run fairshare.RunSecs, wall float64) policy.Usage {
	var u policy.Usage
	for k := range raw {
		u.TRESMins[k] = toMins(raw[k])
		u.RunMins[k] = run[k] / 60
	}
	u.WallMins = toMins(wall)
	return u
}

func toMins(secs float64) uint64 {
	v := secs / 60
	if !(v > 0) {
		return 0
	}
	if v >= math.MaxUint64 {
		return math.MaxUint64
	}
	return uint64(v)
}
