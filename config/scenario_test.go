package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"fairsim/sim"
)

// parse reads scenario YAML given inline, failing the test on an error.
func parse(t *testing.T, yaml string) *Scenario {
	t.Helper()
	sc, err := Parse([]byte(yaml), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestParseUnknownKeys: a misspelt key anywhere is an error naming the
// scenario, the line and the key, not a silent default.
func TestParseUnknownKeys(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want []string
	}{
		{"nmae: x\n", []string{"s.yaml", "line 1", "nmae"}},
		{"name: x\ngenerate:\n  jbos: 3\n", []string{"s.yaml", "line 3", "jbos"}},
		{"cluster:\n  nodes:\n    - {NodeName: a, Cpus: 4}\n", []string{"s.yaml", "line 3", "Cpus"}},
		{"fairshare:\n  algorithm: classic\n  half_life: 7-0\n", []string{"s.yaml", "line 3", "half_life"}},
		{"sim: {missing_limit: runtime}\n", []string{"s.yaml", "missing_limit"}},
		// Wrong types are errors too.
		{"generate: {jobs: many}\n", []string{"s.yaml", "many"}},
		{"cluster: {scale_runtime: maybe}\n", []string{"s.yaml", "maybe"}},
	} {
		_, err := Parse([]byte(tc.yaml), "s.yaml")
		if err == nil {
			t.Errorf("%q: no error", tc.yaml)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not name %q", tc.yaml, err, w)
			}
		}
	}
}

// TestLoadRelativePaths: paths in a scenario are relative to its folder,
// not to the working directory: Load from the package folder reads
// testdata/fromslurm/slurm.conf, named "slurm.conf" in the scenario.
func TestLoadRelativePaths(t *testing.T) {
	sc, err := Load(filepath.Join("testdata", "fromslurm", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sc.path("slurm.conf"), filepath.Join("testdata", "fromslurm", "slurm.conf"); got != want {
		t.Errorf("path(slurm.conf) = %s, want %s", got, want)
	}
	abs, _ := filepath.Abs("x.conf")
	if got := sc.path(abs); got != abs {
		t.Errorf("an absolute path changed: %s → %s", abs, got)
	}
	if got := sc.path("-"); got != "-" {
		t.Errorf("path(-) = %s", got)
	}
	conf, err := sc.slurmConfig()
	if err != nil {
		t.Fatal(err)
	}
	if conf.ClusterName != "fromslurm" || len(conf.Nodes) != 2 {
		t.Errorf("read cluster %q with %d node lines, want fromslurm with 2", conf.ClusterName, len(conf.Nodes))
	}
	// Parse has no folder: paths are relative to the working directory.
	if sc2 := parse(t, "slurm_conf: slurm.conf\n"); sc2.path("slurm.conf") != "slurm.conf" {
		t.Errorf("Parse: path(slurm.conf) = %s", sc2.path("slurm.conf"))
	}
	if _, err := Load(filepath.Join("testdata", "missing.yaml")); err == nil || !os.IsNotExist(err) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// TestResolveDefaults: Resolve fills every unset setting, as
// scenario.resolved.yaml shows; settings given stay as given.
func TestResolveDefaults(t *testing.T) {
	sc := parse(t, "trace: {file: t.swf}\ncluster:\n  partitions:\n    - {PartitionName: p}\n    - {PartitionName: q, Nodes: \"n[1-2]\", PriorityTier: 3, MaxTime: 1-0, OverSubscribe: EXCLUSIVE}\n")
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	cl := sc.Cluster
	if sc.Name != "unnamed" || sc.Scheduler != "easy" || sc.Trace.Format != "swf" {
		t.Errorf("name %q scheduler %q format %q; want unnamed, easy, swf", sc.Name, sc.Scheduler, sc.Trace.Format)
	}
	// A trace with no nodes given: the machine is the trace header's.
	if cl.ReferenceCPU != "broadwell" || !*cl.ScaleRuntime || !*cl.ScaleTimeLimit || !cl.FromTraceHeader || cl.MemPerCore != "4G" {
		t.Errorf("cluster %+v; want broadwell, scaled runtimes and limits, from the trace header, 4G per core", cl)
	}
	wantParts := []PartitionSpec{
		{PartitionName: "p", Nodes: "ALL", PriorityTier: 1, PriorityJobFactor: 1, MaxTime: "UNLIMITED", DefaultTime: "UNLIMITED", OverSubscribe: "NO"},
		{PartitionName: "q", Nodes: "n[1-2]", PriorityTier: 3, PriorityJobFactor: 1, MaxTime: "1-0", DefaultTime: "UNLIMITED", OverSubscribe: "EXCLUSIVE"},
	}
	if !reflect.DeepEqual(cl.Partitions, wantParts) {
		t.Errorf("partitions %+v\nwant %+v", cl.Partitions, wantParts)
	}
	if sc.Accounts != (AccountsSpec{Map: "group", Shares: "equal"}) {
		t.Errorf("accounts %+v", sc.Accounts)
	}
	if sc.FairShare.SampleInterval != "6:00:00" || sc.Sim.MissingTimeLimit != "slurm" || sc.Sim.MemDefault != "slurm" || sc.Sim.SampleInterval != "1:00:00" {
		t.Errorf("fairshare %+v sim %+v", sc.FairShare, sc.Sim)
	}
	out, err := sc.MarshalResolved()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"name: unnamed", "scheduler: easy", "  format: swf", "  reference_cpu: broadwell",
		"  scale_runtime: true", "  scale_time_limit: true", "  from_trace_header: true", "  mem_per_core: 4G",
		"      MaxTime: UNLIMITED", "      OverSubscribe: \"NO\"", "  map: group", "  shares: equal",
		"  sample_interval: \"6:00:00\"", "  missing_time_limit: slurm", "  sample_interval: \"1:00:00\""} {
		if !strings.Contains(string(out), line+"\n") {
			t.Errorf("resolved YAML lacks %q:\n%s", line, out)
		}
	}

	// The trace format follows the file name (.gz aside), else swf.
	for file, format := range map[string]string{"jobs.sacct": "sacct", "jobs.psv.gz": "sacct", "KTH.swf.gz": "swf", "jobs.txt": "swf"} {
		sc := parse(t, "trace: {file: "+file+"}\n")
		if err := sc.Resolve(); err != nil || sc.Trace.Format != format {
			t.Errorf("%s: format %q (%v), want %s", file, sc.Trace.Format, err, format)
		}
	}

	// Generated workloads: the generator's defaults (workload.DefaultGenConfig).
	sc = parse(t, "name: g\nscheduler: fifo\ngenerate: {seed: 3, jobs: 50}\ncluster:\n  scale_runtime: false\n  nodes: [{NodeName: \"n[1-2]\", Feature: broadwell, CPUs: 4, RealMemory: 4G}]\n")
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	want := GenSpec{Seed: 3, Jobs: 50, Days: 30, Users: 50, Accounts: 5, MaxCPUs: 256, PowerOfTwo: 0.75,
		Runtime: "lognormal", RuntimeMedian: 1800, RuntimeSigma: 1.5, LimitFactor: 2, MaxLimit: "7-00:00:00",
		Daily: 0.5, Weekend: 0.5, FeatureShare: 0.2}
	if !reflect.DeepEqual(*sc.Generate, want) {
		t.Errorf("generate %+v\nwant %+v", *sc.Generate, want)
	}
	if sc.Name != "g" || sc.Scheduler != "fifo" || *sc.Cluster.ScaleRuntime || sc.Cluster.FromTraceHeader {
		t.Errorf("given settings changed: name %q scheduler %q scale_runtime %v from_trace_header %v",
			sc.Name, sc.Scheduler, *sc.Cluster.ScaleRuntime, sc.Cluster.FromTraceHeader)
	}
}

// TestResolveErrors: scenarios that cannot run are refused with a reason,
// at the line of the key at fault when there is one.
func TestResolveErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, at, want string }{
		{"name: x\n", "s.yaml: ", "names neither a trace nor a generated workload"},
		{"trace: {file: t.swf}\ngenerate: {jobs: 5}\n", "s.yaml: ", "names both a trace and a generated workload"},
		{"trace: {file: t.swf}\nscheduler: sjf\n", "s.yaml:2: ", "scheduler"},
		{"generate: {jobs: 5}\n", "s.yaml: ", "no nodes given"},
		{"name: x\ntrace:\n  file: t.csv\n  format: csv\n", "s.yaml:4: ", `trace.format "csv": want swf or sacct`},
		{"trace: {file: t.swf, transforms: [speedup=2]}\n", "s.yaml:1: ", "trace.transforms"},
	} {
		err := parse(t, tc.yaml).Resolve()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.at) {
			t.Errorf("%q: error %v, want %s…%s…", tc.yaml, err, tc.at, tc.want)
		}
	}
}

// buildScenario loads, resolves and builds a scenario file.
func buildScenario(t *testing.T, path string, sets ...[2]string) (*Run, error) {
	t.Helper()
	sc, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%s, %s): %v", kv[0], kv[1], err)
		}
	}
	if err := sc.Resolve(); err != nil {
		return nil, err
	}
	run, err := sc.Build()
	if run != nil {
		t.Cleanup(func() { run.Close() })
	}
	return run, err
}

// TestClusterFromSlurmConf: a generated workload runs on the cluster that
// slurm.conf's NodeName and PartitionName lines describe, with no
// cluster.nodes in the scenario (testdata/fromslurm).
//
//	old1-2  CPUs=8  RealMemory=16000  Feature=intel,nehalem  Weight 1 (default)
//	new1-2  CPUs=32 RealMemory=128000 Features=skylake       Weight=10
//	DEFAULT MaxTime=2-0 (172800 s)
//	all   Nodes=ALL Default=YES DefaultTime=1:00:00 → 3600 s
//	mid   old[1-2] PriorityTier=2, no DefaultTime → MaxTime's 172800 s
//	big   new[1-2] EXCLUSIVE PriorityTier=3 MaxTime=UNLIMITED
func TestClusterFromSlurmConf(t *testing.T) {
	run, err := buildScenario(t, filepath.Join("testdata", "fromslurm", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c := run.Cluster
	var types []string
	for _, ct := range c.Types {
		types = append(types, ct.Name)
	}
	if !reflect.DeepEqual(types, []string{"nehalem", "skylake"}) {
		t.Errorf("CPU types %v, want [nehalem skylake] (slowest first)", types)
	}
	var nodes []string
	for _, n := range c.Nodes {
		nodes = append(nodes, strings.Join([]string{n.Name, c.Types[n.Type].Name, strconv.Itoa(n.Cores), strconv.Itoa(int(n.MemMB)), strconv.Itoa(n.Weight)}, "/"))
	}
	wantNodes := []string{"old1/nehalem/8/16000/1", "old2/nehalem/8/16000/1", "new1/skylake/32/128000/10", "new2/skylake/32/128000/10"}
	if !reflect.DeepEqual(nodes, wantNodes) {
		t.Errorf("nodes %v\nwant %v", nodes, wantNodes)
	}
	if c.TotalCores != 80 || !c.ScaleRuntime || !c.ScaleLimit || c.RefSpeed != 1.0 {
		t.Errorf("%d cores, scale %v/%v, reference speed %g; want 80, true/true, 1", c.TotalCores, c.ScaleRuntime, c.ScaleLimit, c.RefSpeed)
	}
	for _, w := range []struct {
		name           string
		nodes          int
		def, excl      bool
		tier           int
		maxT, defaultT int64
	}{
		{"all", 4, true, false, 1, 172800, 3600},
		{"mid", 2, false, false, 2, 172800, 172800},
		{"big", 2, false, true, 3, sim.Unlimited, sim.Unlimited},
	} {
		pi, ok := c.Partition(w.name)
		if !ok {
			t.Errorf("no partition %s", w.name)
			continue
		}
		p := c.Parts[pi]
		if len(p.Nodes) != w.nodes || p.Default != w.def || p.Exclusive != w.excl || p.PriorityTier != w.tier || p.MaxTime != w.maxT || p.DefaultTime != w.defaultT {
			t.Errorf("partition %s: %d nodes default %v exclusive %v tier %d MaxTime %d DefaultTime %d; want %d %v %v %d %d %d",
				w.name, len(p.Nodes), p.Default, p.Exclusive, p.PriorityTier, p.MaxTime, p.DefaultTime,
				w.nodes, w.def, w.excl, w.tier, w.maxT, w.defaultT)
		}
	}
	if c.Parts[c.DefaultPartition()].Name != "all" {
		t.Errorf("default partition %s, want all", c.Parts[c.DefaultPartition()].Name)
	}
	// The inline PriorityWeightAge replaces the file's line.
	if run.Slurm.PriorityWeightAge != 5 || run.Slurm.PriorityWeightFairshare != 10000 {
		t.Errorf("PriorityWeightAge %d, PriorityWeightFairshare %d; want 5 (inline), 10000 (file)", run.Slurm.PriorityWeightAge, run.Slurm.PriorityWeightFairshare)
	}
	if run.Multifactor == nil {
		t.Fatal("scheduler slurm without a multifactor policy")
	}
	qs := run.Multifactor.QOSSet()
	if i, ok := qs.Index("high"); !ok || qs.QOS(i).Priority != 500 {
		t.Errorf("QOS high missing or not 500")
	}
	// And it runs: 20 jobs, a valid schedule.
	res, err := run.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 20 {
		t.Errorf("%d jobs, want 20", len(res.Jobs))
	}
	if err := sim.CheckInvariants(res); err != nil {
		t.Error(err)
	}
}

// TestNodeWithoutCPUType: a slurm.conf node whose Features name no CPU
// generation runs as type generic, with one warning that names it; the
// scenario's cluster.cpu_types nodes override inference either way.
func TestNodeWithoutCPUType(t *testing.T) {
	path := filepath.Join("testdata", "genericnode", "scenario.yaml")
	for _, tc := range []struct {
		name  string
		sets  [][2]string
		types map[string]string // node -> type
		warn  bool
	}{
		{"inferred", nil, map[string]string{"cpu1": "broadwell", "cpu2": "broadwell", "gpu1": sim.GenericCPU}, true},
		{"override", [][2]string{{"cluster.cpu_types.icelake.nodes", "gpu1"}}, map[string]string{"cpu1": "broadwell", "gpu1": "icelake"}, false},
		{"override inferred", [][2]string{{"cluster.cpu_types.skylake.nodes", "cpu2"}}, map[string]string{"cpu1": "broadwell", "cpu2": "skylake", "gpu1": sim.GenericCPU}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := buildScenario(t, path, tc.sets...)
			if err != nil {
				t.Fatal(err)
			}
			c := run.Cluster
			for _, nd := range c.Nodes {
				if want, ok := tc.types[nd.Name]; ok && c.Types[nd.Type].Name != want {
					t.Errorf("node %s is %s, want %s", nd.Name, c.Types[nd.Type].Name, want)
				}
			}
			warned := 0
			for _, w := range run.Warnings {
				if strings.Contains(w, "no Feature naming a known CPU generation: gpu1") {
					warned++
				}
			}
			if (warned == 1) != tc.warn || warned > 1 {
				t.Errorf("%d warnings naming gpu1, want %v: %q", warned, tc.warn, run.Warnings)
			}
		})
	}
	// A type given to hosts slurm.conf lacks types nothing: an error
	// naming them, not a silent no-op.
	_, err := buildScenario(t, path, [2]string{"cluster.cpu_types.icelake.nodes", "gpu1,zz[1-2]"})
	const want = "testdata/genericnode/scenario.yaml: cluster: cpu_types (or --cpu-type): zz[1-2] not a node of testdata/genericnode/slurm.conf"
	if err == nil || err.Error() != want {
		t.Errorf("typing hosts slurm.conf lacks: %v\nwant %s", err, want)
	}
}

// TestClusterFromYAML: cluster.nodes and cluster.partitions in slurm.conf
// spelling, sizes with units, limits as Slurm time strings.
func TestClusterFromYAML(t *testing.T) {
	const base = "name: y\nscheduler: easy\ngenerate: {seed: 1, jobs: 5}\ncluster:\n" +
		"  cpu_types: {nehalem: {speed: 0.3, weight: 0.4}}\n" +
		"  nodes:\n" +
		"    - {NodeName: \"h[1-3]\", Feature: nehalem, CPUs: 8, RealMemory: 24G}\n" +
		"    - {NodeName: b1, Feature: haswell, CPUs: 32, RealMemory: \"131072\", Weight: 5}\n" +
		"  partitions:\n" +
		"    - {PartitionName: main, Default: true, MaxTime: 7-0, DefaultTime: \"1:00:00\"}\n"
	sc := parse(t, base+"    - {PartitionName: whole, Nodes: \"h[1-2]\", OverSubscribe: EXCLUSIVE, MaxTime: \"90\"}\n"+
		"    - {PartitionName: capped, MaxCPUsPerNode: 6}\n")
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	run, err := sc.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	c := run.Cluster
	// haswell is an alias of broadwell; weights default to 1.
	if len(c.Types) != 2 || c.Types[0].Name != "nehalem" || c.Types[0].Speed != 0.3 || c.Types[0].Weight != 0.4 || c.Types[1].Name != "broadwell" {
		t.Errorf("types %+v, want nehalem (speed 0.3, weight 0.4) and broadwell", c.Types)
	}
	if n := c.Nodes[0]; n.Name != "h1" || n.MemMB != 24576 || n.Weight != 1 {
		t.Errorf("h1: %+v, want 24576 MB, Weight 1", n)
	}
	if n := c.Nodes[3]; n.Name != "b1" || n.MemMB != 131072 || n.Weight != 5 || n.Cores != 32 {
		t.Errorf("b1: %+v, want 32 cores, 131072 MB, Weight 5", n)
	}
	main, whole := c.Parts[0], c.Parts[1]
	if main.MaxTime != 604800 || main.DefaultTime != 3600 || !main.Default || len(main.Nodes) != 4 {
		t.Errorf("main: %+v", main)
	}
	// MaxTime "90" is minutes.
	if whole.MaxTime != 5400 || whole.DefaultTime != sim.Unlimited || !whole.Exclusive || len(whole.Nodes) != 2 {
		t.Errorf("whole: %+v", whole)
	}
	if c.Parts[2].MaxCPUsPerNode != 6 || !c.Capped(2) || c.Capped(0) {
		t.Errorf("capped: MaxCPUsPerNode %d, capped %v (main %v); want 6, true (false)", c.Parts[2].MaxCPUsPerNode, c.Capped(2), c.Capped(0))
	}

	for _, tc := range []struct{ extra, want string }{
		{"    - {PartitionName: x, OverSubscribe: SOMETIMES}\n", `partitions[1] x: OverSubscribe "SOMETIMES"`},
		{"    - {PartitionName: x, MaxTime: soon}\n", "partitions[1] x: MaxTime"},
		{"    - {PartitionName: x, MaxCPUsPerNode: -2}\n", "partitions[1] x: MaxCPUsPerNode -2: want a count of CPUs from 1"},
		{"    - {PartitionName: x, Nodes: \"z[1-2]\"}\n", "partition x: unknown node z1"},
	} {
		sc := parse(t, base+tc.extra)
		if err := sc.Resolve(); err != nil {
			t.Fatal(err)
		}
		_, err := sc.Build()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.extra, err, tc.want)
		}
	}
	sc = parse(t, strings.Replace(base, "nehalem: {", "pentium: {", 1))
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Build(); err == nil || !strings.Contains(err.Error(), `cpu_types: unknown CPU type "pentium"`) {
		t.Errorf("unknown cpu_types entry: %v", err)
	}
}

// TestParseMemMB: MB, or a number with a binary unit.
func TestParseMemMB(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4096", 4096, true},
		{"512M", 512, true},
		{"4G", 4096, true},
		{" 8g ", 8192, true},
		{"1.5G", 1536, true},
		{"1T", 1048576, true},
		{"2048K", 2, true},
		{"0", 0, true},
		{"", 0, false},
		{"G", 0, false},
		{"-1G", 0, false},
		{"lots", 0, false},
		{"4GB", 0, false},
		// Not a size: float parsing accepts these words and huge values.
		{"NaN", 0, false},
		{"inf", 0, false},
		{"InfinityG", 0, false},
		{"1e30", 0, false},
	} {
		got, err := ParseMemMB(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseMemMB(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestBillingWeightsErrorNamesLine: a partition's TRESBillingWeights that
// slurmctld would refuse is reported at its slurm.conf line, not as
// "partition gpu" alone (nor blamed on the trace).
func TestBillingWeightsErrorNamesLine(t *testing.T) {
	dir := t.TempDir()
	conf := "GresTypes=gpu\nNodeName=g01 CPUs=8 RealMemory=8000 Gres=gpu:2 Feature=skylake\n" +
		"PartitionName=gpu Nodes=g01 Default=YES TRESBillingWeights=\"CPU=1.0,GRES/gpu=4\"\n"
	yaml := "name: bw\nscheduler: slurm\nslurm_conf: slurm.conf\ngenerate:\n  seed: 1\n  jobs: 5\n  days: 1\n  max_cpus: 8\n"
	for name, body := range map[string]string{"slurm.conf": conf, "scenario.yaml": yaml} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := buildScenario(t, filepath.Join(dir, "scenario.yaml"))
	want := filepath.Join(dir, "slurm.conf") + ":3: PartitionName=gpu: TRESBillingWeights: gres/gpu is not a configured TRES type"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to contain %q", err, want)
	}
}

// TestMaxCPUsPerNodeFromSlurmConf: slurm.conf's MaxCPUsPerNode caps its
// partition (not listed under ignored:), shows in in_force, keeps every
// job's CPUs under it in a run, and MaxCPUsPerNode=0 is an error naming
// the line.
func TestMaxCPUsPerNodeFromSlurmConf(t *testing.T) {
	path := filepath.Join("testdata", "partcap", "scenario.yaml")
	run, err := buildScenario(t, path)
	if err != nil {
		t.Fatal(err)
	}
	c := run.Cluster
	batch, _ := c.Partition("batch")
	full, _ := c.Partition("full")
	if c.Parts[batch].MaxCPUsPerNode != 6 || !c.Capped(batch) || c.Capped(full) {
		t.Errorf("batch MaxCPUsPerNode %d capped %v, full capped %v; want 6, true, false", c.Parts[batch].MaxCPUsPerNode, c.Capped(batch), c.Capped(full))
	}
	for _, k := range run.Scenario.Ignored {
		if strings.Contains(k, "MaxCPUsPerNode") {
			t.Errorf("ignored lists %s", k)
		}
	}
	resolved, err := run.Scenario.MarshalResolved()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resolved), "MaxCPUsPerNode: 6") {
		t.Errorf("scenario.resolved.yaml lacks MaxCPUsPerNode: 6:\n%s", resolved)
	}
	res, err := run.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	used := map[int]int{} // batch's CPUs by node, at each batch job's start
	started := 0
	for _, j := range res.Jobs {
		if j.Part == batch && j.Start >= 0 {
			started++
			clear(used)
			for _, o := range res.Jobs {
				if o.Part == batch && o.Start >= 0 && o.Start <= j.Start && o.End > j.Start {
					for _, sl := range o.Alloc {
						used[sl.Node] += sl.Cores
					}
				}
			}
			for n, k := range used {
				if k > 6 {
					t.Fatalf("batch's jobs hold %d CPUs of %s when job %d starts at %d", k, c.Nodes[n].Name, j.ID, j.Start)
				}
			}
		}
	}
	if started < 10 {
		t.Errorf("%d batch jobs started, want the run to exercise the cap", started)
	}
	if err := sim.CheckInvariants(res); err != nil {
		t.Error(err)
	}

	dir := t.TempDir()
	conf := "NodeName=n1 CPUs=8 RealMemory=16000 Feature=broadwell\nPartitionName=batch Nodes=ALL MaxCPUsPerNode=0\n"
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte("name: z\nscheduler: slurm\nslurm_conf: slurm.conf\ngenerate: {jobs: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Load(filepath.Join(dir, "scenario.yaml"))
	if err == nil {
		if err = sc.Resolve(); err == nil {
			var r *Run
			if r, err = sc.Build(); r != nil {
				r.Close()
			}
		}
	}
	if err == nil || !strings.Contains(err.Error(), "slurm.conf:2") || !strings.Contains(err.Error(), "MaxCPUsPerNode=0") {
		t.Errorf("MaxCPUsPerNode=0: error %v, want one naming slurm.conf:2", err)
	}
}

// TestOverTimeLimitFromSlurmConf: OverTimeLimit (the cluster's, and a
// partition's own: a number, UNLIMITED, a negative one Slurm ignores)
// and KillWait reach the simulator, with the 30 s time-limit check under
// the slurm scheduler only; scenario.resolved.yaml shows each
// partition's.
func TestOverTimeLimitFromSlurmConf(t *testing.T) {
	path := filepath.Join("testdata", "overtime", "scenario.yaml")
	run, err := buildScenario(t, path)
	if err != nil {
		t.Fatal(err)
	}
	c := run.Cluster
	for name, want := range map[string]int64{"batch": 120, "strict": 0, "free": sim.Unlimited, "odd": 120} {
		p, _ := c.Partition(name)
		if got := c.Parts[p].OverTime; got != want {
			t.Errorf("partition %s: OverTime %d s, want %d", name, got, want)
		}
	}
	if o := run.Options; o.TimeLimitTick != 30 || o.KillWait != 45 {
		t.Errorf("time-limit check every %d s, KillWait %d; want 30 and 45", o.TimeLimitTick, o.KillWait)
	}
	warned := false
	for _, w := range run.Warnings {
		warned = warned || strings.Contains(w, "OverTimeLimit=-3 is negative")
	}
	if !warned {
		t.Errorf("no warning for OverTimeLimit=-3 in %q", run.Warnings)
	}
	resolved, err := run.Scenario.MarshalResolved()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resolved), "OverTimeLimit: UNLIMITED") || !strings.Contains(string(resolved), `OverTimeLimit: "2"`) {
		t.Errorf("scenario.resolved.yaml lacks the partitions' OverTimeLimit:\n%s", resolved)
	}
	easy, err := buildScenario(t, path, [2]string{"scheduler", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if easy.Options.TimeLimitTick != 0 {
		t.Errorf("under easy the time-limit check runs every %d s, want none (killed at the limit)", easy.Options.TimeLimitTick)
	}
}

// TestPriorityBasicFromSlurmConf: PriorityType=priority/basic reaches
// the policy: jobs are prioritised by submission order alone.
func TestPriorityBasicFromSlurmConf(t *testing.T) {
	path := filepath.Join("testdata", "overtime", "scenario.yaml")
	for _, tc := range []struct {
		typ   string
		basic bool
	}{{"priority/basic", true}, {"priority/multifactor", false}} {
		run, err := buildScenario(t, path, [2]string{"PriorityType", tc.typ})
		if err != nil {
			t.Fatal(err)
		}
		res, err := run.Simulate()
		if err != nil {
			t.Fatal(err)
		}
		j0, j1 := res.Jobs[0], res.Jobs[1]
		got := j0.Priority == 0xffff0000-1 && j1.Priority == 0xffff0000-2
		if got != tc.basic {
			t.Errorf("%s: the first jobs' priorities %d and %d; want 0xffff0000 less 1 and 2: %v", tc.typ, j0.Priority, j1.Priority, tc.basic)
		}
	}
}
