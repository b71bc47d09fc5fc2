package policy

import "testing"

const gib = 1024 // MB per GiB

func mustWeights(t *testing.T, s string) TRESWeights {
	t.Helper()
	w, err := ParseTRESWeights(s)
	if err != nil {
		t.Fatalf("ParseTRESWeights(%q): %v", s, err)
	}
	return w
}

// The example of Slurm's priority_multifactor.shtml: 16-CPU, 64-GiB nodes,
// TRESBillingWeights=CPU=1.0,Mem=0.25G. Weights and memory are powers of
// two, so every expectation is exact.
func TestBillingDocExample(t *testing.T) {
	w := mustWeights(t, "CPU=1.0,Mem=0.25G")
	tests := []struct {
		name  string
		alloc TRESAlloc
		flags PriorityFlags
		want  float64
	}{
		// SUM table.
		{"Job1 sum", TRESAlloc{CPU: 1, MemMB: 60 * gib}, 0, 16},           // 1×1.0 + 60×0.25 = 1+15
		{"Job2 sum", TRESAlloc{CPU: 16, MemMB: 1 * gib}, 0, 16.25},        // 16×1.0 + 1×0.25 = 16+.25
		{"Job3 sum", TRESAlloc{CPU: 16, MemMB: 60 * gib}, 0, 31},          // 16×1.0 + 60×0.25 = 16+15
		{"Job1 max", TRESAlloc{CPU: 1, MemMB: 60 * gib}, FlagMaxTRES, 15}, // MAX(1, 15)
		// The doc's MAX table uses 15 CPUs for Job2 and 64 GiB for Job3
		// (a typo against its SUM table); both inputs are checked.
		{"Job2 max, doc inputs", TRESAlloc{CPU: 15, MemMB: 1 * gib}, FlagMaxTRES, 15},   // MAX(15, .25)
		{"Job3 max, doc inputs", TRESAlloc{CPU: 16, MemMB: 64 * gib}, FlagMaxTRES, 16},  // MAX(16, 16)
		{"Job2 max, SUM inputs", TRESAlloc{CPU: 16, MemMB: 1 * gib}, FlagMaxTRES, 16},   // MAX(16, .25)
		{"Job3 max, SUM inputs", TRESAlloc{CPU: 16, MemMB: 60 * gib}, FlagMaxTRES, 16},  // MAX(16, 15)
		{"Job1 max_tres_gres", TRESAlloc{CPU: 1, MemMB: 60 * gib}, FlagMaxTRESGRES, 15}, // no GRES: as MAX_TRES
	}
	for _, tt := range tests {
		if got := Billing(tt.alloc, w, tt.flags); got != tt.want {
			t.Errorf("%s: Billing = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBillingNoWeightsIsCPUs(t *testing.T) {
	a := TRESAlloc{CPU: 12, MemMB: 500 * gib, Node: 3, Other: []TRESCount{{"gres/gpu", 4}}}
	for _, f := range []PriorityFlags{0, FlagMaxTRES, FlagMaxTRESGRES} {
		if got := Billing(a, nil, f); got != 12 {
			t.Errorf("flags %s: Billing without weights = %v, want 12 (the CPUs)", f, got)
		}
	}
}

func TestBillingModes(t *testing.T) {
	// CPU=1, Mem=0.25 per GiB, Node=2, GPU=8, license 3 each, billing
	// weighted but never counted.
	w := mustWeights(t, "CPU=1,Mem=0.25G,Node=2,GRES/gpu=8,License/matlab=3,Billing=100")
	a := TRESAlloc{CPU: 4, MemMB: 32 * gib, Node: 1, Billing: 9,
		Other: []TRESCount{{"gres/gpu", 2}, {"license/matlab", 2}}}
	// Terms: cpu 4, mem 8, node 2, gpu 16, license 6.
	tests := []struct {
		flags PriorityFlags
		want  float64
	}{
		{0, 36},               // 4+8+2+16+6
		{FlagMaxTRES, 22},     // max(4,8,2,16)=16 + license 6
		{FlagMaxTRESGRES, 30}, // max(4,8,2)=8 + gpu 16 + license 6
	}
	for _, tt := range tests {
		if got := Billing(a, w, tt.flags); got != tt.want {
			t.Errorf("flags %q: Billing = %v, want %v", tt.flags, got, tt.want)
		}
	}
	// All-negative node terms: the maximum starts at 0, as in Slurm.
	neg := mustWeights(t, "CPU=-1,Mem=-1G")
	if got := Billing(TRESAlloc{CPU: 4, MemMB: gib}, neg, FlagMaxTRES); got != 0 {
		t.Errorf("negative weights with MAX_TRES: %v, want 0", got)
	}
	if got := Billing(TRESAlloc{CPU: 4, MemMB: gib}, neg, 0); got != -5 {
		t.Errorf("negative weights summed: %v, want -5", got)
	}
}

// Per-CPU-type weights normalised to Broadwell.
func TestBillingPerCPUType(t *testing.T) {
	// Broadwell, 32 cores × 1.0, 128 GB: 32×1.0/128 = 0.25 per GB.
	if got := MemWeightPerGB(32, 1.0, 128); got != 0.25 {
		t.Errorf("Broadwell mem weight = %v, want 0.25", got)
	}
	// Abu Dhabi, 64 cores × 0.25, 256 GB: 64×0.25/256 = 0.0625 per GB.
	if got := MemWeightPerGB(64, 0.25, 256); got != 0.0625 {
		t.Errorf("Abu Dhabi mem weight = %v, want 0.0625", got)
	}
	if got := MemWeightPerGB(8, 1, 0); got != 0 {
		t.Errorf("memoryless node: %v, want 0", got)
	}
	broadwell := CPUTypeWeights(32, 1.0, 128)
	abudhabi := CPUTypeWeights(64, 0.25, 256)
	// The defaults equal the explicit weight strings.
	if got := mustWeights(t, "CPU=1.0,Mem=0.25G"); got.String() != broadwell.String() {
		t.Errorf("Broadwell weights %s, want %s", broadwell, got)
	}
	if got := mustWeights(t, "CPU=0.25,Mem=0.0625G"); got.String() != abudhabi.String() {
		t.Errorf("Abu Dhabi weights %s, want %s", abudhabi, got)
	}
	// A whole node's memory costs what its cores cost.
	if got := Billing(TRESAlloc{MemMB: 128 * gib}, broadwell, 0); got != 32 { // 128×0.25
		t.Errorf("Broadwell full memory = %v, want 32", got)
	}
	if got := Billing(TRESAlloc{MemMB: 256 * gib}, abudhabi, 0); got != 16 { // 256×0.0625 = 64×0.25
		t.Errorf("Abu Dhabi full memory = %v, want 16", got)
	}
	// 4 GB on Broadwell costs one core.
	if got := Billing(TRESAlloc{MemMB: 4 * gib}, broadwell, 0); got != 1 {
		t.Errorf("Broadwell 4 GB = %v, want 1", got)
	}

	// Invariant: with runtime scaling by CPU speed (Abu Dhabi is 4× slower
	// per core), one job's charge is the same on both types.
	job := TRESAlloc{CPU: 8, MemMB: 16 * gib}
	const broadwellSecs, abudhabiSecs = 3600.0, 4 * 3600.0
	cb := Billing(job, broadwell, 0) * broadwellSecs // (8×1 + 16×.25)×3600 = 12×3600
	ca := Billing(job, abudhabi, 0) * abudhabiSecs   // (8×.25 + 16×.0625)×14400 = 3×14400
	if cb != 12*3600 || ca != cb {
		t.Errorf("charge Broadwell %v, Abu Dhabi %v, want both %v", cb, ca, 12*3600.0)
	}

	// Requeue partitions: flat 0.5 per CPU and 0.125 per GB on all hardware.
	requeue := mustWeights(t, "CPU=0.5,Mem=0.125G")
	if got := Billing(TRESAlloc{CPU: 32, MemMB: 128 * gib}, requeue, 0); got != 32 { // 32×.5 + 128×.125 = 16+16
		t.Errorf("requeue full Broadwell node = %v, want 32", got)
	}
	if got := Billing(TRESAlloc{CPU: 1, MemMB: 4 * gib}, requeue, 0); got != 1 { // .5 + 4×.125
		t.Errorf("requeue 1 core 4 GB = %v, want 1", got)
	}
}

// TRESBillingWeights with GPUs, worked by hand after assoc_mgr_tres_weighted
// (src/common/assoc_mgr.c): every TRES but billing is weighted; under
// MAX_TRES cpu, mem, node and every TRES of type "gres" (typed
// "gres/gpu:a100" as much as untyped "gres/gpu") compete for the node
// maximum, the rest (licenses, bb) is summed; under MAX_TRES_GRES only cpu,
// mem and node compete and every gres term is added to that maximum; with
// both flags the gres terms are added (MAX_TRES_GRES wins for them).
// Slurm's untyped gres/gpu counts every GPU of the job, typed or not, so a
// job on A100s holds both gres/gpu=2 and gres/gpu:a100=2.
func TestBillingGPUs(t *testing.T) {
	w := mustWeights(t, "CPU=1.0,Mem=0.25G,GRES/gpu=2.0,GRES/gpu:a100=4.0")
	if m, _ := w.Lookup("mem"); m != 0.25/1024 {
		t.Fatalf("Mem=0.25G is %v per MB, want 0.25/1024", m)
	}
	both := FlagMaxTRES | FlagMaxTRESGRES
	// 8 CPUs, 64 GiB, 1 node, 2 A100: terms cpu 8×1.0 = 8, mem
	// 65536 MB × 0.25/1024 = 16, node unweighted 0, gres/gpu 2×2.0 = 4,
	// gres/gpu:a100 2×4.0 = 8. The billing count (99) is never weighed.
	a100 := TRESAlloc{CPU: 8, MemMB: 64 * gib, Node: 1, Billing: 99,
		Other: []TRESCount{{"gres/gpu", 2}, {"gres/gpu:a100", 2}}}
	// Same job on untyped GPUs: no gres/gpu:a100 term.
	untyped := TRESAlloc{CPU: 8, MemMB: 64 * gib, Node: 1,
		Other: []TRESCount{{"gres/gpu", 2}}}
	// A GPU-heavy job: 2 CPUs, 8 GiB, 4 A100: cpu 2, mem 8192×0.25/1024 = 2,
	// gres/gpu 4×2 = 8, gres/gpu:a100 4×4 = 16.
	heavy := TRESAlloc{CPU: 2, MemMB: 8 * gib, Node: 1,
		Other: []TRESCount{{"gres/gpu", 4}, {"gres/gpu:a100", 4}}}
	// A job without GPUs in the same partition: cpu 8, mem 16.
	noGPU := TRESAlloc{CPU: 8, MemMB: 64 * gib, Node: 1}
	tests := []struct {
		name  string
		alloc TRESAlloc
		flags PriorityFlags
		want  float64
	}{
		{"a100 SUM", a100, 0, 36},                               // 8 + 16 + 4 + 8
		{"a100 MAX_TRES", a100, FlagMaxTRES, 16},                // max(8, 16, 0, 4, 8)
		{"a100 MAX_TRES_GRES", a100, FlagMaxTRESGRES, 28},       // max(8, 16, 0) + 4 + 8
		{"a100 both flags", a100, both, 28},                     // as MAX_TRES_GRES
		{"untyped SUM", untyped, 0, 28},                         // 8 + 16 + 4
		{"untyped MAX_TRES", untyped, FlagMaxTRES, 16},          // max(8, 16, 4)
		{"untyped MAX_TRES_GRES", untyped, FlagMaxTRESGRES, 20}, // 16 + 4
		{"heavy SUM", heavy, 0, 28},                             // 2 + 2 + 8 + 16
		{"heavy MAX_TRES", heavy, FlagMaxTRES, 16},              // max(2, 2, 8, 16): the typed GPU term
		{"heavy MAX_TRES_GRES", heavy, FlagMaxTRESGRES, 26},     // max(2, 2) + 8 + 16
		{"no GPU SUM", noGPU, 0, 24},                            // 8 + 16
		{"no GPU MAX_TRES", noGPU, FlagMaxTRES, 16},             // max(8, 16)
		{"no GPU MAX_TRES_GRES", noGPU, FlagMaxTRESGRES, 16},
	}
	for _, tt := range tests {
		if got := Billing(tt.alloc, w, tt.flags); got != tt.want {
			t.Errorf("%s: Billing = %v, want %v", tt.name, got, tt.want)
		}
	}

	// Only the untyped GPU weighted: the A100 job pays for its 2 GPUs once.
	wu := mustWeights(t, "CPU=1.0,Mem=0.25G,GRES/gpu=2.0")
	if got := Billing(a100, wu, 0); got != 28 { // 8 + 16 + 4
		t.Errorf("untyped weight only: Billing = %v, want 28", got)
	}
	// Only the typed weight: the untyped-GPU job has no A100 term.
	wt := mustWeights(t, "CPU=1.0,Mem=0.25G,GRES/gpu:a100=4.0")
	if got := Billing(untyped, wt, FlagMaxTRESGRES); got != 16 { // max(8, 16) + 0
		t.Errorf("typed weight, untyped GPUs: Billing = %v, want 16", got)
	}
	// A license stays global in every mode: 2 × 3 = 6 on top.
	wl := mustWeights(t, "CPU=1.0,Mem=0.25G,GRES/gpu=2.0,GRES/gpu:a100=4.0,License/matlab=3")
	lic := a100
	lic.Other = append([]TRESCount{{"license/matlab", 2}}, a100.Other...)
	for _, tt := range []struct {
		flags PriorityFlags
		want  float64
	}{{0, 42}, {FlagMaxTRES, 22}, {FlagMaxTRESGRES, 34}} { // 36+6, 16+6, 28+6
		if got := Billing(lic, wl, tt.flags); got != tt.want {
			t.Errorf("with license, flags %s: Billing = %v, want %v", tt.flags, got, tt.want)
		}
	}
	// No weights: the CPU count (calc_job_billable_tres: total_cpus),
	// whatever GPUs the job holds.
	if got := Billing(a100, nil, FlagMaxTRESGRES); got != 8 {
		t.Errorf("no weights: Billing = %v, want 8 (the CPUs)", got)
	}
}
