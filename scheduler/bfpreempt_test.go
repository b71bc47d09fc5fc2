package scheduler

import (
	"testing"

	"fairsim/policy"
	"fairsim/sim"
)

// Preemption from the backfill pass (backfill.c _try_sched with
// slurm_find_preemptable_jobs; job_test.c _will_run_test "Test with all
// preemptable jobs gone" answers now; _start_job → select_nodes →
// _preempt_jobs). Two 4-core nodes; partition hi (PriorityTier 2) and lo
// (tier 1) both hold them; preempt/partition_prio, bf_resolution 60.
//
// At now=100 job 1 (lo) runs on n1:4 until its limit 1000; n2 is free.
//
//	job 2 (hi, 8 CPUs, limit 600, prio 300): free now are 4 cores (n2):
//	    planJob alone would expect it at 1000 when job 1 ends. With job 1
//	    gone, n1 + n2 give 8 cores: it fits, so job 1 (the only
//	    candidate, on n1, used) is requeued (REQUEUE, no grace). The
//	    start fails with "nodes busy" (the victim must leave first): the
//	    nodes n1, n2 are reserved from now, [100/60·60, (101+600)/60·60]
//	    = [60, 660], and job 2 is expected at 101, in the pass asked for
//	    at 101.
//	job 3 (lo, 2 CPUs, limit 5000, prio 200): both nodes are reserved
//	    until 660; the next record of the map begins at 660, where both
//	    nodes are free (job 1 is gone in the view): expected at 660.
func TestBackfillPreemptRequeue(t *testing.T) {
	state := func() *fake {
		hi := part("hi")
		hi.PriorityTier = 2
		f := newFake(t, 100, []sim.NodeSpec{nodes("n", 2, 4, 4000)}, []sim.PartitionSpec{part("lo"), hi})
		f.run(1, 0, 1000, "lo", "n1:4")
		f.pend(2, 8, 600, 300, "hi")
		f.pend(3, 2, 5000, 200, "lo")
		return f
	}
	prm := DefaultParams()
	prm.PreemptType, prm.PreemptMode = "preempt/partition_prio", policy.PreemptRequeue
	state().pass(planner(prm), sim.PassBackfill,
		"preempt 1 requeue", "pend 2 Resources (preemption in progress)", "expect 2 101", "expect 3 660", "pass 101")

	// Without preemption the same pass only plans: job 2 at 1000 on both
	// nodes, reserved over [1000/60·60, 1600/60·60] = [960, 1560]; job 3
	// (limit 5000) at the end of that record, 1560.
	prm.PreemptType = "preempt/none"
	state().pass(planner(prm), sim.PassBackfill, "expect 2 1000", "expect 3 1560")
}

// PreemptMode=SUSPEND,GANG: the victims are suspended and the preemptor
// starts at once, by backfill (node_scheduler.c _preempt_jobs counts no
// job to wait for when the gang scheduler suspends). One 4-core node:
// job 1 (lo) holds n1:4 until 1000; job 2 (hi, 4 CPUs) gets n1's 4 cores
// now, job 1 keeps its memory (suspended, not ended).
func TestBackfillPreemptSuspend(t *testing.T) {
	hi := part("hi")
	hi.PriorityTier = 2
	f := newFake(t, 100, []sim.NodeSpec{nodes("n", 1, 4, 4000)}, []sim.PartitionSpec{part("lo"), hi})
	f.run(1, 0, 1000, "lo", "n1:4")
	f.pend(2, 4, 600, 300, "hi")
	prm := DefaultParams()
	prm.PreemptType, prm.PreemptMode = "preempt/partition_prio", policy.PreemptSuspend|policy.PreemptGang
	p := f.pass(planner(prm), sim.PassBackfill, "start 2 hi n1:4 backfill")
	if p.Actions[0].Kind != sim.ActSuspend || p.Actions[0].Job.ID != 1 {
		t.Errorf("first action %+v, want job 1 suspended", p.Actions[0])
	}
}

// The candidates are only those on nodes free of backfill reservations
// over the preemptor's run (backfill.c _start_job adds the reserved nodes
// to the job's excluded nodes). Two 4-core nodes, each holding a lo job
// until 1000. Job 2 (hi, 8 CPUs, prio 300, limit 600) preempts both
// (tier 2 over 1; equal rank: job order, 1 then 4; job 4 completed the
// fit, so cons_tres's reorder tries it first and the victims come 4, 1)
// and reserves n1, n2 over [60, 660]; job 3 (hi, 4 CPUs,
// prio 200) would preempt too, but every candidate is gone already and
// both nodes are reserved: it is expected at 660, and nothing more is
// preempted.
func TestBackfillPreemptHonoursReservations(t *testing.T) {
	hi := part("hi")
	hi.PriorityTier = 2
	f := newFake(t, 100, []sim.NodeSpec{nodes("n", 2, 4, 4000)}, []sim.PartitionSpec{part("lo"), hi})
	f.run(1, 0, 1000, "lo", "n1:4")
	f.run(4, 0, 1000, "lo", "n2:4")
	f.pend(2, 8, 600, 300, "hi")
	f.pend(3, 4, 600, 200, "hi")
	prm := DefaultParams()
	prm.PreemptType, prm.PreemptMode = "preempt/partition_prio", policy.PreemptCancel
	f.pass(planner(prm), sim.PassBackfill,
		"preempt 4 cancel", "preempt 1 cancel", "pend 2 Resources (preemption in progress)", "expect 2 101", "expect 3 660", "pass 101")
}

// The preemptor whose start waits for its victims is reserved on the
// nodes _will_run_test chose with every preemptable job gone, not on
// those it preempted (a differential run, h51pre: a 6-CPU job that
// preempted the job on n2 was reserved on n1). Two 4-core nodes; job 1
// (lo) holds n2:4 from 0, job 2 (lo) n1:2 from 50, both until 1000.
// Job 3 (hi, 4 CPUs, prio 300) fits on neither now; the candidates go
// in job order, job 1 first, whose n2 then holds it: job 1 is requeued.
// With every candidate gone both nodes are idle and n1 comes first, so
// job 3 is reserved on n1 from now, and job 4 (hi, 2 CPUs, prio 200)
// cannot have n1's two free cores: it fits on n2, whose job 1 the cycle
// requeued and which stays COMPLETING until it leaves, so it is planned
// there for now + 1 ("Need to wait for in-progress completion"), with
// no preemption of its own: what the controller did. Reserved on n2
// instead, job 3 would leave job 4 n1 now.
func TestBackfillPreemptReservesAllGoneNodes(t *testing.T) {
	f, prm := requeueWave(t, 2)
	f.pass(planner(prm), sim.PassBackfill,
		"preempt 1 requeue", "pend 3 Resources (preemption in progress)", "expect 3 101", "expect 4 101", "pass 101")
}

// requeueWave is the state of the two tests below at now=100: k 4-core
// nodes in partitions lo and hi (PriorityTier 2, partition_prio with
// REQUEUE); job 1 (lo) holds n2:4 from 0, job 2 (lo) n1:2 from 50, both
// until 1000; jobs 3 (hi, 4 CPUs, prio 300) and 4 (hi, 2 CPUs, prio 200)
// pend.
func requeueWave(t *testing.T, k int) (*fake, Params) {
	hi := part("hi")
	hi.PriorityTier = 2
	f := newFake(t, 100, []sim.NodeSpec{nodes("n", k, 4, 4000)}, []sim.PartitionSpec{part("lo"), hi})
	f.run(1, 0, 1000, "lo", "n2:4")
	f.run(2, 50, 1000, "lo", "n1:2")
	f.pend(3, 4, 600, 300, "hi")
	f.pend(4, 2, 600, 200, "hi")
	prm := DefaultParams()
	prm.PreemptType, prm.PreemptMode = "preempt/partition_prio", policy.PreemptRequeue
	return f, prm
}

// A record the present already holds preempts nobody, even where its
// nodes are still completing: _run_now tries it without preemption
// first. Three 4-core nodes; job 1 (lo) holds n2:4, job 2 (lo) n1:2,
// job 5 (lo) n3:4. Job 3 (hi, 4 CPUs) requeues job 1 and is reserved on
// n1 (all candidates gone, n1 comes first). Job 4 (hi, 2 CPUs) fits on
// n2, completing: it is planned for now + 1. Freeing job 5 would "make
// room" too, on nodes job 5 does not hold; it is not a victim, and job 4
// is not started by the preemption path either (h51pre: 104 pairs in the
// opposite order with it, 25 without).
func TestBackfillPreemptNotWhenItFits(t *testing.T) {
	f, prm := requeueWave(t, 3)
	f.run(5, 60, 1000, "lo", "n3:4")
	f.pass(planner(prm), sim.PassBackfill,
		"preempt 1 requeue", "pend 3 Resources (preemption in progress)", "expect 3 101", "expect 4 101", "pass 101")
}
