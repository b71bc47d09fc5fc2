package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSiteAsItIs runs a site's slurm.conf alone (with an Include): its
// only accepting partition is DOWN, so every generated job queues and
// none starts, and the run still ends well, with every output written
// and the facts of the file in scenario.resolved.yaml.
func TestSiteAsItIs(t *testing.T) {
	out := t.TempDir()
	log := cli(t, "run", "--slurm-conf", filepath.Join("testdata", "site", "slurm.conf"), "--out", out)
	if !strings.Contains(log, "1 node(s) have no Feature naming a known CPU generation: n2") {
		t.Errorf("no warning naming the generic node n2:\n%s", log)
	}
	sum := readFile(t, filepath.Join(out, "summary.csv"))
	for _, want := range []string{"cluster_nodes,2\n", "cluster_cores,16\n", "jobs_started,0\n"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary.csv lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, "state: PENDING,0\n") {
		t.Errorf("no job pending in a DOWN partition:\n%s", sum)
	}
	for _, f := range []string{"wait.png", "utilization.png", "jobs.csv"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	jobs := readFile(t, filepath.Join(out, "jobs.csv"))
	if !strings.Contains(jobs, "PartitionDown") {
		t.Errorf("jobs.csv gives no PartitionDown reason")
	}
	res := readFile(t, filepath.Join(out, "scenario.resolved.yaml"))
	for _, want := range []string{"type: skylake", "type: generic", "State: DRAIN", "State: DOWN", "DefMemPerCPU=1000"} {
		if !strings.Contains(res, want) {
			t.Errorf("scenario.resolved.yaml lacks %q", want)
		}
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

// TestQuietKeepsWarnings: --quiet drops the progress bar, the notes and the
// summary, never a warning.
func TestQuietKeepsWarnings(t *testing.T) {
	log := cli(t, "run", "--slurm-conf", filepath.Join("testdata", "site", "slurm.conf"), "--out", t.TempDir(), "--quiet")
	if !strings.Contains(log, "fairsim: warning: 1 node(s) have no Feature naming a known CPU generation: n2") {
		t.Errorf("--quiet dropped the warning:\n%s", log)
	}
	if strings.Contains(log, "generated workload:") || strings.Contains(log, "results in") {
		t.Errorf("--quiet printed notes or the summary:\n%s", log)
	}
}
