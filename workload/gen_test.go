package workload

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.4f, want %.4f ± %.4f", what, got, want, tol)
	}
}

// TestGenStatistics checks a 20,000-job trace against its parameters. The
// tolerances are about three standard errors of each estimate.
func TestGenStatistics(t *testing.T) {
	c := DefaultGenConfig()
	c.Seed, c.Jobs, c.Days = 7, 20000, 28 // whole weeks, so the weekly cycle averages out
	c.Features, c.FeatureShare, c.MemShare = []string{"haswell", "skylake"}, 0.2, 0.3
	g, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	jobs := g.Jobs
	n := float64(len(jobs))
	if len(jobs) != c.Jobs {
		t.Fatalf("%d jobs", len(jobs))
	}

	// Arrival rate: the 20,000th arrival near day 28 (sd about 0.7 %).
	span := float64(jobs[len(jobs)-1].Submit) / 86400
	within(t, "span in days", span, 28, 28*0.03)
	// Daily cycle: the share arriving 08:00-20:00 is
	// (12 + 0.5*(24/2π)*2)/24 = 0.6592 with amplitude 0.5.
	// Weekly cycle: weekends carry 2*0.5/(5+2*0.5) = 1/6.
	day, weekend := 0.0, 0.0
	for _, j := range jobs {
		h := float64((c.StartTime+j.Submit)%86400) / 3600
		if h >= 8 && h < 20 {
			day++
		}
		if dow := ((c.StartTime+j.Submit)/86400 + 3) % 7; dow >= 5 {
			weekend++
		}
	}
	within(t, "daytime share", day/n, (12+0.5*24/math.Pi)/24, 0.02)
	within(t, "weekend share", weekend/n, 1.0/6, 0.02)

	// Sizes: 75 % powers of two (binomial sd 0.3 %), all within 1..256.
	pow2, logs, limitBad := 0.0, []float64{}, 0
	for _, j := range jobs {
		if j.CPUs < 1 || j.CPUs > c.MaxCPUs || j.AllocCPUs != j.CPUs {
			t.Fatalf("job %d size %d", j.ID, j.CPUs)
		}
		if bits.OnesCount(uint(j.CPUs)) == 1 {
			pow2++
		}
		logs = append(logs, math.Log(float64(j.Runtime)))
		if j.TimeLimit < j.Runtime || j.TimeLimit > c.MaxLimit || (j.TimeLimit%60 != 0 && j.TimeLimit != c.MaxLimit) {
			limitBad++
		}
	}
	within(t, "power-of-two share", pow2/n, 0.75, 0.015)
	if limitBad > 0 {
		t.Errorf("%d limits below their run time, above the cap or not whole minutes", limitBad)
	}
	// Runtime: lognormal, median 1800 (log sd of the median 1.25*1.5/√n = 0.013), log-mean ln 1800.
	slices.Sort(logs)
	within(t, "log of median runtime", logs[len(logs)/2], math.Log(1800), 0.05)
	within(t, "log-mean runtime", mean(logs), math.Log(1800), 0.05)
	// Limits: twice the run time, rounded up to a minute.
	for _, j := range jobs[:100] {
		if want := min((int64(math.Ceil(float64(j.Runtime)*2/60)))*60, c.MaxLimit); j.TimeLimit != want {
			t.Fatalf("job %d: limit %d for run time %d, want %d", j.ID, j.TimeLimit, j.Runtime, want)
		}
	}

	// Users: Zipf s=1 over 50 users, user 1 has 1/H(50) = 0.2222; accounts round-robin.
	u1, feat, mem := 0.0, 0.0, 0.0
	for _, j := range jobs {
		if j.User == 0 {
			u1++
		}
		if j.Account != j.User%int32(c.Accounts) || j.Group != j.Account {
			t.Fatalf("job %d: user %d account %d group %d", j.ID, j.User, j.Account, j.Group)
		}
		if j.Feature != Unset {
			feat++
		}
		if j.MemPerCPU != Unset {
			mem++
			if j.MemPerCPU < 1000 || j.MemPerCPU > 8000 || j.MemPerCPU%100 != 0 {
				t.Fatalf("job %d memory %d", j.ID, j.MemPerCPU)
			}
		}
	}
	h50 := 0.0
	for i := 1; i <= 50; i++ {
		h50 += 1 / float64(i)
	}
	within(t, "user 1 share", u1/n, 1/h50, 0.015)
	within(t, "feature share", feat/n, 0.2, 0.015)
	within(t, "memory share", mem/n, 0.3, 0.015)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func TestGenLogUniform(t *testing.T) {
	c := DefaultGenConfig()
	c.Seed, c.Jobs, c.Runtime = 3, 10000, "loguniform"
	g, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	var logs []float64
	for _, j := range g.Jobs {
		if j.Runtime < 60 || j.Runtime > 86400 {
			t.Fatalf("job %d run time %d outside 60..86400", j.ID, j.Runtime)
		}
		logs = append(logs, math.Log(float64(j.Runtime)))
	}
	// Uniform on [ln 60, ln 86400]: mean (ln 60 + ln 86400)/2, sd of the mean 2.1/√n = 0.021.
	want := (math.Log(60) + math.Log(86400)) / 2
	within(t, "log-mean runtime", mean(logs), want, 0.065)
	slices.Sort(logs)
	within(t, "log of median runtime", logs[len(logs)/2], want, 0.1)
}

func TestGenDeterministic(t *testing.T) {
	c := DefaultGenConfig()
	c.Seed, c.Jobs = 7, 5000
	a, err := GenerateSWF(c)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateSWF(c)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with seed 7 differ")
	}
	c.Seed = 8
	if d, _ := GenerateSWF(c); bytes.Equal(a, d) {
		t.Fatal("seeds 7 and 8 give the same trace")
	}
	// The header records every parameter and reads back.
	r, err := NewSWFReader(bytes.NewReader(a), "gen.swf", SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	jobs := drain(r)
	h := r.Header()
	if len(jobs) != 5000 || h.MaxProcs != 256 || h.MaxNodes != 8 || h.UnixStartTime != 1704067200 || h.MaxJobs != 5000 {
		t.Errorf("%d jobs, header %+v", len(jobs), h)
	}
	note := "fairsim gen seed=7 jobs=5000 days=30 daily=0.5 weekend=0.5 start=1704067200 max-cpus=256 cpus-per-node=32 pow2=0.75 " +
		"runtime=lognormal median=1800 sigma=1.5 min=60 max=86400 limit-factor=2 max-limit=604800 users=50 zipf=1 " +
		"accounts=5 shares=1,1,1,1,1 partitions=batch features= feature-share=0.2 mem-share=0 mem=1000..8000 cluster=gen"
	if len(h.Notes) == 0 || h.Notes[0] != note {
		t.Errorf("notes %q\nwant %q", h.Notes, note)
	}
	g, _ := Generate(func() GenConfig { c.Seed = 7; return c }())
	for i, j := range jobs {
		o := g.Jobs[i]
		if j.ID != o.ID || j.Submit != o.Submit || j.Runtime != o.Runtime || j.CPUs != o.CPUs || j.TimeLimit != o.TimeLimit ||
			r.Names().Users.Name(j.User) != g.Names.Users.Name(o.User) || r.Names().Groups.Name(j.Group) != g.Names.Groups.Name(o.Group) {
			t.Fatalf("job %d reads back as %+v, generated %+v", i, j, o)
		}
	}
	var dump strings.Builder
	if err := g.WriteAssoc(&dump); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dump.String(), "Cluster - 'gen':Fairshare=1\nParent - 'root'\nAccount - 'g1':Description='g1':Organization='g1':Fairshare=1\n") ||
		!strings.Contains(dump.String(), "Parent - 'g5'\nUser - 'u10':DefaultAccount='g5':Fairshare=1\n") {
		t.Errorf("dump:\n%s", dump.String())
	}
}

func TestGenShares(t *testing.T) {
	if got := genShares([]float64{40, 30, 20, 10}); !slices.Equal(got, []int{40, 30, 20, 10}) {
		t.Errorf("whole shares: %v", got)
	}
	// 0.5/1.75 = 286 thousandths, 1/1.75 = 571, 0.25/1.75 = 143.
	if got := genShares([]float64{0.5, 1, 0.25}); !slices.Equal(got, []int{286, 571, 143}) {
		t.Errorf("fractional shares: %v", got)
	}
}

func TestGenValidate(t *testing.T) {
	tests := []struct {
		change func(*GenConfig)
		want   string
	}{
		{func(c *GenConfig) { c.Jobs = 0 }, "jobs 0: want 1..100000000"},
		{func(c *GenConfig) { c.Days = -1 }, "days -1: want a positive number"},
		{func(c *GenConfig) { c.Days = 1e300 }, "days 1e+300: want at most 36525 (the 100 years a run may span)"},
		{func(c *GenConfig) { c.Days = 36526 }, "days 36526: want at most 36525 (the 100 years a run may span)"},
		{func(c *GenConfig) { c.Runtime = "pareto" }, `runtime distribution "pareto": want lognormal or loguniform`},
		{func(c *GenConfig) { c.LimitFactor = 0.5 }, "limit factor 0.5: want at least 1"},
		{func(c *GenConfig) { c.Accounts = 60 }, "accounts 60: want 1..users (50)"},
		{func(c *GenConfig) { c.Shares = []float64{1, 2} }, "2 shares for 5 accounts"},
		{func(c *GenConfig) { c.PowerOfTwo = 1.5 }, "power-of-two share 1.5: want 0..1"},
	}
	for _, tc := range tests {
		c := DefaultGenConfig()
		tc.change(&c)
		if _, err := Generate(c); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
	// A machine of 2 CPUs has only powers of two; zero amplitudes are allowed.
	c := DefaultGenConfig()
	c.MaxCPUs, c.Daily, c.PowerOfTwo, c.Jobs = 2, 0, 0, 200
	g, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range g.Jobs {
		if j.CPUs != 1 && j.CPUs != 2 {
			t.Fatalf("size %d on a 2-CPU machine", j.CPUs)
		}
	}
}
