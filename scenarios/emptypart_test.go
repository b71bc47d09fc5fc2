package scenarios

import "testing"

// TestPartitionWithoutNodes: slurm.conf may define a partition with no
// nodes (a placeholder for nodes to come); slurmctld starts, and refuses
// a job submitted there for asking more CPUs than its 0 (job_mgr.c
// _valid_job_part). A job listing it beside another partition runs in
// the other.
func TestPartitionWithoutNodes(t *testing.T) {
	rows := runSite(t, map[string]string{
		"slurm.conf": "NodeName=a[1-2] CPUs=4 RealMemory=4000\nPartitionName=p Nodes=ALL Default=YES\nPartitionName=placeholder State=UP PriorityTier=5\n",
		"qos.txt":    "Name|Priority\nnormal|0\n",
		"sacct.txt": "JobID|JobIDRaw|Partition|User|Account|Submit|Start|End|Elapsed|Timelimit|NCPUS|State\n" +
			"1|1|p|u1|a1|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED\n" +
			"2|2|placeholder|u1|a1|2026-01-05T08:00:01|2026-01-05T08:00:01|2026-01-05T08:10:01|00:10:00|00:20:00|1|COMPLETED\n" +
			"3|3|placeholder,p|u1|a1|2026-01-05T08:00:02|2026-01-05T08:00:02|2026-01-05T08:10:02|00:10:00|00:20:00|1|COMPLETED\n",
	})
	id, part, state, reason := index(rows[0], "JobID"), index(rows[0], "Partition"), index(rows[0], "State"), index(rows[0], "Reason")
	got := map[string][3]string{}
	for _, r := range rows[1:] {
		got[r[id]] = [3]string{r[part], r[state], r[reason]}
	}
	want := map[string][3]string{
		"1": {"p", "COMPLETED", ""},
		"2": {"placeholder", "REJECTED", "partition placeholder has no nodes"},
		"3": {"p", "COMPLETED", ""},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("job %s: (Partition, State, Reason) %v, want %v", k, got[k], w)
		}
	}
}
