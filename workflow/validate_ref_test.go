package workflow

import (
	"os"
	"path/filepath"
	"testing"
)

// TestValidateReferenceRuns replays every reference run recorded on the
// real-Slurm harness (scenarios/testdata/slurm-ref, remade by
// scripts/slurm-refruns) as captured: every job is compared and the
// figures are finite. How close they are is the scheduler's business; the
// numbers are logged.
func TestValidateReferenceRuns(t *testing.T) {
	matches, _ := filepath.Glob("../scenarios/testdata/slurm-ref/*/run*")
	var runs []string
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.IsDir() {
			runs = append(runs, m) // steady-bflog is one run, its run.txt beside the capture
		}
	}
	if len(runs) == 0 {
		t.Fatal("no reference runs under scenarios/testdata/slurm-ref")
	}
	want := map[string]int{"main": 48, "fairshare": 26, "steady": 42, "main-log": 48, "fairshare-log": 26}
	for _, dir := range runs {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			for _, f := range []string{"sshare-end.txt", "sprio-wave.txt", "site.conf"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("missing %s", f)
				}
			}
			v, err := ValidateScenario(dir, "", ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if n := want[filepath.Base(filepath.Dir(dir))]; len(v.Jobs) != n || v.NotStarted != 0 {
				t.Errorf("%d jobs compared, %d not started; want %d, 0", len(v.Jobs), v.NotStarted, n)
			}
			if !(v.Tau >= -1 && v.Tau <= 1) || v.MAPE != v.MAPE {
				t.Errorf("tau %v, MAPE %v: want finite figures", v.Tau, v.MAPE)
			}
			// The two snapshots, on fairsim's schedule and on the
			// recorded one, each over the 8 rows of root, root's user and
			// three accounts with one user each (fairshare) or root, its
			// user, two accounts of two users (main and steady: 8 too).
			if len(v.Shares) != 4 {
				t.Errorf("sshare checks %+v, want four", v.Shares)
			}
			for _, c := range v.Shares {
				if c.Rows != 8 {
					t.Errorf("sshare check of %s (recorded %v): %d rows, want 8", c.File, c.Recorded, c.Rows)
				}
			}
			t.Logf("tau-b %.4f, wait MAPE %.2f%%, mean |wait error| %.1f s", v.Tau, v.MAPE, v.MeanAbsErr)
		})
	}
}
