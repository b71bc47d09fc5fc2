package config

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fairsim/policy"
)

var fromSlurm = filepath.Join("testdata", "fromslurm", "scenario.yaml")

// TestSetSlurmKey: a slurm.conf key replaces the inline setting of the
// same key in any letter case, rather than adding a second one.
func TestSetSlurmKey(t *testing.T) {
	sc := parse(t, "slurm:\n  priorityweightage: \"5\"\n  PriorityWeightQOS: \"7\"\n")
	if err := sc.Set("PriorityWeightAge", "1000"); err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("PriorityDecayHalfLife", "14-0"); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"PriorityWeightAge": "1000", "PriorityWeightQOS": "7", "PriorityDecayHalfLife": "14-0"}
	if !maps.Equal(sc.Slurm, want) {
		t.Errorf("slurm %v, want %v", sc.Slurm, want)
	}
	conf, err := sc.slurmConfig()
	if err != nil {
		t.Fatal(err)
	}
	if conf.PriorityWeightAge != 1000 || conf.PriorityWeightQOS != 7 || conf.PriorityDecayHalfLife != 14*86400 {
		t.Errorf("in force: age %d QOS %d half-life %d; want 1000, 7, %d", conf.PriorityWeightAge, conf.PriorityWeightQOS, conf.PriorityDecayHalfLife, 14*86400)
	}
}

// TestSetBadKeys: names that are no setting are refused.
func TestSetBadKeys(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"", "not a setting name"},
		{"PriorityWeightAge=5", "not a setting name"},
		{"Priority WeightAge", "not a setting name"},
		{"partition.x", "want partition.NAME.Attribute"},
		{"qos..Priority", "want qos.NAME.Attribute"},
		{"partition.x.", "want partition.NAME.Attribute"},
		{"generate.jbos", "jbos"},
		{"name.first", "--set name.first: name is not a section"},
		{"generate.jobs.max", "generate.jobs is not a section"},
	} {
		sc := parse(t, "name: x\ngenerate: {jobs: 5}\n")
		err := sc.Set(tc.key, "1")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%q): %v, want %q", tc.key, err, tc.want)
		}
	}
	sc := parse(t, "generate: {jobs: 5}\n")
	if err := sc.Set("generate.jobs", "many"); err == nil || !strings.Contains(err.Error(), "generate.jobs=many") {
		t.Errorf("Set(generate.jobs, many): %v", err)
	}
	if sc.Generate.Jobs != 5 {
		t.Errorf("a refused Set changed generate.jobs to %d", sc.Generate.Jobs)
	}
}

// schedParams splits a SchedulerParameters value into its options.
func schedOpts(v string) map[string]string {
	m := map[string]string{}
	for _, o := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(o, "=")
		if _, dup := m[k]; dup {
			m[k] = "DUPLICATE"
			continue
		}
		m[k] = val
	}
	return m
}

// TestSetSchedulerParameter: an option is merged into SchedulerParameters
// as in force, inline or from slurm.conf, replacing its earlier value and
// keeping the others.
func TestSetSchedulerParameter(t *testing.T) {
	// Inline, with the key spelt in lower case.
	sc := parse(t, "slurm:\n  schedulerparameters: bf_window=100,bf_interval=45\n")
	if err := sc.Set("bf_window", "2880"); err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("BF_MAX_JOB_TEST", "50"); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"SchedulerParameters": "bf_interval=45,bf_window=2880,bf_max_job_test=50"}
	if !maps.Equal(sc.Slurm, want) {
		t.Errorf("slurm %v, want %v", sc.Slurm, want)
	}

	// From the file: bf_window=2880,bf_resolution=300 there.
	sc, err := Load(fromSlurm)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("bf_resolution", "600"); err != nil {
		t.Fatal(err)
	}
	opts := schedOpts(sc.Slurm["SchedulerParameters"])
	if opts["bf_window"] != "2880" || opts["bf_resolution"] != "600" {
		t.Errorf("SchedulerParameters %q: want bf_window=2880 (file) and bf_resolution=600 (set), once each", sc.Slurm["SchedulerParameters"])
	}
	conf, err := sc.slurmConfig()
	if err != nil {
		t.Fatal(err)
	}
	if sp := conf.SchedulerParameters; sp.BfWindowMin != 2880 || sp.BfResolutionSec != 600 {
		t.Errorf("in force: bf_window %d bf_resolution %d; want 2880, 600", sp.BfWindowMin, sp.BfResolutionSec)
	}
	if conf.PriorityWeightAge != 5 {
		t.Errorf("the inline PriorityWeightAge was lost: %d", conf.PriorityWeightAge)
	}
}

// TestSetScenarioKeys: dotted keys set the scenario YAML's keys, making
// sections as needed, with YAML values (numbers, booleans, lists).
func TestSetScenarioKeys(t *testing.T) {
	sc := parse(t, "name: x\ngenerate: {seed: 4, jobs: 5}\nfairshare: {algorithm: fairtree}\n")
	for _, kv := range [][2]string{
		{"generate.jobs", "2000"},
		{"generate.partitions", "[a, b]"},
		{"fairshare.algorithm", "classic"},
		{"scheduler", "fifo"},
		{"description", `"a: colon"`}, // values are YAML: quote one that reads as a map
		{"cluster.scale_runtime", "false"},
		{"cluster.cpu_types.nehalem.speed", "0.3"},
		{"sim.missing_time_limit", "maxtime"},
		{"sim.fail_impossible", "true"},
		{"accounts.map", "user"},
	} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%s, %s): %v", kv[0], kv[1], err)
		}
	}
	g := sc.Generate
	if g.Seed != 4 || g.Jobs != 2000 || !reflect.DeepEqual(g.Partitions, []string{"a", "b"}) {
		t.Errorf("generate %+v: want seed 4 kept, jobs 2000, partitions [a b]", g)
	}
	if sc.FairShare.Algorithm != "classic" || sc.Scheduler != "fifo" || sc.Description != "a: colon" || sc.Name != "x" {
		t.Errorf("algorithm %q scheduler %q description %q name %q", sc.FairShare.Algorithm, sc.Scheduler, sc.Description, sc.Name)
	}
	if sc.Cluster.ScaleRuntime == nil || *sc.Cluster.ScaleRuntime || sc.Cluster.CPUTypes["nehalem"].Speed != 0.3 {
		t.Errorf("cluster %+v: want scale_runtime false, nehalem speed 0.3", sc.Cluster)
	}
	if sc.Sim.MissingTimeLimit != "maxtime" || !sc.Sim.FailImpossible || sc.Accounts.Map != "user" {
		t.Errorf("sim %+v accounts %+v", sc.Sim, sc.Accounts)
	}
	// A section the scenario lacks is made.
	sc = parse(t, "trace: {file: t.swf}\n")
	if err := sc.Set("generate.jobs", "10"); err != nil {
		t.Fatal(err)
	}
	if sc.Generate == nil || sc.Generate.Jobs != 10 {
		t.Errorf("generate %+v, want jobs 10", sc.Generate)
	}
}

// TestSetKeepsFolder: after a dotted Set, relative paths still resolve
// against the scenario's folder, and the scenario builds and runs.
func TestSetKeepsFolder(t *testing.T) {
	run, err := buildScenario(t, fromSlurm, [2]string{"generate.jobs", "7"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 7 {
		t.Errorf("%d jobs, want 7", len(res.Jobs))
	}
}

// TestSetPartitionAndQOS: partition.NAME.Attr and qos.NAME.Attr change the
// built cluster and QOS table; unknown names and attributes are errors at
// build time naming them.
func TestSetPartitionAndQOS(t *testing.T) {
	run, err := buildScenario(t, fromSlurm,
		[2]string{"partition.mid.PriorityTier", "5"},
		[2]string{"partition.mid.maxtime", "1:00:00"},
		[2]string{"partition.big.DefaultTime", "30"},
		[2]string{"partition.all.PriorityJobFactor", "9"},
		[2]string{"partition.big.PreemptMode", "requeue"},
		[2]string{"partition.big.MaxNodes", "2"},
		[2]string{"partition.big.MaxCPUsPerNode", "3"},
		[2]string{"qos.high.Priority", "900"},
		[2]string{"qos.normal.usagefactor", "0.5"})
	if err != nil {
		t.Fatal(err)
	}
	c := run.Cluster
	mid, _ := c.Partition("mid")
	big, _ := c.Partition("big")
	all, _ := c.Partition("all")
	if p := c.Parts[mid]; p.PriorityTier != 5 || p.MaxTime != 3600 {
		t.Errorf("mid: tier %d MaxTime %d, want 5, 3600", p.PriorityTier, p.MaxTime)
	}
	if p := c.Parts[big]; p.DefaultTime != 1800 || p.PreemptMode != policy.PreemptRequeue || p.PriorityTier != 3 || p.MaxNodes != 2 {
		t.Errorf("big: DefaultTime %d PreemptMode %v tier %d MaxNodes %d, want 1800, REQUEUE, 3 (file), 2", p.DefaultTime, p.PreemptMode, p.PriorityTier, p.MaxNodes)
	}
	if p := c.Parts[mid]; p.MaxNodes != 0 {
		t.Errorf("mid: MaxNodes %d, want 0 (UNLIMITED)", p.MaxNodes)
	}
	if !c.Capped(big) || c.Capped(mid) || c.Parts[big].MaxCPUsPerNode != 3 {
		t.Errorf("big: MaxCPUsPerNode %d (capped %v), mid capped %v; want 3, true, false", c.Parts[big].MaxCPUsPerNode, c.Capped(big), c.Capped(mid))
	}
	if p := c.Parts[all]; p.PriorityJobFactor != 9 {
		t.Errorf("all: PriorityJobFactor %d, want 9", p.PriorityJobFactor)
	}
	qs := run.Multifactor.QOSSet()
	hi, _ := qs.Index("high")
	no, _ := qs.Index("normal")
	if qs.QOS(hi).Priority != 900 || qs.QOS(no).UsageFactor != 0.5 || qs.QOS(no).Priority != 100 {
		t.Errorf("QOS high priority %d, normal usage factor %g priority %d; want 900, 0.5, 100",
			qs.QOS(hi).Priority, qs.QOS(no).UsageFactor, qs.QOS(no).Priority)
	}

	for _, tc := range []struct {
		yaml     string // "" for the fromslurm scenario
		key, val string
		want     string
	}{
		{"", "partition.nope.PriorityTier", "1", "partition.nope: no such partition"},
		{"", "partition.mid.Nodes", "old1", "partition.mid.Nodes=old1: not a partition attribute"},
		{"", "partition.mid.PriorityTier", "high", "partition.mid.PriorityTier=high: want a whole number"},
		{"", "partition.mid.MaxTime", "soon", "partition.mid.MaxTime=soon"},
		{"", "partition.mid.MaxNodes", "0", "partition.mid.MaxNodes=0: want a count of nodes from 1, or UNLIMITED"},
		{"", "partition.mid.MaxCPUsPerNode", "0", "partition.mid.MaxCPUsPerNode=0: want a count of CPUs from 1, or UNLIMITED"},
		{"", "qos.nope.Priority", "1", "qos.nope: no such QOS"},
		{"", "qos.normal.Colour", "red", "qos.normal.Colour: not a QOS column"},
		{"", "qos.normal.Priority", "lots", "qos_set"},
		{"name: q\nscheduler: slurm\ngenerate: {jobs: 5}\ncluster: {nodes: [{NodeName: n1, Feature: broadwell, CPUs: 4, RealMemory: 4G}], partitions: [{PartitionName: p}]}\n",
			"qos.normal.Priority", "1", "qos.*: the scenario has no QOS file"},
	} {
		var err error
		if tc.yaml == "" {
			_, err = buildScenario(t, fromSlurm, [2]string{tc.key, tc.val})
		} else {
			sc := parse(t, tc.yaml)
			if err = sc.Set(tc.key, tc.val); err == nil {
				if err = sc.Resolve(); err == nil {
					var run *Run
					if run, err = sc.Build(); run != nil {
						run.Close()
					}
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s=%s: error %v, want %q", tc.key, tc.val, err, tc.want)
		}
	}
}

// TestInlineOverridesFile: a slurm: key drops the file's line for that key
// (in any letter case, with or without spaces around =) and nothing else;
// the slurm.conf in force shows the inline value.
func TestInlineOverridesFile(t *testing.T) {
	dir := t.TempDir()
	file := "PriorityWeightAge=1000\npriorityweightqos = 300\nPriorityWeightAssoc=40\n# PriorityWeightFairshare=1 (a comment stays a comment)\nSchedulerParameters=bf_window=2880,bf_resolution=300\nPriorityWeightFairshare=10000"
	if err := writeFile(filepath.Join(dir, "slurm.conf"), file); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "s.yaml"), "slurm_conf: slurm.conf\nslurm:\n  PriorityWeightAge: \"5\"\n  PriorityWeightQOS: \"6\"\n  SchedulerParameters: bf_interval=60\n"); err != nil {
		t.Fatal(err)
	}
	sc, err := Load(filepath.Join(dir, "s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	conf, err := sc.slurmConfig()
	if err != nil {
		t.Fatal(err)
	}
	if conf.PriorityWeightAge != 5 || conf.PriorityWeightQOS != 6 || conf.PriorityWeightAssoc != 40 || conf.PriorityWeightFairshare != 10000 {
		t.Errorf("weights age %d QOS %d assoc %d fairshare %d; want 5, 6 (inline), 40, 10000 (file)",
			conf.PriorityWeightAge, conf.PriorityWeightQOS, conf.PriorityWeightAssoc, conf.PriorityWeightFairshare)
	}
	// SchedulerParameters is replaced as a whole: bf_window and
	// bf_resolution go back to Slurm's defaults (1440 min, 60 s).
	if sp := conf.SchedulerParameters; sp.BfIntervalSec != 60 || sp.BfWindowMin != 1440 || sp.BfResolutionSec != 60 {
		t.Errorf("SchedulerParameters in force: bf_interval %d bf_window %d bf_resolution %d; want 60, 1440, 60",
			sp.BfIntervalSec, sp.BfWindowMin, sp.BfResolutionSec)
	}
	// The text read: the file without lines 1, 2 and 5 (PriorityWeightAssoc,
	// the comment, PriorityWeightFairshare with a newline added), then
	// "# inline settings of …" and the inline keys in sorted order.
	for key, line := range map[string]int{"PriorityWeightAssoc": 1, "PriorityWeightFairshare": 3,
		"PriorityWeightAge": 5, "PriorityWeightQOS": 6, "SchedulerParameters": 7} {
		if got := conf.Where(key).Line; got != line {
			t.Errorf("%s read from line %d, want %d", key, got, line)
		}
	}
	// No warning of a key given twice: the file's lines were dropped.
	for _, w := range conf.Warnings {
		if strings.Contains(strings.ToLower(w.String()), "priorityweightage") {
			t.Errorf("warning about an overridden key: %s", w)
		}
	}
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// TestEnforcePartLimits: EnforcePartLimits=ALL (any letter case) makes the
// simulator refuse a job that breaks any of its partitions' limits; NO,
// ANY and Slurm's other spellings (YES, 1, ...) keep the default; a value
// Slurm refuses is an error naming it.
func TestEnforcePartLimits(t *testing.T) {
	for _, tc := range []struct {
		val  string
		all  bool
		fail string
	}{{"all", true, ""}, {"ALL", true, ""}, {"NO", false, ""}, {"any", false, ""}, {"Yes", false, ""}, {"1", false, ""},
		{"sometimes", false, `EnforcePartLimits "sometimes": want NO, ANY (YES) or ALL`}} {
		run, err := buildScenario(t, fromSlurm, [2]string{"EnforcePartLimits", tc.val})
		switch {
		case tc.fail != "":
			if err == nil || !strings.Contains(err.Error(), tc.fail) {
				t.Errorf("%s: err %v, want %q", tc.val, err, tc.fail)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.val, err)
		case run.Options.EnforcePartLimitsAll != tc.all:
			t.Errorf("%s: EnforcePartLimitsAll %v, want %v", tc.val, run.Options.EnforcePartLimitsAll, tc.all)
		}
	}
}
