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
		if got := tr.Hold(s.assoc, s.tres, s.wall, nil); got != s.want {
			t.Errorf("%s: %q, want %q", s.name, got, s.want)
		}
	}
	if got := tr.Hold(2, cpus(1), 0, nil); got != "AssocMaxJobsLimit" {
		t.Errorf("u1's second job: %q, want AssocMaxJobsLimit (MaxJobs=1)", got)
	}
	// A job the pass already placed counts as running: u2's 2 CPUs placed,
	// then u2 asks 3 more: 4 + 2 + 3 > 8.
	if got := tr.Hold(3, cpus(3), 0, []Placed{{Assoc: 3, TRES: *cpus(2)}}); got != "AssocGrpCpuLimit" {
		t.Errorf("with a placed job: %q, want AssocGrpCpuLimit", got)
	}
	tr.Begin(3, cpus(1))
	tr.Begin(3, cpus(1))
	// a1 now runs 3 jobs: GrpJobs=3 holds a fourth of either user.
	if got := tr.Hold(3, cpus(1), 0, nil); got != "AssocGrpJobsLimit" {
		t.Errorf("fourth job of a1: %q, want AssocGrpJobsLimit", got)
	}
	tr.End(2, cpus(4))
	if got := tr.Hold(2, cpus(4), 0, nil); got != "" {
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
		if got := tr.Hold(c.assoc, &LimitTRES{LimCPU: c.cpus, LimNode: c.nodes}, 0, nil); got != c.want {
			t.Errorf("assoc %d, %d CPUs on %d nodes: %q, want %q", c.assoc, c.cpus, c.nodes, got, c.want)
		}
	}
}
