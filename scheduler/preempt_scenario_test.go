package scheduler

import (
	"testing"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// TestRequeuePreemptionScenario: an owner's job preempts a job of the
// requeue partition (preempt/partition_prio, §7.3), which goes back to the
// queue with its id, restarts from the beginning, and records the work it
// lost. One 4-core node in two partitions: owner (PriorityTier 2,
// PreemptMode OFF) and requeue (PriorityTier 1, TRESBillingWeights
// CPU=0.5, PreemptMode REQUEUE or CANCEL).
//
//	t=0   job 1 (requeue, 4 CPUs, runs 1000 s, limit 2000 s)
//	t=3   pass: job 1 → n1 (billing 4 × 0.5 = 2 per second)
//	t=100 job 2 (owner, 4 CPUs, runs 500 s); the last queued-or-full pass
//	      was the full one at 60, so the pass runs at once (it used to run
//	      3 s after the submit, controller.c _slurmctld_background):
//	      job 2 does not fit; job 1 is a candidate (tier 1 < 2, mode
//	      REQUEUE) and freeing it is enough: job 1 is preempted at 100
//	      after 97 s on 4 cores: 388 core-seconds and 97 × 2 = 194
//	      billing-seconds lost. Job 2 does not start in this pass (Slurm
//	      starts the preemptor once its victims are gone): the next pass.
//	t=101 pass: job 2 → n1 (owner's tier first).
//	t=221 job 1 is eligible again, 100 + 121 (job_mgr.c
//	      batch_requeue_fini), and cannot fit.
//	t=601 job 2 ends (101 + 500); job 1 starts again, from the beginning:
//	      it runs its whole 1000 s, to 1601.
//
// With PreemptMode CANCEL job 1 ends CANCELLED at 100 instead, having run
// from 3 to 100, and never restarts.
func TestRequeuePreemptionScenario(t *testing.T) {
	const dump = `Cluster - 'c':Fairshare=1
Parent - 'root'
Account - 'lab':Fairshare=1
Account - 'owner':Fairshare=1
Parent - 'lab'
User - 'u1':Fairshare=1
Parent - 'owner'
User - 'u2':Fairshare=1
`
	jobs := []tjob{
		{id: 1, submit: 0, part: "requeue", cpus: 4, run: 1000, limit: 2000, acct: "lab", user: "u1"},
		{id: 2, submit: 100, part: "owner", cpus: 4, run: 500, limit: 1000, acct: "owner", user: "u2"},
	}
	for _, tc := range []struct {
		mode       policy.PreemptMode
		state      sim.JobState
		start, end int64
	}{
		{policy.PreemptRequeue, sim.Completed, 601, 1601},
		{policy.PreemptCancel, sim.Cancelled, 3, 100},
	} {
		owner := part("owner")
		owner.PriorityTier, owner.PreemptMode = 2, policy.PreemptOff
		rq := part("requeue")
		rq.PreemptMode, rq.BillingWeights = tc.mode, "CPU=0.5"
		c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{owner, rq})
		p := DefaultParams()
		p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptRequeue
		_, by := run(t, c, NewSlurm(p), jobs, 0, mfPolicy(t, dump, "", fairshare.Config{HalfLife: 7 * 86400}))
		j1, j2 := by[1], by[2]
		if j2.Start != 101 || j2.StartedBy != sim.ByMain {
			t.Errorf("%s: owner's job started at %d by %q, want 101 by main", tc.mode, j2.Start, j2.StartedBy)
		}
		if j1.State != tc.state || j1.Start != tc.start || j1.End != tc.end {
			t.Errorf("%s: job 1 %s [%d, %d], want %s [%d, %d]", tc.mode, j1.State, j1.Start, j1.End, tc.state, tc.start, tc.end)
		}
		if j1.Preemptions != 1 || j1.LostCoreSecs != 388 || j1.LostBilling != 194 {
			t.Errorf("%s: job 1 preempted %d times, lost %v core-s and %v billing-s; want 1, 388, 194",
				tc.mode, j1.Preemptions, j1.LostCoreSecs, j1.LostBilling)
		}
		if j2.Preemptions != 0 || j2.LostCoreSecs != 0 {
			t.Errorf("%s: the owner's job records %d preemptions", tc.mode, j2.Preemptions)
		}
	}
}

// TestNoPreemptionWithinATier: partition_prio preempts only from a higher
// PriorityTier. The same two jobs in two partitions of the same tier: job
// 2 waits for job 1 to end (3 + 1000 = 1003) and nothing is lost.
func TestNoPreemptionWithinATier(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "b", cpus: 4, run: 1000, limit: 2000},
		{id: 2, submit: 100, part: "a", cpus: 4, run: 500, limit: 1000},
	}
	b := part("b")
	b.PreemptMode = policy.PreemptRequeue
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("a"), b})
	p := DefaultParams()
	p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptRequeue
	_, by := run(t, c, NewSlurm(p), jobs, 0, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {2, 1003, sim.ByMain}})
	if by[1].Preemptions != 0 {
		t.Errorf("job 1 preempted %d times by a job of its own tier", by[1].Preemptions)
	}
}

// TestPreemptOnlyWhatIsUsed: Slurm frees candidates one by one until the
// preemptor fits, then preempts only those whose nodes the preemptor's
// allocation uses (cons_tres job_test.c: "Build list of preemptee jobs
// whose resources are actually used"). Two 4-core nodes, both in owner
// (PriorityTier 2) and requeue (PriorityTier 1, REQUEUE):
//
//	t=0   job 1 (owner, 2 CPUs), job 2 (requeue, 4 CPUs), both long
//	t=3   pass, owner's tier first: job 1 → n1 (both idle, n1 first);
//	      job 2 → n2
//	t=20  job 3 (requeue, 2 CPUs) → n1 at 20 (the last queued pass was at
//	      3, 17 s ago; it used to start at 23): both nodes full
//	t=100 job 4 (owner, 4 CPUs), pass at once (last full pass at 60):
//	      candidates in job list order among equals: job 2 (started 3),
//	      then job 3 (started 20). Freeing job 2 gives n2 whole, where
//	      job 4 goes (cons_tres's reorder tries job 2 first again: the
//	      same). Only job 2 is preempted: job 3's node is not used.
//	t=101 job 4 → n2.
func TestPreemptOnlyWhatIsUsed(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "owner", cpus: 2, run: 10000, limit: 20000},
		{id: 2, submit: 0, part: "requeue", cpus: 4, run: 10000, limit: 20000},
		{id: 3, submit: 20, part: "requeue", cpus: 2, run: 10000, limit: 20000},
		{id: 4, submit: 100, part: "owner", cpus: 4, run: 100, limit: 200},
	}
	owner := part("owner")
	owner.PriorityTier, owner.PreemptMode = 2, policy.PreemptOff
	rq := part("requeue")
	rq.PreemptMode = policy.PreemptRequeue
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{owner, rq})
	p := DefaultParams()
	p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptRequeue
	_, by := run(t, c, NewSlurm(p), jobs, 200, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {3, 20, sim.ByMain}, {4, 101, sim.ByMain}})
	if got := by[2].Preemptions; got != 1 {
		t.Errorf("job 2 preempted %d times, want 1", got)
	}
	if got := by[3].Preemptions; got != 0 {
		t.Errorf("job 3 preempted %d times, want 0: job 4 does not use its node", got)
	}
	if j := by[4]; len(j.Alloc) != 1 || c.Nodes[j.Alloc[0].Node].Name != "n2" {
		t.Errorf("job 4 got %v, want n2", j.Alloc)
	}
}
