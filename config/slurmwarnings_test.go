package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A slurm.conf of 25 unknown keys prints MaxSlurmWarnings (20) of them and
// one line counting the other 5 (and the "not simulated" summary, a 26th
// warning: 26 - 20 = 6 more); none is dropped: SlurmWarnings, written to
// scenario.resolved.yaml, holds all 26.
func TestSlurmWarningsCapped(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "fromslurm")
	for _, f := range []string{"scenario.yaml", "qos.txt"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf, err := os.ReadFile(filepath.Join(src, "slurm.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.Write(conf)
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "NoSuchKey%02d=1\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := buildScenario(t, filepath.Join(dir, "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var fromConf []string
	for _, w := range run.Warnings {
		if strings.Contains(w, "slurm.conf") {
			fromConf = append(fromConf, w)
		}
	}
	if len(fromConf) != MaxSlurmWarnings+1 {
		t.Fatalf("%d slurm.conf warnings printed, want %d + 1:\n%s", len(fromConf), MaxSlurmWarnings, strings.Join(fromConf, "\n"))
	}
	last := fromConf[MaxSlurmWarnings]
	if want := "… and 6 more slurm.conf warnings (a finished run's scenario.resolved.yaml lists all 26 under slurm_warnings)"; last != want {
		t.Errorf("last warning %q, want %q", last, want)
	}
	sc := run.Scenario
	if len(sc.SlurmWarnings) != 26 || !strings.Contains(sc.SlurmWarnings[24], "NoSuchKey25: unknown key") {
		t.Errorf("slurm_warnings holds %d, want all 26 with NoSuchKey25 second last: %v", len(sc.SlurmWarnings), sc.SlurmWarnings)
	}
	out, err := sc.MarshalResolved()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "slurm_warnings:\n") || !strings.Contains(string(out), "NoSuchKey25: unknown key") {
		t.Errorf("scenario.resolved.yaml lacks the warnings:\n%s", out)
	}
}
