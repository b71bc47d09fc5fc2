package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestMaxCPUsPerNode: a partition's MaxCPUsPerNode through the main
// pass, backfill's will-run test and the refusals (cons_common.c
// _allocate_sc: the partition's jobs together hold at most the cap of a
// node), as on the 22.05 harness: 4 nodes x 8 CPUs; batch over n1-n4
// with MaxCPUsPerNode=6, full over n1-n4 without. All submitted at 0
// but job 6, the first main pass at 3:
//
//	job 1 batch -n 8 (100 s): n1 6 and n2 2, as the harness placed it.
//	job 2 full -n 4 (100 s): free n1 2, n2 6, n3 8, n4 8: the fewest
//	      that hold it, n2.
//	job 3 batch -n 16 (100 s): batch may use n2's last 2 (its cap left
//	      is 4), n3's 6 and n4's 6: 14, not 16, though 20 CPUs are
//	      free. It waits for jobs 1 and 2 to end at 103, then takes n1 6,
//	      n2 6, n3 4.
//	job 5 batch -n 30: more than 4 x 6: refused (PartitionConfig).
//	job 6 batch -n 1 at 10 (20 s, limit 30): job 3 is ahead of it in
//	      batch, so only backfill may start it (the first cycle after its
//	      submission, at 30): it ends before job 3's reservation at 103,
//	      and of the CPUs batch may use now n2's 2 are the fewest that
//	      hold it.
//	job 7 full -n 2 at 10 (20 s, limit 30): job 3's failure takes batch's
//	      nodes, all of full's, from the main pass (job_scheduler.c);
//	      backfill starts it at 30 on n1's 2 free CPUs, which batch may
//	      not use.
func TestMaxCPUsPerNode(t *testing.T) {
	batch := part("batch")
	batch.MaxCPUsPerNode = 6
	c := cluster(t, []sim.NodeSpec{nodes("n", 4, 8, 16000)}, []sim.PartitionSpec{batch, part("full")})
	res, by := run(t, c, NewSlurm(DefaultParams()), []tjob{
		{id: 1, part: "batch", cpus: 8, run: 100, limit: 120},
		{id: 2, part: "full", cpus: 4, run: 100, limit: 120},
		{id: 3, part: "batch", cpus: 16, run: 100, limit: 120},
		{id: 5, part: "batch", cpus: 30, run: 50, limit: 60},
		{id: 6, submit: 10, part: "batch", cpus: 1, run: 20, limit: 30},
		{id: 7, submit: 10, part: "full", cpus: 2, run: 20, limit: 30},
	}, 0, nil)
	if j := by[5]; j.State != sim.Rejected || res.Rejected["bigger than its partition"] != 1 {
		t.Errorf("job 5: %v, refusals %v; want it refused as bigger than its partition", j.State, res.Rejected)
	}
	wantStarts(t, c, by, []startOn{
		{1, 3, "n1:6 n2:2"}, {2, 3, "n2:4"}, {3, 103, "n1:6 n2:6 n3:4"}, {6, 30, "n2:1"}, {7, 30, "n1:2"},
	})
}

// TestMainPassNodeNotAvail: a job that could not run even idle on the
// nodes a main pass has left its partition fails with
// ESLURM_NODE_NOT_AVAIL, not ESLURM_NODES_BUSY, and job_scheduler.c then
// blocks nothing for it (node_scheduler.c _pick_best_nodes: runable_avail
// false, nodes_busy false). 4 nodes x 8 CPUs; hi over n3-n4 with
// PriorityTier=2, batch and full over n1-n4:
//
//	job 1 hi -n 16 and job 2 batch -n 8 start at 3 on n3-n4 and n1.
//	at 10: job 3 hi -n 4 cannot start: hi's nodes n3-n4 leave the pass.
//	job 4 batch: -n 20 cannot run on n1-n2 even idle (16 CPUs), so it
//	      blocks nothing and job 5 full -n 4 starts in that main pass (at
//	      10, the submissions' pass after a quiet spell), on n2. With -n 12 instead (it could run there idle) batch's
//	      failure takes n1-n2 from the pass too, and job 5 waits for
//	      backfill's cycle at 30.
func TestMainPassNodeNotAvail(t *testing.T) {
	for _, tc := range []struct {
		cpus4 int
		start int64
		by    sim.StartKind
	}{{20, 10, sim.ByMain}, {12, 30, sim.ByBackfill}} {
		hi := part("hi", "n3", "n4")
		hi.PriorityTier = 2
		c := cluster(t, []sim.NodeSpec{nodes("n", 4, 8, 16000)}, []sim.PartitionSpec{hi, part("batch"), part("full")})
		_, by := run(t, c, NewSlurm(DefaultParams()), []tjob{
			{id: 1, part: "hi", cpus: 16, run: 100, limit: 120},
			{id: 2, part: "batch", cpus: 8, run: 100, limit: 120},
			{id: 3, submit: 10, part: "hi", cpus: 4, run: 50, limit: 200},
			{id: 4, submit: 10, part: "batch", cpus: tc.cpus4, run: 50, limit: 200},
			{id: 5, submit: 10, part: "full", cpus: 4, run: 20, limit: 30},
		}, 0, nil)
		if j := by[5]; j.Start != tc.start || j.StartedBy != tc.by {
			t.Errorf("job 4 -n %d: job 5 started at %d by %v, want %d by %v", tc.cpus4, j.Start, j.StartedBy, tc.start, tc.by)
		}
		wantStarts(t, c, by, []startOn{{1, 3, "n3:8 n4:8"}, {2, 3, "n1:8"}, {5, tc.start, "n2:4"}})
	}
}
