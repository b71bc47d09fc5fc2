package scheduler

import (
	"testing"

	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// qosTable adapts a policy.QOSSet as config does, for unit scenarios.
type qosTable struct{ s *policy.QOSSet }

func (q qosTable) CanPreempt(a, b int) bool      { return q.s.CanPreempt(a, b) }
func (q qosTable) Mode(i int) policy.PreemptMode { return q.s.QOS(i).PreemptMode }
func (q qosTable) Priority(i int) uint32         { return q.s.QOS(i).Priority }
func (q qosTable) NoReserve(i int) bool          { return q.s.QOS(i).Flags&policy.QOSNoReserve != 0 }
func (q qosTable) MinPrioThreshold(i int) uint32 { return q.s.QOS(i).MinPrioThreshold }
func (q qosTable) GraceTime(i int) int64         { return q.s.QOS(i).GraceTime }
func (q qosTable) ExemptTime(i int) int64        { return q.s.QOS(i).PreemptExemptTime }

// TestQOSNoReserve: the backfill scenario of backfill_scenario_test.go,
// with job 3 (8 CPUs, blocked until job 2's expected end at 2003) under a
// QOS. With an ordinary QOS it reserves both nodes over [1980, 2160) and
// job 5 (1 CPU, limit 3000 s, ending at 3030) is refused at 30. Under a
// NoReserve QOS job 3 gets no reservation (§6.2b), so nothing protects it:
// job 5 is backfilled at 30 on n2's last free CPU. Job 3 still starts at
// 2003 here only because job 5 really runs 500 s (ending at 530, before
// job 2 frees the eighth CPU); had it run its whole limit, job 3 would
// have waited for it.
func TestQOSNoReserve(t *testing.T) {
	const dump = "Cluster - 'c':Fairshare=1\nParent - 'root'\nAccount - 'a':Fairshare=1\nParent - 'a'\nUser - 'u':Fairshare=1\n"
	for _, tc := range []struct {
		flags  string
		job5   int64
		job5By sim.StartKind
	}{
		{"", 2103, sim.ByMain},            // job 3 reserves: job 5 waits for it
		{"NoReserve", 30, sim.ByBackfill}, // no reservation: job 5 backfills
	} {
		qos := "Name|Priority|Flags\nnormal|0|\nbig|0|" + tc.flags + "\n"
		jobs := append([]tjob(nil), backfillJobs...)
		jobs[2].qos = "big"
		mk := mfPolicy(t, dump, qos, fairshare.Config{HalfLife: 7 * 86400})
		s := NewSlurm(DefaultParams())
		_, by := run(t, backfillCluster(t), s, jobs, 0, func(c *sim.Cluster, n *workload.Names) sim.Policy {
			p := mk(c, n)
			s.QOS = qosTable{p.(*multifactor.Policy).QOSSet()}
			return p
		})
		if j := by[5]; j.Start != tc.job5 || j.StartedBy != tc.job5By {
			t.Errorf("QOS flags %q: job 5 started at %d by %q, want %d by %q", tc.flags, j.Start, j.StartedBy, tc.job5, tc.job5By)
		}
		if j := by[3]; j.Start != 2003 {
			t.Errorf("QOS flags %q: job 3 started at %d, want 2003", tc.flags, j.Start)
		}
	}
}

// TestQOSNoReserveLimit: backfill.c plans a NoReserve QOS job with a
// one-minute limit only when slurm.conf sets a PreemptMode (time_limit = 1
// under slurm_conf.preempt_mode), and runs its whole test (not
// TEST_NOW_ONLY): the job gets an expected start but no reservation. In
// the scenario of backfill_scenario_test.go, job 5 (1 CPU, limit 3000 s)
// is under such a QOS; job 3 reserves both nodes over [1980, 2100).
// Without preemption job 5's [30, 3030) meets that reservation: it waits,
// expected at 2100 (the reservation's end, as an ordinary job), and
// starts when job 3 ends, at 2103. With PreemptMode=REQUEUE it is tested
// over [30, 90) and backfilled at 30.
func TestQOSNoReserveLimit(t *testing.T) {
	const dump = "Cluster - 'c':Fairshare=1\nParent - 'root'\nAccount - 'a':Fairshare=1\nParent - 'a'\nUser - 'u':Fairshare=1\n"
	const qos = "Name|Priority|Flags\nnormal|0|\nnr|0|NoReserve\n"
	for _, tc := range []struct {
		mode         policy.PreemptMode
		typ          string
		start        int64
		by           sim.StartKind
		expectAt40   int64
		wantEstimate bool
	}{
		{policy.PreemptOff, "preempt/none", 2103, sim.ByMain, 2100, true},
		{policy.PreemptRequeue, "preempt/qos", 30, sim.ByBackfill, 0, false},
	} {
		for _, until := range []int64{40, 0} {
			jobs := append([]tjob(nil), backfillJobs...)
			jobs[4].qos = "nr"
			mk := mfPolicy(t, dump, qos, fairshare.Config{HalfLife: 7 * 86400})
			p := DefaultParams()
			p.PreemptType, p.PreemptMode = tc.typ, tc.mode
			s := planner(p) // every record estimated, as explain asks
			_, by := run(t, backfillCluster(t), s, jobs, until, func(c *sim.Cluster, n *workload.Names) sim.Policy {
				pol := mk(c, n)
				s.QOS = qosTable{pol.(*multifactor.Policy).QOSSet()}
				return pol
			})
			j := by[5]
			if until == 40 {
				if tc.wantEstimate && j.ExpectStart != tc.expectAt40 {
					t.Errorf("%v: at 40 job 5 expected at %d, want %d (the estimate of its whole test)", tc.mode, j.ExpectStart, tc.expectAt40)
				}
				continue
			}
			if j.Start != tc.start || j.StartedBy != tc.by {
				t.Errorf("%v: job 5 started at %d by %q, want %d by %q", tc.mode, j.Start, j.StartedBy, tc.start, tc.by)
			}
			if by[3].Start != 2003 {
				t.Errorf("%v: job 3 started at %d, want 2003", tc.mode, by[3].Start)
			}
		}
	}
}
