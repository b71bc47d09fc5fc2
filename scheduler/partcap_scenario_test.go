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
