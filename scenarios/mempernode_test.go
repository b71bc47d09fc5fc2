package scenarios

import "testing"

// TestMemPerNodeAsAsked: sbatch --mem is memory on each node, which
// Slurm checks per node as it is (cons_tres can_job_run_on_node). sacct's
// ReqMem gives only the job's total, which spread over 6 CPUs rounds up
// to 342 MB each, 2052 MB in all: job 2 (-n 6 --mem=2048) then would not
// fit beside job 1 (-n 2 --mem=6G) on an 8-CPU node of 8192 MB. Read
// from SubmitLine, it fits exactly and starts at once, as the real 22.05
// controller of a differential run placed such a job.
func TestMemPerNodeAsAsked(t *testing.T) {
	rows := runSite(t, map[string]string{
		"slurm.conf": "NodeName=n1 CPUs=8 RealMemory=8192\nPartitionName=batch Nodes=n1 Default=YES MaxTime=10:00\n",
		"qos.txt":    "Name|Priority\nnormal|0\n",
		"sacct.txt": "JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|ReqMem|State|SubmitLine\n" +
			"1|1|u1|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:05:00|00:05:00|00:10:00|2|1|6144M|COMPLETED|sbatch -n 2 --mem=6G -t 10 job.sh\n" +
			"2|2|u1|a1|normal|2026-01-05T08:00:10|2026-01-05T08:00:10|2026-01-05T08:01:10|00:01:00|00:10:00|6|1|2048M|COMPLETED|sbatch -n 6 --mem=2048 -t 10 job.sh\n",
	})
	id, start, mem := index(rows[0], "JobID"), index(rows[0], "Start"), index(rows[0], "AllocMemMB")
	got := map[string][2]string{}
	for _, r := range rows[1:] {
		got[r[id]] = [2]string{r[start], r[mem]}
	}
	if got["1"][1] != "6144" || got["2"] != [2]string{"10", "2048"} {
		t.Errorf("(start, MB): job 1 (-n 2 --mem=6G) %v, job 2 (-n 6 --mem=2048) %v; want 6144 MB, and job 2 at once (10) with 2048 MB", got["1"], got["2"])
	}
}
