package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestPartitionBlockingScenario is §5.4 of the semantics reference: once
// the highest-ordered job of a partition cannot start for lack of
// resources, no later job of that partition starts in the pass, and the
// partition's nodes are out of play for the rest of the pass, so a
// partition that overlaps it cannot use them either; a partition that does
// not overlap carries on.
//
// Three 4-core nodes; partitions A = {n1}, B = {n1, n2}, C = {n3}. Backfill
// is off so that only the main scheduler starts jobs. No policy: every
// priority is 0 and the queue is in submit order, then job id.
//
//	t=0   job 1 (A, 2 CPUs, runs 1000 s), job 2 (B, 4 CPUs, runs 5000 s)
//	t=3   pass: job 1 → n1 (2 free left); job 2 → n2 (the only node of B
//	      with 4 free): n1 2 free, n2 0, n3 4
//	t=10  jobs 3 (A, 4 CPUs, 100 s), 4 (A, 1 CPU), 5 (B, 2 CPUs), 6 (C, 2);
//	      the previous queued pass was at 3, 7 s >= batch_sched_delay
//	      ago, so the pass runs at once (controller.c
//	      _slurmctld_background; it used to run at 13), in order 3, 4, 5, 6:
//	      job 3 needs 4 CPUs, n1 has 2: A is blocked and n1 leaves play;
//	      job 4 would fit on n1 (1 of 2 free) but A is blocked: Priority;
//	      job 5 would fit on n1 too (2 free), but n1 is out of play and
//	      n2 is full: B is blocked (Resources);
//	      job 6 → n3, started at 10.
//	      Every later pass repeats this until job 1 ends.
//	t=1003 job 1 ends (3 + 1000); pass: job 3 → n1 (4 free); job 4: n1
//	      full, A blocked again; job 5: n1 out of play, n2 busy until 5003.
//	t=1103 job 3 ends; pass: job 4 → n1 (3 left), job 5 → n1 (2 of the 3).
func TestPartitionBlockingScenario(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "A", cpus: 2, run: 1000, limit: 2000},
		{id: 2, submit: 0, part: "B", cpus: 4, run: 5000, limit: 6000},
		{id: 3, submit: 10, part: "A", cpus: 4, run: 100, limit: 200},
		{id: 4, submit: 10, part: "A", cpus: 1, run: 100, limit: 200},
		{id: 5, submit: 10, part: "B", cpus: 2, run: 100, limit: 200},
		{id: 6, submit: 10, part: "C", cpus: 2, run: 100, limit: 200},
	}
	mk := func() (*sim.Cluster, *Slurm) {
		c := cluster(t, []sim.NodeSpec{nodes("n", 3, 4, 4096)},
			[]sim.PartitionSpec{part("A", "n1"), part("B", "n1", "n2"), part("C", "n3")})
		p := DefaultParams()
		p.BackfillEnabled = false
		return c, NewSlurm(p)
	}

	// Stopped at t=20, after the pass at 10: the reasons it left.
	c, s := mk()
	_, by := run(t, c, s, jobs, 20, nil)
	for _, w := range []struct {
		id     int64
		reason string
	}{{3, "Resources"}, {4, "Priority"}, {5, "Resources"}} {
		if j := by[w.id]; j.State != sim.Pending || j.Reason != w.reason {
			t.Errorf("t=20: job %d is %s with reason %q, want PENDING with %q", w.id, j.State, j.Reason, w.reason)
		}
	}
	if n1 := c.Nodes[0]; n1.FreeCores != 2 {
		t.Errorf("t=20: n1 has %d free cores, want 2 (free, yet unused by jobs 4 and 5)", n1.FreeCores)
	}

	c, s = mk()
	_, by = run(t, c, s, jobs, 0, nil)
	checkStarts(t, by, []want{
		{1, 3, sim.ByMain}, {2, 3, sim.ByMain}, {6, 10, sim.ByMain},
		{3, 1003, sim.ByMain}, {4, 1103, sim.ByMain}, {5, 1103, sim.ByMain},
	})
	if got := c.Nodes[by[2].Alloc[0].Node].Name; got != "n2" {
		t.Errorf("job 2 ran on %s, want n2", got)
	}
}
