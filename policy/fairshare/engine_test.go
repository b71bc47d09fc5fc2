package fairshare

import (
	"math"
	"reflect"
	"testing"
)

func twoLevel(t *testing.T) (*Tree, int, int) {
	tr := newBuilder(t).acct("a", "root", 1).user("u", "a", 1).acct("b", "root", 1).user("v", "b", 1).done()
	return tr, mustLookup(t, tr, "a", "u"), mustLookup(t, tr, "a", "")
}

func TestChargeSlices(t *testing.T) {
	tr, u, a := twoLevel(t)
	dec := NewDecay(week, false)
	e := newEngine(t, tr, Config{HalfLife: week})

	// Before the first tick lastRan is unset: the slice starts at the
	// job's start (slurmctld's first pass charges since start_time).
	e.BeginTick(1000)
	e.Charge(u, 400, 1000, 4, 1, TRES{}) // 600 s · df^600 · 4
	e.EndTick(1000)
	want := 600 * dec.pow(600) * 4
	if e.Usage(u) != want || e.Usage(a) != want || e.Usage(0) != want {
		t.Fatalf("first slice: user %v acct %v root %v, want %v", e.Usage(u), e.Usage(a), e.Usage(0), want)
	}
	if !e.Started() || e.LastRan() != 1000 {
		t.Fatalf("LastRan = %d", e.LastRan())
	}

	// Next tick: decay by df^300 first, then the slice since lastRan.
	e.BeginTick(1300)
	want *= dec.Factor(300)
	if e.Usage(u) != want {
		t.Fatalf("decayed usage %v, want %v", e.Usage(u), want)
	}
	e.Charge(u, 400, 1300, 4, 2, TRES{}) // UsageFactor 2: 300·df^300·4·2
	e.EndTick(1300)
	want += 300 * dec.pow(300) * 4 * 2
	if e.Usage(u) != want || e.Usage(0) != want {
		t.Fatalf("usage %v, want %v", e.Usage(u), want)
	}

	// A job that ends between ticks: the slice since lastRan is decayed
	// when charged and again by the next tick (the real double decay).
	before := e.Usage(u)
	e.ChargeAtEnd(u, 400, 1400, 4, 1, TRES{}) // 100 s
	end := 100 * dec.pow(100) * 4
	if e.Usage(u) != before+end {
		t.Fatalf("at end: %v, want %v", e.Usage(u), before+end)
	}
	e.BeginTick(1600)
	e.EndTick(1600)
	if want := (before + end) * dec.Factor(300); e.Usage(u) != want {
		t.Errorf("after double decay %v, want %v", e.Usage(u), want)
	}

	// A tick at or before lastRan decays nothing.
	cur := e.Usage(u)
	e.BeginTick(1600)
	e.EndTick(1600)
	e.BeginTick(1500)
	e.EndTick(1500)
	if e.Usage(u) != cur {
		t.Errorf("non-advancing tick changed usage: %v → %v", cur, e.Usage(u))
	}
}

func TestChargeEdgeCases(t *testing.T) {
	tr, u, _ := twoLevel(t)
	e := newEngine(t, tr, Config{HalfLife: 0})
	e.BeginTick(0) // time 0 is a real first tick
	e.EndTick(0)
	e.BeginTick(100)
	e.Charge(u, 50, 100, 1, -1, TRES{})         // negative UsageFactor = not set: 50
	e.Charge(u, 50, 100, 1, math.NaN(), TRES{}) // NaN too: 50
	e.Charge(u, 0, 100, 1, 0, TRES{})           // UsageFactor 0 charges nothing
	e.Charge(u, 200, 100, 1, 1, TRES{})         // starts after end: nothing
	e.Charge(u, 0, 100, math.NaN(), 1, TRES{})  // NaN billing dropped
	e.Charge(u, 0, 100, math.Inf(1), 1, TRES{}) // +Inf billing dropped
	e.Charge(-1, 0, 100, 1, 1, TRES{})          // bad index: no-op
	e.Charge(tr.Len(), 0, 100, 1, 1, TRES{})    // bad index: no-op
	e.EndTick(100)
	if e.Usage(u) != 100 {
		t.Errorf("usage %v, want 100 (50+50, HL=0 so no decay)", e.Usage(u))
	}
	for i := range tr.Len() {
		if math.IsNaN(e.Usage(i)) || math.IsNaN(e.FairShare(i)) {
			t.Fatalf("NaN leaked into association %d", i)
		}
	}
}

// usage_tres_raw grows only with AccountingStorageEnforce=limits.
func TestTRESTracking(t *testing.T) {
	tr, u, a := twoLevel(t)
	alloc := TRES{TRESCPU: 4, TRESMem: 8000, TRESNode: 1, TRESBilling: 6}
	for _, track := range []bool{false, true} {
		e := newEngine(t, tr, Config{HalfLife: 0, TrackTRES: track})
		e.BeginTick(0)
		e.EndTick(0)
		e.BeginTick(600)
		e.Charge(u, 0, 600, 6, 0.5, alloc) // 600 s, UsageFactor 0.5
		e.EndTick(600)
		got := e.TRESUsage(a)
		if !track {
			if got != (TRES{}) {
				t.Errorf("without limits TRES usage must stay 0, got %v", got)
			}
			continue
		}
		// 600 · 0.5 · alloc = 300 · (4, 8000, 1, 6) TRES-seconds.
		if want := (TRES{1200, 2400000, 300, 1800}); got != want {
			t.Errorf("TRES usage %v, want %v", got, want)
		}
		if e.UsedWall(0) != 300 {
			t.Errorf("grp_used_wall %v, want 300", e.UsedWall(0))
		}
		// GrpTRESRaw is in minutes: 1200/60 = 20 cpu-min, 40000 mem, 5, 30.
		for _, r := range e.Rows() {
			if r.Assoc == a && r.GrpTRESRaw != [NumTRES]uint64{20, 40000, 5, 30} {
				t.Errorf("GrpTRESRaw %v", r.GrpTRESRaw)
			}
		}
	}
}

func TestQOSUsage(t *testing.T) {
	tr, u, _ := twoLevel(t)
	dec := NewDecay(week, false)
	e := newEngine(t, tr, Config{HalfLife: week, TrackTRES: true, QOSNoDecay: []bool{false, true}})
	e.BeginTick(0)
	e.EndTick(0)
	e.BeginTick(300)
	e.Charge(u, 0, 300, 2, 1, TRES{TRESCPU: 2})
	e.ChargeQOS(0, 0, 300, 2, 1, TRES{TRESCPU: 2})
	e.ChargeQOS(1, 0, 300, 2, 1, TRES{TRESCPU: 2}) // NoDecay: 300·2, undecayed
	e.ChargeQOS(5, 0, 300, 2, 1, TRES{})           // unknown QOS: no-op
	e.EndTick(300)
	if e.QOSUsage(0) != e.Usage(u) || e.QOSUsage(1) != 600 || e.QOSTRESUsage(1)[TRESCPU] != 600 {
		t.Fatalf("qos usage %v %v, user %v", e.QOSUsage(0), e.QOSUsage(1), e.Usage(u))
	}
	e.BeginTick(600)
	if e.QOSUsage(1) != 600 || e.QOSUsage(0) != 300*dec.pow(300)*2*dec.Factor(300) {
		t.Errorf("NoDecay QOS must not decay: %v, decaying QOS %v", e.QOSUsage(1), e.QOSUsage(0))
	}
	e.EndTick(600)
	// A reset zeroes every QOS, NoDecay included (code, not qos.shtml).
	e2 := newEngine(t, tr, Config{HalfLife: week, Reset: ResetNow, QOSNoDecay: []bool{true}})
	e2.led.qosUsage[0] = 42
	e2.BeginTick(0)
	if e2.QOSUsage(0) != 0 {
		t.Errorf("reset must clear NoDecay QOS")
	}
}

func TestSetUsage(t *testing.T) {
	tr := slurm20Tree(t)
	e := newEngine(t, tr, Config{HalfLife: week})
	setUsage(t, e, "C", "user2", 250)
	setUsage(t, e, "C", "user3", 50)
	setUsage(t, e, "B", "user1", 200)
	setUsage(t, e, "C", "user2", 100) // lower it again
	for _, c := range []struct {
		a    string
		want float64
	}{{"C", 150}, {"B", 200}, {"A", 350}, {"D", 0}, {"root", 350}} {
		if got := e.Usage(mustLookup(t, tr, c.a, "")); got != c.want {
			t.Errorf("usage(%s) = %v, want %v", c.a, got, c.want)
		}
	}
	for _, bad := range []struct {
		i int
		v float64
	}{
		{mustLookup(t, tr, "A", ""), 5}, // an account
		{-1, 5}, {tr.Len(), 5},
		{mustLookup(t, tr, "B", "user1"), -1},
		{mustLookup(t, tr, "B", "user1"), math.NaN()},
		{mustLookup(t, tr, "B", "user1"), math.Inf(1)},
	} {
		if err := e.SetUsage(bad.i, bad.v); err == nil {
			t.Errorf("SetUsage(%d, %v) succeeded", bad.i, bad.v)
		}
	}
}

func TestNewEngineErrors(t *testing.T) {
	tr := slurm20Tree(t)
	open := NewTree()
	for name, c := range map[string]struct {
		tr  *Tree
		cfg Config
	}{
		"nil tree":          {nil, Config{}},
		"not finalized":     {open, Config{}},
		"bad algorithm":     {tr, Config{Algorithm: 9}},
		"negative halflife": {tr, Config{HalfLife: -1}},
		"bad reset":         {tr, Config{Reset: 99}},
		"NaN dampening":     {tr, Config{Dampening: math.NaN()}},
		"negative damp":     {tr, Config{Dampening: -2}},
	} {
		if _, err := NewEngine(c.tr, c.cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A heavy account's factor falls while it runs far above its share and
// recovers with the half-life once it stops while the other account keeps
// a steady load.
func TestHeavyAccountFallsAndRecovers(t *testing.T) {
	tr := newBuilder(t).acct("heavy", "root", 1).user("h", "heavy", 1).
		acct("light", "root", 1).user("l", "light", 1).done()
	h, l := mustLookup(t, tr, "heavy", "h"), mustLookup(t, tr, "light", "l")
	for _, alg := range []Algorithm{Classic, FairTree} {
		e := newEngine(t, tr, Config{Algorithm: alg, HalfLife: week})
		tick := func(T int64, heavyRuns bool) {
			e.BeginTick(T)
			if heavyRuns {
				e.Charge(h, 0, T, 100, 1, TRES{}) // 100 CPUs since t=0
			}
			e.Charge(l, 0, T, 10, 1, TRES{}) // 10 CPUs all along
			e.EndTick(T)
		}
		e.Recalc()
		if e.FairShare(h) != 1 {
			t.Fatalf("unused account must start at 1, got %v", e.FairShare(h))
		}
		tick(0, true)
		prev := e.FairShare(h)
		T := int64(0)
		for T < 2*day { // phase 1: heavy runs 10× light's load for 2 days
			T += 300
			tick(T, true)
			if alg == Classic && e.FairShare(h) > prev+1e-12 {
				t.Fatalf("classic: heavy's factor rose while charged at %d: %v > %v", T, e.FairShare(h), prev)
			}
			prev = e.FairShare(h)
		}
		fell := e.FairShare(h)
		switch alg {
		case Classic:
			// UE ≈ 100/110 of the machine against S = 0.5:
			// 2^(−0.909/0.5) ≈ 0.28.
			if fell > 0.3 || e.FairShare(l) < 0.8 {
				t.Fatalf("classic after phase 1: heavy %v light %v", fell, e.FairShare(l))
			}
		case FairTree:
			if fell != 0.5 || e.FairShare(l) != 1 {
				t.Fatalf("fair tree after phase 1: heavy %v light %v", fell, e.FairShare(l))
			}
		}
		// Phase 2: heavy stops. Its usage halves every 7 days while
		// light's approaches 10·HL/ln2; heavy recovers.
		for end := T + 3*week; T < end; {
			T += 300
			tick(T, false)
			if alg == Classic && e.FairShare(h) < prev-1e-12 {
				t.Fatalf("classic: heavy's factor fell while idle at %d", T)
			}
			prev = e.FairShare(h)
		}
		if alg == Classic && prev < 0.6 {
			t.Errorf("classic: heavy only recovered to %v after 3 half-lives", prev)
		}
		if alg == FairTree && (e.FairShare(h) != 1 || e.FairShare(l) != 0.5) {
			t.Errorf("fair tree: heavy %v light %v after 3 half-lives, want 1 and 0.5", e.FairShare(h), e.FairShare(l))
		}
	}
}

// The same operations give identical results: nothing depends on map
// iteration or other hidden state.
func TestDeterminism(t *testing.T) {
	run := func() []Row {
		_, e := test244Tree(t)
		for T := int64(0); T <= 3000; T += 300 {
			e.BeginTick(T)
			for i := range e.Tree().Len() {
				if e.Tree().IsUser(i) {
					e.Charge(i, 0, T, float64(i%7), 1, TRES{})
				}
			}
			e.EndTick(T)
		}
		return e.Rows()
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Error("two identical runs differ")
	}
}
