package fairshare

import (
	"math"
	"strings"
	"testing"
)

// grp_used_tres_run_secs, worked by hand: acct_policy_job_begin adds
// tres × time limit (× UsageFactor) to the association chain and the QOS,
// every usage slice removes tres × slice (_handle_tres_run_secs), the end
// removes the rest; sshare prints it as TRESRunMins in minutes.
func TestTRESRunSecs(t *testing.T) {
	tr, u, a := twoLevel(t)
	e := newEngine(t, tr, Config{TrackTRES: true, QOSNoDecay: []bool{false}})
	// 4 CPUs, 8000 MB, 1 node, billing 4, 2 GPUs; limit 1 h.
	job := TRES{TRESCPU: 4, TRESMem: 8000, TRESNode: 1, TRESBilling: 4, TRESGPU: 2}
	e.BeginTick(0)
	e.EndTick(0)
	e.RunStart(u, 0, job, 3600, 1)
	// 4×3600 = 14400 cpu-s, 8000×3600 = 28.8e6 MB-s, 3600 node-s, 14400
	// billing-s, 2×3600 = 7200 GPU-s, on the user, its account, root and
	// the QOS alike.
	start := RunSecs{14400, 28_800_000, 3600, 14400, 7200}
	for _, i := range []int{u, a, 0} {
		if got := e.TRESRunSecs(i); got != start {
			t.Fatalf("after start, assoc %d: %v, want %v", i, got, start)
		}
	}
	if got := e.QOSTRESRunSecs(0); got != start {
		t.Fatalf("after start, QOS: %v, want %v", got, start)
	}

	// The tick 10 min in charges 600 s: 3000 s left of each TRES.
	e.BeginTick(600)
	e.Charge(u, 0, 600, 4, 1, job)
	e.ChargeQOS(0, 0, 600, 4, 1, job)
	e.EndTick(600)
	after := RunSecs{12000, 24_000_000, 3000, 12000, 6000}
	if got := e.TRESRunSecs(a); got != after {
		t.Fatalf("after 10 min: %v, want %v", got, after)
	}
	if got := e.QOSTRESRunSecs(0); got != after {
		t.Fatalf("QOS after 10 min: %v, want %v", got, after)
	}
	// TRESRunMins = run secs / 60: cpu 12000/60 = 200, mem 400000,
	// node 50, billing 200, gres/gpu 6000/60 = 100.
	var rowU Row
	for _, r := range e.Rows() {
		if r.Assoc == u {
			rowU = r
		}
	}
	if want := [NumTRES]uint64{200, 400000, 50, 200, 100}; rowU.TRESRunMins != want {
		t.Fatalf("TRESRunMins %v, want %v", rowU.TRESRunMins, want)
	}
	var b strings.Builder
	if err := WriteSshare(&b, []Row{rowU}, SshareOptions{Long: true, Parsable2: true, NoHeader: true, All: true, TRESCount: NumTRES}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "|cpu=200,mem=400000,node=50,billing=200,gres/gpu=100\n") {
		t.Errorf("sshare -l -P: %q", b.String())
	}

	// It ends at 30 min, between ticks: ChargeAtEnd takes 1200 s (since
	// the tick at 600), RunEnd the 1800 s left of the hour: nothing stays.
	e.ChargeAtEnd(u, 0, 1800, 4, 1, job)
	e.ChargeQOS(0, 0, 1800, 4, 1, job)
	if got := e.TRESRunSecs(u); got != (RunSecs{4 * 1800, 8000 * 1800, 1800, 4 * 1800, 2 * 1800}) {
		t.Fatalf("after the end slice: %v", got)
	}
	e.RunEnd(u, 0, job, 1800, 1)
	for _, i := range []int{u, a, 0} {
		if got := e.TRESRunSecs(i); got != (RunSecs{}) {
			t.Errorf("after end, assoc %d: %v, want 0", i, got)
		}
	}
	if got := e.QOSTRESRunSecs(0); got != (RunSecs{}) {
		t.Errorf("after end, QOS: %v, want 0", got)
	}
}

// UsageFactor scales the seconds, truncated to whole seconds before the
// TRES multiply (_adjust_limit_usage: time_limit_secs *= usage_factor;
// _apply_new_usage: tres_time_delta *= usage_factor); removing more than
// is left leaves 0 (the underflow branch), never a wrapped number; without
// AccountingStorageEnforce=limits nothing is kept.
func TestTRESRunSecsUsageFactorAndClamp(t *testing.T) {
	tr, u, a := twoLevel(t)
	job := TRES{TRESCPU: 4, TRESGPU: 2}
	e := newEngine(t, tr, Config{TrackTRES: true})
	e.BeginTick(0)
	e.EndTick(0)
	e.RunStart(u, -1, job, 3600, 0.3) // trunc(3600×0.3) = 1080 s: cpu 4320, gpu 2160
	if got := e.TRESRunSecs(u); got != (RunSecs{TRESCPU: 4320, TRESGPU: 2160}) {
		t.Fatalf("start with UsageFactor 0.3: %v", got)
	}
	e.BeginTick(7)
	e.Charge(u, 0, 7, 4, 0.3, job) // trunc(7×0.3) = trunc(2.1) = 2 s: cpu 8, gpu 4
	e.EndTick(7)
	if got := e.TRESRunSecs(a); got != (RunSecs{TRESCPU: 4312, TRESGPU: 2156}) {
		t.Fatalf("after a 7 s slice: %v", got)
	}
	e.RunEnd(u, -1, job, 1e6, 1) // far more than is left: 0
	if got := e.TRESRunSecs(0); got != (RunSecs{}) {
		t.Fatalf("underflow: %v, want 0", got)
	}
	// Bad inputs count 0; an unknown association or QOS is ignored.
	e.RunStart(u, 5, TRES{TRESCPU: math.NaN(), TRESGPU: -2}, math.Inf(1), 1)
	e.RunStart(99, -1, job, 60, 1)
	if got := e.TRESRunSecs(0); got != (RunSecs{}) {
		t.Fatalf("bad inputs: %v, want 0", got)
	}
	// An unlimited time limit (INFINITE minutes × 60) on a huge count
	// saturates instead of wrapping.
	e.RunStart(u, -1, TRES{TRESMem: 1e18}, float64(0xffffffff)*60, 1)
	if got := e.TRESRunSecs(u)[TRESMem]; got != math.MaxUint64 {
		t.Fatalf("saturation: %d", got)
	}

	off := newEngine(t, tr, Config{})
	off.RunStart(u, -1, job, 3600, 1)
	if got := off.TRESRunSecs(u); got != (RunSecs{}) {
		t.Errorf("without limits enforcement: %v, want 0", got)
	}
}

// QOS UsageFactor applies to GPU usage as to any TRES: _apply_new_usage
// multiplies run_decay by usage_factor before tres_run_decay = run_decay ×
// tres_alloc_cnt, so usage_tres_raw of the association chain and the QOS
// (the job's, and a partition QOS's, which gets the same scaled amount)
// grow by d·uf·count for gres/gpu too.
func TestGPUUsageFactor(t *testing.T) {
	tr, u, a := twoLevel(t)
	e := newEngine(t, tr, Config{TrackTRES: true, QOSNoDecay: []bool{false, false}})
	job := TRES{TRESCPU: 4, TRESNode: 1, TRESBilling: 4, TRESGPU: 2}
	e.BeginTick(0)
	e.EndTick(0)
	e.BeginTick(600)
	e.Charge(u, 0, 600, 4, 2, job)    // UsageFactor 2, no decay (half-life 0)
	e.ChargeQOS(0, 0, 600, 4, 2, job) // the job's QOS
	e.ChargeQOS(1, 0, 600, 4, 2, job) // a partition QOS: the job's uf again
	e.EndTick(600)
	// 600 s × 2 × (4 cpu, 0 mem, 1 node, 4 billing, 2 GPUs).
	want := TRES{4800, 0, 1200, 4800, 2400}
	for _, i := range []int{u, a, 0} {
		if got := e.TRESUsage(i); got != want {
			t.Errorf("usage_tres_raw of assoc %d: %v, want %v", i, got, want)
		}
	}
	for q := range 2 {
		if got := e.QOSTRESUsage(q); got != want {
			t.Errorf("usage_tres_raw of QOS %d: %v, want %v", q, got, want)
		}
	}
	// GrpTRESRaw in minutes: 4800/60 = 80 cpu, 20 node, 80 billing, 40 GPU.
	for _, r := range e.Rows() {
		if r.Assoc == u && r.GrpTRESRaw != [NumTRES]uint64{80, 0, 20, 80, 40} {
			t.Errorf("GrpTRESRaw %v", r.GrpTRESRaw)
		}
	}
}

// sshare's TRES columns on a cluster that tracks gres/gpu, as process.c
// builds them (slurmdb_make_tres_string_from_arrays over
// assoc_mgr_tres_name_array, sorted by TRES id: the fixed TRES, then
// gres/gpu; every count printed, zeros included; INFINITE64 left out), and
// --format reaching GrpTRESRaw. One job of 4 CPUs, 8000 MB, 1 node,
// billing 4 and 2 GPUs, limit 1 h, charged 10 min without decay: usage
// 600 s × tres, GrpTRESRaw = 10 × tres (cpu 40, mem 80000, node 10,
// billing 40, gres/gpu 20); TRESRunMins = 50 × tres (3000 s left).
func TestSshareGPUColumns(t *testing.T) {
	tr, u, _ := twoLevel(t)
	e := newEngine(t, tr, Config{TrackTRES: true})
	job := TRES{TRESCPU: 4, TRESMem: 8000, TRESNode: 1, TRESBilling: 4, TRESGPU: 2}
	e.BeginTick(0)
	e.EndTick(0)
	e.RunStart(u, -1, job, 3600, 1)
	e.BeginTick(600)
	e.Charge(u, 0, 600, 4, 1, job)
	e.EndTick(600)
	rows := e.Rows()
	const format = "Account,User,GrpTRESRaw,GrpTRESMins,TRESRunMins"
	tests := []struct {
		name string
		o    SshareOptions
		want string
	}{
		{
			name: "fairsim's TRES with gres/gpu",
			o:    SshareOptions{Format: format, TRESCount: NumTRES, All: true, Parsable2: true},
			want: `Account|User|GrpTRESRaw|GrpTRESMins|TRESRunMins
root||cpu=40,mem=80000,node=10,billing=40,gres/gpu=20||cpu=200,mem=400000,node=50,billing=200,gres/gpu=100
 a||cpu=40,mem=80000,node=10,billing=40,gres/gpu=20||cpu=200,mem=400000,node=50,billing=200,gres/gpu=100
  a|u|cpu=40,mem=80000,node=10,billing=40,gres/gpu=20||cpu=200,mem=400000,node=50,billing=200,gres/gpu=100
 b||cpu=0,mem=0,node=0,billing=0,gres/gpu=0||cpu=0,mem=0,node=0,billing=0,gres/gpu=0
  b|v|cpu=0,mem=0,node=0,billing=0,gres/gpu=0||cpu=0,mem=0,node=0,billing=0,gres/gpu=0
`,
		},
		{
			name: "without gres/gpu tracked (the default)",
			o:    SshareOptions{Format: format, Accounts: []string{"b"}, UsersOnly: true, All: true, Parsable2: true},
			want: "Account|User|GrpTRESRaw|GrpTRESMins|TRESRunMins\n" +
				"b|v|cpu=0,mem=0,node=0,billing=0||cpu=0,mem=0,node=0,billing=0\n",
		},
		{
			name: "Slurm's full TRES list",
			o:    SshareOptions{Format: format, TRESCount: NumTRES, SlurmTRES: true, UsersOnly: true, Users: []string{"u"}, Parsable2: true},
			want: "Account|User|GrpTRESRaw|GrpTRESMins|TRESRunMins\n" +
				"a|u|cpu=40,mem=80000,energy=0,node=10,billing=40,fs/disk=0,vmem=0,pages=0,gres/gpu=20||" +
				"cpu=200,mem=400000,energy=0,node=50,billing=200,fs/disk=0,vmem=0,pages=0,gres/gpu=100\n",
		},
		{
			// Prefixes match the first field in process.c's table order;
			// "%40" widens a column, "%-12" left-justifies it.
			name: "prefixes and widths in a table",
			o:    SshareOptions{Format: "acc%-6,u%4,grptresr%-40,cl", Cluster: "gpu1", TRESCount: NumTRES, NoHeader: true, UsersOnly: true, Users: []string{"U"}},
			want: "a         u cpu=40,mem=80000,node=10,billing=40,gre+       gpu1 \n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diffLines(t, sshare(t, rows, tt.o), tt.want)
		})
	}
	for _, bad := range []string{"ID", "Account,Bogus", "Account,,User", "%5"} {
		var b strings.Builder
		if err := WriteSshare(&b, rows, SshareOptions{Format: bad}); err == nil {
			t.Errorf("format %q: no error", bad)
		}
	}
}
