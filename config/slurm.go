package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fairsim/inputerr"
	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/scheduler"
	"fairsim/sim"
	"fairsim/slurmconf"
	"fairsim/slurmtext"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// slurmConfig reads the scenario's slurm.conf with its inline overrides
// applied: each overridden key's lines are dropped from the file and the
// inline value appended, so the result is what an admin would have
// written.
func (sc *Scenario) slurmConfig() (*slurmconf.Config, error) {
	var text []byte
	name, dir := "slurm.conf (Slurm defaults)", ""
	if sc.SlurmConf != "" {
		var err error
		name = sc.path(sc.SlurmConf)
		dir = filepath.Dir(name) // Include lines are relative to the file's folder
		text, err = inputerr.ReadFile(name, "slurm.conf", inputerr.MaxConfBytes)
		if err != nil {
			return nil, err
		}
	}
	if len(sc.Slurm) > 0 {
		keys := make([]string, 0, len(sc.Slurm))
		for k := range sc.Slurm {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var b bytes.Buffer
		for _, line := range strings.SplitAfter(string(text), "\n") {
			drop := false
			t := strings.TrimSpace(line)
			for _, k := range keys {
				if len(t) > len(k) && strings.EqualFold(t[:len(k)], k) && (t[len(k)] == '=' || t[len(k)] == ' ') {
					drop = true
				}
			}
			if !drop {
				b.WriteString(line)
			}
		}
		if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "# inline settings of %s\n", sc.file)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s\n", k, sc.Slurm[k])
		}
		text = b.Bytes()
		name += " + " + sc.file + " slurm: settings"
	}
	return slurmconf.ParseIn(name, text, dir)
}

// usesSlurm reports whether the scenario runs Slurm's policy: under the
// slurm scheduler, or over the trace's recorded schedule.
func (sc *Scenario) usesSlurm() bool { return sc.Scheduler == "slurm" || sc.Scheduler == "recorded" }

// schedParams turns SchedulerParameters and preemption settings into the
// scheduler's parameters.
func schedParams(c *slurmconf.Config) scheduler.Params {
	sp := c.SchedulerParameters
	p := scheduler.DefaultParams()
	p.SchedInterval = sp.SchedIntervalSec
	p.BatchSchedDelay = sp.BatchSchedDelaySec
	p.DefaultQueueDepth = int(sp.DefaultQueueDepth)
	p.PartitionJobDepth = int(sp.PartitionJobDepth)
	p.SchedMaxJobStart = int(sp.SchedMaxJobStart)
	p.AssocLimitStop = sp.AssocLimitStop
	p.SchedMinInterval = sp.SchedMinIntervalUsec
	// Slurm tests "defer" as a substring (proc_req.c
	// _slurm_rpc_epilog_complete), so defer_batch switches it on too.
	p.Defer = sp.Defer || sp.DeferBatch
	p.BfMaxTime = sp.BfMaxTimeSec
	p.BfYieldInterval = sp.BfYieldIntervalUsec
	p.BfYieldSleep = sp.BfYieldSleepUsec
	p.BfContinue = sp.BfContinue
	p.BackfillEnabled = c.SchedulerType != "sched/builtin" && sp.BfIntervalSec > 0
	p.BfInterval = sp.BfIntervalSec
	p.BfWindow = sp.BfWindowMin * 60
	p.BfResolution = max(sp.BfResolutionSec, 1)
	p.BfMaxJobTest = int(sp.BfMaxJobTest)
	p.BfNodeSpaceSize = int(sp.BfNodeSpaceSize)
	p.BfMaxJobStart = int(sp.BfMaxJobStart)
	p.BfMaxJobUser = int(sp.BfMaxJobUser)
	p.BfMaxJobAssoc = int(sp.BfMaxJobAssoc)
	p.BfMaxJobPart = int(sp.BfMaxJobPart)
	p.BfMaxJobUserPart = int(sp.BfMaxJobUserPart)
	p.BfMaxJobArrayResv = int(sp.BfMaxJobArrayResv)
	p.BfJobPartCountReserve = int(sp.BfJobPartCountReserve)
	p.BfOneResvPerJob = sp.BfOneResvPerJob
	p.BfRunningJobReserve = sp.BfRunningJobReserve // bf_licenses set it too
	p.BfMinAgeReserve = sp.BfMinAgeReserveSec
	p.BfMinPrioReserve = uint32(max(sp.BfMinPrioReserve, 0))
	p.PreemptType = c.PreemptType
	p.PreemptMode = c.PreemptMode
	p.PreemptExemptTime = c.PreemptExemptTime
	p.PreemptYoungestFirst = c.PreemptYoungestFirst
	return p
}

// overTime is an OverTimeLimit (minutes, slurmconf.Infinite16 for
// UNLIMITED) in the simulator's seconds.
func overTime(m uint16) int64 {
	if m == slurmconf.Infinite16 {
		return sim.Unlimited
	}
	return int64(m) * 60
}

// qosPreemption adapts the policy's QOS table to the scheduler.
type qosPreemption struct{ s *policy.QOSSet }

func (q qosPreemption) CanPreempt(a, b int) bool      { return q.s.CanPreempt(a, b) }
func (q qosPreemption) Mode(i int) policy.PreemptMode { return q.s.QOS(i).PreemptMode }
func (q qosPreemption) Priority(i int) uint32         { return q.s.QOS(i).Priority }
func (q qosPreemption) NoReserve(i int) bool          { return q.s.QOS(i).Flags&policy.QOSNoReserve != 0 }
func (q qosPreemption) GraceTime(i int) int64         { return q.s.QOS(i).GraceTime }
func (q qosPreemption) ExemptTime(i int) int64        { return q.s.QOS(i).PreemptExemptTime }
func (q qosPreemption) MinPrioThreshold(i int) uint32 {
	return q.s.QOS(i).MinPrioThreshold
}

// buildSlurm sets up the slurm scheduler and the multifactor policy.
func (sc *Scenario) buildSlurm(run *Run, conf *slurmconf.Config) error {
	flags, err := policy.ParsePriorityFlags(conf.PriorityFlags)
	if err != nil {
		return fmt.Errorf("%s: PriorityFlags: %w", conf.Where("PriorityFlags"), err)
	}
	pp := policy.DefaultParams()
	pp.Weights = policy.Weights{Age: conf.PriorityWeightAge, Assoc: conf.PriorityWeightAssoc,
		Fairshare: conf.PriorityWeightFairshare, JobSize: conf.PriorityWeightJobSize,
		Partition: conf.PriorityWeightPartition, QOS: conf.PriorityWeightQOS}
	if conf.PriorityWeightTRES != "" {
		if pp.WeightTRES, err = policy.ParseTRESWeights(conf.PriorityWeightTRES); err != nil {
			return fmt.Errorf("%s: PriorityWeightTRES: %w", conf.Where("PriorityWeightTRES"), err)
		}
		if err := tracked(run.Cluster, pp.WeightTRES); err != nil {
			return fmt.Errorf("%s: PriorityWeightTRES: %w", conf.Where("PriorityWeightTRES"), err)
		}
	}
	pp.MaxAge = conf.PriorityMaxAge
	pp.FavorSmall = conf.PriorityFavorSmall
	pp.Flags = flags

	alg := fairshare.FromPriorityFlags(flags&policy.FlagFairTree == 0, flags&policy.FlagDepthOblivious != 0)
	if sc.FairShare.Algorithm != "" {
		if alg, err = fairshare.ParseAlgorithm(sc.FairShare.Algorithm); err != nil {
			return fmt.Errorf("%s: fairshare.algorithm: %w", sc.whereIn("fairshare.algorithm", err), err)
		}
	}
	reset, err := fairshare.ParseResetPeriod(string(conf.PriorityUsageResetPeriod))
	if err != nil {
		return fmt.Errorf("%s: PriorityUsageResetPeriod: %w", conf.Where("PriorityUsageResetPeriod"), err)
	}
	loc, err := sc.location(run.Source.Header())
	if err != nil {
		return err
	}
	fsCfg := fairshare.Config{Algorithm: alg, HalfLife: conf.PriorityDecayHalfLife, ExactDecay: sc.FairShare.ExactDecay,
		Reset: reset, Loc: loc, Dampening: float64(max(conf.FairShareDampeningFactor, 1)),
		AddedAfterStart: sc.FairShare.AssocAddedAfterStart}
	if alg == fairshare.Slurm20 {
		fsCfg.Slurm20MaxUsage = float64(run.Cluster.TotalCores) * float64(conf.PriorityDecayHalfLife) * 2
	}

	var qos *policy.QOSSet
	if sc.QOS != "" {
		var warns []string
		if qos, warns, err = policy.ReadQOSFile(sc.path(sc.QOS)); err != nil {
			return err
		}
		for _, w := range warns {
			run.Warnings = append(run.Warnings, w)
		}
	}
	if qos, err = sc.applyQOSSet(qos); err != nil {
		return err
	}
	tree, err := sc.assocTree(run)
	if err != nil {
		return err
	}
	sample, err := slurmtime.ParseSeconds(sc.FairShare.SampleInterval)
	if err != nil || sample < 0 {
		return fmt.Errorf("%s: fairshare.sample_interval %q: want a Slurm time string", sc.where("fairshare.sample_interval"), sc.FairShare.SampleInterval)
	}
	mc := multifactor.Config{Priority: pp, FairShare: fsCfg, CalcPeriod: conf.PriorityCalcPeriod,
		QOS: qos, DefaultQOS: sc.DefaultQOS, Tree: tree, EnforceLimits: conf.AccountingStorageEnforce.HasLimits(),
		EnforceSafe:   conf.AccountingStorageEnforce.Safe,
		EnforceAssocs: conf.AccountingStorageEnforce.Associations, EnforceQOS: conf.AccountingStorageEnforce.QOS,
		FairshareSample: sample, Epoch: run.Source.Header().UnixStartTime, CPUTypeBilling: sc.Sim.Billing == "cpu_type",
		Basic: conf.PriorityType == "priority/basic"}
	for _, p := range run.Cluster.Parts {
		var w policy.TRESWeights
		if p.BillingWeights != "" {
			// Name slurm.conf's line where the weights come from there.
			where := "partition " + p.Name
			if pos := conf.Where("PartitionName=" + p.Name + ".TRESBillingWeights"); pos.IsValid() {
				where = pos.String() + ": PartitionName=" + p.Name
			}
			if w, err = policy.ParseTRESWeights(p.BillingWeights); err != nil {
				return fmt.Errorf("%s: TRESBillingWeights: %w", where, err)
			}
			if err := tracked(run.Cluster, w); err != nil {
				return fmt.Errorf("%s: TRESBillingWeights: %w", where, err)
			}
		}
		mc.PartitionBilling = append(mc.PartitionBilling, w)
	}
	mf, err := multifactor.New(mc, run.Cluster, run.Source.Names())
	if err != nil {
		return err
	}
	run.Policy = mf
	run.Multifactor = mf
	if sc.Scheduler == "recorded" {
		run.Scheduler = &scheduler.Recorded{NodesOf: recordedNodes(run.Cluster, run.Source.Names())}
		return nil
	}
	p := schedParams(conf)
	p.BfTestsPerSec = sc.Sim.BackfillTestsPerSecond
	s := scheduler.NewSlurm(p)
	s.QOS = qosPreemption{mf.QOSSet()} // canPreempt consults it only under preempt/qos
	s.WholeNodeCPUs = pp.Weights.JobSize > 0
	run.Scheduler = s
	return nil
}

// location is where PriorityUsageResetPeriod boundaries fall.
func (sc *Scenario) location(h *workload.Header) (*time.Location, error) {
	name := sc.FairShare.TimeZone
	if name == "" && h != nil {
		name = h.TimeZoneString
	}
	if name == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		if sc.FairShare.TimeZone == "" {
			return time.UTC, nil // an unknown zone in a trace header: UTC, as documented
		}
		return nil, fmt.Errorf("%s: fairshare.time_zone: %w", sc.whereIn("fairshare.time_zone", err), err)
	}
	return loc, nil
}

// assocTree reads the association dump, or builds one for the workload:
// the generator's own, or one account per group (accounts.map) with
// equal or usage-proportional shares from a first pass over the trace.
func (sc *Scenario) assocTree(run *Run) (*fairshare.Tree, error) {
	if sc.Assoc != "" {
		if sc.Accounts.Shares != "" {
			run.Warnings = append(run.Warnings, fmt.Sprintf("%s: accounts.shares %q ignored: the shares are those of assoc %s",
				sc.file, sc.Accounts.Shares, sc.Assoc))
		}
		f, err := os.Open(sc.path(sc.Assoc))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		// A sacctmgr dump or a `sacctmgr -P show assoc` listing.
		tree, warns, err := fairshare.ReadAssocFile(sc.path(sc.Assoc), f)
		run.Warnings = append(run.Warnings, warns...)
		return tree, err
	}
	var dump *workload.AssocDump
	switch {
	case run.generated != nil:
		if sc.Accounts.Shares != "" {
			run.Warnings = append(run.Warnings, fmt.Sprintf("%s: accounts.shares %q ignored: a generated workload's tree takes generate.shares",
				sc.file, sc.Accounts.Shares))
		}
		dump = run.generated.Assoc
	default:
		shares, err := workload.ParseShareStrategy(sc.Accounts.Shares)
		if err != nil {
			return nil, fmt.Errorf("%s: accounts.shares: %w", sc.whereIn("accounts.shares", err), err)
		}
		src, closer, err := sc.openSource()
		if err != nil {
			return nil, err
		}
		tally := workload.TallyAssoc(src)
		var j workload.Job
		for tally.Next(&j) {
		}
		closer()
		if err := tally.Err(); err != nil {
			return nil, err
		}
		dump = tally.Dump(sc.Name, shares)
		run.Notes = append(run.Notes, fmt.Sprintf("association tree: no assoc file, so one account per %s with %s shares (%d accounts)",
			sc.Accounts.Map, shares, len(dump.Accounts)))
	}
	var b bytes.Buffer
	if _, err := dump.WriteTo(&b); err != nil {
		return nil, err
	}
	run.AssocDump = b.String()
	return fairshare.ReadDump("generated association dump", io.Reader(&b))
}

// buildClusterFromSlurm builds the cluster from slurm.conf NodeName and
// PartitionName lines. A node's CPU type is the scenario's word for it
// (cluster.cpu_types nodes, --cpu-type), else the generation its Feature
// words name, else generic, with one warning listing those nodes.
func (sc *Scenario) buildClusterFromSlurm(run *Run, conf *slurmconf.Config) (*sim.Cluster, error) {
	cl := &sc.Cluster
	forced, err := sc.forcedTypes()
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	var specs []sim.NodeSpec
	var generic []string
	typed := 0 // hosts of slurm.conf that forced names
	for _, g := range conf.Nodes {
		inferred, _, found := sim.InferCPUType(g.Features)
		if !found {
			inferred, _ = sim.LookupCPUType(sim.GenericCPU)
		}
		// Hosts of one line may differ in type (an override) or state (a
		// DownNodes line): one spec per run of equal hosts.
		var cur *sim.NodeSpec
		for _, h := range g.Hosts {
			t := inferred
			if name, ok := forced[h]; ok {
				t = name
				typed++
			} else if !found {
				generic = append(generic, h)
			}
			st := g.State
			if len(conf.DownNodes) > 0 {
				st = conf.NodeState(h)
			}
			state := nodeState(st)
			if cur == nil || cur.Type != t.Name || cur.State != state {
				specs = append(specs, sim.NodeSpec{Type: t.Name, Cores: int(g.CPUs), MemMB: int64(g.RealMemory), Weight: int(g.Weight), State: state, Gres: gresOf(g.GresItems)})
				cur = &specs[len(specs)-1]
			}
			cur.Names = append(cur.Names, h)
			used[t.Name] = true
		}
	}
	if typed < len(forced) {
		// A type given to a host slurm.conf lacks is a typo, or a file
		// for another cluster: it would type nothing.
		all := map[string]bool{}
		for _, g := range conf.Nodes {
			for _, h := range g.Hosts {
				all[h] = true
			}
		}
		var missing []string
		for h := range forced {
			if !all[h] {
				missing = append(missing, h)
			}
		}
		slices.Sort(missing)
		return nil, fmt.Errorf("cpu_types (or --cpu-type): %s not a node of %s", slurmtext.Compress(missing), conf.Source.File)
	}
	if len(generic) > 0 {
		run.Warnings = append(run.Warnings, fmt.Sprintf("%d node(s) have no Feature naming a known CPU generation: %s; "+
			"they run as type generic (speed 1.0, billed by CPU count as Slurm does without TRESBillingWeights); "+
			"name their type with cluster.cpu_types or --cpu-type HOSTLIST=TYPE", len(generic), slurmtext.Compress(generic)))
	}
	types, err := sc.cpuTypes(used)
	if err != nil {
		return nil, err
	}
	var parts []sim.PartitionSpec
	for _, p := range conf.Partitions {
		sp := sim.Partition{Name: p.Name, Default: p.Default, PriorityTier: int(p.PriorityTier),
			PriorityJobFactor: int(p.PriorityJobFactor), PreemptMode: p.PreemptMode, GraceTime: int64(p.GraceTime), QOS: p.QOS,
			BillingWeights: p.TRESBillingWeights, Exclusive: p.OverSubscribe.Mode == "EXCLUSIVE",
			MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited, State: partState(p.State),
			AllowAccounts: p.AllowAccounts, DenyAccounts: p.DenyAccounts, AllowQOS: p.AllowQOS, DenyQOS: p.DenyQOS,
			AllowGroups:  p.AllowGroups,
			DefMemPerCPU: int64(p.DefMemPerCPU), DefMemPerNode: int64(p.DefMemPerNode),
			MaxMemPerCPU: int64(p.MaxMemPerCPU), MaxMemPerNode: int64(p.MaxMemPerNode),
			DefMemPerGPU: int64(p.DefMemPerGPU), DefCPUPerGPU: int(min(p.DefCPUPerGPU, 1<<20))}
		if p.MaxTime != slurmtime.Infinite {
			sp.MaxTime = p.MaxTime * 60
		}
		if p.MaxNodes != slurmconf.Infinite32 {
			sp.MaxNodes = int(min(p.MaxNodes, 1<<24)) // more than any cluster fairsim simulates
		}
		sp.MinNodes = int(min(p.MinNodes, 1<<24))
		sp.OverTime = overTime(p.OverTimeLimit)
		if p.MaxCPUsPerNode != slurmconf.Infinite32 {
			sp.MaxCPUsPerNode = int(min(p.MaxCPUsPerNode, 1<<24)) // more than any node's CPUs
		}
		switch {
		case p.DefaultTime >= 0:
			sp.DefaultTime = p.DefaultTime * 60
		case p.DefaultTime == slurmconf.Unset:
			sp.DefaultTime = sp.MaxTime
		}
		parts = append(parts, sim.PartitionSpec{Partition: sp, NodeNames: p.Hosts})
	}
	c, err := sim.NewCluster(types, specs, parts, cl.ReferenceCPU, *cl.ScaleRuntime)
	if err != nil {
		return nil, err
	}
	c.ScaleLimit = *cl.ScaleTimeLimit
	c.MemDefault = sc.memDefault(conf)
	return c, nil
}

// tracked checks that every GRES a weight list names is a TRES accounting
// tracks: slurmctld stops on a weight for a TRES that is not configured
// (_tres_weight_item: "not a configured TRES type").
func tracked(c *sim.Cluster, ws policy.TRESWeights) error {
	for _, w := range ws {
		if w.Kind != policy.TRESGRES {
			continue
		}
		found := false
		for _, t := range c.TRESGres {
			found = found || t.Name == w.Name
		}
		if !found {
			return fmt.Errorf("%s is not a configured TRES type (slurmctld refuses to start): add it to AccountingStorageTRES", w.Name)
		}
	}
	return nil
}

// gresOf turns a node's Gres= items into the simulator's counts. A
// no_consume GRES is never used up, so jobs asking for it take none.
func gresOf(items []slurmconf.GresItem) []sim.GresCount {
	var out []sim.GresCount
	for _, g := range items {
		if g.NoConsume {
			continue
		}
		out = append(out, sim.GresCount{Name: g.Name, Type: g.Type, Count: int(min(g.Count, 1<<30))})
	}
	return out
}

// memDefault is what memory jobs that ask none take: the scenario's
// choice, else Slurm's rule when SelectTypeParameters makes memory a
// consumable resource (CR_*_Memory; cons_tres without the key defaults to
// CR_Core_Memory, read_config.c), else none.
func (sc *Scenario) memDefault(conf *slurmconf.Config) sim.MemDefault {
	if sc.Sim.MemDefault == "share" {
		return sim.MemShare
	}
	stp := strings.ToUpper(conf.SelectTypeParameters)
	if strings.Contains(stp, "MEMORY") || (stp == "" && strings.Contains(conf.SelectType, "cons_tres")) {
		return sim.MemSlurm
	}
	return sim.MemNone
}

// forcedTypes maps hosts to the CPU type the scenario gives them
// (cluster.cpu_types.TYPE.nodes, and --cpu-type HOSTLIST=TYPE).
func (sc *Scenario) forcedTypes() (map[string]sim.CPUType, error) {
	out := map[string]sim.CPUType{}
	names := make([]string, 0, len(sc.Cluster.CPUTypes))
	for name := range sc.Cluster.CPUTypes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		o := sc.Cluster.CPUTypes[name]
		if o.Nodes == "" {
			continue
		}
		t, err := sim.LookupCPUType(name)
		if err != nil {
			return nil, fmt.Errorf("cpu_types: %w", err)
		}
		hosts, err := slurmtext.Expand(o.Nodes)
		if err != nil {
			return nil, fmt.Errorf("cpu_types.%s.nodes: %w", name, err)
		}
		for _, h := range hosts {
			if prev, dup := out[h]; dup && prev.Name != t.Name {
				return nil, fmt.Errorf("cpu_types: node %s is both %s and %s", h, prev.Name, t.Name)
			}
			out[h] = t
		}
	}
	return out, nil
}

// nodeState maps a slurm.conf node state onto the simulator's: the states
// a node registers into (UNKNOWN, IDLE, CLOUD, ...) allocate; the others
// do not.
func nodeState(s string) sim.NodeState {
	switch s {
	case "DOWN", "ERROR", "EXTERNAL":
		return sim.NodeDown
	case "DRAIN":
		return sim.NodeDrain
	case "FAIL":
		return sim.NodeFail
	case "FUTURE":
		return sim.NodeFuture
	}
	return sim.NodeUp
}

func partState(s string) sim.PartState {
	switch s {
	case "DOWN":
		return sim.PartDown
	case "DRAIN":
		return sim.PartDrain
	case "INACTIVE":
		return sim.PartInactive
	}
	return sim.PartUp
}

// cpuTypes returns the used CPU types in registry order, with the
// scenario's weight and speed overrides.
func (sc *Scenario) cpuTypes(used map[string]bool) ([]sim.CPUType, error) {
	for name := range sc.Cluster.CPUTypes {
		if _, err := sim.LookupCPUType(name); err != nil {
			return nil, fmt.Errorf("cpu_types: %w", err)
		}
	}
	var types []sim.CPUType
	for _, name := range sim.CPUTypeNames() {
		if !used[name] {
			continue
		}
		t, _ := sim.LookupCPUType(name)
		if o, ok := sc.Cluster.CPUTypes[name]; ok {
			if o.Weight > 0 {
				t.Weight = o.Weight
			}
			if o.Speed > 0 {
				t.Speed = o.Speed
			}
		}
		types = append(types, t)
	}
	return types, nil
}

// recordedNodes resolves the node lists a trace says its jobs ran on
// (sacct's NodeList) to the cluster's node indices, once per list; a list
// naming a node the cluster lacks, or none, resolves to nil.
func recordedNodes(c *sim.Cluster, names *workload.Names) func(j *sim.Job) []int {
	idx := make(map[string]int, len(c.Nodes))
	for i := range c.Nodes {
		idx[c.Nodes[i].Name] = i
	}
	memo := map[int32][]int{}
	return func(j *sim.Job) []int {
		if j.AllocNodeList <= 0 || names == nil {
			return nil
		}
		if ns, ok := memo[j.AllocNodeList]; ok {
			return ns
		}
		var ns []int
		hosts, err := slurmtext.Expand(names.NodeLists.Name(j.AllocNodeList - 1))
		if err == nil {
			for _, h := range hosts {
				n, ok := idx[h]
				if !ok {
					ns = nil
					break
				}
				ns = append(ns, n)
			}
		}
		memo[j.AllocNodeList] = ns
		return ns
	}
}
