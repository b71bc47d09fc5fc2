package fairshare

import (
	"math"
	"math/rand"
	"testing"
)

// TestLongDoubleUsageTies: the case of differential run
// part-count-reserve. Users fsu1 and fsu2 of account a1 (beside fsu3 and
// fsu4 of a2, who used nothing) ran 16 CPUs for 55 s from the same
// second, fsu1 as two jobs of 4 and 12 CPUs, fsu2 as one of 16. Slurm adds
// each job's run_decay × billing, rounded to a double, to a long double
// usage_raw: 4·d + 12·d is 2.8e-14 below 16·d there, so fsu2 has used
// more and Fair Tree ranks it below fsu1 (the controller: fair-share 0.4
// and 0.2 of five users), where float64's sums are equal and tie.
func TestLongDoubleUsageTies(t *testing.T) {
	tr := newBuilder(t).acct("a1", "root", 3).user("fsu1", "a1", 1).user("fsu2", "a1", 1).
		acct("a2", "root", 1).user("fsu3", "a2", 1).user("fsu4", "a2", 1).user("fsu5", "root", 1).done()
	e := newEngine(t, tr, Config{HalfLife: 300})
	u1, u2 := mustLookup(t, tr, "a1", "fsu1"), mustLookup(t, tr, "a1", "fsu2")
	e.BeginTick(0)
	e.EndTick(0)
	e.BeginTick(60)
	e.Charge(u1, 5, 60, 4, 1, TRES{})
	e.Charge(u2, 5, 60, 16, 1, TRES{})
	e.Charge(u1, 5, 60, 12, 1, TRES{})
	e.EndTick(60)
	if e.Usage(u1) != e.Usage(u2) {
		t.Fatalf("float64 usages %v and %v: the case needs them equal", e.Usage(u1), e.Usage(u2))
	}
	if f1, f2 := e.FairShare(u1), e.FairShare(u2); !(f1 > f2) {
		t.Errorf("fair-share fsu1 %v, fsu2 %v: want fsu1 above fsu2 (fsu2's one job charged 2.8e-14 more)", f1, f2)
	}
}

// TestDDDivShortcut: ddDiv's first remainder step is twoSum(ah − p,
// al) on the claim that ah − p is exact; the textbook ddAdd(ah, al, −p)
// must give the very same quotient, or fair-share ranks could move
// between builds. Magnitudes from 1e-147 to 1e148, so quotients stay finite and normal.
func TestDDDivShortcut(t *testing.T) {
	textbook := func(ah, al, bh, bl float64) (float64, float64) {
		q1 := ah / bh
		p := q1 * bh
		pe := math.FMA(q1, bh, -p)
		rh, rl := ddAdd(ah, al, -p)
		rh, rl = ddAdd(rh, rl, -pe)
		rh, rl = ddAdd(rh, rl, -q1*bl)
		return twoSum(q1, (rh+rl)/bh)
	}
	r := rand.New(rand.NewSource(1))
	val := func() (float64, float64) {
		h := math.Ldexp(1+r.Float64(), r.Intn(980)-490)
		l := 0.0
		if r.Intn(3) > 0 {
			l = h * math.Ldexp(r.Float64()-0.5, -53)
		}
		return twoSum(h, l)
	}
	for i := 0; i < 200000; i++ {
		ah, al := val()
		bh, bl := val()
		gh, gl := ddDiv(ah, al, bh, bl)
		wh, wl := textbook(ah, al, bh, bl)
		if gh != wh || gl != wl {
			t.Fatalf("ddDiv(%v, %v, %v, %v) = (%v, %v), textbook (%v, %v)", ah, al, bh, bl, gh, gl, wh, wl)
		}
	}
}
