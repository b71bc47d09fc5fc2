package config

import (
	"strings"
	"testing"
)

// genScenario is a generated-workload scenario on a written-out cluster;
// gen holds the generate keys, one per line, indented by four.
func genScenario(gen string) string {
	return "name: g\nscheduler: fifo\ncluster:\n  nodes:\n    - NodeName: c[01-04]\n      Feature: skylake\n      CPUs: 8\n      RealMemory: 32G\n" +
		"  partitions:\n    - PartitionName: batch\n      Nodes: ALL\n      Default: true\ngenerate:\n" + gen
}

// TestValueErrorsNameTheLine: an error about a value names the line of
// its key, nested ones included.
func TestValueErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{genScenario("  jobs: 5\n  days: 0\n"), "s.yaml:15: generate: days 0: want a positive number"},
		{genScenario("  jobs: 5\n  max_cpus: 0\n"), "s.yaml:15: generate: max CPUs 0: want 1..16777216"},
		{genScenario("  jobs: 5\n  limit_factor: 0.5\n"), "s.yaml:15: generate: limit factor 0.5: want at least 1"},
		{genScenario("  jobs: 5\n  runtime_sigma: 1e308\n"), "s.yaml:13: generate: lognormal runtime median 1800 sigma 1e+308: want median 1..3155760000 s, sigma 0..10"},
		{genScenario("  jobs: 5\n  daily: 5\n"), "s.yaml:15: generate: daily amplitude 5: want 0..1"},
		{strings.Replace(genScenario("  jobs: 5\n"), "RealMemory: 32G", "RealMemory: 99999999999T", 1),
			`s.yaml:8: cluster: nodes[0] c[01-04]: RealMemory: memory size "99999999999T": want a number of MB or a size like 128G (at most 1P)`},
		{genScenario("  jobs: 5\n") + "sim:\n  completing_seconds: -5\n", "s.yaml:16: sim.completing_seconds -5: want 0 or more seconds"},
	} {
		sc := parse(t, tc.yaml)
		err := sc.Resolve()
		if err == nil {
			_, err = sc.Build()
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v\nwant %s", err, tc.want)
		}
	}
}

// TestWrittenZerosKept: a generate key written with a zero value keeps
// it (daily 0: flat arrivals; power_of_two and feature_share 0: none);
// only keys left out, or written empty, take the defaults.
func TestWrittenZerosKept(t *testing.T) {
	sc := parse(t, genScenario("  jobs: 5\n  daily: 0\n  power_of_two: 0\n  feature_share: 0\n  weekend:\n"))
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	g := sc.Generate
	if g.Daily != 0 || g.PowerOfTwo != 0 || g.FeatureShare != 0 {
		t.Errorf("daily %v, power_of_two %v, feature_share %v; want the zeros written", g.Daily, g.PowerOfTwo, g.FeatureShare)
	}
	if g.Weekend == 0 || g.Days == 0 || g.MaxCPUs == 0 {
		t.Errorf("weekend %v, days %v, max_cpus %v; want the defaults of keys left out or empty", g.Weekend, g.Days, g.MaxCPUs)
	}
	// After --set, the file's keys keep their lines, the zeros written
	// stay, and the re-marshalled zeros of keys never written do not
	// count as written.
	sc = parse(t, genScenario("  jobs: 5\n  daily: 0\n"))
	if err := sc.Set("generate.days", "0"); err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.genConfig(); err == nil || err.Error() != "s.yaml: generate: days 0: want a positive number" {
		t.Fatalf("--set generate.days=0: %v", err)
	}
	sc = parse(t, genScenario("  jobs: 5\n  daily: 0\n"))
	if err := sc.Set("generate.jobs", "7"); err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	if g := sc.Generate; g.Daily != 0 || g.Weekend == 0 || g.Jobs != 7 || sc.where("generate.daily") != "s.yaml:15" {
		t.Errorf("after --set: daily %v (line %s), weekend %v, jobs %d; want 0 at s.yaml:15, the default, 7", g.Daily, sc.where("generate.daily"), g.Weekend, g.Jobs)
	}
}

// TestSetEmptyLeavesKeyOut: --set KEY= (or ~, null) leaves the key out,
// as "days:" with no value does in a file: the default applies.
func TestSetEmptyLeavesKeyOut(t *testing.T) {
	for _, v := range []string{"", "~", "null"} {
		sc := parse(t, genScenario("  jobs: 5\n"))
		if err := sc.Set("generate.days", v); err != nil {
			t.Fatal(err)
		}
		if err := sc.Resolve(); err != nil {
			t.Fatal(err)
		}
		if _, err := sc.genConfig(); err != nil || sc.Generate.Days == 0 {
			t.Errorf("--set generate.days=%q: days %v, %v; want the default", v, sc.Generate.Days, err)
		}
	}
}
