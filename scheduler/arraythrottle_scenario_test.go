package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestArrayThrottle: sbatch --array=0-3%2 runs at most two tasks at once
// (job_mgr.c job_array_start_test: tot_run_tasks >= max_run_tasks holds
// the array with WAIT_ARRAY_TASK_LIMIT, and job_independent keeps it out
// of the queues). Two nodes of 4 CPUs, all submitted at 0, first pass at
// 3:
//
//	array 10, tasks 0-3, 1 CPU, 100 s each, throttle 2: tasks 0 and 1
//	      start at 3; tasks 2 and 3, eligible since 0 (the sacct reader
//	      gives them their array's eligible time), are held
//	      (JobArrayTaskLimit). At 103 tasks 0 and 1 end; 2 and 3 start.
//	job 20, 2 CPUs, 50 s, behind the array in the queue: the held tasks
//	      block nothing, so it starts at 3.
//
// Without the throttle every task starts at 3.
func TestArrayThrottle(t *testing.T) {
	jobs := []tjob{
		{id: 100, array: 10, task: 0, maxRun: 2, cpus: 1, run: 100, limit: 200},
		{id: 101, array: 10, task: 1, maxRun: 2, cpus: 1, run: 100, limit: 200},
		{id: 102, array: 10, task: 2, maxRun: 2, cpus: 1, run: 100, limit: 200},
		{id: 103, array: 10, task: 3, maxRun: 2, cpus: 1, run: 100, limit: 200},
		{id: 120, cpus: 2, run: 50, limit: 60},
	}
	mk := func() *sim.Cluster {
		return cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 16000)}, []sim.PartitionSpec{part("p")})
	}
	_, held := run(t, mk(), NewSlurm(DefaultParams()), jobs, 50, nil)
	for _, id := range []int64{102, 103} {
		if j := held[id]; j.State != sim.Pending || j.Reason != sim.ReasonArrayTaskLimit {
			t.Errorf("job %d at 50: %v, reason %q; want pending, %s", id, j.State, j.Reason, sim.ReasonArrayTaskLimit)
		}
	}
	_, by := run(t, mk(), NewSlurm(DefaultParams()), jobs, 0, nil)
	for id, want := range map[int64]int64{100: 3, 101: 3, 102: 103, 103: 103, 120: 3} {
		if got := by[id].Start; got != want {
			t.Errorf("job %d started at %d, want %d", id, got, want)
		}
	}

}
