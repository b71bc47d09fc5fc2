package config

import (
	"bytes"
	"fmt"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"fairsim/inputerr"
	"fairsim/workload"
)

// Scenario is what a scenario YAML file holds. Keys use Slurm's names for
// Slurm's concepts, so a reader who knows slurm.conf finds them by grep.
type Scenario struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description,omitempty"`
	// Scheduler is fifo, easy or slurm.
	Scheduler string      `yaml:"scheduler"`
	Trace     *TraceSpec  `yaml:"trace,omitempty"`
	Generate  *GenSpec    `yaml:"generate,omitempty"`
	Cluster   ClusterSpec `yaml:"cluster"`

	// SlurmConf is a slurm.conf (the subset fairsim reads); Slurm holds
	// inline settings in slurm.conf syntax that override it, by key
	// (SchedulerParameters as a whole).
	SlurmConf string            `yaml:"slurm_conf,omitempty"`
	Slurm     map[string]string `yaml:"slurm,omitempty"`
	// Assoc is a sacctmgr dump of the association tree; QOS a file like
	// `sacctmgr show qos -P`. DefaultQOS is the QOS of jobs naming none.
	Assoc      string       `yaml:"assoc,omitempty"`
	QOS        string       `yaml:"qos,omitempty"`
	DefaultQOS string       `yaml:"default_qos,omitempty"`
	Accounts   AccountsSpec `yaml:"accounts"`
	// PartitionSet and QOSSet override partition and QOS attributes by
	// name (partition.NAME.Attr and qos.NAME.Attr in --set).
	PartitionSet map[string]map[string]string `yaml:"partition_set,omitempty"`
	QOSSet       map[string]map[string]string `yaml:"qos_set,omitempty"`
	FairShare    FairShareSpec                `yaml:"fairshare"`
	// Events is a site events file (package events): node and partition
	// state changes replayed during the run.
	Events string  `yaml:"events,omitempty"`
	Sim    SimSpec `yaml:"sim"`
	// Regress holds `fairsim regress` tolerances by summary metric
	// (absolute, in the metric's unit; "*" for every metric; 0, the
	// default, means exact). schedule_hash: 1 accepts a changed jobs.csv
	// as long as every metric is within its tolerance.
	Regress map[string]float64 `yaml:"regress,omitempty"`

	// SlurmResolved is the slurm.conf in force (file, overrides and
	// Slurm's defaults), written to scenario.resolved.yaml for audits.
	SlurmResolved string `yaml:"slurm_resolved,omitempty"`
	// Ignored lists the slurm.conf keys and attributes given that fairsim
	// does not simulate, with the line that set each.
	Ignored []string `yaml:"ignored,omitempty"`
	// SlurmWarnings holds every slurm.conf warning when there were more
	// than the terminal shows (MaxSlurmWarnings); output only.
	SlurmWarnings []string `yaml:"slurm_warnings,omitempty"`
	// InForce is what the run was built with (see InForce); output only.
	InForce *InForce `yaml:"in_force,omitempty"`

	// dir is the scenario file's folder: relative paths start there.
	dir   string
	file  string
	lines keyLines // each key's line in the file; nil when built in code
	gen   *workload.Generated
}

// TraceSpec names a workload trace.
type TraceSpec struct {
	File string `yaml:"file"`
	// Format is swf or sacct (sacct --parsable2 output); by default it is
	// guessed from the file name (.swf, .sacct, .psv), else swf.
	Format string `yaml:"format,omitempty"`
	// SkipInvalid counts malformed records instead of failing.
	SkipInvalid bool `yaml:"skip_invalid,omitempty"`
	// Fields is the sacct --format list of output printed with
	// --noheader; leave it empty when the file has sacct's header line.
	Fields string `yaml:"fields,omitempty"`
	// TimeZone of sacct time stamps (default: local time, as sacct prints).
	TimeZone string `yaml:"time_zone,omitempty"`
	// DropCancelledPending leaves out sacct jobs cancelled before they
	// started (counted) instead of keeping them as submissions that leave
	// the queue when they were cancelled.
	DropCancelledPending bool `yaml:"drop_cancelled_pending,omitempty"`
	// Transforms apply in order as jobs stream in, as `fairsim convert`
	// applies them: load=F, limit-accuracy=exact|F, window=FROM..TO,
	// max-jobs=N, partition=a,b, queue=1,2. A window's Slurm times count
	// from the first submission, as --at does; dates are wall-clock.
	Transforms []string `yaml:"transforms,omitempty"`
}

// GenSpec asks for a synthetic workload (see `fairsim gen --help`); unset
// values take the generator's defaults, which scenario.resolved.yaml shows.
type GenSpec struct {
	Seed          uint64    `yaml:"seed"`
	Jobs          int       `yaml:"jobs"`
	Days          float64   `yaml:"days"`
	Users         int       `yaml:"users"`
	Accounts      int       `yaml:"accounts"`
	Shares        []float64 `yaml:"shares,omitempty"`
	MaxCPUs       int       `yaml:"max_cpus"`
	PowerOfTwo    float64   `yaml:"power_of_two"`
	Runtime       string    `yaml:"runtime"`
	RuntimeMedian float64   `yaml:"runtime_median"`
	RuntimeSigma  float64   `yaml:"runtime_sigma"`
	LimitFactor   float64   `yaml:"limit_factor"`
	MaxLimit      string    `yaml:"max_limit"`
	Daily         float64   `yaml:"daily"`
	Weekend       float64   `yaml:"weekend"`
	Partitions    []string  `yaml:"partitions,omitempty"`
	Features      []string  `yaml:"features,omitempty"`
	FeatureShare  float64   `yaml:"feature_share"`
	MemShare      float64   `yaml:"mem_share"`
	// FitCluster sets partitions, max_cpus and jobs from the cluster: the
	// UP partitions open to every account, jobs no bigger than the
	// smallest of them, and as many jobs as keep it about 80 % busy over
	// the days (what `fairsim run --slurm-conf F` without --trace draws).
	FitCluster bool `yaml:"fit_cluster,omitempty"`
	// GPU jobs (workload.GenConfig's GPU fields): the share of jobs asking
	// GPUs, their count distribution "COUNT:WEIGHT,..." (default
	// "1:0.5,2:0.25,4:0.15,8:0.1"), the partitions they go to, GPU types
	// a share gpu_type_share of them asks (default 0.5), CPUs per GPU
	// (default 4) and GPUs per node (default 4).
	GPUShare      float64  `yaml:"gpu_share,omitempty"`
	GPUsPerJob    string   `yaml:"gpus_per_job,omitempty"`
	GPUPartitions []string `yaml:"gpu_partitions,omitempty"`
	GPUTypes      []string `yaml:"gpu_types,omitempty"`
	GPUTypeShare  float64  `yaml:"gpu_type_share,omitempty"`
	CPUsPerGPU    int      `yaml:"cpus_per_gpu,omitempty"`
	GPUsPerNode   int      `yaml:"gpus_per_node,omitempty"`
	// QOS is the mix of QOS the jobs ask for, "NAME:WEIGHT,..." (e.g.
	// "normal:0.85,high:0.1,standby:0.05"); empty: none, the default QOS.
	QOS string `yaml:"qos,omitempty"`
}

// ClusterSpec is the hardware, when slurm.conf does not give it.
type ClusterSpec struct {
	// ReferenceCPU is the CPU type the trace's runtimes were measured on.
	ReferenceCPU string `yaml:"reference_cpu"`
	// ScaleRuntime stretches runtimes by reference speed / node speed.
	ScaleRuntime *bool `yaml:"scale_runtime"`
	// ScaleTimeLimit stretches time limits with runtimes (default true).
	ScaleTimeLimit *bool                  `yaml:"scale_time_limit"`
	CPUTypes       map[string]CPUTypeSpec `yaml:"cpu_types,omitempty"`
	Nodes          []NodeGroup            `yaml:"nodes,omitempty"`
	Partitions     []PartitionSpec        `yaml:"partitions,omitempty"`
	// FromTraceHeader builds MaxNodes nodes of MaxProcs/MaxNodes cores.
	FromTraceHeader bool `yaml:"from_trace_header,omitempty"`
	// MemPerCore sizes nodes built from a trace header (e.g. "4G").
	MemPerCore string `yaml:"mem_per_core,omitempty"`
}

// CPUTypeSpec overrides a CPU type's billing weight or speed, and names
// the nodes of that type where slurm.conf's Feature words do not.
type CPUTypeSpec struct {
	Weight float64 `yaml:"weight"`
	Speed  float64 `yaml:"speed"`
	Nodes  string  `yaml:"nodes,omitempty"` // hostlist, e.g. "c[01-40]"
}

// NodeGroup is a NodeName= line in YAML form.
type NodeGroup struct {
	NodeName   string `yaml:"NodeName"`   // hostlist, e.g. "bdw[001-032]"
	Feature    string `yaml:"Feature"`    // the CPU type
	CPUs       int    `yaml:"CPUs"`       // cores per node
	RealMemory string `yaml:"RealMemory"` // per node: MB, or with a unit ("128G")
	Weight     int    `yaml:"Weight,omitempty"`
	Gres       string `yaml:"Gres,omitempty"` // e.g. "gpu:a100:4", as slurm.conf writes it
}

// PartitionSpec is a PartitionName= line in YAML form.
type PartitionSpec struct {
	PartitionName      string `yaml:"PartitionName"`
	Nodes              string `yaml:"Nodes"` // hostlist or ALL
	Default            bool   `yaml:"Default,omitempty"`
	PriorityTier       int    `yaml:"PriorityTier,omitempty"`
	PriorityJobFactor  int    `yaml:"PriorityJobFactor,omitempty"`
	MaxTime            string `yaml:"MaxTime,omitempty"`
	MaxNodes           int    `yaml:"MaxNodes,omitempty"`       // nodes per job; absent: UNLIMITED
	MinNodes           int    `yaml:"MinNodes,omitempty"`       // fewest nodes per job; absent: 1
	MaxCPUsPerNode     int    `yaml:"MaxCPUsPerNode,omitempty"` // CPUs its jobs together hold on a node; absent: UNLIMITED
	DefaultTime        string `yaml:"DefaultTime,omitempty"`
	OverSubscribe      string `yaml:"OverSubscribe,omitempty"`
	PreemptMode        string `yaml:"PreemptMode,omitempty"`
	TRESBillingWeights string `yaml:"TRESBillingWeights,omitempty"`
	QOS                string `yaml:"QOS,omitempty"`
	DefMemPerGPU       string `yaml:"DefMemPerGPU,omitempty"` // MB, or with a unit ("16G")
	DefCPUPerGPU       int    `yaml:"DefCpuPerGPU,omitempty"`
}

// AccountsSpec says how jobs of traces without accounts get one, and what
// shares a generated association tree gives them.
type AccountsSpec struct {
	// Map is group (one account per group, the default), user, or a CSV
	// file of user,account or group,account.
	Map string `yaml:"map"`
	// Shares is equal or usage (proportional to delivered core-seconds),
	// for the tree fairsim builds over a trace when the scenario has no
	// assoc file; unset (and ignored) with an assoc file or a generated
	// workload, whose trees carry their own shares.
	Shares string `yaml:"shares,omitempty"`
}

// FairShareSpec holds the fair-share choices that are not slurm.conf keys.
type FairShareSpec struct {
	// Algorithm overrides the one PriorityFlags selects: fairtree,
	// classic, depth-oblivious, or slurm20 (Slurm 2.0's F=(S-U_E+1)/2, a
	// fairsim extension).
	Algorithm string `yaml:"algorithm,omitempty"`
	// ExactDecay uses 2^(-t/HL) instead of Slurm's 1-0.693/HL per second.
	ExactDecay bool `yaml:"exact_decay"`
	// SampleInterval is the period of fairshare.csv rows (a Slurm time
	// string; default 6:00:00).
	SampleInterval string `yaml:"sample_interval"`
	// TimeZone locates PriorityUsageResetPeriod boundaries (default: the
	// trace's TimeZoneString, else UTC).
	TimeZone string `yaml:"time_zone,omitempty"`
	// AssocAddedAfterStart says the associations were added (sacctmgr
	// add) after slurmctld started, as on a fresh test cluster: under
	// Fair Tree every job's fair-share factor is then 0 until the first
	// PriorityCalcPeriod tick (priority_multifactor.c fair_tree_decay is
	// what computes it). Default false: a production controller loads its
	// associations at start and computes them in its first decay pass.
	AssocAddedAfterStart bool `yaml:"assoc_added_after_start,omitempty"`
}

// SimSpec holds fairsim's own knobs.
type SimSpec struct {
	// MissingTimeLimit, for jobs that give no limit in a partition
	// without DefaultTime: slurm (the default: MaxTime, else unlimited,
	// as slurmctld does) or runtime (the job's actual run time: perfect
	// knowledge for backfill, flagged in summary.csv).
	MissingTimeLimit string `yaml:"missing_time_limit"`
	// MemDefault is the memory of jobs that ask none: slurm (the default:
	// DefMemPerCPU, else DefMemPerNode, else each node's whole memory,
	// when SelectTypeParameters makes memory consumable; none otherwise)
	// or share (a core's share of its node's memory per core).
	MemDefault string `yaml:"mem_default"`
	// Billing is how jobs in partitions without TRESBillingWeights are
	// billed: slurm (the default: their CPUs, calc_job_billable_tres) or
	// cpu_type (per node by CPU type, with memory costing what the cores
	// cost: seed 001's rule, for partitions of mixed generations).
	Billing string `yaml:"billing"`
	// FailImpossible makes jobs that can never run an error.
	FailImpossible bool `yaml:"fail_impossible"`
	// IgnoreDependencies ignores SWF preceding-job fields.
	IgnoreDependencies bool `yaml:"ignore_dependencies"`
	// SampleInterval is the utilisation sampling period (a Slurm time
	// string, default 1:00:00).
	SampleInterval string `yaml:"sample_interval"`
	// ControllerUptime is how long slurmctld had been running when the
	// first job was submitted (a Slurm time string, default "0": started
	// with it). Its timers (sched_interval, bf_interval,
	// PriorityCalcPeriod) tick on a grid from its start, so this sets
	// their phase against the workload. A bare number is minutes, as in
	// Slurm ("00:00:03" is 3 s). fairsim capture sets it from BOOT_TIME.
	ControllerUptime string `yaml:"controller_uptime"`
	// DecayThreadDelay is how many seconds after the controller's start
	// its decay thread first ticks (PriorityCalcPeriod's phase is the
	// start plus this): slurmctld loads the priority plugin, which starts
	// the thread, after setting BOOT_TIME. Default 0; fairsim capture
	// writes 1, what a real 22.05 controller showed in every reference
	// run.
	DecayThreadDelay int64 `yaml:"decay_thread_delay"`
	// BackgroundLoopDelay is how many seconds after the controller's
	// start its background loop's clocks start (the pass the nodes'
	// registrations ask for batch_sched_delay later, and sched_interval):
	// the loop polls once a second on a phase of its own, so its first
	// pass comes in the start's second plus batch_sched_delay or the
	// next. Default 0; scripts/slurm-refrun reads it from slurmctld's log.
	BackgroundLoopDelay int64 `yaml:"background_loop_delay"`
	// CompletingSeconds is how long, in seconds, an ended job's nodes stay
	// COMPLETING before its resources are free and the pass its end
	// triggers runs (the epilog complete message). Default 1 under the
	// slurm scheduler, 0 under fifo and easy (textbook models). Slurm's
	// code adds no fixed delay: the gap is the slurmd's epilog round trip,
	// 20-794 ms in the harness's logs, so a start falls in the end's own
	// second or the next by the run's sub-second phase; over the reference
	// runs 1 gives the lower wait MAPE and 0 fewer pairs in the opposite
	// order (README).
	CompletingSeconds *int64 `yaml:"completing_seconds"`
	// BackfillTestsPerSecond is fairsim's cost model of a backfill
	// cycle: how many jobs the site's slurmctld tests per second. With
	// it, bf_max_time, bf_yield_interval, bf_yield_sleep and bf_continue
	// cap how deep a cycle reaches and how long it lasts, and the next
	// cycle starts bf_interval after that end. 0 (the default): cycles
	// take no time and only bf_max_job_test caps them.
	BackfillTestsPerSecond float64 `yaml:"backfill_tests_per_second,omitempty"`
	// Timeline is a slurmctld log (SlurmctldDebug=debug: its main passes;
	// DebugFlags=Backfill or debug: its backfill cycles) whose timing the
	// run replays instead of fairsim's model of the controller's timers:
	// passes at the logged instants, and the events of one second in the
	// order of their milliseconds (sim.Timeline). For validation: fairsim
	// validate --timing log sets it to the scenario's slurmctld.log.
	Timeline string `yaml:"timeline,omitempty"`
}

// Load reads a scenario file. Unknown keys are errors: a typo in a policy
// knob must not silently run the default.
func Load(path string) (*Scenario, error) {
	data, err := inputerr.ReadFile(path, "scenario", inputerr.MaxConfBytes)
	if err != nil {
		return nil, err
	}
	sc, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	sc.dir = filepath.Dir(path)
	return sc, nil
}

// Parse decodes scenario YAML; name is used in error messages.
func Parse(data []byte, name string) (*Scenario, error) {
	var sc Scenario
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err == nil {
		sc.lines = keyLines{}
		scanKeys(&doc, "", sc.lines)
	}
	sc.file = name
	sc.dir = "."
	return &sc, nil
}

// path resolves a path given in the scenario relative to its folder.
func (sc *Scenario) path(p string) string {
	if p == "" || p == "-" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(sc.dir, p)
}

// MarshalResolved renders the scenario as YAML.
func (sc *Scenario) MarshalResolved() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(sc); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// SetTrace replaces the scenario's workload with a trace file given on the
// command line (relative to the working directory, not the scenario).
func (sc *Scenario) SetTrace(path string) {
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	sc.Trace = &TraceSpec{File: path}
	sc.Generate = nil
}
