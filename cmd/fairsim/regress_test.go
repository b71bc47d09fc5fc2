package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goldenDir = "../../results/golden"

// regress passes on the committed golden results (odyssey, the first of
// the library), and fails naming the drifted metrics when a copy of the
// scenario has its age weight changed.
func TestRegressGolden(t *testing.T) {
	needFile(t, odyssey)
	needFile(t, filepath.Join(goldenDir, "odyssey", "metrics.csv"))
	out := mustRun(t, "regress", "--golden", goldenDir, "--scenarios", "../../scenarios", "odyssey")
	if !strings.Contains(out, "odyssey  ok: ") {
		t.Errorf("regress on the committed goldens:\n%s", out)
	}

	// A copy of odyssey (with its files) whose slurm.conf weighs age 1000
	// instead of 10000000.
	tmp := t.TempDir()
	copyTree(t, "../../scenarios/odyssey", filepath.Join(tmp, "odyssey"))
	b := readFile(t, odyssey)
	os.WriteFile(filepath.Join(tmp, "odyssey.yaml"), []byte(b), 0o644)
	conf := filepath.Join(tmp, "odyssey", "slurm.conf")
	c := readFile(t, conf)
	if !strings.Contains(c, "\nPriorityWeightAge=10000000\n") {
		t.Skip("odyssey's slurm.conf no longer sets PriorityWeightAge=10000000")
	}
	os.WriteFile(conf, []byte(strings.Replace(c, "\nPriorityWeightAge=10000000\n", "\nPriorityWeightAge=1000\n", 1)), 0o644)
	out, _, err := runApp(t, "regress", "--golden", goldenDir, filepath.Join(tmp, "odyssey.yaml"))
	if err == nil || !strings.Contains(err.Error(), "1 of 1 scenarios drifted") {
		t.Fatalf("regress with a changed weight: %v\n%s", err, out)
	}
	for _, want := range []string{"odyssey  DRIFT", "wait_mean_s", "jobs.csv sha256", "fairsim regress --update odyssey"} {
		if !strings.Contains(out, want) {
			t.Errorf("regress output lacks %q:\n%s", want, out)
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRegressNoScenarios(t *testing.T) {
	_, _, err := runApp(t, "regress", "--scenarios", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "no scenarios in") {
		t.Errorf("empty library: %v", err)
	}
}
