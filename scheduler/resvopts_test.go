package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestBfJobPartCountReserve: bf_job_part_count_reserve=N lets a
// partition's first N reservations of a cycle be made; its later records
// test now only (backfill.c _attempt_backfill: _check_bf_usage on the
// partition's resv_usage sets TEST_NOW_ONLY, and each reservation counts
// one). Two 4-CPU nodes:
//
//	t=0  job 1 (3 CPUs, limit 1000) on n1, job 2 (4 CPUs, limit 2000) on
//	     n2, at 3: n1 has one CPU free.
//	t=10 job 3 (8 CPUs, limit 100), job 4 (4 CPUs, limit 500), job 5 (1
//	     CPU, limit 1200, runs 100), in that order.
//	t=30 backfill: job 3 reserves both nodes over [1980, 2100) (job 2's
//	     end, 2003). Job 4 fits on n1 at 1003 and reserves it over [960,
//	     1500). Job 5 fits now on n1's free CPU, but [30, 1230] meets job
//	     4's reservation: it waits, and once job 4 has run (1003 to 1503)
//	     job 3's reservation holds it until job 3 ends at 2103.
//
// With bf_job_part_count_reserve=1 job 4 tests now only and reserves
// nothing, so job 5 starts at 30 and is done by 130. Either way job 4
// starts at 1004 (job 3 blocks the main pass at 1003, the backfill cycle
// after that change starts it) and job 3 at 2003.
func TestBfJobPartCountReserve(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 3, run: 1000, limit: 1000},
		{id: 2, submit: 0, cpus: 4, run: 2000, limit: 2000},
		{id: 3, submit: 10, cpus: 8, run: 100, limit: 100},
		{id: 4, submit: 10, cpus: 4, run: 500, limit: 500},
		{id: 5, submit: 10, cpus: 1, run: 100, limit: 1200},
	}
	for _, tc := range []struct {
		count int
		job5  int64
		by5   sim.StartKind
	}{
		{0, 2103, sim.ByMain},
		{2, 2103, sim.ByMain},
		{1, 30, sim.ByBackfill},
	} {
		p := DefaultParams()
		p.BfJobPartCountReserve = tc.count
		_, by := run(t, backfillCluster(t), NewSlurm(p), jobs, 0, nil)
		if j := by[5]; j.Start != tc.job5 || j.StartedBy != tc.by5 {
			t.Errorf("bf_job_part_count_reserve=%d: job 5 started at %d by %q, want %d by %q", tc.count, j.Start, j.StartedBy, tc.job5, tc.by5)
		}
		if by[4].Start != 1004 || by[3].Start != 2003 {
			t.Errorf("bf_job_part_count_reserve=%d: jobs 4 and 3 started at %d and %d, want 1004 and 2003", tc.count, by[4].Start, by[3].Start)
		}
	}
}

// TestBfOneResvPerJob: a job of two partitions reserves in each, unless
// bf_one_resv_per_job, where its records after the first that expected a
// start test now only (backfill.c: job_ptr->start_time set earlier in
// the cycle → TEST_NOW_ONLY); either way its expected start is the
// earliest its records found (orig_start_time). Partition a is n1,
// partition b n2, 4 CPUs each:
//
//	t=0  job 1 (a, 3 CPUs, limit 1000) on n1, job 2 (b, 3 CPUs, limit
//	     1100) on n2, at 3: one CPU free on each.
//	t=10 job 3 (-p a,b, 4 CPUs, limit 100), then job 4 (b, 1 CPU, limit
//	     1200, runs 100).
//	t=30 backfill: job 3 is expected at 1003 in a (n1 over [960, 1080))
//	     and at 1103 in b (n2 over [1080, 1200)); its expected start is
//	     1003. Job 4 fits now on n2, but its run [30, 1230] meets the
//	     reservation in b: it waits until job 3 has started on n1 (1003,
//	     main pass) and starts then.
//
// With bf_one_resv_per_job the record in b tests now only and reserves
// nothing, and job 4 starts at 30.
func TestBfOneResvPerJob(t *testing.T) {
	mk := func() *sim.Cluster {
		return cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("a", "n1"), part("b", "n2")})
	}
	jobs := []tjob{
		{id: 1, submit: 0, part: "a", cpus: 3, run: 1000, limit: 1000},
		{id: 2, submit: 0, part: "b", cpus: 3, run: 1100, limit: 1100},
		{id: 3, submit: 10, part: "a", plist: "a,b", cpus: 4, run: 100, limit: 100},
		{id: 4, submit: 10, part: "b", cpus: 1, run: 100, limit: 1200},
	}
	for _, tc := range []struct {
		one  bool
		job4 int64
	}{{false, 1003}, {true, 30}} {
		p := DefaultParams()
		p.BfOneResvPerJob = tc.one
		_, by := run(t, mk(), planner(p), jobs, 40, nil)
		if j := by[3]; j.ExpectStart != 1003 {
			t.Errorf("bf_one_resv_per_job=%v: at 40 job 3 expected at %d, want 1003 (the earlier of its partitions' 1003 and 1103)", tc.one, j.ExpectStart)
		}
		_, by = run(t, mk(), NewSlurm(p), jobs, 0, nil)
		if j := by[4]; j.Start != tc.job4 {
			t.Errorf("bf_one_resv_per_job=%v: job 4 started at %d, want %d", tc.one, j.Start, tc.job4)
		}
		if j := by[3]; j.Start != 1003 {
			t.Errorf("bf_one_resv_per_job=%v: job 3 started at %d, want 1003", tc.one, j.Start)
		}
	}
}

// TestBfOneResvPastWindow: a start past bf_window still counts as the
// job's start for bf_one_resv_per_job (backfill.c _attempt_backfill:
// "StartTime set to time after current backfill window", start_time
// kept; cons_tres's _will_run_test tries every running job's end). Two
// 4-CPU nodes, partitions a (n1) and b (n2), bf_window 10 minutes: job 1
// holds 3 CPUs of n1 until 2003, job 2 3 CPUs of n2 until 403. Job 3
// (-p a,b, 4 CPUs) can start in a only at 2003, past the window, and in
// b at 403. With the option its b record tests now only, so nothing is
// reserved and job 4 (1 CPU, limit 1200, b) starts at the first cycle;
// without it b reserves n2 from 403 and job 4 waits until job 3 is done.
func TestBfOneResvPastWindow(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, part: "a", cpus: 3, run: 2000, limit: 2000},
		{id: 2, submit: 0, part: "b", cpus: 3, run: 400, limit: 400},
		{id: 3, submit: 10, part: "a", plist: "a,b", cpus: 4, run: 100, limit: 100},
		{id: 4, submit: 10, part: "b", cpus: 1, run: 100, limit: 1200},
	}
	for _, tc := range []struct {
		one    bool
		expect int64 // job 3's expected start after the cycle at 30
		job4   int64
	}{{false, 403, 503}, {true, 2003, 30}} {
		c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("a", "n1"), part("b", "n2")})
		p := DefaultParams()
		p.BfOneResvPerJob, p.BfWindow = tc.one, 600
		_, by := run(t, c, planner(p), jobs, 40, nil)
		if j := by[3]; j.ExpectStart != tc.expect {
			t.Errorf("bf_one_resv_per_job=%v: at 40 job 3 expected at %d, want %d", tc.one, j.ExpectStart, tc.expect)
		}
		c = cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("a", "n1"), part("b", "n2")})
		_, by = run(t, c, NewSlurm(p), jobs, 0, nil)
		if j := by[4]; j.Start != tc.job4 {
			t.Errorf("bf_one_resv_per_job=%v: job 4 started at %d, want %d", tc.one, j.Start, tc.job4)
		}
	}
}

// TestBfRunningJobReserve: with bf_running_job_reserve each cycle's map
// begins with the nodes of running whole-node jobs held until their
// expected ends rounded down (backfill.c _bf_reserve_running); without
// it they are not in the map (the will-run test alone knows them). An
// OverSubscribe=EXCLUSIVE partition of three 4-CPU nodes: job 1 (1 CPU,
// limit 1000) holds n1 from 3; job 2 (12 CPUs, limit 100) waits and, at
// 30, reserves the three nodes over [960, 1020); job 3 (1 CPU, limit
// 5000) could start now on n2 but its run meets that reservation. After
// that cycle n1 is free of reservations over [40, 500] only without the
// option.
func TestBfRunningJobReserve(t *testing.T) {
	p0 := part("p")
	p0.Exclusive = true
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 1, run: 1000, limit: 1000},
		{id: 2, submit: 10, cpus: 12, run: 100, limit: 100},
		{id: 3, submit: 10, cpus: 1, run: 100, limit: 5000},
	}
	for _, tc := range []struct {
		on    bool
		avail int // nodes free of reservations over [40, 500]
	}{{false, 3}, {true, 2}} {
		c := cluster(t, []sim.NodeSpec{nodes("n", 3, 4, 4096)}, []sim.PartitionSpec{p0})
		p := DefaultParams()
		p.BfRunningJobReserve = tc.on
		s := planner(p)
		_, by := run(t, c, s, jobs, 40, nil)
		if j := by[2]; j.ExpectStart != 1003 || by[3].State != sim.Pending {
			t.Fatalf("running reserve %v: job 2 expected at %d, job 3 %s; want 1003 and PENDING", tc.on, j.ExpectStart, by[3].State)
		}
		dst := make([]uint64, len(s.bf.usable))
		copy(dst, s.bf.usable)
		if s.bf.ns.availOver(dst, 40, 500, 0); count(dst) != tc.avail {
			n := count(dst)
			t.Errorf("running reserve %v: %d nodes free of reservations over [40, 500], want %d", tc.on, n, tc.avail)
		}
	}
}

// TestExclusiveListWholeNode: a job of several partitions takes whole
// nodes in all of them once job_allocate has tried an
// OverSubscribe=EXCLUSIVE one at submission (_select_nodes_parts, by
// PriorityTier, then list order, until one could run it;
// _resolve_shared_status sets details->whole_node for good). Partition
// a (n1) is EXCLUSIVE and held by job 1; job 2 (2 CPUs) runs in b (n2),
// on the whole node when a came first, so job 3 (1 CPU, b) waits for it;
// listed b first, b ends the tries and job 3 starts beside it, unless a's
// higher PriorityTier puts a first.
func TestExclusiveListWholeNode(t *testing.T) {
	for _, tc := range []struct {
		plist string
		tierA int
		cores int // job 2's
		job3  int64
	}{{"a,b", 1, 4, 1003}, {"b,a", 1, 2, 3}, {"b,a", 2, 4, 1003}} {
		pa := part("a", "n1")
		pa.Exclusive, pa.PriorityTier = true, tc.tierA
		c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{pa, part("b", "n2")})
		jobs := []tjob{
			{id: 1, submit: 0, part: "a", cpus: 1, run: 5000, limit: 5000},
			{id: 2, submit: 0, part: tc.plist[:1], plist: tc.plist, cpus: 2, run: 1000, limit: 1000},
			{id: 3, submit: 0, part: "b", cpus: 1, run: 100, limit: 100},
		}
		_, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, nil)
		if j := by[3]; j.Start != tc.job3 || by[2].Alloc.Cores() != tc.cores {
			t.Errorf("-p %s (a's tier %d): job 2 on %d CPUs, job 3 started at %d; want %d CPUs and %d", tc.plist, tc.tierA, by[2].Alloc.Cores(), j.Start, tc.cores, tc.job3)
		}
	}
}

// TestMainPassWholeNode: a main pass that tries a job in an
// OverSubscribe=EXCLUSIVE partition of its list leaves whole_node on it
// (select_nodes' _resolve_shared_status, past the limit check), even
// where submission tried another partition first. Job 3 (-p b,a, 2 CPUs)
// could run in b, so submission stops there; it waits for job 2 on n2,
// and the main pass tries it in a (n1, EXCLUSIVE, held by job 1). When
// job 2 ends it starts in b on the whole node, and job 4 (1 CPU, b,
// submitted at 1100) waits for it; with a not EXCLUSIVE, job 4 starts
// beside it.
func TestMainPassWholeNode(t *testing.T) {
	for _, tc := range []struct {
		excl  bool
		cores int
		job4  int64
	}{{true, 4, 2003}, {false, 2, 1100}} {
		pa := part("a", "n1")
		pa.Exclusive = tc.excl
		c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{pa, part("b", "n2")})
		jobs := []tjob{
			{id: 1, submit: 0, part: "a", cpus: 4, run: 5000, limit: 5000},
			{id: 2, submit: 0, part: "b", cpus: 3, run: 1000, limit: 1000},
			{id: 3, submit: 1, part: "b", plist: "b,a", cpus: 2, run: 1000, limit: 1000},
			{id: 4, submit: 1100, part: "b", cpus: 1, run: 100, limit: 100},
		}
		_, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, nil)
		if j := by[4]; j.Start != tc.job4 || by[3].Alloc.Cores() != tc.cores {
			t.Errorf("a EXCLUSIVE %v: job 3 on %d CPUs, job 4 started at %d; want %d CPUs and %d", tc.excl, by[3].Alloc.Cores(), j.Start, tc.cores, tc.job4)
		}
	}
}

// TestMainPassNodesLeft: before select_nodes, _schedule compares the
// nodes of the record's partition the pass has left (avail_node_bitmap,
// less the nodes of partitions blocked so far) with the job's min_nodes;
// fewer is Resources and blocks the partition with no selection made, so
// no whole_node either (the differential run exclusive-list2). Job 1
// holds n1 (a, EXCLUSIVE), job 2 3 CPUs of n2 (b); job 3 (8 CPUs in all)
// blocks all in every main pass, taking both nodes out, so job 4 (-p b,a)
// never reaches a selection in a: backfill starts it on 2 CPUs of n2 when
// job 2 ends, and job 5 (1 CPU, b) beside it.
func TestMainPassNodesLeft(t *testing.T) {
	pa := part("a", "n1")
	pa.Exclusive = true
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("all", "n1", "n2"), pa, part("b", "n2")})
	jobs := []tjob{
		{id: 1, submit: 0, part: "a", cpus: 1, run: 5000, limit: 5000},
		{id: 2, submit: 0, part: "b", cpus: 3, run: 1000, limit: 1000},
		{id: 3, submit: 1, part: "all", cpus: 8, run: 100, limit: 100},
		{id: 4, submit: 2, part: "b", plist: "b,a", cpus: 2, run: 1000, limit: 1000},
		{id: 5, submit: 1100, part: "b", cpus: 1, run: 100, limit: 100},
	}
	_, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, nil)
	if j := by[5]; by[4].Alloc.Cores() != 2 || j.Start != 1101 {
		t.Errorf("job 4 on %d CPUs, job 5 started at %d; want 2 CPUs and 1101 (with whole_node: 4 and 2005)", by[4].Alloc.Cores(), j.Start)
	}
}
