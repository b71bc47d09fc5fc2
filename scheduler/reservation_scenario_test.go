package scheduler

import (
	"testing"

	"fairsim/sim"
	"fairsim/workload"
)

// TestUserReservationBackfill: the slurm scheduler (main pass and
// backfill) with reservation chem holding n1 for user ann over
// [600, 3600). n1 and n2 have 4 cores; every job takes a whole node.
// The reservation's creation at 0 asks a pass at 0, the first.
//   - job 1 (bob, limit 1000): at 0, n1 would run it to 1000 > 600, so it
//     starts on n2, 0..1000;
//   - job 2 (ann, --reservation=chem) is held (Reservation) until 600 and
//     then starts on n1, not before (n2 is busy, but n1 is free at 150),
//     600..700;
//   - job 3 (bob, limit 200): 0 + 200 <= 600, it gets n1 at 0, 0..100;
//   - job 4 (bob, limit 550): at 100 n1 is free but 100 + 550 > 600, and
//     from 600 to 3600 it is chem's: the main pass at 100 leaves it (and
//     its partition) waiting, backfill plans it on n2 at 1000, and the
//     main pass at job 1's end starts it there;
//   - job 5 (bob, limit 400, run 50): 100 + 400 <= 600 fits n1 before the
//     reservation without delaying job 4 (n2 at 1000): backfill, polling
//     one second after the change at 100, starts it on n1, 101..151.
func TestUserReservationBackfill(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("p")})
	jobs, names := newJobs([]tjob{
		{id: 1, user: "bob", cpus: 4, run: 1000, limit: 1000},
		{id: 2, user: "ann", cpus: 4, run: 100, limit: 100},
		{id: 3, user: "bob", cpus: 4, run: 100, limit: 200},
		{id: 4, user: "bob", cpus: 4, run: 100, limit: 550},
		{id: 5, user: "bob", cpus: 4, run: 50, limit: 400},
	})
	jobs[1].Reservation = 1 + names.Reservations.ID("chem")
	ev := sim.SiteEvent{At: 0, Part: -1, ResvStart: 600, ResvEnd: 3600, Nodes: []int{0},
		Resv: &sim.Reservation{Name: "chem", Users: []string{"ann"}}, Reason: "reservation chem"}
	src := workload.NewSliceSource(jobs, names, workload.Header{MaxNodes: workload.Unset, MaxProcs: workload.Unset})
	r, err := sim.New(c, NewSlurm(DefaultParams()), nil, src, sim.Options{Events: []sim.SiteEvent{ev}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.CheckInvariants(r); err != nil {
		t.Fatal(err)
	}
	by := map[int64]*sim.Job{}
	for _, j := range r.Jobs {
		by[j.ID] = j
	}
	checkStarts(t, by, []want{{id: 1, start: 0}, {id: 2, start: 600}, {id: 3, start: 0}, {id: 4, start: 1000}, {id: 5, start: 101, by: sim.ByBackfill}, {id: 4, start: 1000, by: sim.ByMain}})
	for id, node := range map[int64]string{1: "n2", 2: "n1", 3: "n1", 4: "n2", 5: "n1"} {
		if j := by[id]; len(j.Alloc) != 1 || c.Nodes[j.Alloc[0].Node].Name != node {
			t.Errorf("job %d ran on %v, want %s", id, j.Alloc, node)
		}
	}
	if by[2].WaitReason != "Reservation" {
		t.Errorf("job 2 waited under %q, want Reservation", by[2].WaitReason)
	}
}
