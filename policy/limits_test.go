package policy

import "testing"

func limitsQOS(t *testing.T, edits ...func(*QOS)) *QOSSet {
	t.Helper()
	var qs []QOS
	for i, e := range edits {
		q := NewQOS(string(rune('a' + i)))
		e(&q)
		qs = append(qs, q)
	}
	return qosSet(t, qs...)
}

// A QOS with MaxJobsPU=2 and one user's 5 jobs: the third is held with
// QOSMaxJobsPerUserLimit while two run, and another user's job is not; a
// job ending frees a slot.
func TestLimitMaxJobsPU(t *testing.T) {
	tr := NewLimitTracker(limitsQOS(t, func(q *QOS) { q.Limits.MaxJobsPU = 2 }))
	jobs := make([]LimitJob, 5)
	for i := range jobs {
		jobs[i] = LimitJob{QOS: [2]int{0, -1}, User: 7, Account: 1, TRES: LimitTRES{LimCPU: 1}}
	}
	running := 0
	for i := range jobs {
		why := tr.Hold(&jobs[i], nil)
		switch {
		case running < 2 && why != "":
			t.Fatalf("job %d held (%s) with %d running", i, why, running)
		case running >= 2 && why != "QOSMaxJobsPerUserLimit":
			t.Fatalf("job %d: reason %q with %d running, want QOSMaxJobsPerUserLimit", i, why, running)
		}
		if why == "" {
			tr.Begin(&jobs[i])
			running++
		}
	}
	if _, pu, _ := tr.Running(0, 7, 1); pu != 2 {
		t.Errorf("user runs %d, want 2", pu)
	}
	other := LimitJob{QOS: [2]int{0, -1}, User: 8, Account: 1}
	if why := tr.Hold(&other, nil); why != "" {
		t.Errorf("another user's job held: %s", why)
	}
	tr.End(&jobs[0])
	if why := tr.Hold(&jobs[2], nil); why != "" {
		t.Errorf("after an end, held: %s", why)
	}
}

// Jobs a pass has planned count as running: with MaxJobsPU=1, a job
// planned in this pass holds the user's next one.
func TestLimitInPassStarts(t *testing.T) {
	tr := NewLimitTracker(limitsQOS(t, func(q *QOS) { q.Limits.MaxJobsPU = 1 }))
	a := LimitJob{QOS: [2]int{0, -1}, User: 1}
	b := a
	if why := tr.Hold(&b, []LimitJob{a}); why != "QOSMaxJobsPerUserLimit" {
		t.Errorf("reason %q, want QOSMaxJobsPerUserLimit", why)
	}
	if _, pu, _ := tr.Running(0, 1, 0); pu != 0 {
		t.Errorf("in-pass starts left counted: %d", pu)
	}
}

func TestLimitReasons(t *testing.T) {
	cpu8 := func(q *QOS) { q.Limits.GrpTRES = []TRESCount{{"cpu", 8}} }
	tests := []struct {
		name    string
		edit    func(*QOS)
		running []LimitJob
		job     LimitJob
		want    string
	}{
		{"GrpTRES cpu=8: 6 running, 2 more fit", cpu8,
			[]LimitJob{{User: 1, TRES: LimitTRES{LimCPU: 6}}}, LimitJob{User: 2, TRES: LimitTRES{LimCPU: 2}}, ""},
		{"GrpTRES cpu=8: 6 running, 3 more do not", cpu8,
			[]LimitJob{{User: 1, TRES: LimitTRES{LimCPU: 6}}}, LimitJob{User: 2, TRES: LimitTRES{LimCPU: 3}}, "QOSGrpCpuLimit"},
		{"MaxTRESPU gres/gpu=4: 3 running, 2 more", func(q *QOS) { q.Limits.MaxTRESPU = []TRESCount{{"gres/gpu", 4}} },
			[]LimitJob{{User: 1, TRES: LimitTRES{LimGPU: 3}}}, LimitJob{User: 1, TRES: LimitTRES{LimGPU: 2}}, "QOSMaxGRESPerUser"},
		{"MaxTRESPU gres/gpu=4: other user", func(q *QOS) { q.Limits.MaxTRESPU = []TRESCount{{"gres/gpu", 4}} },
			[]LimitJob{{User: 1, TRES: LimitTRES{LimGPU: 3}}}, LimitJob{User: 2, TRES: LimitTRES{LimGPU: 2}}, ""},
		{"GrpTRES gres/gpu=4", func(q *QOS) { q.Limits.GrpTRES = []TRESCount{{"gres/gpu", 4}} },
			[]LimitJob{{User: 1, TRES: LimitTRES{LimGPU: 4}}}, LimitJob{User: 2, TRES: LimitTRES{LimGPU: 1}}, "QOSGrpGRES"},
		{"GrpJobs 1", func(q *QOS) { q.Limits.GrpJobs = 1 }, []LimitJob{{User: 1}}, LimitJob{User: 2}, "QOSGrpJobsLimit"},
		{"MaxJobsPA 1", func(q *QOS) { q.Limits.MaxJobsPA = 1 }, []LimitJob{{User: 1, Account: 3}}, LimitJob{User: 2, Account: 3}, "MaxJobsPerAccount"},
		{"MaxTRESPA mem", func(q *QOS) { q.Limits.MaxTRESPA = []TRESCount{{"mem", 1000}} },
			[]LimitJob{{Account: 3, TRES: LimitTRES{LimMem: 600}}}, LimitJob{Account: 3, TRES: LimitTRES{LimMem: 600}}, "MaxMemoryPerAccount"},
		{"MaxTRES node=2 per job", func(q *QOS) { q.Limits.MaxTRES = []TRESCount{{"node", 2}} }, nil, LimitJob{TRES: LimitTRES{LimNode: 3}}, "QOSMaxNodePerJobLimit"},
		// MaxTRESPerNode divides each TRES by the node count
		// (_validate_tres_limits_for_qos's divisor): 96 CPUs on 2 nodes
		// is 48 per node, over cpu=32; 64 on 2 is 32, at it; 96 on 3 is 32.
		{"MaxTRESPerNode cpu=32: 96 CPUs on 2 nodes", func(q *QOS) { q.Limits.MaxTRESPN = []TRESCount{{"cpu", 32}} }, nil,
			LimitJob{TRES: LimitTRES{LimCPU: 96, LimNode: 2}}, "QOSMaxCpuPerNode"},
		{"MaxTRESPerNode cpu=32: 64 CPUs on 2 nodes", func(q *QOS) { q.Limits.MaxTRESPN = []TRESCount{{"cpu", 32}} }, nil,
			LimitJob{TRES: LimitTRES{LimCPU: 64, LimNode: 2}}, ""},
		{"MaxTRESPerNode cpu=32: 96 CPUs on 3 nodes", func(q *QOS) { q.Limits.MaxTRESPN = []TRESCount{{"cpu", 32}} }, nil,
			LimitJob{TRES: LimitTRES{LimCPU: 96, LimNode: 3}}, ""},
		// 7 GPUs on 2 nodes: 7/2 = 3 per node (integer division), under 4.
		{"MaxTRESPerNode gres/gpu=4: 7 GPUs on 2 nodes", func(q *QOS) { q.Limits.MaxTRESPN = []TRESCount{{"gres/gpu", 4}} }, nil,
			LimitJob{TRES: LimitTRES{LimGPU: 7, LimNode: 2}}, ""},
		{"MaxTRESPerNode gres/gpu=4: 5 GPUs on 1 node", func(q *QOS) { q.Limits.MaxTRESPN = []TRESCount{{"gres/gpu", 4}} }, nil,
			LimitJob{TRES: LimitTRES{LimGPU: 5, LimNode: 1}}, "QOSMaxGRESPerNode"},
		{"MinTRES cpu=4", func(q *QOS) { q.Limits.MinTRES = []TRESCount{{"cpu", 4}} }, nil, LimitJob{TRES: LimitTRES{LimCPU: 2}}, "QOSMinCpuNotSatisfied"},
		{"MaxWall 1h, 2h asked", func(q *QOS) { q.Limits.MaxWall = 3600 }, nil, LimitJob{Wall: 7200}, "QOSMaxWallDurationPerJobLimit"},
		{"MaxWall 1h, no limit asked", func(q *QOS) { q.Limits.MaxWall = 3600 }, nil, LimitJob{}, ""},
		{"unknown TRES limits nothing", func(q *QOS) { q.Limits.GrpTRES = []TRESCount{{"license/x", 0}} }, nil, LimitJob{}, ""},
	}
	for _, tt := range tests {
		tr := NewLimitTracker(limitsQOS(t, tt.edit))
		for i := range tt.running {
			tt.running[i].QOS = [2]int{0, -1}
			tr.Begin(&tt.running[i])
		}
		tt.job.QOS = [2]int{0, -1}
		if got := tr.Hold(&tt.job, nil); got != tt.want {
			t.Errorf("%s: reason %q, want %q", tt.name, got, tt.want)
		}
	}
}

// acct_policy_set_qos_order: the partition QOS comes first unless the
// job's QOS has OverPartQOS; the first QOS that sets a limit decides it.
func TestLimitQOSOrder(t *testing.T) {
	s := limitsQOS(t,
		func(q *QOS) { q.Limits.MaxJobsPU = 1 },                           // a: job QOS
		func(q *QOS) { q.Limits.MaxJobsPU = 3 },                           // b: partition QOS
		func(q *QOS) { q.Limits.MaxJobsPU = 1; q.Flags = QOSOverPartQOS }, // c: job QOS over the partition's
		func(q *QOS) { q.Limits.GrpJobs = 0 },                             // d
	)
	if got := QOSOrder(s, 0, 1); got != [2]int{1, 0} {
		t.Errorf("order %v, want partition first", got)
	}
	if got := QOSOrder(s, 2, 1); got != [2]int{2, 1} {
		t.Errorf("order %v, want OverPartQOS first", got)
	}
	if got := QOSOrder(s, 1, 1); got != [2]int{1, -1} {
		t.Errorf("order %v, want one QOS", got)
	}
	if got := QOSOrder(s, -1, 3); got != [2]int{3, -1} {
		t.Errorf("order %v, want the partition's alone", got)
	}
	tr := NewLimitTracker(s)
	run := LimitJob{QOS: QOSOrder(s, 0, 1), User: 1}
	tr.Begin(&run)
	// Partition QOS b (MaxJobsPU=3) decides; job QOS a's 1 is not consulted.
	if why := tr.Hold(&LimitJob{QOS: QOSOrder(s, 0, 1), User: 1}, nil); why != "" {
		t.Errorf("held %q; the partition QOS's MaxJobsPU=3 should decide", why)
	}
	run2 := LimitJob{QOS: QOSOrder(s, 2, 1), User: 1}
	tr.Begin(&run2) // b now counts 2 of user 1's jobs, c one
	if why := tr.Hold(&LimitJob{QOS: QOSOrder(s, 2, 1), User: 1}, nil); why != "QOSMaxJobsPerUserLimit" {
		t.Errorf("reason %q; OverPartQOS's MaxJobsPU=1 should decide", why)
	}
	if why := tr.NeverRuns(&LimitJob{QOS: [2]int{3, -1}}); why != "QOSGrpJobsLimit" {
		t.Errorf("GrpJobs=0: NeverRuns %q", why)
	}
	if why := tr.NeverRuns(&LimitJob{QOS: QOSOrder(s, 0, 1), User: 1}); why != "" {
		t.Errorf("NeverRuns %q for a job that fits alone", why)
	}
}

// QOS MaxTRESMins (per job) holds a job whose TRES times its time limit
// in minutes exceeds the limit (acct_policy.c
// _qos_job_runnable_post_select, job_tres_time_limit against
// max_tres_mins_pj); nothing running matters. MaxTRESMins=cpu=100,
// gres/gpu=120:
//
//	3 CPUs × 33 min = 99 ≤ 100                      runs
//	3 CPUs × 34 min = 102 > 100                     QOSMaxCpuMinutesPerJobLimit
//	3 CPUs × 33 min 1 s: 34 minutes (rounded up)    QOSMaxCpuMinutesPerJobLimit
//	1 CPU, 2 GPUs × 61 min = 122 > 120              QOSMaxGRESMinutesPerJob
//	100 CPUs, no time limit                         runs (Slurm would cap it)
//
// Under OverPartQOS order the first QOS that sets a TRES's MaxTRESMins
// decides it: partition QOS b (cpu=1000) before job QOS a, so 3 × 34
// runs; with a first (OverPartQOS), a's 100 decides.
func TestLimitMaxTRESMinsPerJob(t *testing.T) {
	s := limitsQOS(t,
		func(q *QOS) { q.Limits.MaxTRESMins = []TRESCount{{"cpu", 100}, {"gres/gpu", 120}} },
		func(q *QOS) { q.Limits.MaxTRESMins = []TRESCount{{"cpu", 1000}} },
		func(q *QOS) {
			q.Limits.MaxTRESMins = []TRESCount{{"cpu", 100}}
			q.Flags = QOSOverPartQOS
		},
	)
	tr := NewLimitTracker(s)
	for _, tc := range []struct {
		name string
		qos  [2]int
		tres LimitTRES
		wall int64
		want string
	}{
		{"99 cpu-min", [2]int{0, -1}, LimitTRES{LimCPU: 3}, 33 * 60, ""},
		{"102 cpu-min", [2]int{0, -1}, LimitTRES{LimCPU: 3}, 34 * 60, "QOSMaxCpuMinutesPerJobLimit"},
		{"33 min 1 s", [2]int{0, -1}, LimitTRES{LimCPU: 3}, 33*60 + 1, "QOSMaxCpuMinutesPerJobLimit"},
		{"122 gpu-min", [2]int{0, -1}, LimitTRES{LimCPU: 1, LimGPU: 2}, 61 * 60, "QOSMaxGRESMinutesPerJob"},
		{"no limit", [2]int{0, -1}, LimitTRES{LimCPU: 100}, 0, ""},
		{"partition QOS first", QOSOrder(s, 0, 1), LimitTRES{LimCPU: 3}, 34 * 60, ""},
		{"OverPartQOS", QOSOrder(s, 2, 1), LimitTRES{LimCPU: 3}, 34 * 60, "QOSMaxCpuMinutesPerJobLimit"},
	} {
		j := LimitJob{QOS: tc.qos, TRES: tc.tres, Wall: tc.wall}
		if got := tr.Hold(&j, nil); got != tc.want {
			t.Errorf("%s: held %q, want %q", tc.name, got, tc.want)
		}
		if got := tr.NeverRuns(&j); got != tc.want {
			t.Errorf("%s: NeverRuns %q, want %q", tc.name, got, tc.want)
		}
	}
}
