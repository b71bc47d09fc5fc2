package workflow

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// small is a generated-workload scenario that runs in a few milliseconds.
const small = `name: small
scheduler: slurm
generate: {seed: 3, jobs: 300, days: 2, users: 8, accounts: 3, max_cpus: 16}
cluster:
  nodes:
    - {NodeName: "n[1-4]", Feature: broadwell, CPUs: 16, RealMemory: 64G}
  partitions:
    - {PartitionName: batch, Nodes: ALL, Default: true}
slurm:
  PriorityWeightFairshare: "100000"
`

func writeSmall(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "small.yaml")
	if err := os.WriteFile(f, []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSweepGridShardsMerge(t *testing.T) {
	sw := &Sweep{Scenario: writeSmall(t), Params: []Param{
		{"PriorityWeightAge", []string{"0", "100000", "10000000"}},
		{"PriorityDecayHalfLife", []string{"1:00:00", "14-0"}},
	}}
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full")
	if err := sw.Run(RunOptions{Out: full, Shard: All, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	csv := read(t, filepath.Join(full, "sweep.csv"))
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) != 7 {
		t.Fatalf("sweep.csv has %d lines, want header + 6", len(lines))
	}
	if !strings.HasPrefix(lines[0], "point,PriorityWeightAge,PriorityDecayHalfLife,jobs,") {
		t.Errorf("header starts %q", lines[0][:60])
	}
	wantParams := []string{"0,0,1:00:00,", "1,0,14-0,", "2,100000,1:00:00,", "3,100000,14-0,", "4,10000000,1:00:00,", "5,10000000,14-0,"}
	for i, w := range wantParams {
		if !strings.HasPrefix(lines[i+1], w) {
			t.Errorf("row %d = %.40q..., want it to start %q", i, lines[i+1], w)
		}
	}
	// The settings reached the runs: each point's resolved slurm.conf.
	res := read(t, filepath.Join(full, "points", "5_PriorityWeightAge=10000000_PriorityDecayHalfLife=14-0", "scenario.resolved.yaml"))
	if !strings.Contains(res, "PriorityWeightAge=10000000") || !strings.Contains(res, "PriorityDecayHalfLife=14-0") {
		t.Errorf("point 5's scenario.resolved.yaml lacks its settings")
	}
	// Age against fair-share changes the schedule: not every row alike.
	if metrics := func(l string) string { return l[strings.Index(l, ",300,"):] }; metrics(lines[1]) == metrics(lines[5]) {
		t.Errorf("PriorityWeightAge 0 and 10000000 give the same figures: the setting did not apply")
	}

	// One worker gives the same bytes (order of completion does not matter).
	one := filepath.Join(tmp, "one")
	if err := sw.Run(RunOptions{Out: one, Shard: All, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(one, "sweep.csv")) != csv {
		t.Error("sweep.csv differs between 1 and 2 workers")
	}

	// Shards 0/2 and 1/2, merged in either order, give the same bytes.
	s0, s1 := filepath.Join(tmp, "s0"), filepath.Join(tmp, "s1")
	for i, d := range []string{s0, s1} {
		if err := sw.Run(RunOptions{Out: d, Shard: Shard{i, 2}, Jobs: 2}); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(read(t, filepath.Join(s0, "sweep.csv")), "\n"); n != 4 {
		t.Errorf("shard 0/2 has %d lines, want header + points 0, 2, 4", n)
	}
	merged := filepath.Join(tmp, "merged")
	if err := Merge(merged, []string{s1, s0}); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(merged, "sweep.csv")) != csv {
		t.Error("merged shards differ from the full sweep")
	}
	// Merge refuses an incomplete set, a duplicate, and another sweep.
	if err := Merge(filepath.Join(tmp, "m2"), []string{s0}); err == nil || !strings.Contains(err.Error(), "3 of 6 points missing (1, 3, 5)") {
		t.Errorf("merge of one shard: %v", err)
	}
	if err := Merge(filepath.Join(tmp, "m3"), []string{s0, s0, s1}); err == nil || !strings.Contains(err.Error(), "in both") {
		t.Errorf("merge with a shard twice: %v", err)
	}
	other := &Sweep{Scenario: sw.Scenario, Params: sw.Params[:1]}
	od := filepath.Join(tmp, "other")
	if err := other.Run(RunOptions{Out: od, Shard: Shard{1, 2}, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	if err := Merge(filepath.Join(tmp, "m4"), []string{s0, od}); err == nil || !strings.Contains(err.Error(), "different sweeps") {
		t.Errorf("merge of two sweeps: %v", err)
	}
}

func TestSweepSeeds(t *testing.T) {
	sw := &Sweep{Scenario: writeSmall(t), Params: []Param{{"PriorityWeightAge", []string{"1000"}}}, Seeds: 3}
	out := t.TempDir()
	if err := sw.Run(RunOptions{Out: out, Shard: All, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(read(t, filepath.Join(out, "sweep.csv"))), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "point,PriorityWeightAge,seed,jobs,") {
		t.Fatalf("sweep.csv:\n%s", strings.Join(lines, "\n"))
	}
	for i, w := range []string{"0,1000,3,", "1,1000,4,", "2,1000,5,"} { // base seed 3
		if !strings.HasPrefix(lines[i+1], w) {
			t.Errorf("row %d starts %.20q, want %q", i, lines[i+1], w)
		}
	}
	if strings.SplitN(lines[1], ",", 5)[4] == strings.SplitN(lines[2], ",", 5)[4] {
		t.Error("seeds 3 and 4 give identical figures: the seed did not reach the generator")
	}
}

func TestSweepErrorsBeforeRunning(t *testing.T) {
	f := writeSmall(t)
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		sw   Sweep
		want string
	}{
		{Sweep{Scenario: f, Params: []Param{{"partition.nosuch.MaxTime", []string{"1:00:00"}}}}, "no such partition"},
		{Sweep{Scenario: f, Params: []Param{{"scheduler", []string{"nosuch"}}}}, "nosuch"},
		{Sweep{Scenario: f, Params: []Param{{"A", []string{"1"}}, {"a", []string{"2"}}}}, "given twice"},
		{Sweep{Scenario: f, Params: []Param{{"generate.seed", []string{"1", "2"}}}, Seeds: 2}, "keep one"},
		// A misspelt key or a value Slurm would ignore would run identical
		// points: refused before any runs.
		{Sweep{Scenario: f, Params: []Param{{"NoSuchKey", []string{"1", "2"}}}}, "--set NoSuchKey: not a slurm.conf key"},
		{Sweep{Scenario: f, Params: []Param{{"bf_window", []string{"2", "abc"}}}}, `--set bf_window: bf_window=abc: Slurm reads only the leading number 0 and ignores "abc"`},
	} {
		err := tc.sw.Run(RunOptions{Out: out, Shard: All, Jobs: 1})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("sweep %+v: error %v, want %q", tc.sw.Params, err, tc.want)
		}
		if _, serr := os.Stat(out); serr == nil && strings.HasPrefix(tc.want, "--set") {
			t.Errorf("sweep %+v: %s written before the error", tc.sw.Params, out)
		}
		os.RemoveAll(out)
	}
}

func TestEmitSbatch(t *testing.T) {
	sw := &Sweep{Scenario: writeSmall(t), Params: []Param{
		{"PriorityWeightAge", []string{"1000", "10000", "100000"}},
		{"PriorityDecayHalfLife", []string{"7-0", "a b'c"}}, // a value bash must get quoted
	}, StarvedAfter: 86400}
	var b bytes.Buffer
	err := sw.EmitSbatch(&b, SbatchOptions{Fairsim: "/opt/fairsim/bin/fairsim", Out: "/scratch/sweep", Shards: 4,
		CPUsPerTask: 2, Time: "2:00:00", Extra: []string{"--partition=serial"}, Script: "sweep.sbatch"})
	if err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		"#!/bin/bash\n",
		"#SBATCH --array=0-3\n", // 4 shards: 0..N-1
		"#SBATCH --cpus-per-task=2\n",
		"#SBATCH --time=2:00:00\n",
		"#SBATCH --partition=serial\n",
		`--shard "$SLURM_ARRAY_TASK_ID/$SHARDS"`,
		"--dependency=afterok:$jobid",
		"sweep merge --out $OUT$shard_dirs",
		`'PriorityDecayHalfLife=7-0,a b'\''c'`, // quoted for bash
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if path, err := exec.LookPath("bash"); err == nil {
		f := filepath.Join(t.TempDir(), "s.sbatch")
		os.WriteFile(f, b.Bytes(), 0o755)
		if out, err := exec.Command(path, "-n", f).CombinedOutput(); err != nil {
			t.Errorf("bash -n: %v\n%s", err, out)
		}
	}
	// Default: one shard per point.
	b.Reset()
	if err := sw.EmitSbatch(&b, SbatchOptions{Fairsim: "/f", Out: "/o"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "#SBATCH --array=0-5\n") {
		t.Errorf("6 points, default shards: want --array=0-5:\n%s", b.String())
	}
	if err := sw.EmitSbatch(&b, SbatchOptions{Fairsim: "/f", Out: "/my dir"}); err == nil {
		t.Error("an output directory with a space was accepted for the merge command line")
	}
}

// TestDispatchOrder: the serpentine hands each of two workers both values
// of a fastest-varying two-valued knob in turn, visits every point once,
// and leaves one worker's order as the grid's.
func TestDispatchOrder(t *testing.T) {
	cases := []struct {
		n, workers int
		want       []int
	}{
		{8, 1, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{8, 2, []int{0, 1, 3, 2, 4, 5, 7, 6}},
		{7, 2, []int{0, 1, 3, 2, 4, 5, 6}},
		{7, 3, []int{0, 1, 2, 5, 4, 3, 6}},
		{8, 3, []int{0, 1, 2, 5, 4, 3, 6, 7}},
		{5, 4, []int{0, 1, 2, 3, 4}},
		{0, 2, []int{}},
	}
	for _, c := range cases {
		if got := dispatchOrder(c.n, c.workers); !slices.Equal(got, c.want) {
			t.Errorf("dispatchOrder(%d, %d) = %v, want %v", c.n, c.workers, got, c.want)
		}
	}
	// Two workers taking points alternately, as they do when the points
	// of one bf_window value take equally long: each gets two of each.
	order := dispatchOrder(8, 2)
	for w := range 2 {
		slow := 0
		for k := w; k < len(order); k += 2 {
			slow += order[k] % 2 // odd points: the knob's second value
		}
		if slow != 2 {
			t.Errorf("worker %d gets %d of the 4 slow points, want 2 (order %v)", w, slow, order)
		}
	}
}
