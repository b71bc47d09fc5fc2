package policy

import (
	"strings"
	"testing"
)

// Usage limits of a QOS, _qos_job_runnable_pre_select (GrpWall) and
// _qos_job_runnable_post_select (GrpTRESMins, GrpTRESRunMins through
// _validate_tres_usage_limits), for a job asking 4 CPUs for 60 minutes:
// its TRES × time limit is 4 × 60 = 240 CPU-minutes.
func TestQOSUsageHold(t *testing.T) {
	tr := LimitTRES{LimCPU: 4, LimNode: 1}
	tests := []struct {
		name string
		edit func(*QOS)
		use  Usage
		safe bool
		want string
	}{
		// GrpTRESMins cpu=1000: 999 used < 1000 runs; 1000 >= 1000 holds.
		{"mins under", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"cpu", 1000}} }, Usage{TRESMins: LimitTRES{LimCPU: 999}}, false, ""},
		{"mins reached", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"cpu", 1000}} }, Usage{TRESMins: LimitTRES{LimCPU: 1000}}, false, "QOSGrpCPUMinutesLimit"},
		// A limit on a TRES the job does not ask (gres/gpu) never holds it.
		{"mins other TRES", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"gres/gpu", 10}} }, Usage{TRESMins: LimitTRES{LimGPU: 50}}, false, ""},
		// Safe: 900 used + 0 running, 240 asked: 240 > 1000-900 = 100 holds;
		// not safe it runs.
		{"safe left", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"cpu", 1000}} }, Usage{TRESMins: LimitTRES{LimCPU: 900}}, true, "QOSGrpCPUMinutesLimit"},
		{"unsafe left", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"cpu", 1000}} }, Usage{TRESMins: LimitTRES{LimCPU: 900}}, false, ""},
		// Safe: 500 used, 300 running: 240 + 300 = 540 > 500 left holds.
		{"safe with running", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"cpu", 1000}} }, Usage{TRESMins: LimitTRES{LimCPU: 500}, RunMins: LimitTRES{LimCPU: 300}}, true, "QOSGrpCPUMinutesLimit"},
		// Safe: 200 asked alone over a limit of 200? 240 > 200 holds.
		{"safe alone", func(q *QOS) { q.GrpTRESMins = []TRESCount{{"cpu", 200}} }, Usage{}, true, "QOSGrpCPUMinutesLimit"},
		// GrpTRESRunMins cpu=1000: 700 running + 240 = 940 <= 1000 runs;
		// 800 + 240 = 1040 > 1000 holds, safe or not.
		{"run mins fit", func(q *QOS) { q.Limits.GrpTRESRunMins = []TRESCount{{"cpu", 1000}} }, Usage{RunMins: LimitTRES{LimCPU: 700}}, false, ""},
		{"run mins over", func(q *QOS) { q.Limits.GrpTRESRunMins = []TRESCount{{"cpu", 1000}} }, Usage{RunMins: LimitTRES{LimCPU: 800}}, false, "QOSGrpCPURunMinutesLimit"},
		{"run mins node", func(q *QOS) { q.Limits.GrpTRESRunMins = []TRESCount{{"node", 59}} }, Usage{}, false, "QOSGrpNodeRunMinutes"},
		// GrpWall 10 h = 600 min: 599 used runs, 600 holds; safe, 599 + 60
		// = 659 > 600 holds.
		{"wall under", func(q *QOS) { q.Limits.GrpWall = 36000 }, Usage{WallMins: 599}, false, ""},
		{"wall reached", func(q *QOS) { q.Limits.GrpWall = 36000 }, Usage{WallMins: 600}, false, ReasonQOSGrpWall},
		{"wall safe", func(q *QOS) { q.Limits.GrpWall = 36000 }, Usage{WallMins: 599}, true, ReasonQOSGrpWall},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lt := NewLimitTracker(limitsQOS(t, tc.edit))
			use := [2]Usage{tc.use}
			if got := lt.UsageHold([2]int{0, -1}, &use, &tr, 60, tc.safe); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
	// No time limit counts INFINITE minutes: 4 × 4294967295 =
	// 17179869180 > 2^33 = 8589934592.
	lt := NewLimitTracker(limitsQOS(t, func(q *QOS) { q.Limits.GrpTRESRunMins = []TRESCount{{"cpu", 1 << 33}} }))
	if got := lt.UsageHold([2]int{0, -1}, &[2]Usage{}, &tr, InfiniteMins, false); got != "QOSGrpCPURunMinutesLimit" {
		t.Errorf("no time limit: %q", got)
	}
}

// acct_policy_job_time_out: a running job holding a TRES whose decayed
// minutes reached the QOS's GrpTRESMins is ended; one holding none of it
// is not; GrpWall ends every running job of the QOS once reached.
func TestQOSUsageTimeOut(t *testing.T) {
	s := limitsQOS(t, func(q *QOS) { q.GrpTRESMins = []TRESCount{{"gres/gpu", 100}}; q.Limits.GrpWall = 6000 })
	lt := NewLimitTracker(s)
	gpu, cpu := LimitTRES{LimCPU: 8, LimGPU: 2}, LimitTRES{LimCPU: 8}
	use := [2]Usage{{TRESMins: LimitTRES{LimGPU: 100}, WallMins: 99}}
	// 100 GPU-minutes >= 100: the GPU job ends, the CPU job runs on;
	// 99 wall minutes < 6000 s / 60 = 100.
	if got := lt.UsageTimeOut([2]int{0, -1}, &use, &gpu); got != "QOSGrpGRESMinutes" {
		t.Errorf("GPU job: %q", got)
	}
	if got := lt.UsageTimeOut([2]int{0, -1}, &use, &cpu); got != "" {
		t.Errorf("CPU job: %q", got)
	}
	use[0].WallMins = 100
	if got := lt.UsageTimeOut([2]int{0, -1}, &use, &cpu); got != ReasonQOSGrpWall {
		t.Errorf("wall reached: %q", got)
	}
}

// Association usage limits: GrpTRESMins of an account holds its users'
// jobs and ends their running ones, unless the QOS sets the same TRES
// limit; the root's limit ends nothing (acct_policy_job_time_out stops
// below the root) but still holds (the runnable checks walk to the root).
func TestAssocUsage(t *testing.T) {
	parent := []int{-1, 0, 1}
	root := &AssocLimits{GrpJobs: Unset, MaxJobs: Unset, MaxWall: Unset, GrpWall: Unset, GrpTRESMins: []TRESCount{{"cpu", 10}}}
	acct := &AssocLimits{GrpJobs: Unset, MaxJobs: Unset, MaxWall: Unset, GrpWall: 600, GrpTRESMins: []TRESCount{{"cpu", 1000}}}
	at := NewAssocTracker(parent, []*AssocLimits{nil, acct, nil})
	use := map[int]Usage{1: {TRESMins: LimitTRES{LimCPU: 1000}, WallMins: 3}}
	get := func(x int) Usage { return use[x] }
	tr := LimitTRES{LimCPU: 2}
	none := &QOSSetLimits{}
	if got := at.UsageHold(2, get, &tr, 30, false, none); got != "AssocGrpCPUMinutesLimit" {
		t.Errorf("hold: %q", got)
	}
	if got := at.UsageTimeOut(2, get, &tr, none); got != "AssocGrpCPUMinutesLimit" {
		t.Errorf("time out: %q", got)
	}
	qosSet := &QOSSetLimits{}
	qosSet.GrpTRESMins[LimCPU] = true
	if got := at.UsageHold(2, get, &tr, 30, false, qosSet); got != "" {
		t.Errorf("QOS sets cpu minutes: held %q", got)
	}
	// GrpWall 600 s = 10 min; 3 used; safe: 3 + 30 > 10 holds.
	use[1] = Usage{WallMins: 3}
	if got := at.UsageHold(2, get, &tr, 30, true, none); got != ReasonAssocGrpWall {
		t.Errorf("safe wall: %q", got)
	}
	at2 := NewAssocTracker(parent, []*AssocLimits{root, nil, nil})
	use[0] = Usage{TRESMins: LimitTRES{LimCPU: 50}}
	if got := at2.UsageTimeOut(2, get, &tr, none); got != "" {
		t.Errorf("root's limit ended a job: %q", got)
	}
	if got := at2.UsageHold(2, get, &tr, 30, false, none); got != "AssocGrpCPUMinutesLimit" {
		t.Errorf("root's limit did not hold: %q", got)
	}
}

// The QOS file reads GrpWall (a time) and GrpTRESRunMins (a TRES list),
// and writes them back.
func TestQOSFileUsageColumns(t *testing.T) {
	s, _, err := ParseQOSFile(strings.NewReader("Name|GrpWall|GrpTRESRunMins|MaxSubmitPU\nx|1-00:00:00|cpu=6000,gres/gpu=100|3\n"), "q")
	if err != nil {
		t.Fatal(err)
	}
	l := s.QOS(0).Limits
	// 1-00:00:00 is 86400 s.
	if l.GrpWall != 86400 || len(l.GrpTRESRunMins) != 2 || l.GrpTRESRunMins[1].Count != 100 || l.MaxSubmitPU != 3 {
		t.Errorf("limits %+v", l)
	}
	back, _, err := ParseQOSFile(strings.NewReader(FormatQOSFile(s)), "f")
	if err != nil || back.QOS(0).Limits.GrpWall != 86400 || len(back.QOS(0).Limits.GrpTRESRunMins) != 2 {
		t.Errorf("round trip: %v %+v", err, back)
	}
}
