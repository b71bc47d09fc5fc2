package scenarios

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fairsim/workload"
)

// fairsim is the binary under test, built once by TestMain.
var fairsim string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fairsim-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fairsim = filepath.Join(dir, "fairsim")
	build := exec.Command("go", "build", "-o", fairsim, "../cmd/fairsim")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building fairsim:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs fairsim with args and returns its combined output; it fails the
// test on a non-zero exit.
func cli(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(fairsim, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("fairsim %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// cliFail runs fairsim expecting a non-zero exit and returns its output.
func cliFail(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(fairsim, args...).CombinedOutput()
	if err == nil {
		t.Fatalf("fairsim %v succeeded, want a failure\n%s", args, out)
	}
	return string(out)
}

func sharedTrace(t *testing.T, name string) string {
	t.Helper()
	p, _ := filepath.Abs(filepath.Join("..", "..", "shared", "traces", name))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared trace %s not found (../shared absent): %v", name, err)
	}
	return p
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// summary reads summary.csv into a map.
func summary(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, r := range readCSV(t, filepath.Join(dir, "summary.csv"))[1:] {
		m[r[0]] = r[1]
	}
	return m
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

func TestRunDefaultScenario(t *testing.T) {
	out := t.TempDir()
	cli(t, "run", "--out", out, "--quiet")
	for _, f := range []string{"jobs.csv", "summary.csv", "utilization.csv", "wait.png", "utilization.png", "scenario.resolved.yaml"} {
		st, err := os.Stat(filepath.Join(out, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("default run: %s missing or empty (%v)", f, err)
		}
	}
	jobs := readCSV(t, filepath.Join(out, "jobs.csv"))
	s := summary(t, out)
	if got, want := len(jobs)-1, atoi(t, s["jobs"]); got != want || got < 1000 {
		t.Errorf("jobs.csv has %d rows, summary says %d jobs (want a few thousand)", got, want)
	}
	// Five CPU types, all used.
	types := map[string]bool{}
	col := index(jobs[0], "NodeType")
	for _, r := range jobs[1:] {
		types[r[col]] = true
	}
	for _, ty := range []string{"abudhabi", "nehalem", "sandybridge", "broadwell", "skylake"} {
		if !types[ty] {
			t.Errorf("no job ran on %s nodes", ty)
		}
	}
}

func index(hdr []string, name string) int {
	for i, h := range hdr {
		if h == name {
			return i
		}
	}
	panic("no column " + name)
}

func TestKTHReplayCLI(t *testing.T) {
	kth := sharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	a, b := t.TempDir(), t.TempDir()
	cli(t, "run", "--trace", kth, "--scheduler", "easy", "--out", a, "--quiet")
	cli(t, "run", "--trace", kth, "--scheduler", "easy", "--out", b, "--quiet")
	ja, _ := os.ReadFile(filepath.Join(a, "jobs.csv"))
	jb, _ := os.ReadFile(filepath.Join(b, "jobs.csv"))
	if !bytes.Equal(ja, jb) {
		t.Fatal("two identical runs wrote different jobs.csv")
	}
	s := summary(t, a)
	rows := len(readCSV(t, filepath.Join(a, "jobs.csv"))) - 1
	// One row per accepted record: 28,476 records less the skips reported.
	if want := 28476 - atoi(t, s["records_skipped"]); rows != want || atoi(t, s["records_read"]) != 28476 {
		t.Errorf("jobs.csv has %d rows, want %d (read %s, skipped %s)", rows, want, s["records_read"], s["records_skipped"])
	}
	if s["skipped: processors unknown (-1 requested and allocated)"] != "1" {
		t.Errorf("summary does not report the one KTH record without processors: %v", s)
	}
	// schedule.swf carries the simulated schedule back in SWF: every job,
	// its simulated wait in field 3, the original header kept.
	r, err := workload.OpenSWF(filepath.Join(a, "schedule.swf"), workload.SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	jobs := readCSV(t, filepath.Join(a, "jobs.csv"))
	wait := map[string]string{}
	for _, row := range jobs[1:] {
		wait[row[0]] = row[index(jobs[0], "Wait")]
	}
	n := 0
	var j workload.Job
	for r.Next(&j) {
		n++
		if got, want := strconv.FormatInt(j.Wait, 10), wait[strconv.FormatInt(j.ID, 10)]; got != want {
			t.Fatalf("schedule.swf job %d waits %s, jobs.csv says %s", j.ID, got, want)
		}
	}
	if n != rows || r.Header().MaxProcs != 100 || r.Header().UnixStartTime != 843480031 {
		t.Errorf("schedule.swf: %d jobs (want %d), header %+v", n, rows, r.Header())
	}
}

func TestBadTraceFailsWithPosition(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("; MaxProcs: 4\n; MaxNodes: 4\n1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 0 1O 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644)
	out := cliFail(t, "run", "--trace", bad, "--out", filepath.Join(dir, "o"), "--quiet")
	if !bytes.Contains([]byte(out), []byte("bad.swf:4: field 4 (run time): not a number")) {
		t.Errorf("error does not name file, line and field:\n%s", out)
	}
	cli(t, "run", "--trace", bad, "--out", filepath.Join(dir, "o"), "--quiet", "--skip-invalid")
	if s := summary(t, filepath.Join(dir, "o")); s["records_skipped"] != "1" {
		t.Errorf("--skip-invalid: records_skipped = %q, want 1", s["records_skipped"])
	}
}

// TestEveryRecordLeftOut: a trace whose records are all left out (by a
// window, a job cap, or as unknown or impossible) says why, counted by
// reason, rather than that it has no jobs.
func TestEveryRecordLeftOut(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.swf")
	os.WriteFile(tr, []byte("; MaxProcs: 4\n; MaxNodes: 4\n1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 0 -5 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n3 9 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644)
	out := cliFail(t, "run", "--trace", tr, "--window", "0:10..", "--out", filepath.Join(dir, "o"), "--quiet")
	const want = "t.swf: no job left to simulate: all 3 records were left out: window=0:10..: submitted before the window (2); impossible: negative run time -5 (1)"
	if !strings.Contains(out, want) {
		t.Errorf("error:\n%s\nwant it to contain %s", out, want)
	}
}

// TestRunSacctTraceWithTransforms runs the sacct fixture through a
// scenario, then KTH with transforms on the command line: both paths of
// trace input that fairsim run offers beside plain SWF.
func TestRunSacctTraceWithTransforms(t *testing.T) {
	sharedTrace(t, "sacct/sacct-output-v2.txt")
	out := t.TempDir()
	cli(t, "run", "--scenario", "testdata/sacct-fixture.yaml", "--out", out, "--quiet")
	if got := len(readCSV(t, filepath.Join(out, "jobs.csv"))) - 1; got != 483 {
		t.Errorf("sacct fixture: %d jobs, want the 483 the file holds", got)
	}
	kth := sharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	cli(t, "run", "--trace", kth, "--scheduler", "easy", "--max-jobs", "1000", "--load", "2", "--out", out, "--quiet")
	s := summary(t, out)
	// 28,475 accepted records; max-jobs keeps the first 1,000 and counts
	// the rest as skipped, and load=2 halves every submit offset.
	if s["jobs"] != "1000" || s["skipped: max-jobs=1000: beyond the first jobs"] != "27475" {
		t.Errorf("transforms: jobs %s, skipped beyond max-jobs %s; want 1000 and 27475", s["jobs"], s["skipped: max-jobs=1000: beyond the first jobs"])
	}
	jobs := readCSV(t, filepath.Join(out, "jobs.csv"))
	// KTH's first two jobs were submitted at 599850 and 600022 since the
	// epoch: 172 s apart, 86 s after load=2 (offsets from the first submit halve).
	sub := index(jobs[0], "Submit")
	a, _ := strconv.Atoi(jobs[1][sub])
	b, _ := strconv.Atoi(jobs[2][sub])
	if b-a != 86 {
		t.Errorf("load=2: first two submits %d and %d, want 86 s apart", a, b)
	}
	cliFail(t, "run", "--trace", kth, "--load", "-1", "--out", out, "--quiet")
}

// TestScheduleCarriesTraceComments: a comment amid a trace's records is
// carried into schedule.swf after its records, not into its header,
// where "; MaxRecords: 0A0" would be a malformed field: schedule.swf
// reads back with every job.
func TestScheduleCarriesTraceComments(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "c.swf")
	const rec = "%d %d -1 60 1 -1 -1 1 120 -1 1 1 1 -1 1 -1 -1 -1\n"
	body := "; MaxNodes: 2\n; MaxProcs: 2\n" + fmt.Sprintf(rec, 1, 0) + "; MaxRecords: 0A0\n" + fmt.Sprintf(rec, 2, 10)
	if err := os.WriteFile(trace, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	cli(t, "run", "--trace", trace, "--scheduler", "fifo", "--out", out, "--quiet")
	b, err := os.ReadFile(filepath.Join(out, "schedule.swf"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if last := lines[len(lines)-1]; last != "; MaxRecords: 0A0" {
		t.Errorf("schedule.swf ends with %q, want the trace's comment:\n%s", last, b)
	}
	r, err := workload.OpenSWF(filepath.Join(out, "schedule.swf"), workload.SWFOptions{})
	if err != nil {
		t.Fatalf("schedule.swf does not read back: %v\n%s", err, b)
	}
	defer r.Close()
	n := 0
	var j workload.Job
	for r.Next(&j) {
		n++
	}
	if r.Err() != nil || n != 2 || len(r.Header().Comments) != 1 {
		t.Errorf("schedule.swf read back %d jobs (want 2), comments %q, err %v", n, r.Header().Comments, r.Err())
	}
}
