package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzScenario feeds the scenario reader arbitrary YAML, seeded from the
// scenario library and the embedded default. No input may panic Parse or
// Resolve, and a resolved scenario must read back (scenario.resolved.yaml
// reproduces the run) and resolve to the same YAML again.
func FuzzScenario(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "scenarios", "*.yaml"))
	seeds = append(seeds, "default.yaml")
	seeds = append(seeds, filepath.Join("testdata", "fromslurm", "scenario.yaml"))
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			continue // a seed another change removed: fuzz the rest
		}
		f.Add(data)
	}
	f.Add([]byte("trace: {file: t.swf}\n"))
	f.Add([]byte("name: c\ngenerate: {jobs: 5}\ncluster:\n  nodes: [{NodeName: \"n[1-4]\", Feature: broadwell, CPUs: 8, RealMemory: 16G}]\n" +
		"  partitions: [{PartitionName: cpu, Default: true, MaxCPUsPerNode: 6, MinNodes: 2, MaxNodes: 3}, {PartitionName: gpu}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse(data, "fuzz.yaml")
		if err != nil {
			return
		}
		if err := sc.Resolve(); err != nil {
			return
		}
		out, err := sc.MarshalResolved()
		if err != nil {
			t.Fatalf("resolved scenario does not marshal: %v", err)
		}
		again, err := Parse(out, "resolved.yaml")
		if err != nil {
			t.Fatalf("resolved scenario does not read back: %v\n%s", err, out)
		}
		if err := again.Resolve(); err != nil {
			t.Fatalf("resolved scenario does not resolve again: %v\n%s", err, out)
		}
		out2, err := again.MarshalResolved()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("resolving twice changes the scenario:\n%s\n---\n%s", out, out2)
		}
	})
}
