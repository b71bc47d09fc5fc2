package policy

import (
	"math"
	"testing"
)

const day = 86400

// odyssey is the seed-001 configuration: PriorityWeightFairshare=20,000,000,
// PriorityWeightAge=10,000,000, PriorityMaxAge=7-0.
func odyssey() Params {
	p := DefaultParams()
	p.Fairshare = 20_000_000
	p.Age = 10_000_000
	return p
}

// The Odyssey priority examples, exactly.
func TestPriorityOdysseyExamples(t *testing.T) {
	p := odyssey()
	n := &Normalizers{Nodes: 1, CPUs: 1}
	const now = 1_700_000_000
	tests := []struct {
		name      string
		fs        float64
		accrue    int64
		want      uint32
		wantAge   float64
		wantShare float64
	}{
		{"fair-share 1.0", 1.0, 0, 20_000_000, 0, 20_000_000}, // 1.0 × 20e6
		{"fair-share 0.5", 0.5, 0, 10_000_000, 0, 10_000_000}, // 0.5 × 20e6
		{"fair-share 0.5, just accruing", 0.5, now, 10_000_000, 0, 10_000_000},
		{"3.5 days pending", 0, now - 3.5*day, 5_000_000, 5_000_000, 0}, // 302400/604800 × 10e6
		{"7 days pending", 0, now - 7*day, 10_000_000, 10_000_000, 0},   // age factor caps at 1
		{"30 days pending", 0, now - 30*day, 10_000_000, 10_000_000, 0}, // still 1
		{"fs 0 after 7 days ties fresh fs 0.5", 0, now - 7*day, 10_000_000, 10_000_000, 0},
		{"fs 1.0 and 3.5 days", 1.0, now - 3.5*day, 25_000_000, 5_000_000, 20_000_000},
		{"accrue in the future", 1.0, now + 60, 20_000_000, 0, 20_000_000},
	}
	for _, tt := range tests {
		j := &Job{FairShare: tt.fs, AccrueTime: tt.accrue}
		got, f := p.Compute(n, j, now)
		if got != tt.want || f.Age != tt.wantAge || f.FairShare != tt.wantShare {
			t.Errorf("%s: priority %d (age %v, fs %v), want %d (age %v, fs %v)",
				tt.name, got, f.Age, f.FairShare, tt.want, tt.wantAge, tt.wantShare)
		}
	}
	// The tie, stated directly.
	old, _ := p.Compute(n, &Job{FairShare: 0, AccrueTime: now - 7*day}, now)
	fresh, _ := p.Compute(n, &Job{FairShare: 0.5, AccrueTime: now}, now)
	if old != fresh || old != 10_000_000 {
		t.Errorf("7-day fs-0 job %d vs fresh fs-0.5 job %d, want both 10000000", old, fresh)
	}
}

func TestAgeFactor(t *testing.T) {
	tests := []struct {
		accrue, now, maxAge int64
		want                float64
	}{
		{0, 1000, 604800, 0},                // not accruing
		{1000, 1000, 604800, 0},             // just started
		{2000, 1000, 604800, 0},             // accrue in the future
		{1000, 1000 + 151200, 604800, 0.25}, // 1.75 days of 7
		{1000, 1000 + 604799, 604800, 604799.0 / 604800},
		{1000, 1000 + 604800, 604800, 1},
		{1000, 5000, 0, 1}, // PriorityMaxAge=0: any accruing job is at the cap
		{1000, 500, 0, 1},  // even with accrue in the future (diff 0 is not < 0)
	}
	for _, tt := range tests {
		if got := AgeFactor(tt.accrue, tt.now, tt.maxAge); got != tt.want {
			t.Errorf("AgeFactor(%d, %d, %d) = %v, want %v", tt.accrue, tt.now, tt.maxAge, got, tt.want)
		}
	}
}

func TestClampAndTruncate(t *testing.T) {
	n := &Normalizers{Nodes: 1, CPUs: 1}
	tests := []struct {
		name string
		p    Params
		j    Job
		want uint32
	}{
		{"all zero clamps to 1", DefaultParams(), Job{}, 1},
		{"nice pushes below 1", Params{Weights: Weights{Fairshare: 1000}}, Job{FairShare: 1, Nice: 5000}, 1}, // 1000 − 5000
		{"NaN fair-share clamps to 1", Params{Weights: Weights{Fairshare: 1000}}, Job{FairShare: math.NaN()}, 1},
		{"0.999 clamps to 1", Params{Weights: Weights{Fairshare: 999}}, Job{FairShare: 0.001}, 1},
		{"1.5 truncates to 1", Params{Weights: Weights{Fairshare: 3}}, Job{FairShare: 0.5}, 1},
		{"9.9 truncates to 9", Params{Weights: Weights{Fairshare: 10}}, Job{FairShare: 0.99}, 9},
		{"2.75 truncates to 2", Params{Weights: Weights{Fairshare: 11}}, Job{FairShare: 0.25}, 2},
		// 4,000,000,000 + 4,000,000,000 > 2^32−1.
		{"over 32 bits", Params{Weights: Weights{Fairshare: 4e9, QOS: 4e9}}, Job{FairShare: 1, QOSPriority: 1}, math.MaxUint32},
		{"exactly 2^32−1", Params{Weights: Weights{Fairshare: math.MaxUint32}}, Job{FairShare: 1}, math.MaxUint32},
		{"+Inf fair-share", Params{Weights: Weights{Fairshare: 1}}, Job{FairShare: math.Inf(1)}, math.MaxUint32},
		{"site factor adds", DefaultParams(), Job{Site: 500}, 500},
		{"negative nice adds", DefaultParams(), Job{Nice: -250}, 250},
	}
	for _, tt := range tests {
		nn := *n
		if tt.j.QOSPriority != 0 {
			nn.MaxQOSPriority = tt.j.QOSPriority
		}
		got, f := tt.p.Compute(&nn, &tt.j, 0)
		if got != tt.want {
			t.Errorf("%s: priority %d, want %d (sum %v)", tt.name, got, tt.want, f.Sum())
		}
	}
	for _, c := range []struct {
		sum  float64
		want uint32
	}{
		{-1e30, 1}, {0, 1}, {0.5, 1}, {1, 1}, {1.9999, 1}, {2, 2},
		{4294967294.9, 4294967294}, {4294967295, 4294967295}, {4294967295.99, 4294967295},
		{4294967296, 4294967295}, {1e300, 4294967295}, {math.NaN(), 1}, {math.Inf(-1), 1},
	} {
		if got := ClampPriority(c.sum); got != c.want {
			t.Errorf("ClampPriority(%v) = %d, want %d", c.sum, got, c.want)
		}
	}
}

func TestUpdatePriorityIncrOnly(t *testing.T) {
	if got := UpdatePriority(FlagFairTree, 500, 400); got != 400 {
		t.Errorf("without INCR_ONLY a lower value replaces: %d", got)
	}
	if got := UpdatePriority(FlagIncrOnly, 500, 400); got != 500 {
		t.Errorf("INCR_ONLY keeps the larger stored value: %d", got)
	}
	if got := UpdatePriority(FlagIncrOnly, 500, 600); got != 600 {
		t.Errorf("INCR_ONLY takes a larger value: %d", got)
	}
}

func TestJobSizeFactor(t *testing.T) {
	// 64 active nodes, 2048 CPUs: powers of two keep every value exact.
	n := &Normalizers{Nodes: 64, CPUs: 2048}
	tests := []struct {
		name  string
		j     Job
		small bool
		flags PriorityFlags
		want  float64
	}{
		{"large: nodes and cpus", Job{MinNodes: 16, CPUs: 512}, false, 0, 0.25},                                                                         // (16/64 + 512/2048)/2
		{"large: nodes only", Job{MinNodes: 16}, false, 0, 0.25},                                                                                        // 16/64, no CPU count
		{"large: whole machine", Job{MinNodes: 64, CPUs: 2048}, false, 0, 1},                                                                            // (1 + 1)/2
		{"large: mixed", Job{MinNodes: 1, CPUs: 1024}, false, 0, 0.2578125},                                                                             // (1/64 + 1/2)/2
		{"large: more nodes than exist", Job{MinNodes: 128}, false, 0, 1},                                                                               // 2 → clamped
		{"small: nodes and cpus", Job{MinNodes: 16, CPUs: 512}, true, 0, 0.75},                                                                          // ((64−16)/64 + (2048−512)/2048)/2
		{"small: one node", Job{MinNodes: 1}, true, 0, 0.984375},                                                                                        // 63/64
		{"small: whole machine", Job{MinNodes: 64, CPUs: 2048}, true, 0, 0},                                                                             // (0 + 0)/2
		{"small: more cpus than exist", Job{MinNodes: 64, CPUs: 4096}, true, 0, 0},                                                                      // (0 + −1)/2 → clamped
		{"relative: node size wins", Job{MinNodes: 2, CPUs: 32, TimeLimit: 16}, false, FlagSmallRelativeToTime, 0.001953125},                            // max(2×2048/64, 32)=64; 64/16/2048
		{"relative: cpus win", Job{MinNodes: 1, CPUs: 256, TimeLimit: 8}, false, FlagSmallRelativeToTime, 0.015625},                                     // 256/8/2048
		{"relative: full system, 1 minute", Job{MinNodes: 64, CPUs: 2048, TimeLimit: 1}, false, FlagSmallRelativeToTime, 1},                             // 2048/1/2048
		{"relative: favor small", Job{MinNodes: 2, CPUs: 32, TimeLimit: 16}, true, FlagSmallRelativeToTime, 0.998046875},                                // 1 − 64/16/2048
		{"relative: unset limit uses partition MaxTime", Job{MinNodes: 2, TimeLimit: NoVal, PartMaxTime: 4}, false, FlagSmallRelativeToTime, 0.0078125}, // 64/4/2048
		{"relative: infinite limit used as is", Job{MinNodes: 2, TimeLimit: Infinite}, false, FlagSmallRelativeToTime, 64.0 / 4294967295 / 2048},
		{"relative: zero limit", Job{MinNodes: 2, TimeLimit: 0}, false, FlagSmallRelativeToTime, 1},                         // 64/0 = +Inf → 1
		{"relative: zero limit, favor small", Job{MinNodes: 2, TimeLimit: 0}, true, FlagSmallRelativeToTime, 0},             // 1 − Inf → 0
		{"relative: nothing over nothing", Job{TimeLimit: 0}, false, FlagSmallRelativeToTime, 0},                            // 0/0 → 0, not NaN
		{"relative overrides favor small", Job{MinNodes: 64, CPUs: 2048, TimeLimit: 2}, true, FlagSmallRelativeToTime, 0.5}, // 1 − 2048/2/2048
	}
	for _, tt := range tests {
		if got := JobSizeFactor(&tt.j, n, tt.small, tt.flags); got != tt.want {
			t.Errorf("%s: job size %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := JobSizeFactor(&Job{MinNodes: 1, CPUs: 1}, &Normalizers{}, false, 0); got != 0 {
		t.Errorf("empty cluster: %v, want 0", got)
	}
	// Weighted through Compute: PriorityWeightJobSize=1000 × 0.25.
	p := DefaultParams()
	p.JobSize = 1000
	if prio, f := p.Compute(n, &Job{MinNodes: 16, CPUs: 512}, 0); prio != 250 || f.JobSize != 250 {
		t.Errorf("weighted job size: %d (%v), want 250", prio, f.JobSize)
	}
	if got := JobCPUs(48, 96, 8); got != 48 {
		t.Errorf("JobCPUs prefers total_cpus: %d", got)
	}
	if got := JobCPUs(0, 96, 8); got != 96 {
		t.Errorf("JobCPUs then max_cpus: %d", got)
	}
	if got := JobCPUs(0, NoVal, 8); got != 8 {
		t.Errorf("JobCPUs then min_cpus: %d", got)
	}
}

func TestNormalisedFactors(t *testing.T) {
	p := DefaultParams()
	p.Partition, p.QOS, p.Assoc = 1000, 10000, 100
	n := &Normalizers{Nodes: 1, CPUs: 1, MaxPartJobFactor: 10, MaxQOSPriority: 1000, MaxAssocPriority: 4}
	j := &Job{PartJobFactor: 5, QOSPriority: 250, AssocPriority: 3}
	tests := []struct {
		flags            PriorityFlags
		part, qos, assoc float64
		prio             uint32
	}{
		// 1000×5/10, 10000×250/1000, 100×3/4.
		{0, 500, 2500, 75, 3075},
		{FlagNoNormalPart, 5000, 2500, 75, 7575},       // 1000×5
		{FlagNoNormalQOS, 500, 2_500_000, 75, 2500575}, // 10000×250
		{FlagNoNormalAssoc, 500, 2500, 300, 3300},      // 100×3
		{FlagNoNormalAll, 5000, 2_500_000, 300, 2505300},
	}
	for _, tt := range tests {
		q := p
		q.Flags = tt.flags | FlagFairTree
		prio, f := q.Compute(n, j, 0)
		if f.Partition != tt.part || f.QOS != tt.qos || f.Assoc != tt.assoc || prio != tt.prio {
			t.Errorf("flags %q: part %v qos %v assoc %v prio %d, want %v %v %v %d",
				tt.flags, f.Partition, f.QOS, f.Assoc, prio, tt.part, tt.qos, tt.assoc, tt.prio)
		}
	}
	// Partition normaliser floor is 1; zero priorities give zero factors.
	if got := PartitionFactor(3, 0, 0); got != 3 {
		t.Errorf("PartitionFactor with max 0 = %v, want 3 (max floored to 1)", got)
	}
	if PartitionFactor(0, 10, FlagNoNormalPart) != 0 || QOSFactor(0, 10, FlagNoNormalQOS) != 0 || AssocFactor(0, 10, 0) != 0 {
		t.Error("a zero priority must give a zero factor")
	}
	if got := QOSFactor(5, 0, 0); got != 0 {
		t.Errorf("QOSFactor with no maximum = %v, want 0", got)
	}
	// The QOS normaliser comes from QOSSet.
	set, err := NewQOSSet([]QOS{{Name: "normal", Priority: 1000, UsageFactor: 1}, {Name: "standby", UsageFactor: 1}, {Name: "high", Priority: 4000, UsageFactor: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if set.MaxPriority() != 4000 || set.NormPriority(0) != 0.25 || set.NormPriority(1) != 0 || set.NormPriority(2) != 1 {
		t.Errorf("QOSSet normaliser: max %d, norms %v %v %v", set.MaxPriority(), set.NormPriority(0), set.NormPriority(1), set.NormPriority(2))
	}
}

func TestTRESFactor(t *testing.T) {
	p := DefaultParams()
	var err error
	p.WeightTRES, err = ParseTRESWeights("CPU=1000,Mem=2000,GRES/gpu=3000,license/matlab=-400")
	if err != nil {
		t.Fatal(err)
	}
	part := &TRESAlloc{CPU: 64, MemMB: 128 * gib, Node: 4, Other: []TRESCount{{"gres/gpu", 8}, {"license/matlab", 10}}}
	job := &TRESAlloc{CPU: 16, MemMB: 32 * gib, Node: 1, Other: []TRESCount{{"gres/gpu", 1}, {"license/matlab", 5}}}
	n := &Normalizers{Nodes: 4, CPUs: 64}

	prio, f := p.Compute(n, &Job{TRES: job, PartTRES: part}, 0)
	// cpu 16/64×1000=250, mem 32/128×2000=500, gpu 1/8×3000=375, matlab 5/10×−400=−200.
	want := []float64{250, 500, 375, -200}
	if f.NTRES != 4 {
		t.Fatalf("NTRES = %d, want 4", f.NTRES)
	}
	for i, w := range want {
		if f.TRES[i] != w {
			t.Errorf("TRES term %s = %v, want %v", p.WeightTRES[i].Name, f.TRES[i], w)
		}
	}
	if prio != 925 || f.TRESSum() != 925 {
		t.Errorf("priority %d (TRES %v), want 925", prio, f.TRESSum())
	}

	// NO_NORMAL_TRES: raw amounts, memory in MB.
	p.Flags |= FlagNoNormalTRES
	_, f = p.Compute(n, &Job{TRES: job, PartTRES: part}, 0)
	// 16×1000, 32768×2000, 1×3000, 5×−400.
	for i, w := range []float64{16000, 65_536_000, 3000, -2000} {
		if f.TRES[i] != w {
			t.Errorf("NO_NORMAL_TRES term %s = %v, want %v", p.WeightTRES[i].Name, f.TRES[i], w)
		}
	}
	p.Flags &^= FlagNoNormalTRES

	// A TRES the partition lacks contributes nothing; so does a missing job TRES.
	noGPU := &TRESAlloc{CPU: 64, MemMB: 128 * gib}
	_, f = p.Compute(n, &Job{TRES: job, PartTRES: noGPU}, 0)
	if f.TRES[2] != 0 || f.TRES[3] != 0 || f.TRESSum() != 750 {
		t.Errorf("partition without gpu/licence: terms %v, sum %v, want gpu 0, licence 0, 750", f.TRES[:4], f.TRESSum())
	}
	_, f = p.Compute(n, &Job{}, 0)
	if f.NTRES != 0 || f.TRESSum() != 0 {
		t.Errorf("job without TRES: %d terms, sum %v", f.NTRES, f.TRESSum())
	}
}

// Every term at once: the Factors add up to the priority before truncation.
func TestFactorsSumToPriority(t *testing.T) {
	p := Params{
		Weights:    Weights{Age: 1000, Assoc: 300, Fairshare: 5000, JobSize: 700, Partition: 200, QOS: 900},
		MaxAge:     DefaultMaxAge,
		FavorSmall: true,
		Flags:      DefaultPriorityFlags,
	}
	p.WeightTRES, _ = ParseTRESWeights("CPU=10,GRES/gpu=30")
	n := &Normalizers{Nodes: 10, CPUs: 320, MaxPartJobFactor: 3, MaxQOSPriority: 7, MaxAssocPriority: 9}
	job := &TRESAlloc{CPU: 32, Other: []TRESCount{{"gres/gpu", 1}}}
	part := &TRESAlloc{CPU: 320, Other: []TRESCount{{"gres/gpu", 3}}}
	j := &Job{AccrueTime: 100, MinNodes: 1, CPUs: 32, PartJobFactor: 2, QOSPriority: 5, AssocPriority: 4,
		FairShare: 0.337, TRES: job, PartTRES: part, Nice: 17, Site: 42}
	prio, f := p.Compute(n, j, 100+86_400)
	sum := f.Site + f.Age + f.Assoc + f.FairShare + f.JobSize + f.Partition + f.QOS + f.TRES[0] + f.TRES[1] - f.Nice
	if f.Sum() != sum {
		t.Errorf("Sum %v != terms added by hand %v", f.Sum(), sum)
	}
	if prio != uint32(sum) || prio != ClampPriority(f.Sum()) {
		t.Errorf("priority %d, want trunc(%v)", prio, sum)
	}
	// Each term is its weight times its factor, in float64 arithmetic
	// (variables, so the compiler does not fold exact constants).
	x := func(v float64) float64 { return v }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"age", f.Age, x(1000) * (x(86400) / x(604800))},
		{"assoc", f.Assoc, x(300) * (x(4) / x(9))},
		{"fairshare", f.FairShare, x(5000) * x(0.337)},
		{"jobsize", f.JobSize, x(700) * ((x(9)/x(10) + (x(320)-x(32))/x(320)) / 2)},
		{"partition", f.Partition, x(200) * (x(2) / x(3))},
		{"qos", f.QOS, x(900) * (x(5) / x(7))},
		{"tres cpu", f.TRES[0], x(10) * (x(32) / x(320))},
		{"tres gpu", f.TRES[1], x(30) * (x(1) / x(3))},
		{"site", f.Site, 42},
		{"nice", f.Nice, 17},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s term %v, want %v", c.name, c.got, c.want)
		}
	}
	// 42 + 142.857 + 133.333 + 1685 + 630 + 133.333 + 642.857 + 1 + 10 − 17 = 3403.381
	if prio != 3403 {
		t.Errorf("priority %d, want 3403", prio)
	}
}

func TestComputeDoesNotAllocate(t *testing.T) {
	p := odyssey()
	p.WeightTRES, _ = ParseTRESWeights("CPU=10,Mem=1G,GRES/gpu=30")
	n := &Normalizers{Nodes: 10, CPUs: 320}
	part := &TRESAlloc{CPU: 320, MemMB: 1 << 20, Other: []TRESCount{{"gres/gpu", 3}}}
	j := &Job{AccrueTime: 1, CPUs: 4, MinNodes: 1, FairShare: 0.4, TRES: &TRESAlloc{CPU: 4, MemMB: 4096, Other: []TRESCount{{"gres/gpu", 1}}}, PartTRES: part}
	allocs := testing.AllocsPerRun(100, func() { p.Compute(n, j, 1000) })
	if allocs != 0 {
		t.Errorf("Compute allocates %v times per call", allocs)
	}
}

// BenchmarkRecompute100k recomputes 100,000 pending jobs' priorities, one
// decay-thread tick. The target is under 50 ms per iteration.
func BenchmarkRecompute100k(b *testing.B) {
	const jobs = 100_000
	p := Params{
		Weights: Weights{Age: 10_000_000, Assoc: 1000, Fairshare: 20_000_000, JobSize: 1000, Partition: 1000, QOS: 100_000},
		MaxAge:  DefaultMaxAge,
		Flags:   DefaultPriorityFlags,
	}
	p.WeightTRES, _ = ParseTRESWeights("CPU=100,Mem=50G,GRES/gpu=1000")
	n := &Normalizers{Nodes: 1000, CPUs: 32000, MaxPartJobFactor: 10, MaxQOSPriority: 100, MaxAssocPriority: 10}
	part := &TRESAlloc{CPU: 32000, MemMB: 128_000_000, Node: 1000, Other: []TRESCount{{"gres/gpu", 400}}}
	js := make([]Job, jobs)
	tres := make([]TRESAlloc, jobs)
	for i := range js {
		tres[i] = TRESAlloc{CPU: uint64(1 + i%64), MemMB: uint64(1024 * (1 + i%256)), Node: 1}
		if i%7 == 0 {
			tres[i].Other = []TRESCount{{"gres/gpu", uint64(1 + i%4)}}
		}
		js[i] = Job{
			AccrueTime: int64(1_000_000 - i), MinNodes: uint32(1 + i%8), CPUs: uint32(1 + i%64),
			TimeLimit: uint32(60 + i%1440), PartJobFactor: uint32(1 + i%10), QOSPriority: uint32(i % 100),
			AssocPriority: uint32(i % 10), FairShare: float64(i%1000) / 1000, TRES: &tres[i], PartTRES: part,
		}
	}
	prio := make([]uint32, jobs)
	b.ReportAllocs()
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		for i := range js {
			prio[i], _ = p.Compute(n, &js[i], 1_500_000)
		}
	}
}

// PriorityWeightTRES with GPUs, worked by hand after _get_tres_factors and
// _get_tres_prio_weighted (priority_multifactor.c): each TRES's factor is
// the job's count (tres_alloc_cnt when running, else tres_req_cnt) over the
// partition's tres_cnt, which _calc_part_tres (partition_mgr.c) sums over
// the partition's nodes, typed gres as their own TRES; a TRES the job does
// not hold, or the partition lacks, gives 0; the term is factor × weight.
func TestTRESFactorGPUs(t *testing.T) {
	p := DefaultParams()
	var err error
	if p.WeightTRES, err = ParseTRESWeights("CPU=1000,GRES/gpu=2000,GRES/gpu:a100=4000"); err != nil {
		t.Fatal(err)
	}
	// 4 nodes of 64 CPUs: two with 4 A100, two with 4 V100.
	part := &TRESAlloc{CPU: 256, MemMB: 1024 * gib, Node: 4,
		Other: []TRESCount{{"gres/gpu", 16}, {"gres/gpu:a100", 8}, {"gres/gpu:v100", 8}}}
	cpuOnly := &TRESAlloc{CPU: 256, MemMB: 1024 * gib, Node: 4}
	n := &Normalizers{Nodes: 4, CPUs: 256}
	tests := []struct {
		name  string
		job   *TRESAlloc
		part  *TRESAlloc
		flags PriorityFlags
		want  [3]float64 // cpu, gres/gpu, gres/gpu:a100
	}{
		// 32/256 × 1000 = 125; 2/16 × 2000 = 250; 2/8 × 4000 = 1000.
		{"2 A100", &TRESAlloc{CPU: 32, Other: []TRESCount{{"gres/gpu", 2}, {"gres/gpu:a100", 2}}}, part, 0, [3]float64{125, 250, 1000}},
		// V100s: no A100 term.
		{"2 V100", &TRESAlloc{CPU: 32, Other: []TRESCount{{"gres/gpu", 2}, {"gres/gpu:v100", 2}}}, part, 0, [3]float64{125, 250, 0}},
		// No GPUs in a GPU partition: both GPU terms 0.
		{"no GPU", &TRESAlloc{CPU: 32}, part, 0, [3]float64{125, 0, 0}},
		// A whole GPU node: 64/256 × 1000 = 250, 4/16 × 2000 = 500, 4/8 × 4000 = 2000.
		{"A100 node", &TRESAlloc{CPU: 64, Other: []TRESCount{{"gres/gpu", 4}, {"gres/gpu:a100", 4}}}, part, 0, [3]float64{250, 500, 2000}},
		// A partition without GPUs: its tres_cnt is 0, the terms are 0.
		{"partition without GPUs", &TRESAlloc{CPU: 32, Other: []TRESCount{{"gres/gpu", 2}, {"gres/gpu:a100", 2}}}, cpuOnly, 0, [3]float64{125, 0, 0}},
		// NO_NORMAL_TRES: raw counts × weight: 32×1000, 2×2000, 2×4000.
		{"NO_NORMAL_TRES", &TRESAlloc{CPU: 32, Other: []TRESCount{{"gres/gpu", 2}, {"gres/gpu:a100", 2}}}, part, FlagNoNormalTRES, [3]float64{32000, 4000, 8000}},
	}
	for _, tt := range tests {
		p.Flags = DefaultPriorityFlags | tt.flags
		prio, f := p.Compute(n, &Job{TRES: tt.job, PartTRES: tt.part}, 0)
		if f.NTRES != 3 {
			t.Fatalf("%s: NTRES = %d, want 3", tt.name, f.NTRES)
		}
		if got := [3]float64(f.TRES[:3]); got != tt.want {
			t.Errorf("%s: TRES terms %v, want %v", tt.name, got, tt.want)
		}
		if sum := tt.want[0] + tt.want[1] + tt.want[2]; prio != uint32(sum) {
			t.Errorf("%s: priority %d, want %v", tt.name, prio, sum)
		}
	}
}
