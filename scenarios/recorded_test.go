package scenarios

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRecordedSaysWhereItLeftTheTrace: `run --scheduler recorded`
// replays sacct's schedule; where it cannot (a job that does not fit at
// its recorded start, nodes busy or not the cluster's), summary.csv
// counts it, as `validate` reports it.
func TestRecordedSaysWhereItLeftTheTrace(t *testing.T) {
	dir := t.TempDir()
	const head = "JobID|JobIDRaw|User|Account|Submit|Start|End|Elapsed|Timelimit|NCPUS|State|NodeList\n"
	files := map[string]string{
		"slurm.conf": "NodeName=c[01-02] CPUs=8 RealMemory=8000\nPartitionName=batch Nodes=c[01-02] Default=YES\n",
		"sacct.txt": head +
			// c01 whole, 08:00-08:10.
			"1|1|u1|a1|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|01:00:00|8|COMPLETED|c01\n" +
			// On a node the cluster lacks: placed on c02 (moved).
			"2|2|u1|a1|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:30:00|00:30:00|01:00:00|1|COMPLETED|zz9\n" +
			// Recorded at 08:05 on c01, which job 1 holds until 08:10,
			// and c02 has 7 CPUs free: late, then on c01 as recorded.
			"3|3|u1|a1|2026-01-05T08:01:00|2026-01-05T08:05:00|2026-01-05T08:15:00|00:10:00|01:00:00|8|COMPLETED|c01\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	cli(t, "run", "--slurm-conf", filepath.Join(dir, "slurm.conf"), "--trace", filepath.Join(dir, "sacct.txt"),
		"--tz", "UTC", "--scheduler", "recorded", "--out", out, "--quiet")
	sum := summary(t, out)
	for key, want := range map[string]string{
		"sim default: recorded: started after the recorded start (did not fit then)":               "1",
		"sim default: recorded: placed off the nodes the trace names (busy, or not the cluster's)": "1",
	} {
		if sum[key] != want {
			t.Errorf("summary %q = %q, want %s", key, sum[key], want)
		}
	}
	rows := readCSV(t, filepath.Join(out, "jobs.csv"))
	id, nodes := index(rows[0], "JobID"), index(rows[0], "NodeList")
	got := map[string]string{}
	for _, r := range rows[1:] {
		got[r[id]] = r[nodes]
	}
	if got["1"] != "c01" || got["2"] != "c02" || got["3"] != "c01" {
		t.Errorf("node lists %v; want 1 and 3 on c01, 2 on c02", got)
	}
}
