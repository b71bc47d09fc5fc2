package main

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const odyssey = "../../scenarios/odyssey.yaml"

func needFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not found: %v", path, err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A 3 x 2 sweep over odyssey: six rows whose parameters are the grid, in
// order; the same sweep as two shards merges into the same bytes.
func TestSweepOdysseyShardsMerge(t *testing.T) {
	needFile(t, odyssey)
	set := []string{"--set", "PriorityWeightAge=1000,10000,100000", "--set", "PriorityDecayHalfLife=7-0,14-0"}
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full")
	mustRun(t, append([]string{"sweep", "--scenario", odyssey, "--quiet", "--out", full}, set...)...)
	f, err := os.Open(filepath.Join(full, "sweep.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 {
		t.Fatalf("sweep.csv has %d rows, want 6 and a header", len(rows)-1)
	}
	if h := rows[0][:3]; strings.Join(h, ",") != "point,PriorityWeightAge,PriorityDecayHalfLife" {
		t.Errorf("header starts %v", h)
	}
	want := [][2]string{{"1000", "7-0"}, {"1000", "14-0"}, {"10000", "7-0"}, {"10000", "14-0"}, {"100000", "7-0"}, {"100000", "14-0"}}
	for i, w := range want {
		if rows[i+1][1] != w[0] || rows[i+1][2] != w[1] {
			t.Errorf("row %d parameters %v, want %v", i, rows[i+1][1:3], w)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(full, "points", "*", "jobs.csv"))
	if len(dirs) != 6 {
		t.Errorf("%d point directories with jobs.csv, want 6", len(dirs))
	}

	s0, s1, merged := filepath.Join(tmp, "s0"), filepath.Join(tmp, "s1"), filepath.Join(tmp, "merged")
	mustRun(t, append([]string{"sweep", "--scenario", odyssey, "--quiet", "--shard", "0/2", "--out", s0}, set...)...)
	mustRun(t, append([]string{"sweep", "--scenario", odyssey, "--quiet", "--shard", "1/2", "--out", s1}, set...)...)
	mustRun(t, "sweep", "merge", "--out", merged, s0, s1)
	if readFile(t, filepath.Join(merged, "sweep.csv")) != readFile(t, filepath.Join(full, "sweep.csv")) {
		t.Error("merged shards differ from the full sweep")
	}
	if _, _, err := runApp(t, append([]string{"sweep", "--scenario", odyssey, "--shard", "2/2", "--out", s0}, set...)...); err == nil ||
		!strings.Contains(err.Error(), "numbered from 0") {
		t.Errorf("--shard 2/2: %v", err)
	}
}

// fakeSbatch stands in for Slurm: it runs an array script's tasks one by
// one with SLURM_ARRAY_TASK_ID set, and a --wrap job at once, logging the
// options it was given.
const fakeSbatch = `#!/bin/bash
wrap=""; script=""
while [ $# -gt 0 ]; do
  case "$1" in
    --wrap) wrap="$2"; shift 2;;
    --*) echo "$1" >> "$SBATCH_LOG"; shift;;
    *) script="$1"; shift;;
  esac
done
if [ -n "$wrap" ]; then bash -c "$wrap" >> "$SBATCH_LOG" 2>&1 || exit 1; echo 1002; exit 0; fi
last=$(sed -n 's/^#SBATCH --array=0-\([0-9]*\)$/\1/p' "$script")
for i in $(seq 0 "$last"); do SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 bash "$script" >> "$SBATCH_LOG" 2>&1 || exit 1; done
echo "1001;cluster"
`

// The emitted script passes bash -n, asks for --array=0-(N-1) and a merge
// job with --dependency=afterok on the array; run under a stand-in
// sbatch, it produces the sweep.csv of a direct run.
func TestSweepEmitSbatch(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	scen := "../../workflow/testdata/tiny.yaml"
	set := []string{"--set", "PriorityWeightAge=0,1000,10000000", "--set", "bf_window=60,1440"}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "sweep")
	script := filepath.Join(tmp, "sweep.sbatch")
	mustRun(t, append([]string{"sweep", "--scenario", scen, "--out", out, "--shards", "4", "--emit-sbatch", script}, set...)...)
	text := readFile(t, script)
	if b, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, b)
	}
	for _, want := range []string{"#SBATCH --array=0-3\n", "--dependency=afterok:$jobid", `--shard "$SLURM_ARRAY_TASK_ID/$SHARDS"`} {
		if !strings.Contains(text, want) {
			t.Errorf("script lacks %q", want)
		}
	}

	// Build fairsim and run the script as a user would, with a stand-in sbatch.
	bin := filepath.Join(tmp, "bin")
	os.Mkdir(bin, 0o755)
	if b, err := exec.Command("go", "build", "-o", filepath.Join(bin, "fairsim"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fakeSbatch), 0o755)
	log := filepath.Join(tmp, "sbatch.log")
	cmd := exec.Command(bash, script)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "FAIRSIM="+filepath.Join(bin, "fairsim"), "SBATCH_LOG="+log, "SLURM_ARRAY_TASK_ID=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash %s: %v\n%s\n%s", script, err, b, readFile(t, log))
	} else if !strings.Contains(string(b), "submitted array job 1001 (4 tasks) and merge job 1002") {
		t.Errorf("script said %q", b)
	}
	if l := readFile(t, log); !strings.Contains(l, "--dependency=afterok:1001\n") {
		t.Errorf("merge job not submitted with --dependency=afterok:1001:\n%s", l)
	}
	direct := filepath.Join(tmp, "direct")
	mustRun(t, append([]string{"sweep", "--scenario", scen, "--quiet", "--out", direct}, set...)...)
	if readFile(t, filepath.Join(out, "sweep.csv")) != readFile(t, filepath.Join(direct, "sweep.csv")) {
		t.Error("the job array's merged sweep.csv differs from a direct sweep")
	}
}
