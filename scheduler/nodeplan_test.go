package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fairsim/sim"
)

// These passes follow backfill.c _attempt_backfill: the node_space map of
// whole-node reservations (_add_reservation), each record tried on the
// nodes free of reservations over its run, with cons_tres's will-run test
// (job_test.c _will_run_test) placing it. bf_resolution is 60, now 100:
// the map starts at 60.

// A fragmented single-node reservation. n1 has 1 free core until job 1's
// limit at 1000, n2 has 2 free until 2000.
//
//	job 2 (4 CPUs on one node): the will-run test frees n1 at 1000:
//	  expected 1000, n1 reserved over [960, floor(2000/60)·60 = 1980).
//	job 3 (1 CPU, limit 5000): n1 is reserved during its run, so it is
//	  tried on n2 alone and starts there. Counting cores, n1's single free
//	  core (the best fit) would have taken it, and job 2 could not have
//	  started before 2000 (6 free cores at 1000, 4 reserved: room for 1).
func TestBackfillFragmentedReservation(t *testing.T) {
	f := newFake(t, 100, []sim.NodeSpec{nodes("n", 2, 4, 4000)}, []sim.PartitionSpec{part("p")})
	f.run(1, 0, 1000, "p", "n1:3")
	f.run(9, 0, 2000, "p", "n2:2")
	j := f.pend(2, 4, 1000, 300, "p")
	j.Req.Nodes = 1
	f.pend(3, 1, 5000, 200, "p")
	f.pass(planner(DefaultParams()), sim.PassBackfill, "expect 2 1000", "start 3 p n2:1 backfill")
}

// A reservation holds whole nodes: job 2 needs 2 of n1's 4 cores from
// 1000 (job 1's 3 cores end then), and reserves n1 over [960, 1980).
// Job 3 (1 CPU, limit 5000) would fit beside it on n1 (4 - 2 = 2 cores
// left at 1000) and on its free core now, but Slurm keeps the node:
// job 3 waits for the reservation's end, 1980, when n1 still has a free
// core for it.
func TestBackfillWholeNodeReservation(t *testing.T) {
	f := newFake(t, 100, []sim.NodeSpec{nodes("n", 1, 4, 4000)}, []sim.PartitionSpec{part("p")})
	f.run(1, 0, 1000, "p", "n1:3")
	f.pend(2, 2, 1000, 300, "p")
	f.pend(3, 1, 5000, 200, "p")
	f.pass(planner(DefaultParams()), sim.PassBackfill, "expect 2 1000", "expect 3 1980")
}

// The first slot of a reservation is not negative. n1 is full until 1000,
// n2 full until 5000, n3 has 1 free core. Job 2 (4 CPUs) gets n1 at 1000,
// reserved from floor(1000/60)·60 = 960. Job 3 (1 CPU, limit 880) runs
// [100, 980]: it meets n1's reservation, not n3, and starts on n3 at
// once. The core profile credited job 1's release only from the slot
// after 960, so that slot held 1 - 4 = -3 cores and job 3 waited.
func TestBackfillFirstSlotNotNegative(t *testing.T) {
	firstSlot(t, 1000).pass(planner(DefaultParams()), sim.PassBackfill, "expect 2 1000", "start 3 p n3:1 backfill")
}

// firstSlot is TestBackfillFirstSlotNotNegative's pass, job 2's limit
// limit2.
func firstSlot(t *testing.T, limit2 int64) *fake {
	f := newFake(t, 100, []sim.NodeSpec{nodes("n", 3, 4, 4000)}, []sim.PartitionSpec{part("p")})
	f.run(1, 0, 1000, "p", "n1:4")
	f.run(8, 0, 5000, "p", "n2:4")
	f.run(9, 0, 5000, "p", "n3:3")
	f.pend(2, 4, limit2, 300, "p")
	f.pend(3, 1, 880, 200, "p")
	return f
}

// Trace reports a cycle as slurmctld's backfill log does, on
// TestBackfillFirstSlotNotNegative's pass with job 2's limit 300: the
// cycle's beginning, job 2 expected at 1000 on n1 with its nodes held
// until 1300 rounded down to bf_resolution (1260), job 3 started on n3.
func TestBackfillTrace(t *testing.T) {
	f := firstSlot(t, 300)
	s := NewSlurm(DefaultParams())
	var got []string
	s.Trace = func(e BackfillEvent) {
		id := int64(0)
		if e.Job != nil {
			id = e.Job.ID
		}
		got = append(got, fmt.Sprintf("%d at %d: job %d [%d, %d) %v", e.Kind, e.Now, id, e.Start, e.End, e.Alloc))
	}
	f.pass(s, sim.PassBackfill, "expect 2 1000", "start 3 p n3:1 backfill")
	want := []string{
		fmt.Sprintf("%d at 100: job 0 [0, 0) []", CycleBegins),
		fmt.Sprintf("%d at 100: job 2 [1000, 1260) [{0 4 4000 0}]", Reserved),
		fmt.Sprintf("%d at 100: job 3 [100, 0) [{2 1 1000 0}]", Started),
	}
	if !slices.Equal(got, want) {
		t.Errorf("trace:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// A reservation past the limits of every record that could start now
// still shapes the reservations after it, and so the starts. n1 has 1
// free core until job 8 ends at 500, n2 none until job 9 ends at 800.
//
//	job 2 (8 CPUs, limit 1000): both nodes are idle at 800: expected 800,
//	  n1 and n2 reserved over [780, 1800).
//	job 3 (2 CPUs, limit 1000): every run before 1800 meets that
//	  reservation: expected 1800.
//	job 4 (1 CPU, limit 500): its run [100, 600] meets no reservation: it
//	  starts on n1's free core. Leaving job 2's reservation out, as past
//	  job 4's limit, put job 3 on n1 at 500 and kept job 4 waiting.
func TestBackfillReservationPastLimitsShapesLaterOnes(t *testing.T) {
	for _, s := range []*Slurm{planner(DefaultParams()), NewSlurm(DefaultParams())} {
		f := newFake(t, 100, []sim.NodeSpec{nodes("n", 2, 4, 4000)}, []sim.PartitionSpec{part("p")})
		f.run(8, 0, 500, "p", "n1:3")
		f.run(9, 0, 800, "p", "n2:4")
		f.pend(2, 8, 1000, 300, "p")
		f.pend(3, 2, 1000, 200, "p")
		f.pend(4, 1, 500, 100, "p")
		f.pass(s, sim.PassBackfill, "expect 2 800", "expect 3 1800", "start 4 p n1:1 backfill")
	}
}

// An exclusive multi-node top job. Partition p is OverSubscribe=EXCLUSIVE
// over a1 (4 cores, idle), b1 (8 cores) and a2 (4 cores), both busy until
// 1000, and a3 (4 cores) busy until 5000.
//
//	job 2 (12 CPUs on 3 nodes): a1, b1 and a2 are idle at 1000: expected
//	  1000, the three reserved over [960, 1980).
//	job 3 (1 CPU, limit 5000, a whole node): a1 is reserved; a3 alone is
//	  left over its run, idle only at 5000, past the next record (1980);
//	  from 1980 every node is free of reservations and a1 is idle:
//	  expected 1980. Counting cores, a1 (4 cores) fitted beside job 2's 12
//	  of the 16 free at 1000, and job 2 then waited for a3 at 5000.
func TestBackfillExclusiveMultiNode(t *testing.T) {
	p := part("p")
	p.Exclusive = true
	f := newFake(t, 100, []sim.NodeSpec{nodes("a", 3, 4, 4000), nodes("b", 1, 8, 8000)}, []sim.PartitionSpec{p})
	f.run(1, 0, 1000, "p", "b1:8")
	f.run(8, 0, 1000, "p", "a2:4")
	f.run(9, 0, 5000, "p", "a3:4")
	j := f.pend(2, 12, 1000, 300, "p")
	j.Req.Nodes = 3
	f.pend(3, 1, 5000, 200, "p")
	f.pass(planner(DefaultParams()), sim.PassBackfill, "expect 2 1000", "expect 3 1980")
}

// bf_max_job_test counts the records that reach the will-run test
// (backfill.c bf_last_depth_try): records over bf_max_job_user and
// limit-held ones are skipped for free. n1 is full until 1000, n2 has one
// free core. 600 jobs of user 1 (8 CPUs) wait; user 2's job (1 CPU, limit
// 300) comes last. With bf_max_job_user=10 only 10 of user 1's records are
// tested (none can start: both nodes are busy). The first is expected at
// 1000 and reserves both nodes over [960, 1980) (1000 and 2000 rounded
// down to bf_resolution), each next one from the last one's end rounded
// down: 1980, 2940, ... 9660. Those reservations lie past user 2's run,
// [100, 400]; user 2's is the 11th test and starts. (The queue could fill
// the 500-record map, so every reservation is made as Slurm makes it.)
// Counting queue positions, the pass ended after 500 records and user 2
// waited. Likewise with 600 held records and bf_max_job_test=5.
func TestBackfillMaxJobTestCounting(t *testing.T) {
	for _, tc := range []struct {
		name string
		prm  func(*Params)
		held bool
	}{
		{"bf_max_job_user", func(p *Params) { p.BfMaxJobUser = 10 }, false},
		{"limit-held", func(p *Params) { p.BfMaxJobTest = 5 }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, 100, []sim.NodeSpec{nodes("n", 2, 4, 4000)}, []sim.PartitionSpec{part("p")})
			f.run(1, 0, 1000, "p", "n1:4")
			f.run(9, 0, 1000, "p", "n2:3")
			var want []string
			for id := int64(10); id < 610; id++ {
				j := f.pend(id, 8, 1000, uint32(10000-id), "p")
				j.User = 1
				switch {
				case tc.held:
					f.hold[id] = "AssocGrpCpuLimit"
					want = append(want, "pend "+itoa(id)+" AssocGrpCpuLimit")
				case id == 10:
					want = append(want, "expect 10 1000")
				case id < 20:
					want = append(want, "expect "+itoa(id)+" "+itoa(1980+960*(id-11)))
				}
			}
			j := f.pend(700, 1, 300, 1, "p")
			j.User = 2
			prm := DefaultParams()
			tc.prm(&prm)
			f.pass(planner(prm), sim.PassBackfill, append(want, "start 700 p n2:1 backfill")...)
		})
	}
}

func itoa(n int64) string {
	b := []byte{}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// bf_max_job_array_resv: a job array gets at most that many reservations
// a pass (backfill.c _job_runnable_now, and the next_task loop of
// _attempt_backfill). n1 is full until 1000, n2 has 1 free core until
// 2000. Tasks 2..5 of array 50 ask 4 CPUs (limit 1000); job 7 (1 CPU,
// limit 5000) comes last.
//
//	task 2: n1 at 1000; reserved over [960, 1980).
//	task 3: over [100, 1100] only n2 is free of reservations, full until
//	  2000, past the next record (1980); from 1980 n1 is free again:
//	  expected 1980, n1 reserved over [1980, 2940).
//	With bf_max_job_array_resv=2, tasks 4 and 5 are skipped, and job 7
//	  starts on n2 (not reserved). Without arrays, task 4 reserves n2 from
//	  1980 (tried from 1980 as task 3 was, on n2 alone as n1 is reserved
//	  until 2940, at n2's release, 2000) over [1980, 3000), task 5 n1
//	  from 2940, and job 7 finds no node free of reservations over
//	  [100, 5100]; n2's reservation ends at 3000: expected 3000.
//
// The tasks carry the array as a trace gives it (ArrayJobID, from sacct's
// JobID 50_2 ... 50_5); Slurm.ArrayOf, when set, overrides it.
func TestBackfillArrayReservations(t *testing.T) {
	setup := func(array int64) *fake {
		f := newFake(t, 100, []sim.NodeSpec{nodes("n", 2, 4, 4000)}, []sim.PartitionSpec{part("p")})
		f.run(1, 0, 1000, "p", "n1:4")
		f.run(9, 0, 2000, "p", "n2:3")
		for id := int64(2); id <= 5; id++ {
			f.pend(id, 4, 1000, 300, "p").ArrayJobID = array
		}
		f.pend(7, 1, 5000, 200, "p")
		return f
	}
	prm := DefaultParams()
	prm.BfMaxJobArrayResv = 2
	setup(50).pass(planner(prm), sim.PassBackfill, "expect 2 1000", "expect 3 1980", "start 7 p n2:1 backfill")
	setup(0).pass(planner(prm), sim.PassBackfill, "expect 2 1000", "expect 3 1980", "expect 4 2000", "expect 5 2940", "expect 7 3000")
	s := planner(prm)
	s.ArrayOf = func(j *sim.Job) int64 { return 0 }
	setup(50).pass(s, sim.PassBackfill, "expect 2 1000", "expect 3 1980", "expect 4 2000", "expect 5 2940", "expect 7 3000")
}
