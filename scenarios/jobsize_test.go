package scenarios

import (
	"strconv"
	"testing"
)

// TestJobSizeOfWholeNodes: the job-size factor weighs a job's total_cpus,
// which for a job given whole nodes is every CPU of them (cons_common
// _job_test sets it at the submit-time test; priority_multifactor
// prefers it to the request). An --exclusive job of 1 CPU and one of 4
// on a 16-CPU node both weigh 16: equal priorities, so the older starts
// first. Seen on a real 22.05 controller: sprio gave both the job size
// of a whole node, and the 1-CPU job ran first.
func TestJobSizeOfWholeNodes(t *testing.T) {
	rows := runSite(t, map[string]string{
		"slurm.conf": "PriorityType=priority/multifactor\nPriorityWeightJobSize=1000\nPriorityWeightAge=0\nPriorityWeightFairshare=0\n" +
			"NodeName=n1 CPUs=16 RealMemory=32000\nPartitionName=batch Nodes=n1 Default=YES MaxTime=10:00\n",
		"qos.txt": "Name|Priority\nnormal|0\n",
		"sacct.txt": "JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|State|SubmitLine\n" +
			"1|1|u1|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:01:20|00:01:20|00:02:00|16|COMPLETED|sbatch -n 16 -t 2 job.sh\n" +
			"2|2|u1|a1|normal|2026-01-05T08:00:02|2026-01-05T08:00:02|2026-01-05T08:00:22|00:00:20|00:02:00|1|COMPLETED|sbatch -n 1 --exclusive -t 2 job.sh\n" +
			"3|3|u1|a1|normal|2026-01-05T08:00:03|2026-01-05T08:00:03|2026-01-05T08:00:23|00:00:20|00:02:00|4|COMPLETED|sbatch -n 4 --exclusive -t 2 job.sh\n",
	})
	id, start, prio := index(rows[0], "JobID"), index(rows[0], "Start"), index(rows[0], "Priority")
	got := map[string][2]string{}
	for _, r := range rows[1:] {
		got[r[id]] = [2]string{r[start], r[prio]}
	}
	if got["2"][1] != got["3"][1] {
		t.Errorf("priorities of the 1-CPU and 4-CPU --exclusive jobs: %s and %s; want equal (both weigh the node's 16 CPUs)", got["2"][1], got["3"][1])
	}
	s2, err2 := strconv.Atoi(got["2"][0])
	s3, err3 := strconv.Atoi(got["3"][0])
	if err2 != nil || err3 != nil || s2 >= s3 {
		t.Errorf("starts of jobs 2 and 3: %q and %q; want job 2 (older, same priority) first", got["2"][0], got["3"][0])
	}
}
