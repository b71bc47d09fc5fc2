package scheduler

import (
	"slices"
	"testing"

	"fairsim/sim"
)

// backfillJobs is the workload of the backfill scenarios, on two 4-core
// nodes in one partition (no policy: queue in submit order, then id).
//
//	t=0   job 1 (4 CPUs, limit 1000 s), job 2 (1 CPU, limit 2000 s)
//	t=3   pass: job 1 → n1 (both nodes idle, n1 first), job 2 → n2: 3 free
//	t=10  job 3 (8 CPUs, limit 100 s): both whole nodes
//	      job 4 (2 CPUs, limit 600 s, runs 500 s)
//	      job 5 (1 CPU, limit 3000 s, runs 500 s)
//	t=13  main pass: job 3 cannot start (3 CPUs free), the partition is
//	      blocked: jobs 4 and 5 wait although they would fit.
//	t=30  backfill, queue 3, 4, 5. Time limits only: job 1 is expected to
//	      end at 3+1000 = 1003 (4 CPUs back), job 2 at 3+2000 = 2003
//	      (1 CPU back). Job 3 needs all 8 CPUs: at 1003 there are 7, at
//	      2003 there are 8, so job 3 expects to start at 2003 and reserves
//	      n1 and n2 over [floor(2003/60)·60, floor((2003+100)/60)·60) =
//	      [1980, 2100) (bf_resolution 60; backfill.c _attempt_backfill
//	      rounds both ends of a reservation down).
//	      Job 4 fits now on n2 and its limit ends at 30+600 = 630 < 1980:
//	      it does not touch the reservation and starts now, by backfill.
//	      Job 5 fits now too (1 CPU left on n2), but [30, 3030) overlaps
//	      the reservation of n1 and n2: it would delay job 3, so it is not
//	      backfilled. Its own estimate is the end of job 3's reservation,
//	      2100 (both nodes free of reservations then, and n2 has a free
//	      CPU: the will-run test puts it at that record's start).
//	Then: job 4 ends at 530; job 1 at 1003 frees n1, but the reservation
//	still holds n1 for job 5's whole limit, so job 5 keeps waiting; job 2
//	ends at 2003 and the main pass at that end starts job 3 on time;
//	job 3 ends at 2103 and job 5 starts then.
var backfillJobs = []tjob{
	{id: 1, submit: 0, cpus: 4, run: 1000, limit: 1000},
	{id: 2, submit: 0, cpus: 1, run: 2000, limit: 2000},
	{id: 3, submit: 10, cpus: 8, run: 100, limit: 100},
	{id: 4, submit: 10, cpus: 2, run: 500, limit: 600},
	{id: 5, submit: 10, cpus: 1, run: 500, limit: 3000},
}

func backfillCluster(t *testing.T) *sim.Cluster {
	return cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("p")})
}

// TestBackfillEndsBeforeReservation: job 4 is backfilled at 30 because it
// ends before the top job's reservation; job 5 is not, because it would
// delay it; job 3 starts when the plan said.
func TestBackfillEndsBeforeReservation(t *testing.T) {
	_, by := run(t, backfillCluster(t), planner(DefaultParams()), backfillJobs, 40, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {2, 3, sim.ByMain}, {3, -1, 0}, {4, 30, sim.ByBackfill}, {5, -1, 0}})
	if got := by[3].ExpectStart; got != 2003 {
		t.Errorf("t=40: job 3 expected start %d, want 2003 (job 2's expected end)", got)
	}
	// Formerly 2160: the reservation's end was rounded up, where Slurm
	// rounds it down.
	if got := by[5].ExpectStart; got != 2100 {
		t.Errorf("t=40: job 5 expected start %d, want 2100 (end of job 3's reservation)", got)
	}

	_, by = run(t, backfillCluster(t), NewSlurm(DefaultParams()), backfillJobs, 0, nil)
	checkStarts(t, by, []want{
		{1, 3, sim.ByMain}, {2, 3, sim.ByMain}, {4, 30, sim.ByBackfill},
		{3, 2003, sim.ByMain}, // not delayed by job 4
		{5, 2103, sim.ByMain}, // never allowed into the reservation
	})
}

// TestBackfillWouldDelayReservation: the same queue with job 5's limit
// varied. Its actual runtime (500 s) never matters, only its limit: with a
// limit that ends before job 3's reservation (records [1980, 2100)) it is
// backfilled at 30 on the last free CPU of n2; with one that reaches it,
// it waits for job 3 to end. Slurm tests a plan slot against a job's end
// inclusively (backfill.c: node_space[j].begin_time <= end_time, with
// end_time = now + limit), so a limit ending exactly at 1980 collides.
func TestBackfillWouldDelayReservation(t *testing.T) {
	for _, tc := range []struct {
		limit int64
		start int64
		by    sim.StartKind
	}{
		{3000, 2103, sim.ByMain},   // ends at 3030, inside [1980, 2160): refused
		{1980, 2103, sim.ByMain},   // ends at 2010: refused
		{1950, 2103, sim.ByMain},   // ends at 1980, the slot's begin: refused
		{1920, 30, sim.ByBackfill}, // ends at 1950 < 1980: backfilled
		{900, 30, sim.ByBackfill},
	} {
		jobs := append([]tjob(nil), backfillJobs...)
		jobs[4].limit = tc.limit
		_, by := run(t, backfillCluster(t), NewSlurm(DefaultParams()), jobs, 0, nil)
		if j := by[5]; j.Start != tc.start || j.StartedBy != tc.by {
			t.Errorf("job 5 with limit %d s: started at %d by %q, want %d by %q", tc.limit, j.Start, j.StartedBy, tc.start, tc.by)
		}
		if j := by[3]; j.Start != 2003 {
			t.Errorf("job 5 with limit %d s: job 3 started at %d, want 2003", tc.limit, j.Start)
		}
	}
}

// TestBfMaxJobTestCutsTheList: bf_max_job_test bounds the jobs a backfill
// cycle tests, in queue order. One 4-core node:
//
//	t=0   job 1 (2 CPUs, limit 1000 s) → n1 at 3 (2 free)
//	t=10  job 2 (4 CPUs, limit 100 s): blocked, reserves n1 from
//	      floor(1003/60)·60 = 960 to ceil(1103/60)·60 = 1140
//	      jobs 3 and 4 (1 CPU, limit 200 s): [30, 230) is clear of it
//	t=30  backfill tests job 2 (1), job 3 (2) → job 3 starts; with
//	      bf_max_job_test=2 the cycle ends there and job 4 is not tested
//	      (it waits at t=40); with 3 it is tested and starts at 30.
func TestBfMaxJobTestCutsTheList(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 2, run: 1000, limit: 1000},
		{id: 2, submit: 10, cpus: 4, run: 100, limit: 100},
		{id: 3, submit: 10, cpus: 1, run: 100, limit: 200},
		{id: 4, submit: 10, cpus: 1, run: 100, limit: 200},
	}
	for _, tc := range []struct {
		maxTest int
		job4    int64
	}{{1, -1}, {2, -1}, {3, 30}, {500, 30}} {
		p := DefaultParams()
		p.BfMaxJobTest = tc.maxTest
		c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
		_, by := run(t, c, NewSlurm(p), jobs, 40, nil)
		job3 := int64(30)
		if tc.maxTest < 2 {
			job3 = -1 // only job 2 is tested
		}
		checkStarts(t, by, []want{{2, -1, 0}, {3, job3, sim.ByBackfill}, {4, tc.job4, sim.ByBackfill}})
	}
}

// TestBackfillCycleAfterItsOwnStarts: Slurm skips a backfill cycle only
// when nothing changed since the previous cycle ended (backfill.c
// _more_work: last_job_update >= last_backfill_time means more work, with
// last_backfill_time taken when the cycle ends). Jobs a cycle starts
// update last_job_update within that cycle's second, so the next cycle
// runs and tests the jobs bf_max_job_test cut off. In
// TestBfMaxJobTestCutsTheList with bf_max_job_test=2, the cycle at 60
// tests job 2 and job 4 and starts job 4 ([60, 260) is clear of
// [960, 1140)).
func TestBackfillCycleAfterItsOwnStarts(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 2, run: 1000, limit: 1000},
		{id: 2, submit: 10, cpus: 4, run: 100, limit: 100},
		{id: 3, submit: 10, cpus: 1, run: 100, limit: 200},
		{id: 4, submit: 10, cpus: 1, run: 100, limit: 200},
	}
	p := DefaultParams()
	p.BfMaxJobTest = 2
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 4, 4096)}, []sim.PartitionSpec{part("p")})
	_, by := run(t, c, NewSlurm(p), jobs, 0, nil)
	checkStarts(t, by, []want{{3, 30, sim.ByBackfill}, {4, 60, sim.ByBackfill}, {2, 1003, sim.ByMain}})
}

// TestBackfillKeepsWholeNodeReservation: Slurm reserves whole nodes for
// the top job (§6.2i), so a backfilled job may not take cores of a node
// reserved during its limit, even where the partition has cores to spare.
// It matters when nodes differ, here by CPU type in one partition (as in
// a requeue partition over all hardware). n1 is a 4-core Broadwell, n2 a
// 4-core Skylake:
//
//	t=0   job 1 (Skylake only, 2 CPUs, limit 1000 s) → n2 at 3
//	t=10  job 2 (Skylake only, 4 CPUs, limit 100 s): n2 has 2 free; it
//	      expects n2 whole when job 1 ends, 3+1000 = 1003, and reserves
//	      n2 over [960, 1140)
//	      job 3 (any type, 2 CPUs, limit 5000 s)
//	t=30  backfill: job 3's window [30, 5030] overlaps n2's reservation,
//	      so only n1 is available to it: it starts on n1. (On n2, the
//	      fuller node, job 2 could not start at 1003.)
//	t=1003 job 1 ends; job 2 starts on n2, on time.
func TestBackfillKeepsWholeNodeReservation(t *testing.T) {
	n1 := sim.NodeSpec{Names: []string{"n1"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}
	n2 := sim.NodeSpec{Names: []string{"n2"}, Type: "skylake", Cores: 4, MemMB: 4096, Weight: 1}
	c := cluster(t, []sim.NodeSpec{n1, n2}, []sim.PartitionSpec{part("p")})
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 2, run: 1000, limit: 1000, feature: "skylake"},
		{id: 2, submit: 10, cpus: 4, run: 100, limit: 100, feature: "skylake"},
		{id: 3, submit: 10, cpus: 2, run: 5000, limit: 5000},
	}
	_, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {3, 30, sim.ByBackfill}, {2, 1003, sim.ByMain}})
	if j := by[3]; len(j.Alloc) != 1 || c.Nodes[j.Alloc[0].Node].Name != "n1" {
		t.Errorf("job 3 ran on %v, want n1 (n2 is reserved for job 2)", j.Alloc)
	}
}

// TestBackfillSetsTestedCPUs: a whole-node job's total_cpus is the CPUs of
// the nodes its last successful select test found (sim.Job.TotalCPUs,
// which the job-size factor reads): unset at submission (a 22.05
// controller's sprio showed an --exclusive job's request until backfill
// had tested it), then the node backfill's will-run test reserves
// (cons_common _job_test). n1 has 8 CPUs, n2 32, n3 2, in an
// OverSubscribe=EXCLUSIVE partition:
//
//	t=0  job 1 (4 CPUs, limit 900) starts at 3 on n1, the best fit
//	t=0  job 2 (16 CPUs, limit 600) starts at 3 on n2, the only fit
//	t=10 job 3 (4 CPUs) waits, and job 4 (1 CPU) behind it (Priority)
//	t=30 backfill: n2 frees first (603), so job 3 is expected there, and
//	     its total_cpus are n2's 32; job 4 starts on n3.
func TestBackfillSetsTestedCPUs(t *testing.T) {
	p := part("p")
	p.Exclusive = true
	n1 := sim.NodeSpec{Names: []string{"n1"}, Type: "broadwell", Cores: 8, MemMB: 8192, Weight: 1}
	n2 := sim.NodeSpec{Names: []string{"n2"}, Type: "broadwell", Cores: 32, MemMB: 32768, Weight: 1}
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 4, run: 2000, limit: 900},
		{id: 2, submit: 0, cpus: 16, run: 2000, limit: 600},
		{id: 3, submit: 10, cpus: 4, run: 100, limit: 100},
		{id: 4, submit: 10, cpus: 1, run: 100, limit: 100},
	}
	n3 := sim.NodeSpec{Names: []string{"n3"}, Type: "broadwell", Cores: 2, MemMB: 2048, Weight: 1}
	for _, tc := range []struct {
		stop int64
		want int32
	}{{12, 0}, {40, 32}} {
		c := cluster(t, []sim.NodeSpec{n1, n2, n3}, []sim.PartitionSpec{p})
		_, by := run(t, c, NewSlurm(DefaultParams()), jobs, tc.stop, nil)
		if j := by[3]; j.State != sim.Pending || j.TotalCPUs != tc.want || tc.stop > 30 && j.ExpectStart != 603 {
			t.Errorf("at %d: job 3 %s, total_cpus %d, expected at %d; want PENDING, %d (and 603 after backfill)", tc.stop, j.State, j.TotalCPUs, j.ExpectStart, tc.want)
		}
	}
}

// TestWillRunBatchEndsInJobListOrder: _will_run_test gives running jobs
// back in batches of close ends, sorted by end and, among equal ends, in
// slurmctld's job list order; a batch closes when the next job in that
// order ends past the window, a job without nodes in play being skipped
// without that check. An array task takes its array record's place when
// it starts (job_array_split makes the array's pending rest a new record
// at the list's end). n1 (11 CPUs) is partition a, n2 (4) is b:
//
//	t=0  array 7 (tasks 0 and 1: a, 4 CPUs, limit 180), then job 5 (b, 4
//	     CPUs, limit 180): list places 1 (the array) and 2
//	t=1  job 6 (a, 2 CPUs, limit 600): place 3
//	t=3  all start. Task 0 takes place 1, the array's rest place 4, which
//	     task 1, its last, then takes. Tasks 0, 1 and job 5 end at 183.
//	t=10 job 8 (a, 6 CPUs, limit 100) waits; job 9 (a, 1 CPU) is
//	     backfilled after it, so job 8 gets its reservation.
//
// In list order the ends at 183 are task 0, job 5, task 1: task 1 closes
// the batch (job 6 ends at 603) and job 8 is expected at 183. In arrival
// order (task 0, task 1, job 5), job 5 is skipped last and job 6 joins
// the batch: 603. A differential run ("mixed") showed the controller
// planning as the list order does.
func TestWillRunBatchEndsInJobListOrder(t *testing.T) {
	n1 := sim.NodeSpec{Names: []string{"n1"}, Type: "broadwell", Cores: 11, MemMB: 11264, Weight: 1}
	n2 := sim.NodeSpec{Names: []string{"n2"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}
	c := cluster(t, []sim.NodeSpec{n1, n2}, []sim.PartitionSpec{part("a", "n1"), part("b", "n2")})
	jobs := []tjob{
		{id: 7, submit: 0, part: "a", cpus: 4, run: 180, limit: 180, array: 7, task: 0},
		{id: 10, submit: 0, part: "a", cpus: 4, run: 180, limit: 180, array: 7, task: 1},
		{id: 5, submit: 0, part: "b", cpus: 4, run: 180, limit: 180},
		{id: 6, submit: 1, part: "a", cpus: 2, run: 600, limit: 600},
		{id: 8, submit: 10, part: "a", cpus: 6, run: 100, limit: 100},
		{id: 9, submit: 10, part: "a", cpus: 1, run: 60, limit: 60},
	}
	_, by := run(t, c, NewSlurm(DefaultParams()), jobs, 60, nil)
	for _, id := range []int64{7, 10, 5, 6} {
		if j := by[id]; j.State != sim.Running || j.Start != 3 {
			t.Fatalf("job %d is %s from %d, want RUNNING from 3", id, j.State, j.Start)
		}
	}
	if o := []uint64{by[7].ListOrder(), by[5].ListOrder(), by[6].ListOrder(), by[10].ListOrder()}; !slices.IsSorted(o) || o[0] == o[1] || o[2] == o[3] {
		t.Errorf("list order of task 0, job 5, job 6, task 1: %v, want increasing", o)
	}
	if j := by[9]; j.StartedBy != sim.ByBackfill {
		t.Errorf("job 9 started by %v at %d, want by backfill", j.StartedBy, j.Start)
	}
	if j := by[8]; j.ExpectStart != 183 {
		t.Errorf("job 8 expected at %d, want 183 (the tasks' and job 5's end)", j.ExpectStart)
	}
}
