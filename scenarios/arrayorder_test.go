package scenarios

import (
	"strconv"
	"testing"
)

// TestArrayTaskQueueOrder: jobs of equal priority and submit time queue by
// job id, an array task by its array's id and then its index
// (job_scheduler.c sort_job_queue2 reads array_job_id). The last task of
// a job array keeps the array's own raw id (5 for 5_3) and the others
// come after, so by raw id 5_3 would run first. On one CPU, job 4 runs
// first, then 5_0, 5_1, 5_2 and 5_3, as the differential run against a
// real 22.05 controller ordered them.
func TestArrayTaskQueueOrder(t *testing.T) {
	row := func(id, raw string) string {
		return id + "|" + raw + "|u1|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:00:10|00:00:10|00:01:00|1|COMPLETED\n"
	}
	rows := runSite(t, map[string]string{
		"slurm.conf": "PriorityType=priority/multifactor\nNodeName=n1 CPUs=1 RealMemory=1000\nPartitionName=batch Nodes=n1 Default=YES MaxTime=10:00\n",
		"qos.txt":    "Name|Priority\nnormal|0\n",
		"sacct.txt": "JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|State\n" +
			row("5_3", "5") + row("5_0", "6") + row("5_1", "7") + row("5_2", "8") + row("4", "4"),
	})
	id, start := index(rows[0], "JobID"), index(rows[0], "Start")
	at := map[string]int{}
	for _, r := range rows[1:] {
		s, err := strconv.Atoi(r[start])
		if err != nil {
			t.Fatalf("job %s: start %q", r[id], r[start])
		}
		at[r[id]] = s
	}
	order := []string{"4", "6", "7", "8", "5"} // jobs.csv names tasks by raw id
	for k := 1; k < len(order); k++ {
		if at[order[k-1]] >= at[order[k]] {
			t.Errorf("starts %v: want raw ids in the order %v (4, then tasks 5_0 to 5_3)", at, order)
			break
		}
	}
}
