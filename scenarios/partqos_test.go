package scenarios

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLimitsPerRecordPartition: QOS high and normal both have
// MaxJobsPU=1; partition batch has QOS=normal, short none. Jobs 131 and
// 132 of u1 ask QOS high in batch,short. Job 131 starts in short (tier
// 3), under high alone: high's MaxJobsPU is used up. Job 132's record in
// short is held by high's limit; its record in batch is ordered by
// batch's QOS normal first, whose MaxJobsPU it has to spare (and which
// then decides that limit, as acct_policy does), so 132 starts in batch
// at once. The limits were read for a job's first partition only: 132's
// record in short passed with batch's QOS, and it ran in short beside
// 131, two of u1's high jobs at once.
func TestLimitsPerRecordPartition(t *testing.T) {
	files := map[string]string{
		"slurm.conf": "AccountingStorageEnforce=limits\nNodeName=c[01-03]\nNodeName=g[01-04] CPUs=2\n" +
			"PartitionName=batch Nodes=ALL QOS=normal Default=YES\nPartitionName=short Nodes=c03,g01,g02 PriorityTier=3\n",
		"qos.txt": "Name|MaxJobsPU\nnormal|1\nhigh|1\n",
		"sacct.txt": "JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|State\n" +
			"131|131|u1|a1|batch,short|high|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|2|COMPLETED\n" +
			"132|132|u1|a1|batch,short|high|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|2|COMPLETED\n",
	}
	rows := runSite(t, files)
	id, part, start := index(rows[0], "JobID"), index(rows[0], "Partition"), index(rows[0], "Start")
	got := map[string][2]string{}
	for _, r := range rows[1:] {
		got[r[id]] = [2]string{r[part], r[start]}
	}
	if got["131"] != [2]string{"short", "3"} || got["132"] != [2]string{"batch", "3"} {
		t.Errorf("jobs 131, 132 ran (partition, start) %v, %v; want (short, 3), (batch, 3)", got["131"], got["132"])
	}
}

// runSite writes files (slurm.conf, qos.txt, sacct.txt) to a temporary
// directory, runs them under the slurm scheduler and returns jobs.csv.
func runSite(t *testing.T, files map[string]string) [][]string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	cli(t, "run", "--slurm-conf", filepath.Join(dir, "slurm.conf"), "--qos", filepath.Join(dir, "qos.txt"),
		"--trace", filepath.Join(dir, "sacct.txt"), "--tz", "UTC", "--scheduler", "slurm", "--out", out, "--quiet")
	return readCSV(t, filepath.Join(out, "jobs.csv"))
}
