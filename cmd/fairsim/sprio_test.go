package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fairsim/workflow"
	"fairsim/workload"
)

const sprioScenario = "../../workflow/testdata/sprio-mixed.yaml"

// cells splits sprio output into lines of cells, the header first.
func cells(out string) [][]string {
	var lines [][]string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		lines = append(lines, strings.Fields(l))
	}
	return lines
}

// sprio -w: the header, then "Weights" with SITE 1, each PriorityWeight*
// of the scenario and PriorityWeightTRES as configured. Without -l the
// zero-weight ASSOC column is left out, as sprio does.
func TestSprioWeights(t *testing.T) {
	sp := func(n int) string { return strings.Repeat(" ", n) }
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"short", []string{"-w"},
			sp(10) + "JOBID" + " " + "PARTITION" + " " + sp(2) + "PRIORITY" + " " + sp(6) + "SITE" + " " + sp(7) + "AGE" +
				" " + sp(1) + "FAIRSHARE" + " " + sp(3) + "JOBSIZE" + " " + sp(1) + "PARTITION" + " " + sp(7) + "QOS" + " " + sp(16) + "TRES\n" +
				sp(8) + "Weights" + " " + sp(9) + " " + sp(10) + " " + sp(9) + "1" + " " + sp(5) + "10000" +
				" " + sp(4) + "100000" + " " + sp(6) + "2000" + " " + sp(6) + "5000" + " " + sp(5) + "40000" + " " + sp(4) + "CPU=3000,Mem=800\n"},
		{"long", []string{"-l", "-w"},
			sp(10) + "JOBID" + " " + "PARTITION" + " " + sp(4) + "USER" + " " + sp(1) + "ACCOUNT" + " " + sp(2) + "PRIORITY" + " " + sp(6) + "SITE" +
				" " + sp(7) + "AGE" + " " + sp(5) + "ASSOC" + " " + sp(1) + "FAIRSHARE" + " " + sp(3) + "JOBSIZE" + " " + sp(1) + "PARTITION" +
				" " + sp(3) + "QOSNAME" + " " + sp(7) + "QOS" + " " + sp(7) + "NICE" + " " + sp(16) + "TRES\n" +
				sp(8) + "Weights" + " " + sp(9) + " " + sp(8) + " " + sp(8) + " " + sp(10) + " " + sp(9) + "1" +
				" " + sp(5) + "10000" + " " + sp(9) + "0" + " " + sp(4) + "100000" + " " + sp(6) + "2000" + " " + sp(6) + "5000" +
				" " + sp(10) + " " + sp(5) + "40000" + " " + sp(11) + " " + sp(4) + "CPU=3000,Mem=800\n"},
		{"noheader", []string{"-w", "--noheader", "-n"},
			sp(8) + "Weights" + " " + sp(9) + " " + sp(10) + " " + "10000" + sp(5) + " " + "100000" + sp(4) + " " + "2000" + sp(6) +
				" " + "5000" + sp(6) + " " + "40000" + sp(5) + " " + sp(20) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustRun(t, append([]string{"sprio", "--scenario", sprioScenario}, tt.args...)...)
			diffText(t, got, tt.want)
		})
	}
}

// A date on the trace's clock names the same moment as the offset from
// the first submission: UnixStartTime + first submit + 1 day is "1-0".
func TestSprioAtDateEqualsOffset(t *testing.T) {
	run, err := workflow.Pipeline{Need: "sprio"}.Open(workflow.RunSpec{Scenario: sprioScenario})
	if err != nil {
		t.Fatal(err)
	}
	var first workload.Job
	if !run.Source.Next(&first) {
		t.Fatal("no jobs")
	}
	start := run.Source.Header().UnixStartTime
	run.Close()
	if start == 0 {
		t.Fatal("the generated trace should carry a UnixStartTime")
	}
	date := time.Unix(start+first.Submit+86400, 0).UTC().Format("2006-01-02T15:04:05")
	byOffset := mustRun(t, "sprio", "--scenario", sprioScenario, "--at", "1-0", "-l")
	byDate := mustRun(t, "sprio", "--scenario", sprioScenario, "--at", date, "-l")
	if byOffset != byDate {
		t.Errorf("--at 1-0 and --at %s differ", date)
	}
	if strings.Count(byOffset, "\n") < 10 {
		t.Errorf("too few rows at 1-0:\n%s", byOffset)
	}
	// One second earlier is another state (ages differ at least).
	earlier := time.Unix(start+first.Submit+86400-3600, 0).UTC().Format("2006-01-02T15:04:05")
	if mustRun(t, "sprio", "--scenario", sprioScenario, "--at", earlier, "-l") == byOffset {
		t.Errorf("--at %s shows the same as 1-0", earlier)
	}
}

func TestSprioFilters(t *testing.T) {
	all := mustRun(t, "sprio", "--scenario", sprioScenario, "--at", "1-0", "-l")
	rows := cells(all)[1:]
	a, b := rows[1], rows[len(rows)-1]
	// -j keeps exactly the jobs named.
	out := mustRun(t, "sprio", "--scenario", sprioScenario, "--at", "1-0", "-l", "-j", b[0]+","+a[0])
	got := cells(out)[1:]
	if len(got) != 2 || got[0][0] != a[0] || got[1][0] != b[0] {
		t.Errorf("-j %s,%s gave %v", b[0], a[0], got)
	}
	// -u keeps that user's jobs and, in the short format, shows USER.
	user := a[2]
	out = mustRun(t, "sprio", "--scenario", sprioScenario, "--at", "1-0", "-u", user)
	got = cells(out)
	hdr := got[0]
	got = got[1:]
	if hdr[2] != "USER" {
		t.Errorf("-u: header %v, want USER third", hdr)
	}
	want := 0
	for _, r := range rows {
		if r[2] == user {
			want++
		}
	}
	if len(got) != want {
		t.Errorf("-u %s: %d rows, want %d", user, len(got), want)
	}
	for _, r := range got {
		if r[2] != user {
			t.Errorf("-u %s shows %v", user, r)
		}
	}
	// -p keeps one partition.
	got = cells(mustRun(t, "sprio", "--scenario", sprioScenario, "--at", "1-0", "-l", "-p", "long"))[1:]
	for _, r := range got {
		if r[1] != "long" {
			t.Errorf("-p long shows %v", r)
		}
	}
	// Job 1 ran and ended long before 1-0: sprio's own message, and why.
	stdout, stderr, err := runApp(t, "sprio", "--scenario", sprioScenario, "--at", "1-0", "-j", "1")
	if err != nil {
		t.Fatal(err)
	}
	if stdout != "Unable to find jobs matching user/id(s) specified\n" || !strings.Contains(stderr, "job 1 is not listed") {
		t.Errorf("-j 1: stdout %q stderr %q", stdout, stderr)
	}
}

func TestSprioErrors(t *testing.T) {
	dir := t.TempDir()
	easy := filepath.Join(dir, "easy.yaml")
	if err := os.WriteFile(easy, []byte(`name: easy
scheduler: easy
generate: {seed: 1, jobs: 50, days: 1}
cluster:
  reference_cpu: broadwell
  nodes: [{NodeName: "n[1-2]", Feature: broadwell, CPUs: 32, RealMemory: 64G}]
  partitions: [{PartitionName: batch, Nodes: ALL, Default: true}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown scenario", []string{"--scenario", "testdata/nope.yaml", "--at", "1-0"}, "nope.yaml"},
		{"not a slurm scenario", []string{"--scenario", easy, "--at", "1-0"}, "needs scheduler: slurm"},
		{"no --at", []string{"--scenario", sprioScenario}, "--at TIME is required"},
		{"before the start", []string{"--scenario", sprioScenario, "--at", "2000-01-01"}, "before the first submission"},
		{"after the end", []string{"--scenario", sprioScenario, "--at", "60-0"}, "after the end of the run"},
		{"date after the end", []string{"--scenario", sprioScenario, "--at", "2030-06-01T12:00"}, "after the end of the run"},
		{"malformed time", []string{"--scenario", sprioScenario, "--at", "1-0x"}, "--at: invalid Slurm time"},
		{"malformed date", []string{"--scenario", sprioScenario, "--at", "2024-02-30"}, "--at"},
		{"not a point in time", []string{"--scenario", sprioScenario, "--at", "UNLIMITED"}, "not a point in time"},
		{"unknown job id", []string{"--scenario", sprioScenario, "--at", "1-0", "-j", "999999"}, "no job 999999 in the trace"},
		{"bad job id", []string{"--scenario", sprioScenario, "--at", "1-0", "-j", "12x"}, `invalid job id "12x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runApp(t, append([]string{"sprio"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
