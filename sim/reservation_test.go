package sim

import "testing"

// holdingSched starts, at each pass, every pending job that the view does
// not hold and that fits now (greedy), giving held ones their reason, as
// the Slurm scheduler's passes do.
func holdingSched() *testSched {
	s := &testSched{onEnd: true}
	s.pass = func(v *View, p *Plan, kind PassKind) {
		for _, j := range v.Pending() {
			if why := v.Hold(j); why != "" {
				p.Pend(j, why)
				continue
			}
			s.tryStart(v, p, j)
		}
	}
	return s
}

func resvEv(c *Cluster, t *testing.T, at, start, end int64, r *Reservation, names ...string) SiteEvent {
	e := SiteEvent{At: at, Part: -1, ResvStart: start, ResvEnd: end, Resv: r, Reason: "reservation " + r.Name}
	for _, n := range names {
		e.Nodes = append(e.Nodes, node(t, c, n))
	}
	return e
}

// TestUserReservation: reservation chem holds n1 for user ann over
// [100, 1100). On n1 and n2 (4 cores each, n1 first):
//   - job 1 (bob, 4 cores, limit 200) at 0 would run on n1 to 200 > 100:
//     it goes to n2, 0..50;
//   - job 2 (bob, limit 60) ends by 60 < 100: n1 takes it, 0..50;
//   - job 3 (ann, --reservation=chem, 2 cores) waits for the start
//     (reason Reservation) though n2 is free at 50, then runs on n1
//     100..200, and only there;
//   - job 4 (bob, limit 100, at 10): n1 frees at 50 but 50+100 > 100; it
//     takes n2 when job 1 ends, 50..150;
//   - job 5 (ann without the reservation, 2 cores, at 120): n1 has 2 free
//     cores but is reserved; it waits for n2, 150..160;
//   - job 6 (carl asks chem) is refused at submit, access denied; job 7
//     asks a reservation the events lack: invalid;
//   - job 8 asks for chem after its end, 1200: it stays pending
//     (job_test_resv holds it), reason Reservation.
func TestUserReservation(t *testing.T) {
	c := twoNodes(t)
	chem := &Reservation{Name: "chem", Users: []string{"ann"}}
	r, by := simulate(t, c, holdingSched(), nil, []tj{
		{id: 1, user: "bob", cpus: 4, run: 50, limit: 200},
		{id: 2, user: "bob", cpus: 4, run: 50, limit: 60},
		{id: 3, user: "ann", resv: "chem", cpus: 2, run: 100, limit: 300},
		{id: 4, submit: 10, user: "bob", cpus: 4, run: 100, limit: 100},
		{id: 5, submit: 120, user: "ann", cpus: 2, run: 10, limit: 10},
		{id: 6, submit: 130, user: "carl", resv: "chem", cpus: 1, run: 10, limit: 10},
		{id: 7, submit: 130, user: "ann", resv: "nope", cpus: 1, run: 10, limit: 10},
		{id: 8, submit: 1200, user: "ann", resv: "chem", cpus: 1, run: 10, limit: 10},
	}, Options{Events: []SiteEvent{resvEv(c, t, 0, 100, 1100, chem, "n1")}})
	checkJobs(t, c, by, []want{
		{id: 1, state: Completed, start: 0, end: 50, node: "n2"},
		{id: 2, state: Completed, start: 0, end: 50, node: "n1"},
		{id: 3, state: Completed, start: 100, end: 200, node: "n1"},
		{id: 4, state: Completed, start: 50, end: 150, node: "n2"},
		{id: 5, state: Completed, start: 150, end: 160, node: "n2"},
		{id: 6, state: Rejected, start: -1, end: 130},
		{id: 7, state: Rejected, start: -1, end: 130},
		{id: 8, state: Pending, start: -1, end: -1},
	})
	if by[3].WaitReason != "Reservation" || by[8].WaitReason != "Reservation" {
		t.Errorf("jobs 3, 8 waited under %q, %q, want Reservation", by[3].WaitReason, by[8].WaitReason)
	}
	if by[6].Reason != "Access denied to requested reservation" || by[7].Reason != "Requested reservation is invalid" {
		t.Errorf("refusals %q, %q", by[6].Reason, by[7].Reason)
	}
	if r.Rejected["reservation"] != 2 {
		t.Errorf("rejected %v, want 2 for reservation", r.Rejected)
	}
}

// TestReservationNodeCnt: a NodeCnt=1 reservation created at 20, while job
// 1 runs on n1 (0..500), takes the first idle node, n2; job 2 (ann, asking
// for it) starts there at its start, 100, to 110.
func TestReservationNodeCnt(t *testing.T) {
	c := twoNodes(t)
	chem := &Reservation{Name: "chem", Accounts: []string{"x"}, Users: []string{"ann"}, NodeCnt: 1}
	_, by := simulate(t, c, holdingSched(), nil, []tj{
		{id: 1, user: "bob", cpus: 4, run: 500, limit: 600},
		{id: 2, user: "ann", resv: "chem", cpus: 4, run: 10, limit: 100},
	}, Options{Events: []SiteEvent{resvEv(c, t, 20, 100, 1100, chem)}})
	checkJobs(t, c, by, []want{
		{id: 1, state: Completed, start: 0, end: 500, node: "n1"},
		{id: 2, state: Completed, start: 100, end: 110, node: "n2"},
	})
}

// TestReservationNodeCntAfterMaint: n2 is in a MAINT reservation over
// [10, 60); at 20, while job 1 runs on n1 (0..500) and n2 is in
// maintenance, a NodeCnt=1 reservation for [100, 1100) is created. The
// maintenance is over by its start, so n2 is free of reservations over
// its span and idle: it is picked, and job 2 (ann, asking for it) runs
// there at 100. Looking at when maintenance starts, not at its span,
// left only n1 (job 2 then waited for it until 500); with n1 busy past
// the span too, the run failed ("only 0 nodes free of other
// reservations").
func TestReservationNodeCntAfterMaint(t *testing.T) {
	c := twoNodes(t)
	chem := &Reservation{Name: "chem", Accounts: []string{"x"}, Users: []string{"ann"}, NodeCnt: 1}
	maint := SiteEvent{At: 0, Part: -1, ResvStart: 10, ResvEnd: 60, Nodes: []int{node(t, c, "n2")}, Reason: "reservation maint"}
	_, by := simulate(t, c, holdingSched(), nil, []tj{
		{id: 1, user: "bob", cpus: 4, run: 500, limit: 600},
		{id: 2, user: "ann", resv: "chem", cpus: 4, run: 10, limit: 100},
	}, Options{Events: []SiteEvent{maint, resvEv(c, t, 20, 100, 1100, chem)}})
	checkJobs(t, c, by, []want{
		{id: 1, state: Completed, start: 0, end: 500, node: "n1"},
		{id: 2, state: Completed, start: 100, end: 110, node: "n2"},
	})
}
