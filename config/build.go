package config

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"fairsim/ctldlog"
	"fairsim/multifactor"
	"fairsim/policy/fairshare"
	"fairsim/scheduler"
	"fairsim/sim"
	"fairsim/slurmconf"
	"fairsim/slurmtext"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// Run is a scenario made ready to simulate.
type Run struct {
	Scenario  *Scenario
	Cluster   *sim.Cluster
	Scheduler sim.Scheduler
	Policy    sim.Policy
	// Multifactor is the policy when the scheduler is slurm (sprio, sshare,
	// fairshare.csv read it), nil otherwise.
	Multifactor *multifactor.Policy
	Source      workload.Source
	Options     sim.Options
	// Notes say what fairsim chose where the scenario was silent;
	// Warnings what it ignored. The CLI prints both.
	Notes     []string
	Warnings  []string
	AssocDump string // the association dump fairsim generated, if any
	Slurm     *slurmconf.Config
	generated *workload.Generated
	closer    func() error
}

// Close releases the trace file.
func (r *Run) Close() error {
	if r.closer != nil {
		return r.closer()
	}
	return nil
}

// Simulate runs the simulation.
func (r *Run) Simulate() (*sim.Result, error) {
	return sim.New(r.Cluster, r.Scheduler, r.Policy, r.Source, r.Options).Run()
}

// Resolve fills every unset setting with its default, so the scenario
// written to scenario.resolved.yaml shows everything in force.
func (sc *Scenario) Resolve() error {
	if sc.file == "" {
		sc.file = "scenario"
		if sc.Trace != nil {
			sc.file = "--trace " + sc.Trace.File
		}
	}
	if sc.Name == "" {
		sc.Name = "unnamed"
	}
	if sc.Scheduler == "" {
		sc.Scheduler = "easy"
	}
	if _, err := scheduler.New(sc.Scheduler); err != nil {
		return fmt.Errorf("%s: scheduler: %w", sc.whereIn("scheduler", err), err)
	}
	if sc.Trace == nil && sc.Generate == nil {
		return fmt.Errorf("%s: the scenario names neither a trace nor a generated workload", sc.file)
	}
	if sc.Trace != nil && sc.Generate != nil {
		return fmt.Errorf("%s: the scenario names both a trace and a generated workload: keep one", sc.file)
	}
	if g := sc.Generate; g != nil {
		// A key the file wrote keeps its value, zero included: power_of_two
		// 0, daily 0 and feature_share 0 are choices, and days 0 or
		// max_cpus 0 are errors, not the defaults.
		d := workload.DefaultGenConfig()
		def := func(key string) bool { return !sc.has("generate." + key) }
		setDefaultIf(def("jobs"), &g.Jobs, d.Jobs)
		setDefaultIf(def("days"), &g.Days, d.Days)
		setDefaultIf(def("users"), &g.Users, d.Users)
		setDefaultIf(def("accounts"), &g.Accounts, d.Accounts)
		setDefaultIf(def("max_cpus"), &g.MaxCPUs, d.MaxCPUs)
		setDefaultIf(def("power_of_two"), &g.PowerOfTwo, d.PowerOfTwo)
		setDefaultIf(def("runtime"), &g.Runtime, d.Runtime)
		setDefaultIf(def("runtime_median"), &g.RuntimeMedian, d.RuntimeMedian)
		setDefaultIf(def("runtime_sigma"), &g.RuntimeSigma, d.RuntimeSigma)
		setDefaultIf(def("limit_factor"), &g.LimitFactor, d.LimitFactor)
		setDefaultIf(def("max_limit"), &g.MaxLimit, slurmtime.Format(d.MaxLimit))
		setDefaultIf(def("daily"), &g.Daily, d.Daily)
		setDefaultIf(def("weekend"), &g.Weekend, d.Weekend)
		setDefaultIf(def("feature_share"), &g.FeatureShare, d.FeatureShare)
	}
	if t := sc.Trace; t != nil {
		if t.Format == "" {
			// From the content (a sacct header, '|' fields, an SWF ';'
			// header or 18 numbers), not the name; trace.format overrides.
			if _, err := os.Stat(sc.path(t.File)); err != nil {
				// Not readable yet: opening it will say so; until then
				// the name is all there is to go by.
				t.Format = workload.GuessFormat(t.File)
				if t.Format == "" {
					t.Format = workload.FormatSWF
				}
			} else {
				f, err := workload.DetectFormat(sc.path(t.File))
				if err != nil {
					return fmt.Errorf("%s: trace: %w", sc.whereIn("trace", err), err)
				}
				t.Format = f
			}
		}
		if t.Format != workload.FormatSWF && t.Format != workload.FormatSacct {
			return fmt.Errorf("%s: trace.format %q: want swf or sacct", sc.where("trace.format"), t.Format)
		}
		if _, err := workload.ParseTransforms(t.Transforms); err != nil {
			return fmt.Errorf("%s: trace.transforms: %w", sc.whereIn("trace.transforms", err), err)
		}
	}
	cl := &sc.Cluster
	if cl.ReferenceCPU == "" {
		cl.ReferenceCPU = sim.ReferenceCPU
	}
	if cl.ScaleRuntime == nil {
		on := true
		cl.ScaleRuntime = &on
	}
	if cl.ScaleTimeLimit == nil {
		on := true
		cl.ScaleTimeLimit = &on
	}
	if len(cl.Nodes) == 0 && !cl.FromTraceHeader && sc.SlurmConf == "" {
		// Without nodes in the scenario or a slurm.conf to hold NodeName
		// lines, a trace's header describes the machine.
		if sc.Trace == nil {
			return fmt.Errorf("%s: cluster: no nodes given (a generated workload needs cluster.nodes or NodeName lines in slurm_conf)", sc.file)
		}
		cl.FromTraceHeader = true
	}
	if cl.FromTraceHeader && cl.MemPerCore == "" {
		cl.MemPerCore = "4G"
	}
	for i := range cl.Partitions {
		p := &cl.Partitions[i]
		if p.PriorityTier == 0 {
			p.PriorityTier = 1
		}
		if p.PriorityJobFactor == 0 {
			p.PriorityJobFactor = 1
		}
		if p.MaxTime == "" {
			p.MaxTime = "UNLIMITED"
		}
		if p.DefaultTime == "" {
			p.DefaultTime = "UNLIMITED"
		}
		if p.OverSubscribe == "" {
			p.OverSubscribe = "NO"
		}
		if p.Nodes == "" {
			p.Nodes = "ALL"
		}
	}
	if sc.Accounts.Map == "" {
		sc.Accounts.Map = "group"
	}
	// accounts.shares shapes only a tree fairsim builds over a trace; with
	// an assoc file or a generated workload the tree's shares come from
	// there, and writing "equal" would misstate what was in force.
	if sc.Accounts.Shares == "" && sc.Assoc == "" && sc.Generate == nil {
		sc.Accounts.Shares = "equal"
	}
	if sc.FairShare.SampleInterval == "" {
		sc.FairShare.SampleInterval = "6:00:00"
	}
	if sc.Sim.MissingTimeLimit == "" {
		sc.Sim.MissingTimeLimit = "slurm"
	}
	switch sc.Sim.MemDefault {
	case "":
		sc.Sim.MemDefault = "slurm"
	case "slurm", "share":
	default:
		return fmt.Errorf("%s: sim.mem_default %q: want slurm or share", sc.where("sim.mem_default"), sc.Sim.MemDefault)
	}
	if sc.Sim.SampleInterval == "" {
		sc.Sim.SampleInterval = "1:00:00"
	}
	if sc.Sim.ControllerUptime == "" {
		sc.Sim.ControllerUptime = "0"
	}
	if sc.Sim.CompletingSeconds == nil {
		d := int64(0)
		if sc.Scheduler == "slurm" {
			d = 1
		}
		sc.Sim.CompletingSeconds = &d
	}
	if sc.Sim.BackgroundLoopDelay < 0 {
		return fmt.Errorf("%s: sim.background_loop_delay %d: want 0 or more seconds", sc.where("sim.background_loop_delay"), sc.Sim.BackgroundLoopDelay)
	}
	if sc.Sim.DecayThreadDelay < 0 {
		return fmt.Errorf("%s: sim.decay_thread_delay %d: want 0 or more seconds", sc.where("sim.decay_thread_delay"), sc.Sim.DecayThreadDelay)
	}
	if *sc.Sim.CompletingSeconds < 0 {
		return fmt.Errorf("%s: sim.completing_seconds %d: want 0 or more seconds", sc.where("sim.completing_seconds"), *sc.Sim.CompletingSeconds)
	}
	if sc.Sim.BackfillTestsPerSecond < 0 || math.IsNaN(sc.Sim.BackfillTestsPerSecond) || math.IsInf(sc.Sim.BackfillTestsPerSecond, 0) {
		return fmt.Errorf("%s: sim.backfill_tests_per_second %v: want 0 (no cost) or a positive rate", sc.where("sim.backfill_tests_per_second"), sc.Sim.BackfillTestsPerSecond)
	}
	switch sc.Sim.Billing {
	case "":
		sc.Sim.Billing = "slurm"
	case "slurm", "cpu_type":
	default:
		return fmt.Errorf("%s: sim.billing %q: want slurm or cpu_type", sc.where("sim.billing"), sc.Sim.Billing)
	}
	return nil
}

// Build makes a scenario ready to run. Resolve must have been called. On
// an error the Run returned still holds the notes and warnings gathered
// until then (they often explain the error); it has nothing to close.
func (sc *Scenario) Build() (*Run, error) {
	run := &Run{Scenario: sc}
	var err error
	fail := func(err error) (*Run, error) {
		run.Close()
		run.closer = nil
		return run, err
	}
	run.Scheduler, err = scheduler.New(sc.Scheduler)
	if err != nil {
		return fail(err)
	}
	conf, err := sc.slurmConfig()
	if conf != nil {
		run.Warnings = append(run.Warnings, sc.slurmWarnings(conf.Warnings)...)
	}
	if err != nil {
		return fail(err)
	}
	run.Slurm = conf
	sc.SlurmResolved = conf.String()
	sc.Ignored = conf.Ignored
	if len(conf.Nodes) > 0 {
		if run.Cluster, err = sc.buildClusterFromSlurm(run, conf); err != nil {
			return fail(fmt.Errorf("%s: cluster: %w", sc.whereIn("cluster", err), err))
		}
	} else if len(sc.Cluster.Nodes) == 0 && sc.SlurmConf != "" && !sc.Cluster.FromTraceHeader {
		why := "it has no NodeName lines"
		if conf.DynamicNodes() {
			why = "its nodes are dynamic (no NodeName lines; a NodeSet with Feature= takes the nodes that register with slurmd -Z)"
		}
		return fail(fmt.Errorf("%s: slurm.conf %s defines no nodes: %s, so the file alone cannot say how big the cluster is; give the nodes in the scenario's cluster.nodes",
			sc.file, sc.SlurmConf, why))
	}
	if sc.Generate != nil {
		if run.Cluster != nil && sc.Generate.FitCluster {
			run.Notes = append(run.Notes, sc.Generate.fit(run.Cluster))
		}
		gc, err := sc.genConfig()
		if err != nil {
			return fail(err)
		}
		if run.generated, err = workload.Generate(gc); err != nil {
			return fail(fmt.Errorf("%s: generate: %w", sc.whereIn("generate", err), err))
		}
	}
	sc.gen = run.generated
	var closer func() error
	run.Source, closer, err = sc.openSource()
	if err != nil {
		return fail(err)
	}
	run.closer = closer
	if run.Cluster == nil {
		if run.Cluster, err = sc.buildCluster(run.Source.Header()); err != nil {
			return fail(fmt.Errorf("%s: cluster: %w", sc.whereIn("cluster", err), err))
		}
		// Partitions of the scenario's own take the cluster-wide
		// OverTimeLimit (slurm.conf or the slurm: map).
		for i := range run.Cluster.Parts {
			run.Cluster.Parts[i].OverTime = overTime(conf.OverTimeLimit)
		}
	}
	if err := sc.applyPartitionSet(run.Cluster); err != nil {
		return fail(err)
	}
	if w, err := run.Cluster.TrackTRES(conf.AccountingStorageTRES); err != nil {
		return fail(fmt.Errorf("%s: %w", conf.Where("AccountingStorageTRES"), err))
	} else if w != "" {
		run.Warnings = append(run.Warnings, w)
	}
	if sc.usesSlurm() {
		if err := sc.buildSlurm(run, conf); err != nil {
			return fail(err)
		}
	}
	var tree *fairshare.Tree
	if run.Multifactor != nil {
		tree = run.Multifactor.Tree()
	}
	sc.InForce = inForce(run.Cluster, tree, sc.Sim.Billing == "cpu_type", sc.Cluster.ReferenceCPU)
	if tree != nil {
		sc.InForce.SharesFrom = sc.sharesFrom()
	}
	sample, err := slurmtime.ParseSeconds(sc.Sim.SampleInterval)
	if err != nil || sample <= 0 {
		return fail(fmt.Errorf("%s: sim.sample_interval %q: want a positive Slurm time string", sc.where("sim.sample_interval"), sc.Sim.SampleInterval))
	}
	uptime, err := slurmtime.ParseSeconds(sc.Sim.ControllerUptime)
	if err != nil || uptime < 0 {
		return fail(fmt.Errorf("%s: sim.controller_uptime %q: want a Slurm time string (days-hours:minutes:seconds)", sc.where("sim.controller_uptime"), sc.Sim.ControllerUptime))
	}
	requeue, err := requeueDelay(conf)
	if err != nil {
		return fail(err)
	}
	run.Options = sim.Options{MissingLimit: sc.Sim.MissingTimeLimit, FailImpossible: sc.Sim.FailImpossible,
		IgnoreDependencies: sc.Sim.IgnoreDependencies, SampleInterval: sample,
		ControllerUptime: uptime, CompletingTime: *sc.Sim.CompletingSeconds, RequeueDelay: requeue,
		DecayThreadDelay: sc.Sim.DecayThreadDelay, LoopDelay: sc.Sim.BackgroundLoopDelay}
	if sc.usesSlurm() {
		// The 30 s time-limit check and OverTimeLimit apply to Slurm's
		// controller, and to its recorded schedule; fifo and easy end a
		// job that overruns at its limit.
		run.Options.TimeLimitTick, run.Options.KillWait = timeLimitTick, int64(conf.KillWait)
	}
	if sc.Trace != nil {
		run.Options.File = sc.Trace.File
	}
	if sc.Sim.Timeline != "" {
		loc := time.Local
		if sc.Trace != nil && sc.Trace.TimeZone != "" {
			if loc, err = time.LoadLocation(sc.Trace.TimeZone); err != nil {
				return fail(fmt.Errorf("%s: trace.time_zone: %w", sc.whereIn("trace.time_zone", err), err))
			}
		}
		if run.Options.Timeline, err = ctldlog.ReadTimelineFile(sc.path(sc.Sim.Timeline), loc); err != nil {
			return fail(fmt.Errorf("%s: sim.timeline: %w", sc.whereIn("sim.timeline", err), err))
		}
		// The log does not say when an ended job's epilog completed, and
		// its passes ran when the controller did: a job's resources are
		// free at its logged end.
		run.Options.CompletingTime = 0
	}
	// JobRequeue=0 ends jobs of failed nodes instead of requeuing them
	// (read_config.c: default 1).
	switch v := conf.Extra["JobRequeue"]; v {
	case "", "1":
	case "0":
		run.Options.NoRequeue = true
	default:
		return fail(fmt.Errorf("%s: JobRequeue %q: want 0 or 1", conf.Where("JobRequeue"), v))
	}
	// EnforcePartLimits=ALL refuses a job that breaks the limits of any
	// partition it names (job_mgr.c _select_nodes_parts_resvs); NO and
	// ANY let it run in one whose limits it keeps
	// (slurm_protocol_defs.c parse_part_enforce_type; default NO).
	switch v := strings.ToLower(conf.Extra["EnforcePartLimits"]); v {
	case "", "no", "down", "false", "0", "yes", "up", "true", "1", "any":
	case "all":
		run.Options.EnforcePartLimitsAll = true
	default:
		return fail(fmt.Errorf("%s: EnforcePartLimits %q: want NO, ANY (YES) or ALL", conf.Where("EnforcePartLimits"), conf.Extra["EnforcePartLimits"]))
	}
	if sc.Events != "" {
		if run.Options.Events, err = sc.siteEvents(run.Cluster, run.Source.Header()); err != nil {
			return fail(err)
		}
	}
	return run, nil
}

// openSource opens the scenario's workload from the start, with jobs that
// lack an account given one by accounts.map. The association pre-scan and
// the simulation each open their own.
func (sc *Scenario) openSource() (workload.Source, func() error, error) {
	var src workload.Source
	closer := func() error { return nil }
	switch {
	case sc.gen != nil:
		src = sc.gen.Source()
	case sc.Trace != nil:
		t := sc.Trace
		switch t.Format {
		case workload.FormatSWF:
			r, err := workload.OpenSWF(sc.path(t.File), workload.SWFOptions{SkipInvalid: t.SkipInvalid, FailImpossible: sc.Sim.FailImpossible})
			if err != nil {
				return nil, nil, err
			}
			src, closer = r, r.Close
		case workload.FormatSacct:
			opts := workload.SacctOptions{SkipInvalid: t.SkipInvalid, DropCancelledPending: t.DropCancelledPending}
			if t.Fields != "" {
				opts.Fields = workload.ParseSacctFields(t.Fields)
			}
			if t.TimeZone != "" {
				loc, err := time.LoadLocation(t.TimeZone)
				if err != nil {
					return nil, nil, fmt.Errorf("%s: trace.time_zone: %w", sc.whereIn("trace.time_zone", err), err)
				}
				opts.Location = loc
			}
			r, err := workload.OpenSacct(sc.path(t.File), opts)
			if err != nil {
				return nil, nil, err
			}
			src, closer = r, r.Close
		default:
			return nil, nil, fmt.Errorf("%s: trace.format %q: want swf or sacct", sc.where("trace.format"), t.Format)
		}
		ts, err := workload.ParseTransforms(t.Transforms)
		if err != nil {
			closer()
			return nil, nil, fmt.Errorf("%s: trace.transforms: %w", sc.whereIn("trace.transforms", err), err)
		}
		src = workload.Chain(src, ts...)
	default:
		return nil, nil, fmt.Errorf("%s: no workload", sc.file)
	}
	m, err := workload.ParseAccountMap(sc.Accounts.Map, func(p string) (io.ReadCloser, error) { return os.Open(sc.path(p)) })
	if err != nil {
		closer()
		return nil, nil, fmt.Errorf("%s: accounts.map: %w", sc.whereIn("accounts.map", err), err)
	}
	src = workload.MapAccounts(src, m)
	if sc.Trace == nil || sc.Trace.File == "-" {
		// A generated workload is in memory already; standard input may
		// stall, and a run that fails would then wait to close it.
		return src, closer, nil
	}
	// A trace is parsed on a second core, ahead of the simulation.
	a := sim.ReadAhead(src)
	return a, func() error { a.Close(); return closer() }, nil
}

// fit sizes a generated workload to cluster c (see FitCluster) and says
// what it chose.
func (g *GenSpec) fit(c *sim.Cluster) string {
	var open, up []int
	for i := range c.Parts {
		p := &c.Parts[i]
		if p.State != sim.PartUp {
			continue
		}
		up = append(up, i)
		if p.AllowAccounts == nil && p.AllowGroups == nil && p.AllowQOS == nil {
			open = append(open, i)
		}
	}
	pick := open
	if len(pick) == 0 {
		pick = up
	}
	if len(pick) == 0 {
		for i := range c.Parts {
			pick = append(pick, i)
		}
	}
	// One time-limit range for all jobs: the longest MaxTime among them
	// (at most 7 days), leaving out the short partitions (debug, express)
	// that jobs so long would be refused by.
	maxLimit := int64(60)
	for _, i := range pick {
		mt := c.Parts[i].MaxTime
		if mt == sim.Unlimited {
			mt = 7 * 86400
		}
		maxLimit = max(maxLimit, min(mt, 7*86400))
	}
	long := pick[:0:0]
	for _, i := range pick {
		if mt := c.Parts[i].MaxTime; mt == sim.Unlimited || mt >= maxLimit {
			long = append(long, i)
		}
	}
	pick = long
	g.Partitions = g.Partitions[:0]
	smallest, nodeCores, nodes := math.MaxInt, 0, 0
	wholeNode := false // jobs asking no memory take whole nodes' memory
	for _, i := range pick {
		p := &c.Parts[i]
		g.Partitions = append(g.Partitions, p.Name)
		usable := 0
		for _, n := range p.Nodes {
			if c.Nodes[n].State.Usable() {
				usable += c.Nodes[n].Cores
				nodeCores += c.Nodes[n].Cores
				nodes++
			}
		}
		smallest = min(smallest, max(usable, 1))
		wholeNode = wholeNode || (c.MemDefault == sim.MemSlurm && p.DefMemPerCPU == 0 && p.DefMemPerNode == 0)
	}
	g.MaxCPUs = min(smallest, 256)
	g.MaxLimit = slurmtime.Format(maxLimit)
	// Offered load = jobs × mean cores held × mean run time / (cores ×
	// span): sizes are log-uniform on [1, MaxCPUs] (mean (M-1)/ln M), run
	// times log-normal (mean median·e^(σ²/2)); a job that takes a node's
	// whole memory holds the whole node.
	held := 1.0
	if m := float64(g.MaxCPUs); m > 1 {
		held = (m - 1) / math.Log(m)
	}
	if wholeNode && nodes > 0 {
		held = max(held, float64(nodeCores)/float64(nodes))
	}
	meanRun := g.RuntimeMedian * math.Exp(g.RuntimeSigma*g.RuntimeSigma/2)
	usable := max(c.TotalCores-c.DownCores, 1)
	jobs := 0.8 * float64(usable) * g.Days * 86400 / (held * max(meanRun, 1))
	g.Jobs = int(min(max(jobs, 200), 5000))
	note := fmt.Sprintf("generated workload: %d jobs over %g days in partition(s) %s, 1 to %d CPUs and at most %s each (no --trace)",
		g.Jobs, g.Days, strings.Join(g.Partitions, ","), g.MaxCPUs, g.MaxLimit)
	return note + g.fitGPUs(c, pick)
}

// fitGPUs makes a share of the generated jobs GPU jobs when the chosen
// partitions have GPU nodes (a GPU site's workload is not CPU jobs only):
// 30 % unless the scenario says otherwise, in the partitions with GPUs, at
// most the fewest GPUs of those partitions' GPU nodes per node, a typed
// request for half of them when the nodes name types.
func (g *GenSpec) fitGPUs(c *sim.Cluster, pick []int) string {
	var parts, types []string
	perNode := 0
	for _, i := range pick {
		p := &c.Parts[i]
		if p.GPUs == 0 {
			continue
		}
		parts = append(parts, p.Name)
		for _, n := range p.Nodes {
			k := c.SliceGPUs(sim.Slice{Node: n, Gres: c.WholeGres(n)})
			if k > 0 && (perNode == 0 || k < perNode) {
				perNode = k
			}
		}
	}
	if len(parts) == 0 || g.GPUShare > 0 || len(g.GPUPartitions) > 0 {
		return ""
	}
	for _, k := range c.GresKinds {
		if k.Name == "gpu" && k.Type != "" && !slices.Contains(types, k.Type) {
			types = append(types, k.Type)
		}
	}
	g.GPUShare, g.GPUPartitions, g.GPUsPerNode, g.GPUTypes = 0.3, parts, perNode, types
	return fmt.Sprintf("; 30%% of them ask 1 to %d GPUs in %s", perNode, strings.Join(parts, ","))
}

// setDefault sets *v to d when it is the zero value.
func setDefault[T comparable](v *T, d T) { setDefaultIf(true, v, d) }

// setDefaultIf is setDefault when cond holds (the key was not written).
func setDefaultIf[T comparable](cond bool, v *T, d T) {
	var zero T
	if cond && *v == zero {
		*v = d
	}
}

// genConfig turns the resolved GenSpec into the generator's configuration;
// the generated machine size follows the scenario's cluster.
func (sc *Scenario) genConfig() (workload.GenConfig, error) {
	g := sc.Generate
	c := workload.DefaultGenConfig()
	c.Seed, c.Jobs, c.Days, c.Users, c.Accounts = g.Seed, g.Jobs, g.Days, g.Users, g.Accounts
	c.Shares, c.MaxCPUs, c.PowerOfTwo = g.Shares, g.MaxCPUs, g.PowerOfTwo
	c.Runtime, c.RuntimeMedian, c.RuntimeSigma, c.LimitFactor = g.Runtime, g.RuntimeMedian, g.RuntimeSigma, g.LimitFactor
	c.Daily, c.Weekend, c.Partitions, c.Features = g.Daily, g.Weekend, g.Partitions, g.Features
	c.FeatureShare, c.MemShare = g.FeatureShare, g.MemShare
	if len(g.Features) == 0 {
		c.FeatureShare = 0
	}
	c.GPUShare, c.GPUPartitions, c.GPUTypes = g.GPUShare, g.GPUPartitions, g.GPUTypes
	dist, err := workload.ParseGPUDist(g.GPUsPerJob)
	if err != nil {
		return c, fmt.Errorf("%s: generate.gpus_per_job: %w", sc.whereIn("generate.gpus_per_job", err), err)
	}
	if dist != nil {
		c.GPUsPerJob = dist
	}
	// Zero (the key left out) keeps the generator's default; a typed share
	// of 0 is no gpu_types.
	if g.GPUTypeShare != 0 {
		c.GPUTypeShare = g.GPUTypeShare
	}
	if g.CPUsPerGPU != 0 {
		c.CPUsPerGPU = g.CPUsPerGPU
	}
	if g.GPUsPerNode != 0 {
		c.GPUsPerNode = g.GPUsPerNode
	}
	if c.QOS, err = workload.ParseQOSMix(g.QOS); err != nil {
		return c, fmt.Errorf("%s: generate.qos: %w", sc.whereIn("generate.qos", err), err)
	}
	ml, err := slurmtime.ParseSeconds(g.MaxLimit)
	if err != nil || ml <= 0 {
		return c, fmt.Errorf("%s: generate.max_limit %q: want a positive Slurm time string", sc.where("generate.max_limit"), g.MaxLimit)
	}
	c.MaxLimit = ml
	c.Cluster = sc.Name
	if err := c.Validate(); err != nil {
		return c, fmt.Errorf("%s: generate: %w", sc.whereIn("generate", err), err)
	}
	return c, nil
}

func (sc *Scenario) buildCluster(h *workload.Header) (*sim.Cluster, error) {
	cl := &sc.Cluster
	if cl.FromTraceHeader {
		mem, err := ParseMemMB(cl.MemPerCore)
		if err != nil {
			return nil, fmt.Errorf("mem_per_core: %w", err)
		}
		c, err := sim.HeaderCluster(h.MaxNodes, h.MaxProcs, cl.ReferenceCPU, mem)
		if err != nil {
			return nil, err
		}
		c.ScaleRuntime = *cl.ScaleRuntime
		c.ScaleLimit = *cl.ScaleTimeLimit
		return c, nil
	}
	// Only the CPU types in use are the cluster's, in registry order
	// (slowest first) so CSV and plots list them stably.
	used := map[string]bool{}
	if len(cl.Nodes) == 0 {
		return nil, fmt.Errorf("no nodes: give cluster.nodes, NodeName lines in slurm_conf, or a trace whose header has MaxNodes/MaxProcs")
	}
	var specs []sim.NodeSpec
	for i, g := range cl.Nodes {
		t, err := sim.LookupCPUType(g.Feature)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %s: Feature: %w", i, g.NodeName, err)
		}
		used[t.Name] = true
		names, err := slurmtext.Expand(g.NodeName)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d]: NodeName: %w", i, err)
		}
		mem, err := ParseMemMB(g.RealMemory)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %s: RealMemory: %w", i, g.NodeName, err)
		}
		items, err := slurmconf.ParseGres(g.Gres)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %s: Gres: %w", i, g.NodeName, err)
		}
		specs = append(specs, sim.NodeSpec{Names: names, Type: t.Name, Cores: g.CPUs, MemMB: mem, Weight: max(g.Weight, 1), Gres: gresOf(items)})
	}
	types, err := sc.cpuTypes(used)
	if err != nil {
		return nil, err
	}
	var parts []sim.PartitionSpec
	for i, ps := range cl.Partitions {
		p := sim.Partition{Name: ps.PartitionName, Default: ps.Default, PriorityTier: ps.PriorityTier,
			PriorityJobFactor: ps.PriorityJobFactor, QOS: ps.QOS,
			BillingWeights: ps.TRESBillingWeights, DefCPUPerGPU: ps.DefCPUPerGPU}
		if ps.DefMemPerGPU != "" {
			mem, err := ParseMemMB(ps.DefMemPerGPU)
			if err != nil {
				return nil, fmt.Errorf("partitions[%d] %s: DefMemPerGPU: %w", i, ps.PartitionName, err)
			}
			p.DefMemPerGPU = mem
		}
		var err error
		if ps.PreemptMode != "" { // unset: the cluster-wide mode
			if p.PreemptMode, err = slurmconf.ParsePreemptMode(ps.PreemptMode); err != nil {
				return nil, fmt.Errorf("partitions[%d] %s: PreemptMode: %w", i, ps.PartitionName, err)
			}
		}
		if p.MaxTime, err = limit(ps.MaxTime); err != nil {
			return nil, fmt.Errorf("partitions[%d] %s: MaxTime: %w", i, ps.PartitionName, err)
		}
		if p.DefaultTime, err = limit(ps.DefaultTime); err != nil {
			return nil, fmt.Errorf("partitions[%d] %s: DefaultTime: %w", i, ps.PartitionName, err)
		}
		if ps.MaxNodes < 0 || ps.MaxNodes > 1<<24 {
			return nil, fmt.Errorf("partitions[%d] %s: MaxNodes %d: want a count of nodes from 1 (absent: UNLIMITED)", i, ps.PartitionName, ps.MaxNodes)
		}
		p.MaxNodes = ps.MaxNodes
		if ps.MinNodes < 0 || ps.MinNodes > 1<<24 {
			return nil, fmt.Errorf("partitions[%d] %s: MinNodes %d: want a count of nodes (0 and 1, or absent, set no floor)", i, ps.PartitionName, ps.MinNodes)
		}
		p.MinNodes = ps.MinNodes
		if ps.MaxCPUsPerNode < 0 || ps.MaxCPUsPerNode > 1<<24 {
			return nil, fmt.Errorf("partitions[%d] %s: MaxCPUsPerNode %d: want a count of CPUs from 1 (absent: UNLIMITED)", i, ps.PartitionName, ps.MaxCPUsPerNode)
		}
		p.MaxCPUsPerNode = ps.MaxCPUsPerNode
		switch strings.ToUpper(strings.SplitN(ps.OverSubscribe, ":", 2)[0]) {
		case "EXCLUSIVE":
			p.Exclusive = true
		case "NO", "YES", "FORCE":
		default:
			return nil, fmt.Errorf("partitions[%d] %s: OverSubscribe %q: want NO, YES, FORCE or EXCLUSIVE", i, ps.PartitionName, ps.OverSubscribe)
		}
		spec := sim.PartitionSpec{Partition: p}
		if !strings.EqualFold(ps.Nodes, "ALL") {
			if spec.NodeNames, err = slurmtext.Expand(ps.Nodes); err != nil {
				return nil, fmt.Errorf("partitions[%d] %s: Nodes: %w", i, ps.PartitionName, err)
			}
		}
		parts = append(parts, spec)
	}
	c, err := sim.NewCluster(types, specs, parts, cl.ReferenceCPU, *cl.ScaleRuntime)
	if err != nil {
		return nil, err
	}
	c.ScaleLimit = *cl.ScaleTimeLimit
	return c, nil
}

// limit parses a partition time limit (minutes, rounded up as slurm.conf
// does) into seconds, or sim.Unlimited.
func limit(s string) (int64, error) {
	m, err := slurmtime.ParseMinutes(s)
	if err != nil {
		return 0, err
	}
	if m == slurmtime.Infinite {
		return sim.Unlimited, nil
	}
	return m * 60, nil
}

// ParseMemMB parses a memory size in Slurm's style: a number of MB, or a
// number with a K, M, G or T suffix (binary units, as Slurm uses).
func ParseMemMB(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty memory size")
	}
	mult := 1.0
	switch strings.ToUpper(t[len(t)-1:]) {
	case "K":
		mult = 1.0 / 1024
	case "M":
		mult = 1
	case "G":
		mult = 1024
	case "T":
		mult = 1024 * 1024
	}
	if mult != 1 || strings.ToUpper(t[len(t)-1:]) == "M" {
		t = t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, 64)
	// NaN, infinities and sizes past a petabyte are typos, not memory.
	if err != nil || !(v >= 0) || math.IsInf(v, 0) || v*mult > 1<<30 {
		return 0, fmt.Errorf("memory size %q: want a number of MB or a size like 128G (at most 1P)", s)
	}
	return int64(v*mult + 0.5), nil
}
