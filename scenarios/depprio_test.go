package scenarios

import (
	"strconv"
	"testing"
)

// TestDependentPriorityFollowsTicks: slurmctld recomputes the priority of
// every pending job at each calc tick, a job waiting on a dependency too
// (priority_multifactor.c decay_apply_weighted_factors). Job 2 waits on
// job 1, of its own user, whose run drives the user's fair-share down;
// when job 1 ends, job 2 carries the fair-share of the last tick, below
// that of job 3's user, who has used nothing: job 3 starts first. (With
// the priority of its submission, job 2 went first; a differential run
// against a real 22.05 controller showed a dependent's priority moving
// from tick to tick while it waited.)
func TestDependentPriorityFollowsTicks(t *testing.T) {
	rows := runSite(t, map[string]string{
		"slurm.conf": "PriorityType=priority/multifactor\nPriorityWeightFairshare=10000\nPriorityCalcPeriod=1\n" +
			"NodeName=n1 CPUs=1 RealMemory=1000\nPartitionName=batch Nodes=n1 Default=YES MaxTime=10:00\n",
		"qos.txt": "Name|Priority\nnormal|0\n",
		"sacct.txt": "JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|State|SubmitLine\n" +
			"1|1|u1|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:01:40|00:01:40|00:05:00|1|COMPLETED|sbatch -n 1 -t 5 job.sh\n" +
			"2|2|u1|a1|normal|2026-01-05T08:00:00|2026-01-05T08:01:40|2026-01-05T08:02:00|00:00:20|00:05:00|1|COMPLETED|sbatch -n 1 -t 5 --dependency=afterany:1 job.sh\n" +
			"3|3|u2|a2|normal|2026-01-05T08:01:30|2026-01-05T08:01:40|2026-01-05T08:02:00|00:00:20|00:05:00|1|COMPLETED|sbatch -n 1 -t 5 job.sh\n",
	})
	id, start, prio := index(rows[0], "JobID"), index(rows[0], "Start"), index(rows[0], "Priority")
	at, pr := map[string]int{}, map[string]string{}
	for _, r := range rows[1:] {
		s, err := strconv.Atoi(r[start])
		if err != nil {
			t.Fatalf("job %s: start %q", r[id], r[start])
		}
		at[r[id]], pr[r[id]] = s, r[prio]
	}
	if at["3"] >= at["2"] {
		t.Errorf("starts %v, priorities %v: want job 3 (a user with no usage) before job 2 (released at job 1's end, its user's fair-share lowered by job 1)", at, pr)
	}
}
