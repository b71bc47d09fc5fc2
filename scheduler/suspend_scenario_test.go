package scheduler

import (
	"testing"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
)

const preemptDump = `Cluster - 'c':Fairshare=1
Parent - 'root'
Account - 'lab':Fairshare=1
Account - 'owner':Fairshare=1
Parent - 'lab'
User - 'u1':Fairshare=1
Parent - 'owner'
User - 'u2':Fairshare=1
`

// preemptCluster is TestRequeuePreemptionScenario's node (4 cores, 4096
// MB) in an owner partition (PriorityTier 2) over a scavenger one whose
// PreemptMode is mode and GraceTime grace.
func preemptCluster(t *testing.T, mode policy.PreemptMode, grace int64) *sim.Cluster {
	owner := part("owner")
	owner.PriorityTier, owner.PreemptMode = 2, policy.PreemptOff
	sc := part("requeue")
	sc.PreemptMode, sc.GraceTime = mode, grace
	return cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{owner, sc})
}

// TestSuspendPreemptionScenario: PreemptMode=SUSPEND,GANG under
// preempt/partition_prio.
//
//	t=0   job 1 (requeue, 4 CPUs × 500 MB, runs 1000 s, limit 2000 s)
//	t=3   pass: job 1 → n1, to end at 1003.
//	t=100 job 2 (owner, 4 CPUs × 500 MB, runs 500 s): no free core, and
//	      4096 − 2000 = 2096 MB free, enough for its 2000; job 1 is a
//	      candidate (tier 1 < 2, mode SUSPEND) and its 4 cores are enough.
//	      node_scheduler.c _preempt_jobs counts no job to wait for when
//	      the gang scheduler suspends, so job 2 starts in this very pass,
//	      at 100, and gang.c suspends job 1 with 1003 − 100 = 903 s left.
//	t=600 job 2 ends (100 + 500); gs_job_fini → _update_all_active_rows:
//	      job 1 fits in the active row again and is resumed, to end at
//	      600 + 903 = 1503, having been suspended 500 s. Nothing was lost.
//
// With 3000 MB held by job 1 (750 MB × 4 CPUs)
// and job 2 asking 2 CPUs × 1000 MB, the suspension would free the cores
// but not the memory (cons_tres select_p_job_suspend frees cores only):
// 4096 − 3000 = 1096 < 2000 MB, so job 2 cannot preempt and waits for
// job 1's end at 1003.
func TestSuspendPreemptionScenario(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		j1mem, j2cpus, j2mem   int64
		j1End, j1Susp, j2Start int64
		j1Preempt              int
	}{
		{"cores", 500, 4, 500, 1503, 500, 100, 1},
		{"memory kept", 750, 2, 1000, 1003, 0, 1003, 0},
	} {
		jobs := []tjob{
			{id: 1, submit: 0, part: "requeue", cpus: 4, run: 1000, limit: 2000, acct: "lab", user: "u1", memPerC: tc.j1mem},
			{id: 2, submit: 100, part: "owner", cpus: int(tc.j2cpus), run: 500, limit: 1000, acct: "owner", user: "u2", memPerC: tc.j2mem},
		}
		c := preemptCluster(t, policy.PreemptSuspend, 0)
		p := DefaultParams()
		p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptSuspend|policy.PreemptGang
		_, by := run(t, c, NewSlurm(p), jobs, 0, mfPolicy(t, preemptDump, "", fairshare.Config{HalfLife: 7 * 86400}))
		j1, j2 := by[1], by[2]
		if j2.Start != tc.j2Start {
			t.Errorf("%s: job 2 started at %d, want %d", tc.name, j2.Start, tc.j2Start)
		}
		if j1.State != sim.Completed || j1.Start != 3 || j1.End != tc.j1End || j1.SuspendedSecs != tc.j1Susp || j1.Preemptions != tc.j1Preempt || j1.LostCoreSecs != 0 {
			t.Errorf("%s: job 1 %s [%d, %d] suspended %d s, %d preemptions, lost %v; want COMPLETED [3, %d] %d s, %d, 0",
				tc.name, j1.State, j1.Start, j1.End, j1.SuspendedSecs, j1.Preemptions, j1.LostCoreSecs, tc.j1End, tc.j1Susp, tc.j1Preempt)
		}
	}
}

// TestSuspendWithoutGang: a QOS or partition SUSPEND without the
// cluster's GANG is not suspended: slurm_job_preempt knows no SUSPEND and
// kills the job (preempt.c, "had to be killed"). Job 1 ends CANCELLED at
// 100 and job 2 starts at the next pass, 101.
func TestSuspendWithoutGang(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "requeue", cpus: 4, run: 1000, limit: 2000, acct: "lab", user: "u1"},
		{id: 2, submit: 100, part: "owner", cpus: 4, run: 500, limit: 1000, acct: "owner", user: "u2"},
	}
	c := preemptCluster(t, policy.PreemptSuspend, 0)
	p := DefaultParams()
	p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptCancel
	_, by := run(t, c, NewSlurm(p), jobs, 0, nil)
	if j1, j2 := by[1], by[2]; j1.State != sim.Cancelled || j1.End != 100 || j2.Start != 101 {
		t.Errorf("job 1 %s ending %d, job 2 starting %d; want CANCELLED 100, 101", j1.State, j1.End, j2.Start)
	}
}

// TestGraceTime: partition GraceTime=60 with REQUEUE. At 100 job 1 is
// preempted but runs on for its grace time (preempt.c
// _job_check_grace_internal: end_time = MIN(end_time, 100 + 60)); its
// cores stay busy, so job 2 cannot start until 160, when job 1 is
// requeued having run 160 − 3 = 157 s on 4 cores (628 core-seconds lost)
// and its release asks for a pass that starts job 2 at 160. Job 1 is
// eligible again at 160 + 121 = 281 and starts when job 2 ends, 660, to
// run its 1000 s to 1660. A grace time longer than the job's own end
// changes nothing of that end: with GraceTime=2000 job 1 ends by itself
// at 1003, COMPLETED, and job 2 starts then.
func TestGraceTime(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "requeue", cpus: 4, run: 1000, limit: 2000, acct: "lab", user: "u1"},
		{id: 2, submit: 100, part: "owner", cpus: 4, run: 500, limit: 1000, acct: "owner", user: "u2"},
	}
	for _, tc := range []struct {
		grace                 int64
		j1Start, j1End, j2Str int64
		lost                  float64
	}{
		{60, 660, 1660, 160, 628},
		{2000, 3, 1003, 1003, 0},
	} {
		c := preemptCluster(t, policy.PreemptRequeue, tc.grace)
		p := DefaultParams()
		p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptRequeue
		_, by := run(t, c, NewSlurm(p), jobs, 0, nil)
		j1, j2 := by[1], by[2]
		if j2.Start != tc.j2Str || j1.State != sim.Completed || j1.Start != tc.j1Start || j1.End != tc.j1End || j1.LostCoreSecs != tc.lost {
			t.Errorf("grace %d: job 2 at %d, job 1 %s [%d, %d] lost %v; want %d, COMPLETED [%d, %d] lost %v",
				tc.grace, j2.Start, j1.State, j1.Start, j1.End, j1.LostCoreSecs, tc.j2Str, tc.j1Start, tc.j1End, tc.lost)
		}
	}
}

// TestPreemptExemptAndYoungest: two 2-core jobs of the scavenger
// partition share the node, job 1 from 3 and job 3 from its submit at 50
// (the pass runs at once: the last full one was at 3, …); job 2 (owner, 2 CPUs) arrives at 100 and needs
// one of them to go (CANCEL).
//
//   - Default order (preempt.c _sort_by_prio over slurmctld's job list,
//     equal tiers keeping the list's order, oldest record first): job 1
//     (started 3) is cancelled at 100. fairsim took the youngest before;
//     a differential run with preemption showed the controller taking
//     the older job.
//   - preempt_youngest_first: job 3 (started 50) is cancelled instead.
//   - PreemptExemptTime=60 (slurm.conf): job 3 has run 100 − 50 = 50 s <
//     60 and is exempt (acct_policy_is_job_preempt_exempt); job 1, 97 s,
//     is cancelled.
//   - PreemptExemptTime=120: both are exempt at 100 (97 and 50 < 120),
//     and at the full pass of 120 (117, 70). At the full pass of 180 both
//     have run long enough (177, 130): job 1, first in the list, is
//     cancelled and job 2 starts at the next pass, 181.
func TestPreemptExemptAndYoungest(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "requeue", cpus: 2, run: 300, limit: 2000, acct: "lab", user: "u1"},
		{id: 3, submit: 50, part: "requeue", cpus: 2, run: 1000, limit: 2000, acct: "lab", user: "u1"},
		{id: 2, submit: 100, part: "owner", cpus: 2, run: 500, limit: 1000, acct: "owner", user: "u2"},
	}
	for _, tc := range []struct {
		exempt    int64
		youngest  bool
		cancelled int64 // job id, 0 for none
		j2Start   int64
	}{
		{-1, false, 1, 101},
		{-1, true, 3, 101},
		{60, false, 1, 101},
		{120, false, 1, 181},
	} {
		c := preemptCluster(t, policy.PreemptCancel, 0)
		p := DefaultParams()
		p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptCancel
		p.PreemptExemptTime, p.PreemptYoungestFirst = tc.exempt, tc.youngest
		_, by := run(t, c, NewSlurm(p), jobs, 0, nil)
		if by[3].Start != 50 {
			t.Fatalf("job 3 started at %d, want 50", by[3].Start)
		}
		var got int64
		for _, id := range []int64{1, 3} {
			if by[id].State == sim.Cancelled {
				got = id
			}
		}
		if got != tc.cancelled || by[2].Start != tc.j2Start {
			t.Errorf("exempt %d youngest %v: cancelled job %d, job 2 at %d; want %d, %d", tc.exempt, tc.youngest, got, by[2].Start, tc.cancelled, tc.j2Start)
		}
	}
}
