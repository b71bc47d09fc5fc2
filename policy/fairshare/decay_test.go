package fairshare

import (
	"fmt"
	"math"
	"testing"
)

const (
	day  = 24 * 3600
	week = 7 * day
)

func TestDecayFactor(t *testing.T) {
	// HL = 7 days, one 300-s calc period:
	// (1 - 0.693/604800)^300 = 0.9996563088783914.
	if got := NewDecay(week, false).Factor(300); got != 0.9996563088783914 {
		t.Errorf("df^300 = %.17g, want 0.9996563088783914", got)
	}
	if got := DecayFactor(week); got != 1-0.693/604800.0 {
		t.Errorf("DecayFactor = %.17g", got)
	}
	// Slurm's first-order factor misses one half by ~7e-5 after HL.
	if got := fmt.Sprintf("%.5f", NewDecay(week, false).Factor(week)); got != "0.50007" {
		t.Errorf("df^HL = %s, want 0.50007", got)
	}
	exact := NewDecay(week, true)
	tests := []struct {
		sec  int64
		want float64
	}{
		{week, 0.5},      // work done 7 days ago counts 1/2
		{2 * week, 0.25}, // 14 days ago 1/4
		{0, 1},
		{-5, 1}, // a tick at or before lastRan decays nothing
	}
	for _, tc := range tests {
		if got := exact.Factor(tc.sec); got != tc.want {
			t.Errorf("exact Factor(%d) = %v, want %v", tc.sec, got, tc.want)
		}
	}
	// HL = 0: no decay at all, and a slice of d seconds weighs d.
	none := NewDecay(0, false)
	if none.Factor(10*week) != 1 || none.SliceWeight(300) != 300 || DecayFactor(0) != 1 {
		t.Error("HL=0 must not decay")
	}
	// A tick's factor is clamped at DBL_MIN (HL=1 s, 10^6 s later).
	if got := NewDecay(1, false).Factor(1_000_000); got != DBLMin {
		t.Errorf("clamp: got %g, want DBL_MIN", got)
	}
	// The charged slice is itself decayed: d·df^d.
	if got, want := NewDecay(week, false).SliceWeight(300), 300*0.9996563088783914; got != want {
		t.Errorf("SliceWeight(300) = %v, want %v", got, want)
	}
}

// Usage with no new charges halves after one half-life of 300-s ticks with
// exact decay (2016 ticks of 2^(-300/604800)), and quarters after two.
func TestEngineHalvesAfterHalfLife(t *testing.T) {
	tr := newBuilder(t).acct("a", "root", 1).user("u", "a", 1).done()
	u := mustLookup(t, tr, "a", "u")
	for _, exact := range []bool{true, false} {
		e := newEngine(t, tr, Config{HalfLife: week, ExactDecay: exact})
		e.BeginTick(0)
		e.EndTick(0)
		e.BeginTick(300)
		e.Charge(u, 0, 300, 1, 1, TRES{})
		e.EndTick(300)
		start := e.Usage(u)
		for T := int64(600); T <= 300+week; T += 300 {
			e.BeginTick(T)
			e.EndTick(T)
		}
		half := e.Usage(u) / start
		for T := int64(300 + week + 300); T <= 300+2*week; T += 300 {
			e.BeginTick(T)
			e.EndTick(T)
		}
		quarter := e.Usage(u) / start
		if exact {
			if math.Abs(half-0.5) > 1e-12 || math.Abs(quarter-0.25) > 1e-12 {
				t.Errorf("exact: ratio after H = %v, 2H = %v", half, quarter)
			}
		} else if fmt.Sprintf("%.5f", half) != "0.50007" {
			t.Errorf("slurm decay: ratio after H = %v, want 0.50007", half)
		}
		// root, account and user decay together.
		if e.Usage(0) != e.Usage(u) || e.Usage(mustLookup(t, tr, "a", "")) != e.Usage(u) {
			t.Error("ancestors must decay with the user")
		}
	}
}
