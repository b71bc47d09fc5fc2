//go:build slurm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fairsim/internal/slurmharness"
)

// TestSlurmHarnessSweep submits an emitted sweep to the harness's real
// Slurm: the job array and its merge job complete, and the merged
// sweep.csv is byte-identical to a direct sweep of the same grid.
func TestSlurmHarnessSweep(t *testing.T) {
	h := slurmharness.Start(t, "")
	scen, err := filepath.Abs("../../workflow/testdata/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set := []string{"--set", "PriorityWeightAge=0,1000,10000000", "--set", "bf_window=60,1440"}
	// Under /tmp, not t.TempDir: the jobs run as root from slurmd and
	// write there; the folder goes when the test ends.
	tmp, err := os.MkdirTemp("", "fairsim-sweep")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	bin := filepath.Join(tmp, "fairsim")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	out, script := filepath.Join(tmp, "sweep"), filepath.Join(tmp, "sweep.sbatch")
	mustRun(t, append([]string{"sweep", "--scenario", scen, "--out", out, "--shards", "3", "--time", "5:00", "--emit-sbatch", script}, set...)...)

	// Run the script as a user on a login node would, inside the
	// namespace; $FAIRSIM reaches the jobs through sbatch's --export=ALL.
	said := h.MustRun(t, "env", "FAIRSIM="+bin, "bash", script)
	if !strings.Contains(said, "submitted array job") {
		t.Fatalf("script said %q", said)
	}
	h.WaitIdle(t, 4, 3*time.Minute) // three array tasks and the merge job
	states := h.MustRun(t, "sacct", "-n", "-X", "-a", "-P", "-o", "JobID,JobName,State,ExitCode")
	for _, l := range strings.Split(strings.TrimSpace(states), "\n") {
		if !strings.Contains(l, "|COMPLETED|0:0") {
			t.Errorf("job not completed: %s", l)
		}
	}
	direct := filepath.Join(tmp, "direct")
	mustRun(t, append([]string{"sweep", "--scenario", scen, "--quiet", "--out", direct}, set...)...)
	got, err := os.ReadFile(filepath.Join(out, "sweep.csv"))
	if err != nil {
		t.Fatalf("no merged sweep.csv: %v\n%s", err, states)
	}
	if string(got) != readFile(t, filepath.Join(direct, "sweep.csv")) {
		t.Error("the real job array's merged sweep.csv differs from a direct sweep")
	}
}
