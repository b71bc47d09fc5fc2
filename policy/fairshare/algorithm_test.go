package fairshare

import (
	"strings"
	"testing"
)

func TestParseAlgorithm(t *testing.T) {
	for name, want := range map[string]Algorithm{
		"fairtree": FairTree, "classic": Classic, "depth-oblivious": DepthOblivious, "slurm20": Slurm20,
	} {
		got, err := ParseAlgorithm(name)
		if err != nil || got != want || got.String() != name || !got.Valid() {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", name, got, err)
		}
	}
	for _, bad := range []string{"x", "FairTree", "", "depth_oblivious"} {
		_, err := ParseAlgorithm(bad)
		if err == nil || err.Error() != `unknown fair-share algorithm "`+bad+`"` {
			t.Errorf("ParseAlgorithm(%q) error = %v", bad, err)
		}
	}
	if Algorithm(7).Valid() || !strings.Contains(Algorithm(7).String(), "7") {
		t.Error("out-of-range algorithm")
	}
}

func TestFromPriorityFlags(t *testing.T) {
	tests := []struct {
		noFairTree, depthOblivious bool
		want                       Algorithm
	}{
		{false, false, FairTree},      // the default: FAIR_TREE
		{true, false, Classic},        // NO_FAIR_TREE
		{false, true, DepthOblivious}, // DEPTH_OBLIVIOUS clears FAIR_TREE
		{true, true, DepthOblivious},
	}
	for _, tc := range tests {
		if got := FromPriorityFlags(tc.noFairTree, tc.depthOblivious); got != tc.want {
			t.Errorf("FromPriorityFlags(%v, %v) = %v, want %v", tc.noFairTree, tc.depthOblivious, got, tc.want)
		}
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil || l.Error() != "no errors" {
		t.Fatal("empty list")
	}
	l.Add("f", 3, "Fairshare", "bad")
	l.Add("f", 0, "", "whole file")
	if got := l.Error(); got != "f:3: Fairshare: bad\nf: whole file" {
		t.Errorf("Error() = %q", got)
	}
	for range 2 * maxErrors {
		l.Add("f", 1, "", "x")
	}
	if l.Len() != maxErrors+1 || l[maxErrors].Msg != "too many errors" {
		t.Errorf("cap: len %d last %q", l.Len(), l[l.Len()-1].Msg)
	}
}

// Classic computes account-level effective usage at the start of a tick,
// before that tick's decay and charges (_decay_thread's order), so a user alone in
// its account sees its own new usage one tick late: UE(user) = U +
// (UE(account) − U)·1/1 = UE(account).
func TestClassicAccountLag(t *testing.T) {
	tr := newBuilder(t).acct("A", "root", 1).user("u", "A", 1).acct("B", "root", 1).user("v", "B", 1).done()
	u := mustLookup(t, tr, "A", "u")
	e := newEngine(t, tr, Config{Algorithm: Classic, HalfLife: week})
	e.BeginTick(0)
	e.EndTick(0)
	e.BeginTick(300) // A's UE taken now: no usage yet, 0
	e.Charge(u, 0, 300, 1, 1, TRES{})
	e.EndTick(300)
	if e.NormUsage(u) != 1 || e.EffectiveUsage(u) != 0 || e.FairShare(u) != 1 {
		t.Fatalf("tick 1: U=%v UE=%v F=%v, want 1, 0, 1 (one tick of lag)", e.NormUsage(u), e.EffectiveUsage(u), e.FairShare(u))
	}
	e.BeginTick(600) // now A's UE = 1 (all usage is A's)
	e.EndTick(600)
	// UE 1 against S 0.5: 2^(−2) = 0.25.
	if e.EffectiveUsage(u) != 1 || e.FairShare(u) != 0.25 {
		t.Errorf("tick 2: UE=%v F=%v, want 1 and 0.25", e.EffectiveUsage(u), e.FairShare(u))
	}
	// Recalc (static views) has no lag.
	e2 := newEngine(t, tr, Config{Algorithm: Classic, HalfLife: week})
	_ = e2.SetUsage(u, 10)
	e2.Recalc()
	if e2.FairShare(u) != 0.25 {
		t.Errorf("Recalc: F=%v, want 0.25", e2.FairShare(u))
	}
}
