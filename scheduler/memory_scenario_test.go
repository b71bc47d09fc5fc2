package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestMemoryShareScenario: a job without a memory request takes a core's
// share of its node's memory per CPU (here 4096 MB / 4 cores = 1024 MB),
// and that memory must be free, whatever the free cores say. One 4-core
// 4096 MB node:
//
//	t=0  job 1 (1 CPU, 3072 MB per CPU, runs 1000 s)
//	     job 2 (2 CPUs, no memory request: 2 × 1024 = 2048 MB)
//	t=3  pass: job 1 → n1, leaving 3 cores but only 1024 MB free. Job 2
//	     has the cores but not the memory: it waits (Resources) and
//	     starts when job 1 ends, at 1003, by the main pass at that end.
//
// The backfill cycles in between (30, 60, ...) find the same shortage.
func TestMemoryShareScenario(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 1, run: 1000, limit: 2000, memPerC: 3072},
		{id: 2, submit: 0, cpus: 2, run: 100, limit: 200},
	}
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
	_, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {2, 1003, sim.ByMain}})
	if m := by[2].Alloc.MemMB(); m != 2048 {
		t.Errorf("job 2 got %d MB, want 2048", m)
	}
}
