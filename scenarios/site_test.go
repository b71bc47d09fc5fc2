package scenarios

import (
	"fairsim/slurmtext"
	"fairsim/workload"
	"math"
	"os"
	"path/filepath"
	"strconv"
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

// TestNodeFailureRequeues: slurm20's cluster with a rack failing on day 2
// (16 of 64 nodes, back half a day later) and one node down on day 4. The
// jobs running on the failed nodes end NODE_FAIL and are requeued
// (JobRequeue defaults to 1), counted in summary.csv; with JobRequeue=0
// they end NODE_FAIL instead; and no job starts on a node while it is out.
func TestNodeFailureRequeues(t *testing.T) {
	ev, _ := filepath.Abs(filepath.Join("testdata", "nodefail", "events"))
	metric := func(sum, k string) int {
		for _, l := range strings.Split(sum, "\n") {
			if name, v, _ := strings.Cut(l, ","); name == k {
				n, _ := strconv.Atoi(v)
				return n
			}
		}
		return -1
	}
	out := t.TempDir()
	cli(t, "run", "--scenario", "slurm20.yaml", "--events", ev, "--out", out, "--check", "--quiet")
	sum := readFile(t, filepath.Join(out, "summary.csv"))
	requeues, failed := metric(sum, "node_fail_requeues"), metric(sum, "jobs_node_fail")
	if requeues <= 0 || failed != requeues || metric(sum, "state: NODE_FAIL") > 0 {
		t.Errorf("node_fail_requeues %d, jobs_node_fail %d; want every killed job requeued, none ending NODE_FAIL:\n%s", requeues, failed, sum)
	}
	// From jobs.csv alone: no job starts on n001..n016 in [2-0, 2-12) or on
	// n032 after 4-0 (times from the first submission).
	jt := readJobs(t, out)
	first := math.MaxFloat64
	for _, r := range jt.rows {
		first = min(first, jt.f(t, r, "Submit"))
	}
	for _, r := range jt.rows {
		if jt.s(r, "Start") == "" {
			continue
		}
		st := jt.f(t, r, "Start") - first
		nodes := jt.s(r, "NodeList")
		if st >= 2*86400 && st < 2.5*86400 && strings.Contains(nodes, "n00") {
			names, _ := slurmtext.Expand(nodes)
			for _, n := range names {
				if n <= "n016" {
					t.Errorf("job %s started at %.0f on failed node %s", jt.s(r, "JobID"), st, n)
				}
			}
		}
		if st >= 4*86400 && strings.Contains(nodes, "n032") {
			t.Errorf("job %s started at %.0f on down node n032 (%s)", jt.s(r, "JobID"), st, nodes)
		}
	}
	// JobRequeue=0 in slurm.conf's place: the same jobs end NODE_FAIL.
	y := strings.ReplaceAll(readFile(t, "slurm20.yaml"), "slurm20/", abs(t, "slurm20")+"/") + "slurm:\n  JobRequeue: \"0\"\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	out0 := filepath.Join(dir, "out")
	cli(t, "run", "--scenario", filepath.Join(dir, "s.yaml"), "--events", ev, "--out", out0, "--quiet")
	sum0 := readFile(t, filepath.Join(out0, "summary.csv"))
	// (The schedules part after the first failure, so the counts differ.)
	if n := metric(sum0, "jobs_node_fail"); n <= 0 || metric(sum0, "node_fail_requeues") != 0 || metric(sum0, "state: NODE_FAIL") != n {
		t.Errorf("JobRequeue=0: want the killed jobs ending NODE_FAIL, none requeued:\n%s", sum0)
	}
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMaintenanceReservation: slurm20's cluster with a MAINT reservation of
// n001-n016 from 2-0 for 12 hours, booked at the first submission. From
// jobs.csv alone: no job holds a reserved node at any instant of the
// window, and jobs that end before it starts still run on those nodes in
// the hours before it (backfilled in, their limits clear of the start).
func TestMaintenanceReservation(t *testing.T) {
	ev := abs(t, filepath.Join("testdata", "maint", "events"))
	out := t.TempDir()
	cli(t, "run", "--scenario", "slurm20.yaml", "--events", ev, "--out", out, "--check", "--quiet")
	jt := readJobs(t, out)
	first := math.MaxFloat64
	for _, r := range jt.rows {
		first = min(first, jt.f(t, r, "Submit"))
	}
	from, to := first+2*86400, first+2*86400+12*3600
	before := 0
	for _, r := range jt.rows {
		if jt.s(r, "Start") == "" {
			continue
		}
		names, err := slurmtext.Expand(jt.s(r, "NodeList"))
		if err != nil {
			t.Fatal(err)
		}
		onReserved := false
		for _, n := range names {
			onReserved = onReserved || n <= "n016"
		}
		if !onReserved {
			continue
		}
		st, end := jt.f(t, r, "Start"), jt.f(t, r, "End")
		if st < to && end > from {
			t.Errorf("job %s ran on %v from %.0f to %.0f, inside the reservation %.0f..%.0f", jt.s(r, "JobID"), names, st, end, from, to)
		}
		if st < from && end <= from && end >= from-6*3600 {
			before++
		}
	}
	if before == 0 {
		t.Error("no job ran on the reserved nodes in the 6 hours before the reservation: jobs that end before it should still get them")
	}
}

// TestScheduleSWFHeaderIsTheCluster: schedule.swf's MaxNodes and MaxProcs
// are the simulated cluster's (68 nodes, 1,536 cores for odyssey), not the
// generated trace's own header (2 nodes of its largest job).
func TestScheduleSWFHeaderIsTheCluster(t *testing.T) {
	out := runScenario(t, "odyssey")
	r, err := workload.OpenSWF(filepath.Join(out, "schedule.swf"), workload.SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header(); h.MaxNodes != 68 || h.MaxProcs != 1536 {
		t.Errorf("schedule.swf header: MaxNodes %d, MaxProcs %d; want 68, 1536", h.MaxNodes, h.MaxProcs)
	}
}
