package scenarios

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStalledRun: a job whose limit is above its QOS's MaxWall pends for
// ever (QOSMaxWallDurationPerJobLimit, as slurmctld leaves it without
// DenyOnLimit). Once the rest have ended the run waits a year, as a usage
// limit could lift by decay, then ends: the summary says from when the
// held job was all that was left, the run's text says so, the time
// series keep the year, and the report still renders.
func TestStalledRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"slurm.conf": "AccountingStorageEnforce=limits,qos\nNodeName=c[01-02] CPUs=8 RealMemory=8000\nPartitionName=batch Nodes=c[01-02] Default=YES\n",
		"qos.txt":    "Name|MaxWall\nnormal|01:00:00\n",
		"sacct.txt": "JobID|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|State\n" +
			"1|u1|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:30:00|4|COMPLETED\n" +
			"2|u2|a1|normal|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:11:00|00:10:00|02:00:00|4|COMPLETED\n" +
			"3|u2|a1|normal|2026-01-05T08:02:00|2026-01-05T08:02:00|2026-01-05T08:22:00|00:20:00|00:30:00|4|COMPLETED\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	text := cli(t, "run", "--slurm-conf", filepath.Join(dir, "slurm.conf"), "--qos", filepath.Join(dir, "qos.txt"),
		"--trace", filepath.Join(dir, "sacct.txt"), "--tz", "UTC", "--scheduler", "slurm", "--out", out)
	jobs := readCSV(t, filepath.Join(out, "jobs.csv"))
	id, state, reason, end := index(jobs[0], "JobID"), index(jobs[0], "State"), index(jobs[0], "Reason"), index(jobs[0], "End")
	lastEnd := ""
	for _, r := range jobs[1:] {
		if r[id] == "2" && (r[state] != "PENDING" || r[reason] != "QOSMaxWallDurationPerJobLimit") {
			t.Errorf("job 2: %s %s, want PENDING on QOSMaxWallDurationPerJobLimit", r[state], r[reason])
		}
		if r[id] == "3" {
			lastEnd = r[end]
		}
	}
	summary := map[string]string{}
	for _, r := range readCSV(t, filepath.Join(out, "summary.csv"))[1:] {
		summary[r[0]] = r[1]
	}
	// The last progress is job 3's end: its node is free a second later
	// (CompleteWait, the completing latency) at the latest.
	from, err1 := strconv.ParseInt(summary["stalled_from"], 10, 64)
	e3, err2 := strconv.ParseInt(lastEnd, 10, 64)
	if err1 != nil || err2 != nil || from < e3 || from > e3+5 {
		t.Errorf("stalled_from %q, want job 3's end %s or its node's release just after", summary["stalled_from"], lastEnd)
	}
	if summary["jobs_never_started"] != "1" {
		t.Errorf("jobs_never_started %q, want 1", summary["jobs_never_started"])
	}
	if !strings.Contains(text, "1 jobs never started: from 00:") {
		t.Errorf("the run's text does not say the run stalled:\n%s", text)
	}
	util := readCSV(t, filepath.Join(out, "utilization.csv"))
	if last, err := strconv.ParseInt(util[len(util)-1][0], 10, 64); err != nil || last < 365*86400 {
		t.Errorf("utilization.csv ends at %s s: want the year the run waited kept", util[len(util)-1][0])
	}
	cli(t, "report", out)
}
