package policy

import "testing"

// TestAssocTracker works acct_policy's association checks by hand on a
// tree root(0) → a1(1) → {u1(2), u2(3)}: a1 GrpTRES=cpu=8 and GrpJobs=3,
// u1 MaxJobs=1, a1 MaxTRES=gres/gpu=2 (its users' default per job).
func TestAssocTracker(t *testing.T) {
	a1, err := ParseAssocLimits(3, -1, "cpu=8", "gres/gpu=2", -1)
	if err != nil {
		t.Fatal(err)
	}
	u1, _ := ParseAssocLimits(-1, 1, "", "", 3600)
	tr := NewAssocTracker([]int{-1, 0, 1, 1}, []*AssocLimits{nil, a1, u1, nil})
	cpus := func(n uint64) *LimitTRES { return &LimitTRES{LimCPU: n, LimNode: 1} }
	steps := []struct {
		name  string
		assoc int
		tres  *LimitTRES
		wall  int64
		want  string
	}{
		{"u1's first job", 2, cpus(4), 600, ""},
		{"u1 over its 1-hour MaxWall", 2, cpus(1), 7200, "AssocMaxWallDurationPerJobLimit"},
		{"u2: 4 + 5 > a1's 8 CPUs", 3, cpus(5), 0, "AssocGrpCpuLimit"},
		{"u2: 4 + 4 = 8 fits", 3, cpus(4), 0, ""},
		{"u2: 3 GPUs over a1's per-job 2", 3, &LimitTRES{LimCPU: 0, LimGPU: 3}, 0, "AssocMaxGRESPerJob"},
	}
	for i, s := range steps {
		if i == 2 {
			tr.Begin(2, cpus(4)) // u1's first job runs: 4 CPUs of a1
		}
		if got := tr.Hold(s.assoc, s.tres, s.wall, nil, nil); got != s.want {
			t.Errorf("%s: %q, want %q", s.name, got, s.want)
		}
	}
	if got := tr.Hold(2, cpus(1), 0, nil, nil); got != "AssocMaxJobsLimit" {
		t.Errorf("u1's second job: %q, want AssocMaxJobsLimit (MaxJobs=1)", got)
	}
	// A job the pass already placed counts as running: u2's 2 CPUs placed,
	// then u2 asks 3 more: 4 + 2 + 3 > 8.
	if got := tr.Hold(3, cpus(3), 0, []Placed{{Assoc: 3, TRES: *cpus(2)}}, nil); got != "AssocGrpCpuLimit" {
		t.Errorf("with a placed job: %q, want AssocGrpCpuLimit", got)
	}
	tr.Begin(3, cpus(1))
	tr.Begin(3, cpus(1))
	// a1 now runs 3 jobs: GrpJobs=3 holds a fourth of either user.
	if got := tr.Hold(3, cpus(1), 0, nil, nil); got != "AssocGrpJobsLimit" {
		t.Errorf("fourth job of a1: %q, want AssocGrpJobsLimit", got)
	}
	tr.End(2, cpus(4))
	if got := tr.Hold(2, cpus(4), 0, nil, nil); got != "" {
		t.Errorf("after u1's job ended: %q, want none", got)
	}
}

// MaxTRESPerNode on a1 (cpu=16) holds u1's job when its CPUs over its
// nodes exceed 16: 48 on 2 nodes is 24; 48 on 3 is exactly 16 and runs;
// u1's own cpu=32 is nearer and wins for u1, so 48 on 2 (24) runs too.
func TestAssocMaxTRESPerNode(t *testing.T) {
	a1, _ := ParseAssocLimits(-1, -1, "", "", -1)
	if err := a1.AddPerNode("cpu=16"); err != nil {
		t.Fatal(err)
	}
	u1, _ := ParseAssocLimits(-1, -1, "", "", -1)
	if err := u1.AddPerNode("cpu=32"); err != nil {
		t.Fatal(err)
	}
	if err := u1.AddPerNode("cpu=x"); err == nil {
		t.Error("AddPerNode(cpu=x): no error")
	}
	u1.MaxTRESPN = []TRESCount{{"cpu", 32}}
	tr := NewAssocTracker([]int{-1, 0, 1, 1}, []*AssocLimits{nil, a1, u1, nil})
	for _, c := range []struct {
		assoc       int
		cpus, nodes uint64
		want        string
	}{
		{3, 48, 2, "AssocMaxCpuPerNode"},
		{3, 48, 3, ""},
		{2, 48, 2, ""},
		{2, 99, 3, "AssocMaxCpuPerNode"}, // 99/3 = 33 > 32
	} {
		if got := tr.Hold(c.assoc, &LimitTRES{LimCPU: c.cpus, LimNode: c.nodes}, 0, nil, nil); got != c.want {
			t.Errorf("assoc %d, %d CPUs on %d nodes: %q, want %q", c.assoc, c.cpus, c.nodes, got, c.want)
		}
	}
}

// TestAssocLimitsUnderQOS: a limit the job's QOS sets replaces the
// association's of the same kind and TRES at every level
// (acct_policy.c checks an association's limit only where qos_rec left it
// INFINITE). a1 GrpTRES=cpu=8, GrpJobs=2, MaxWall 1 h for u1; a job whose
// QOS sets GrpTRES cpu passes a1's cpu limit, not its GrpJobs; one whose
// QOS sets GrpJobs and MaxWall passes those; a QOS GrpTRES on memory
// leaves a1's cpu limit in force. A differential run on the 22.05 harness
// started a 4-CPU job of QOS grp (GrpTRES=cpu=12) while its account ran
// 16 CPUs under GrpTRES=cpu=16.
func TestAssocLimitsUnderQOS(t *testing.T) {
	a1, _ := ParseAssocLimits(2, -1, "cpu=8", "", -1)
	u1, _ := ParseAssocLimits(-1, -1, "", "", 3600)
	tr := NewAssocTracker([]int{-1, 0, 1}, []*AssocLimits{nil, a1, u1})
	cpus := func(n uint64) *LimitTRES { return &LimitTRES{LimCPU: n, LimNode: 1} }
	tr.Begin(2, cpus(6))
	tr.Begin(2, cpus(1))
	var cpuSet, jobsWall, memSet QOSSetLimits
	cpuSet.GrpTRES[LimCPU] = true
	jobsWall.GrpJobs, jobsWall.MaxWall = true, true
	memSet.GrpTRES[LimMem] = true
	for _, tc := range []struct {
		name string
		q    *QOSSetLimits
		cpus uint64
		wall int64
		want string
	}{
		{"no QOS limit: a1's jobs", nil, 1, 0, "AssocGrpJobsLimit"},
		{"QOS sets cpu: a1's GrpJobs still holds", &cpuSet, 4, 0, "AssocGrpJobsLimit"},
		{"QOS sets GrpJobs: a1's cpu holds 7 + 4", &jobsWall, 4, 0, "AssocGrpCpuLimit"},
		{"QOS sets GrpJobs: 7 + 1 fits", &jobsWall, 1, 7200, ""},
		{"QOS sets memory only: a1's jobs", &memSet, 1, 0, "AssocGrpJobsLimit"},
	} {
		if got := tr.Hold(2, cpus(tc.cpus), tc.wall, nil, tc.q); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	tr.End(2, cpus(1))
	// One job left (6 CPUs): GrpJobs no longer binds; 6 + 4 > 8 only
	// where the QOS does not set cpu.
	if got := tr.Hold(2, cpus(4), 0, nil, nil); got != "AssocGrpCpuLimit" {
		t.Errorf("no QOS limit: %q, want AssocGrpCpuLimit", got)
	}
	if got := tr.Hold(2, cpus(4), 0, nil, &cpuSet); got != "" {
		t.Errorf("QOS sets cpu: %q, want none", got)
	}
	if got := tr.Hold(2, cpus(1), 7200, nil, nil); got != "AssocMaxWallDurationPerJobLimit" {
		t.Errorf("u1's MaxWall: %q", got)
	}
}
