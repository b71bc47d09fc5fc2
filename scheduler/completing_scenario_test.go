package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestCompletingNodes replays a controller's log in which job 1 (4 cores
// on n1) ends at 10.000 and n1 leaves COMPLETING at 10.600; job 2 holds
// n2, n3 is idle. Job 3 (8 cores: two nodes) waits for n1; job 4 (2
// cores, 5 s) is submitted at 10.100. Slurm gave job 1's cores back at
// its end (select job_fini), but:
//   - the main pass at 10.300 passes n1 over (node_scheduler.c
//     _build_node_list takes COMPLETING nodes out): job 3 cannot start,
//     and blocks its partition for job 4;
//   - the backfill cycle at 10.400 finds job 3 a fit now on n1 and n3
//     (the will-run test counts n1's cores as free), sees n1 COMPLETING
//     and plans it for now + 1 (backfill.c "Need to wait for in-progress
//     completion/epilog"), reserving n1 and n3, so job 4 does not take n3;
//   - the main pass at 11.000 starts job 3, and job 4 follows it.
//
// Starting on a COMPLETING node in either pass would start job 3 at 10.
func TestCompletingNodes(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 3, 4, 4000)}, []sim.PartitionSpec{part("p")})
	tl := &sim.Timeline{
		Passes:   []sim.TimedPass{{T: 0, Ms: 500}, {T: 10, Ms: 300}, {T: 10, Ms: 400, Backfill: true}, {T: 11}},
		SubmitMs: map[int64]int16{4: 100},
		EndAt:    map[int64]int64{1: 10000},
		EpilogMs: map[int64]int32{1: 600}, // n1 answers 600 ms after the end
	}
	_, by := runWith(t, c, planner(DefaultParams()), []tjob{
		{id: 1, cpus: 4, run: 10, limit: 100},
		{id: 2, cpus: 4, run: 100, limit: 200},
		{id: 3, submit: 1, cpus: 8, run: 20, limit: 50},
		{id: 4, submit: 10, cpus: 2, run: 5, limit: 5},
	}, sim.Options{Timeline: tl}, nil)
	checkStarts(t, by, []want{{1, 0, sim.ByMain}, {2, 0, sim.ByMain}, {3, 11, sim.ByMain}, {4, 31, sim.NotStarted}})
}
