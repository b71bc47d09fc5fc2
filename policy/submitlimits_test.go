package policy

import "testing"

// Submit limits, acct_policy.c _qos_policy_validate and the association
// loop of _acct_policy_validate: a job is refused when the jobs already
// pending or running plus itself exceed the cap (used + job_cnt > limit),
// whatever the QOS flags.
func TestSubmitRefusalCounts(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*QOS)
		other LimitJob // a job of another user and account, counted first
		want  []string // per submission of user 1, account 1
	}{
		// MaxSubmitPU=2: 0+1 <= 2, 1+1 <= 2, 2+1 > 2 refused.
		{"MaxSubmitPU", func(q *QOS) { q.Limits.MaxSubmitPU = 2 }, LimitJob{QOS: [2]int{0, -1}, User: 2, Account: 2},
			[]string{"", "", ReasonQOSMaxSubmitPU}},
		// MaxSubmitPA=1, the other account's job not counted: 0+1 <= 1, 1+1 > 1.
		{"MaxSubmitPA", func(q *QOS) { q.Limits.MaxSubmitPA = 1 }, LimitJob{QOS: [2]int{0, -1}, User: 2, Account: 2},
			[]string{"", ReasonQOSMaxSubmitPA}},
		// GrpSubmit=2 counts everyone: other 1, then 1+1 <= 2, 2+1 > 2.
		{"GrpSubmit", func(q *QOS) { q.Limits.GrpSubmit = 2 }, LimitJob{QOS: [2]int{0, -1}, User: 2, Account: 2},
			[]string{"", ReasonQOSGrpSubmit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewLimitTracker(limitsQOS(t, tc.edit))
			tr.Submitted(&tc.other)
			j := LimitJob{QOS: [2]int{0, -1}, User: 1, Account: 1}
			for i, want := range tc.want {
				got := tr.SubmitRefusal(&j)
				if got != want {
					t.Fatalf("submission %d: %q, want %q", i+1, got, want)
				}
				if got == "" {
					tr.Submitted(&j)
				}
			}
			// The first job leaves: the refused one fits again.
			tr.Unsubmitted(&j)
			if got := tr.SubmitRefusal(&j); got != "" {
				t.Errorf("after one left: %q", got)
			}
		})
	}
}

// With two QOS (partition QOS first), the first that sets a limit decides
// it: partition MaxSubmitPU=3 shadows the job QOS's MaxSubmitPU=1, so a
// user's second job is accepted (1+1 <= 3), its fourth refused (3+1 > 3).
func TestSubmitRefusalFirstQOSWins(t *testing.T) {
	s := limitsQOS(t, func(q *QOS) { q.Limits.MaxSubmitPU = 1 }, func(q *QOS) { q.Limits.MaxSubmitPU = 3 })
	tr := NewLimitTracker(s)
	j := LimitJob{QOS: QOSOrder(s, 0, 1), User: 1, Account: 1}
	for i, want := range []string{"", "", "", ReasonQOSMaxSubmitPU} {
		if got := tr.SubmitRefusal(&j); got != want {
			t.Fatalf("submission %d: %q, want %q", i+1, got, want)
		}
		tr.Submitted(&j)
	}
	if g, pu, pa := tr.Submits(0, 1, 1); g != 4 || pu != 4 || pa != 4 {
		t.Errorf("job QOS counts %d %d %d, want 4 (counted in both QOS)", g, pu, pa)
	}
}

// DenyOnLimit (strict_checking): a request over a Max limit on its own is
// refused at submit with the limit's reason; without the flag it is
// accepted (and pends, LimitTracker.Hold).
func TestSubmitRefusalDenyOnLimit(t *testing.T) {
	tests := []struct {
		name string
		edit func(*QOS)
		job  LimitJob
		want string
	}{
		// MaxTRES cpu=8, 16 asked: 16 > 8.
		{"MaxTRES", func(q *QOS) { q.Limits.MaxTRES = []TRESCount{{"cpu", 8}} }, LimitJob{TRES: LimitTRES{LimCPU: 16}}, "QOSMaxCpuPerJobLimit"},
		// MaxTRESPU gres/gpu=4, 6 asked.
		{"MaxTRESPU", func(q *QOS) { q.Limits.MaxTRESPU = []TRESCount{{"gres/gpu", 4}} }, LimitJob{TRES: LimitTRES{LimGPU: 6}}, "QOSMaxGRESPerUser"},
		// GrpTRES node=2, 3 asked.
		{"GrpTRES", func(q *QOS) { q.Limits.GrpTRES = []TRESCount{{"node", 2}} }, LimitJob{TRES: LimitTRES{LimNode: 3}}, "QOSGrpNodeLimit"},
		// MaxWall 1 h, 2 h asked.
		{"MaxWall", func(q *QOS) { q.Limits.MaxWall = 3600 }, LimitJob{Wall: 7200}, "QOSMaxWallDurationPerJobLimit"},
		// GrpWall 1 h, 2 h asked.
		{"GrpWall", func(q *QOS) { q.Limits.GrpWall = 3600 }, LimitJob{Wall: 7200}, ReasonQOSGrpWall},
		// MaxTRESMins cpu=100: 3 CPUs for 34 min = 102 > 100
		// (floor(100/3) = 33 minutes allowed).
		{"MaxTRESMins", func(q *QOS) { q.Limits.MaxTRESMins = []TRESCount{{"cpu", 100}} }, LimitJob{TRES: LimitTRES{LimCPU: 3}, Wall: 34 * 60}, "QOSMaxCpuMinutesPerJobLimit"},
		// MinTRES cpu=4, 2 asked.
		{"MinTRES", func(q *QOS) { q.Limits.MinTRES = []TRESCount{{"cpu", 4}} }, LimitJob{TRES: LimitTRES{LimCPU: 2}}, "QOSMinCpuNotSatisfied"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := tc.job
			j.QOS = [2]int{0, -1}
			plain := NewLimitTracker(limitsQOS(t, tc.edit))
			if got := plain.SubmitRefusal(&j); got != "" {
				t.Errorf("without DenyOnLimit: refused %q", got)
			}
			deny := NewLimitTracker(limitsQOS(t, func(q *QOS) { tc.edit(q); q.Flags |= QOSDenyOnLimit }))
			if got := deny.SubmitRefusal(&j); got != tc.want {
				t.Errorf("with DenyOnLimit: %q, want %q", got, tc.want)
			}
		})
	}
}

// Association submit limits: GrpSubmit of an account counts all jobs
// below it; MaxSubmit is the user's own (or the nearest ancestor's,
// passed down) counted on the user's association; a QOS MaxSubmitPU
// shadows the association's MaxSubmit.
func TestAssocSubmitRefusal(t *testing.T) {
	// root(0) <- acct(1) <- u1(2), u2(3). acct GrpSubmit=3, MaxSubmit=2.
	parent := []int{-1, 0, 1, 1}
	acct := &AssocLimits{GrpJobs: Unset, MaxJobs: Unset, MaxWall: Unset, GrpSubmit: 3, MaxSubmit: 2, GrpWall: Unset}
	tr := NewAssocTracker(parent, []*AssocLimits{nil, acct, nil, nil})
	none := &QOSSetLimits{}
	var tres LimitTRES
	steps := []struct {
		assoc int
		want  string
	}{
		{2, ""},                   // u1: 0+1 <= 2; acct 0+1 <= 3
		{2, ""},                   // u1: 1+1 <= 2; acct 2 <= 3
		{2, ReasonAssocMaxSubmit}, // u1: 2+1 > 2 (MaxSubmit passed down)
		{3, ""},                   // u2: 0+1 <= 2; acct 2+1 <= 3
		{3, ReasonAssocGrpSubmit}, // acct: 3+1 > 3
	}
	for i, st := range steps {
		got := tr.SubmitRefusal(st.assoc, &tres, 0, false, none)
		if got != st.want {
			t.Fatalf("step %d: %q, want %q", i+1, got, st.want)
		}
		if got == "" {
			tr.Submitted(st.assoc)
		}
	}
	if tr.Submits(1) != 3 || tr.Submits(0) != 3 || tr.Submits(2) != 2 {
		t.Errorf("counts acct %d root %d u1 %d, want 3 3 2", tr.Submits(1), tr.Submits(0), tr.Submits(2))
	}
	// A QOS that sets MaxSubmitPU and GrpSubmit shadows both.
	if got := tr.SubmitRefusal(2, &tres, 0, false, &QOSSetLimits{MaxSubmit: true, GrpSubmit: true}); got != "" {
		t.Errorf("QOS-set limits: refused %q", got)
	}
	// Strict (DenyOnLimit or no QOS): the nearest MaxWall (1 h) refuses 2 h.
	acct.MaxWall = 3600
	if got := tr.SubmitRefusal(3, &tres, 7200, true, &QOSSetLimits{GrpSubmit: true}); got != ReasonAssocMaxWall {
		t.Errorf("strict MaxWall: %q", got)
	}
}
