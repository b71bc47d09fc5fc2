package policy

import "testing"

func qosSet(t *testing.T, qs ...QOS) *QOSSet {
	t.Helper()
	s, err := NewQOSSet(qs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func qosWith(name string, edit func(*QOS)) QOS {
	q := NewQOS(name)
	edit(&q)
	return q
}

// accruing lists the pending jobs that accrue age, by ID.
func accruing(tr *AccrueTracker, pending []AccrueJob) []int {
	var ids []int
	for _, j := range pending {
		if tr.AccrueTime(j.ID) != 0 {
			ids = append(ids, j.ID)
		}
	}
	return ids
}

func remove(pending []AccrueJob, id int) []AccrueJob {
	for i := range pending {
		if pending[i].ID == id {
			return append(pending[:i], pending[i+1:]...)
		}
	}
	return pending
}

// One user submits 100 jobs under a QOS with MaxJobsAccruePU=4: exactly 4
// accrue age at any time, and when one leaves the queue the oldest waiting
// job starts accruing at that moment.
func TestAccrueMaxJobsAccruePU(t *testing.T) {
	qos := qosSet(t, qosWith("normal", func(q *QOS) { q.MaxJobsAccruePU = 4 }))
	tr := NewAccrueTracker(AccrueLimits, qos)
	var pending []AccrueJob
	for i := 0; i < 100; i++ {
		pending = append(pending, AccrueJob{ID: i, User: 0, Account: 0, QOS: 0, Submit: 1000 + int64(i), Begin: 1000 + int64(i)})
	}
	// The age factor shows the same thing the accrue times do.
	p := DefaultParams()
	p.Age = 1000
	n := &Normalizers{Nodes: 1, CPUs: 1}

	now := int64(2000)
	tr.Update(now, pending)
	got := accruing(tr, pending)
	if len(got) != 4 || got[0] != 0 || got[3] != 3 {
		t.Fatalf("after the first pass accruing %v, want [0 1 2 3]", got)
	}
	for _, id := range got {
		// Room was found at 2000, so age counts from then, not from begin.
		if tr.AccrueTime(id) != 2000 {
			t.Errorf("job %d accrues from %d, want 2000", id, tr.AccrueTime(id))
		}
	}
	// Another pass changes nothing.
	tr.Update(2100, pending)
	if got := accruing(tr, pending); len(got) != 4 || tr.AccrueTime(4) != 0 {
		t.Fatalf("second pass: accruing %v", got)
	}

	// A waiting job that is cancelled frees nothing.
	tr.Release(50)
	pending = remove(pending, 50)
	tr.Update(2200, pending)
	if got := accruing(tr, pending); len(got) != 4 {
		t.Fatalf("after cancelling a waiting job: accruing %v", got)
	}

	// Start accruing jobs one by one, newest accruer first then oldest,
	// and check the invariant after every queue build.
	next := 4 // the oldest job not yet accruing
	for step := 0; len(pending) > 0; step++ {
		now += 600
		acc := accruing(tr, pending)
		leaver := acc[0]
		if step%2 == 1 {
			leaver = acc[len(acc)-1]
		}
		tr.Release(leaver)
		tr.Release(leaver) // twice is harmless
		pending = remove(pending, leaver)
		tr.Update(now, pending)

		acc = accruing(tr, pending)
		want := 4
		if len(pending) < 4 {
			want = len(pending)
		}
		if len(acc) != want || tr.Accruing() != want {
			t.Fatalf("step %d: %d pending, accruing %v (counter %d), want %d", step, len(pending), acc, tr.Accruing(), want)
		}
		if next == 50 {
			next++
		}
		if next < 100 {
			if tr.AccrueTime(next) != now {
				t.Fatalf("step %d: job %d should accrue from %d, has %d", step, next, now, tr.AccrueTime(next))
			}
			if next+1 < 100 && next+1 != 50 && tr.AccrueTime(next+1) != 0 {
				t.Fatalf("step %d: job %d accrues out of order", step, next+1)
			}
			next++
		}
		for _, j := range pending {
			_, f := p.Compute(n, &Job{AccrueTime: tr.AccrueTime(j.ID)}, now+60)
			if (f.Age != 0) != (tr.AccrueTime(j.ID) != 0) {
				t.Fatalf("step %d: job %d age term %v with accrue time %d", step, j.ID, f.Age, tr.AccrueTime(j.ID))
			}
		}
		if grp, pa, pu := tr.Counts(0, 0, 0); grp != want || pa != want || pu != want {
			t.Fatalf("step %d: counters %d %d %d, want %d", step, grp, pa, pu, want)
		}
	}
}

func TestAccrueGrpJobsAccrue(t *testing.T) {
	qos := qosSet(t, qosWith("normal", func(q *QOS) { q.GrpJobsAccrue = 3 }))
	tr := NewAccrueTracker(AccrueLimits, qos)
	// Two users, jobs created alternately: u0 j0, u1 j1, u0 j2, u1 j3, …
	var pending []AccrueJob
	for i := 0; i < 8; i++ {
		pending = append(pending, AccrueJob{ID: i, User: i % 2, Account: i % 2, QOS: 0, Submit: 10, Begin: 10})
	}
	tr.Update(100, pending)
	if got := accruing(tr, pending); len(got) != 3 || got[2] != 2 {
		t.Fatalf("accruing %v, want [0 1 2]", got)
	}
	tr.Release(1)
	pending = remove(pending, 1)
	tr.Update(200, pending)
	if got := accruing(tr, pending); len(got) != 3 || got[2] != 3 || tr.AccrueTime(3) != 200 {
		t.Fatalf("after job 1 left: accruing %v (job 3 from %d), want [0 2 3] from 200", got, tr.AccrueTime(3))
	}
	if grp, pa, pu := tr.Counts(0, 0, 1); grp != 3 || pa != 2 || pu != 1 {
		t.Errorf("counters grp %d, account 0 %d, user 1 %d; want 3 2 1", grp, pa, pu)
	}
}

func TestAccrueMaxJobsAccruePA(t *testing.T) {
	qos := qosSet(t, qosWith("normal", func(q *QOS) { q.MaxJobsAccruePA = 2 }))
	tr := NewAccrueTracker(AccrueLimits, qos)
	// Account 0 holds users 0 and 1; account 1 holds user 2.
	users := []int{0, 1, 2, 0, 2, 2}
	accts := []int{0, 0, 1, 0, 1, 1}
	var pending []AccrueJob
	for i := range users {
		pending = append(pending, AccrueJob{ID: i, User: users[i], Account: accts[i], QOS: 0, Submit: 5, Begin: 5})
	}
	tr.Update(50, pending)
	// Account 0: jobs 0 (u0) and 1 (u1) fill it, 3 waits. Account 1: 2 and 4, 5 waits.
	got := accruing(tr, pending)
	if want := []int{0, 1, 2, 4}; !equalInts(got, want) {
		t.Fatalf("accruing %v, want %v", got, want)
	}
	tr.Release(1) // user 1 leaves: the slot is the account's, user 0's job 3 takes it
	pending = remove(pending, 1)
	tr.Update(60, pending)
	if got := accruing(tr, pending); !equalInts(got, []int{0, 2, 3, 4}) || tr.AccrueTime(3) != 60 {
		t.Fatalf("after job 1 left: accruing %v, job 3 from %d", got, tr.AccrueTime(3))
	}
	if _, pa, _ := tr.Counts(0, 1, 2); pa != 2 {
		t.Errorf("account 1 count %d, want 2", pa)
	}
}

// acct_policy.c _get_accrue_limits offers the QOS's GrpJobsAccrue,
// MaxJobsAccruePA and MaxJobsAccruePU in turn to _get_accrue_create_cnt,
// which skips an unset cap and any cap not smaller than the one it keeps:
// the smallest cap decides, its room measured by its own count.
func TestAccrueSmallestCapWins(t *testing.T) {
	tests := []struct {
		name string
		edit func(*QOS)
		want int
	}{
		{"Grp 10 and PU 2: one user's 8 jobs, 2 accrue", func(q *QOS) { q.GrpJobsAccrue, q.MaxJobsAccruePU = 10, 2 }, 2},
		{"PA 5 and PU 1", func(q *QOS) { q.MaxJobsAccruePA, q.MaxJobsAccruePU = 5, 1 }, 1},
		{"PU 6 and Grp 3", func(q *QOS) { q.GrpJobsAccrue, q.MaxJobsAccruePU = 3, 6 }, 3},
		{"Grp 0 blocks all", func(q *QOS) { q.GrpJobsAccrue, q.MaxJobsAccruePU = 0, 8 }, 0},
		{"PU 0 blocks all under Grp 5", func(q *QOS) { q.GrpJobsAccrue, q.MaxJobsAccruePU = 5, 0 }, 0},
		{"PU alone", func(q *QOS) { q.MaxJobsAccruePU = 7 }, 7},
		{"no cap", func(q *QOS) {}, 8},
	}
	for _, tt := range tests {
		tr := NewAccrueTracker(AccrueLimits, qosSet(t, qosWith("q", tt.edit)))
		var pending []AccrueJob
		for i := 0; i < 8; i++ {
			pending = append(pending, AccrueJob{ID: i, QOS: 0, Submit: 1, Begin: 1})
		}
		tr.Update(100, pending)
		if got := len(accruing(tr, pending)); got != tt.want {
			t.Errorf("%s: %d accrue, want %d", tt.name, got, tt.want)
		}
	}
}

// The room is the smallest cap's own: with GrpJobsAccrue=3 and
// MaxJobsAccruePU=2, user 0 accrues 2 jobs and user 1 two more, leaving
// the QOS count at 4, above GrpJobsAccrue, since _get_accrue_create_cnt
// keeps only the smaller cap and measures room by its count.
func TestAccrueSmallerCapIgnoresFullerGrp(t *testing.T) {
	tr := NewAccrueTracker(AccrueLimits, qosSet(t, qosWith("q", func(q *QOS) { q.GrpJobsAccrue, q.MaxJobsAccruePU = 3, 2 })))
	var pending []AccrueJob
	for i := 0; i < 4; i++ {
		pending = append(pending, AccrueJob{ID: i, User: 0, QOS: 0, Submit: 1, Begin: 1})
	}
	for i := 4; i < 8; i++ {
		pending = append(pending, AccrueJob{ID: i, User: 1, QOS: 0, Submit: 1, Begin: 1})
	}
	tr.Update(100, pending)
	got := accruing(tr, pending)
	want := []int{0, 1, 4, 5}
	if len(got) != len(want) {
		t.Fatalf("accruing %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("accruing %v, want %v", got, want)
		}
	}
	if grp, _, _ := tr.Counts(0, 0, 0); grp != 4 {
		t.Errorf("QOS count %d, want 4", grp)
	}
}

func TestAccrueEligibility(t *testing.T) {
	qos := qosSet(t, NewQOS("normal"), qosWith("capped", func(q *QOS) { q.MaxJobsAccruePU = 1 }))
	tr := NewAccrueTracker(AccrueLimits, qos)
	pending := []AccrueJob{
		{ID: 0, QOS: 0, Submit: 10, Begin: 10},             // no cap: accrues from begin
		{ID: 1, QOS: 0, Submit: 10, Begin: 10, Held: true}, // held: no
		{ID: 2, QOS: 0, Submit: 10, Begin: 10, Dependent: true},
		{ID: 3, QOS: 0, Submit: 10, Begin: 500},         // begin in the future
		{ID: 4, QOS: 0, Submit: 10},                     // not yet eligible
		{ID: 5, QOS: -1, Submit: 10, Begin: 20},         // no QOS: no cap
		{ID: 6, QOS: 1, Submit: 10, Begin: 30},          // cap with room: from now
		{ID: 7, QOS: 1, Submit: 10, Begin: 30, User: 1}, // other user: own slot
		{ID: -3, QOS: 0, Submit: 10, Begin: 10},         // invalid IDs are ignored
		{ID: MaxAccrueJobID + 1, QOS: 0, Submit: 10, Begin: 10},
	}
	tr.Update(100, pending)
	want := map[int]int64{0: 10, 1: 0, 2: 0, 3: 0, 4: 0, 5: 20, 6: 100, 7: 100}
	for id, w := range want {
		if got := tr.AccrueTime(id); got != w {
			t.Errorf("job %d accrue %d, want %d", id, got, w)
		}
	}
	if tr.AccrueTime(-3) != 0 || tr.AccrueTime(MaxAccrueJobID+1) != 0 {
		t.Error("invalid IDs must not accrue")
	}
	// Later: the hold is released, the begin time passes; accrue times
	// follow the no-cap rule (begin), not the pass time.
	pending[1].Held = false
	pending[4].Begin = 550
	tr.Update(600, pending)
	for id, w := range map[int]int64{1: 10, 3: 500, 4: 550} {
		if got := tr.AccrueTime(id); got != w {
			t.Errorf("later pass: job %d accrue %d, want %d", id, got, w)
		}
	}
	// Reset (a hold, a requeue) clears the time and frees the slot; the
	// job accrues afresh from a later pass.
	tr.Reset(6)
	if tr.AccrueTime(6) != 0 {
		t.Error("Reset kept the accrue time")
	}
	if _, _, pu := tr.Counts(1, 0, 0); pu != 0 {
		t.Errorf("Reset kept the slot: user count %d", pu)
	}
	tr.Update(700, pending)
	if tr.AccrueTime(6) != 700 {
		t.Errorf("after Reset job 6 accrues from %d, want 700", tr.AccrueTime(6))
	}
}

func TestAccrueModes(t *testing.T) {
	qos := qosSet(t, qosWith("normal", func(q *QOS) { q.MaxJobsAccruePU = 1 }))
	pending := []AccrueJob{
		{ID: 0, QOS: 0, Submit: 10, Begin: 20},
		{ID: 1, QOS: 0, Submit: 11, Begin: 900, Held: true},
		{ID: 2, QOS: 0, Submit: 12, Dependent: true},
	}
	// ACCRUE_ALWAYS: submit time, caps and holds ignored.
	tr := NewAccrueTracker(AccrueModeFor(FlagAccrueAlways|FlagFairTree, true), qos)
	tr.Update(100, pending)
	for id, w := range map[int]int64{0: 10, 1: 11, 2: 12} {
		if got := tr.AccrueTime(id); got != w {
			t.Errorf("ACCRUE_ALWAYS: job %d accrue %d, want %d", id, got, w)
		}
	}
	// Without "limits": begin time once set, even if held or in the future.
	tr = NewAccrueTracker(AccrueModeFor(FlagFairTree, false), qos)
	tr.Update(100, pending)
	for id, w := range map[int]int64{0: 20, 1: 900, 2: 0} {
		if got := tr.AccrueTime(id); got != w {
			t.Errorf("no limits: job %d accrue %d, want %d", id, got, w)
		}
	}
	if tr.Accruing() != 0 {
		t.Errorf("no limits: %d slots counted, want 0", tr.Accruing())
	}
	if AccrueModeFor(FlagFairTree, true) != AccrueLimits {
		t.Error("limits mode not chosen")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func BenchmarkAccrueUpdate100k(b *testing.B) {
	qos, _ := NewQOSSet([]QOS{qosWith("normal", func(q *QOS) { q.MaxJobsAccruePU = 4 })})
	tr := NewAccrueTracker(AccrueLimits, qos)
	pending := make([]AccrueJob, 100_000)
	for i := range pending {
		pending[i] = AccrueJob{ID: i, User: i % 500, Account: i % 50, QOS: 0, Submit: 1, Begin: 1}
	}
	tr.Update(2, pending)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr.Update(int64(3+i), pending)
	}
}

// Association accrue caps (_get_accrue_limits): consulted only when the
// job's QOS sets no cap; the job's association offers GrpJobsAccrue and
// MaxJobsAccrue, its ancestors GrpJobsAccrue, and the first association
// with a cap decides, counted against the accruing jobs at and below it
// (_add_accrue_time_internal adds to every association up the chain).
func TestAccrueAssocCaps(t *testing.T) {
	// root(0) <- acct(1) <- u1(2), u2(3); acct GrpJobsAccrue=3, u1's
	// MaxJobsAccrue=1 (passed down to u1 only).
	parent := []int{-1, 0, 1, 1}
	grp := []int{Unset, 3, Unset, Unset}
	most := []int{Unset, Unset, 1, Unset}
	qs := qosSet(t, NewQOS("normal"))
	tr := NewAccrueTracker(AccrueLimits, qs)
	tr.SetAssocCaps(parent, grp, most)
	var jobs []AccrueJob
	// u1's 3 jobs then u2's 3, all eligible at 10, visited at 100.
	for i := 0; i < 6; i++ {
		a := 2
		if i >= 3 {
			a = 3
		}
		jobs = append(jobs, AccrueJob{ID: i, User: a, Account: 1, QOS: 0, Submit: 10, Begin: 10, Assoc: a})
	}
	tr.Update(100, jobs)
	// u1: its own association offers MaxJobsAccrue=1, found before the
	// account's: job 0 accrues from 100 (a cap with room), jobs 1, 2 wait
	// (1 >= 1). u2: no cap of its own, acct
	// GrpJobsAccrue=3 with 1 accruing: jobs 3, 4 accrue (1, 2 < 3), job 5
	// waits (3 >= 3).
	want := []int64{100, 0, 0, 100, 100, 0}
	for i, w := range want {
		if got := tr.AccrueTime(i); got != w {
			t.Errorf("job %d accrues from %d, want %d", i, got, w)
		}
	}
	if tr.AssocAccruing(1) != 3 || tr.AssocAccruing(0) != 3 || tr.AssocAccruing(2) != 1 {
		t.Errorf("accruing acct %d root %d u1 %d, want 3 3 1", tr.AssocAccruing(1), tr.AssocAccruing(0), tr.AssocAccruing(2))
	}
	// A QOS cap wins over the associations': with GrpJobsAccrue=10 on the
	// QOS, u1's MaxJobsAccrue=1 is not consulted.
	qs2 := qosSet(t, func() QOS { q := NewQOS("normal"); q.GrpJobsAccrue = 10; return q }())
	tr2 := NewAccrueTracker(AccrueLimits, qs2)
	tr2.SetAssocCaps(parent, grp, most)
	tr2.Update(100, jobs[:3])
	for i := 0; i < 3; i++ {
		if tr2.AccrueTime(i) != 100 {
			t.Errorf("QOS cap: job %d accrues from %d, want 100", i, tr2.AccrueTime(i))
		}
	}
	tr.Release(0)
	if tr.AssocAccruing(1) != 2 || tr.AssocAccruing(2) != 0 {
		t.Errorf("after release acct %d u1 %d, want 2 0", tr.AssocAccruing(1), tr.AssocAccruing(2))
	}
}
