package fairshare

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Every effective usage of the Slurm 2.0 priority_multifactor example:
// UE(child) = U + (UE(parent) − U)·S_child/S_all_siblings.
func TestClassicEffectiveUsageSlurm20Example(t *testing.T) {
	const ueF = 0.25 * 35 / 60 // F: 0 + (0.25 − 0)·35/60 = 0.145833…
	tests := []struct {
		node             string
		u, parentUE      float64
		shares, siblings uint32
		want             float64
	}{
		{"B", 0.20, 0.45, 30, 40, 0.3875}, // 0.2 + (0.45 − 0.2)·30/40
		{"C", 0.25, 0.45, 10, 40, 0.3},    // 0.25 + (0.45 − 0.25)·10/40
		{"E", 0.25, 0.25, 25, 60, 0.25},   // 0.25 + 0·25/60
		{"F", 0.00, 0.25, 35, 60, ueF},    // 0.145833…
		{"user1", 0.20, 0.3875, 1, 1, 0.3875},
		{"user2", 0.25, 0.3, 1, 2, 0.275}, // 0.25 + 0.05·1/2
		{"user3", 0.00, 0.3, 1, 2, 0.15},  // 0 + 0.3·1/2
		{"user4", 0.25, 0.25, 1, 1, 0.25},
		{"user5", 0.00, ueF, 1, 1, ueF},
		{"no sibling shares", 0.3, 0.4, 0, 0, 0.4}, // level_shares 0 ⇒ UE_parent
	}
	for _, tc := range tests {
		if got := ClassicEffectiveUsage(tc.u, tc.parentUE, tc.shares, tc.siblings); !near(got, tc.want) {
			t.Errorf("%s: UE = %.17g, want %.17g", tc.node, got, tc.want)
		}
	}
	if got := fmt.Sprintf("%.4f", ueF); got != "0.1458" {
		t.Errorf("F's UE prints %s, the doc says 0.1458", got)
	}
}

// The Slurm 2.0 example: F = (S − UE + 1)/2.
func TestSlurm20Factor(t *testing.T) {
	tests := []struct {
		user  string
		s, ue float64
		want  float64
	}{
		{"user1", 0.30, 0.3875, 0.45625},                    // (.3 − .3875 + 1)/2
		{"user2", 0.05, 0.275, 0.3875},                      // (.05 − .275 + 1)/2
		{"user3", 0.05, 0.15, 0.45},                         // (.05 − .15 + 1)/2
		{"user4", 0.25, 0.25, 0.5},                          // (.25 − .25 + 1)/2
		{"user5", 0.35, 0.25 * 35 / 60, 0.6020833333333333}, // (.35 − .1458333 + 1)/2
	}
	for _, tc := range tests {
		if got := Slurm20Factor(tc.s, tc.ue); !near(got, tc.want) {
			t.Errorf("%s: F = %.17g, want %.17g", tc.user, got, tc.want)
		}
	}
	if got := fmt.Sprintf("%.4f", Slurm20Factor(0.35, 0.25*35/60)); got != "0.6021" {
		t.Errorf("user5 prints %s, the doc rounds to 0.6021", got)
	}
}

// The whole Slurm 2.0 example through the engine: 2.0 normalised usage against
// the machine (R_H = 1000), user1 200, user2 250, user4 250.
func TestEngineSlurm20Example(t *testing.T) {
	tr := slurm20Tree(t)
	e := newEngine(t, tr, Config{Algorithm: Slurm20, HalfLife: week, Slurm20MaxUsage: 1000})
	setUsage(t, e, "B", "user1", 200)
	setUsage(t, e, "C", "user2", 250)
	setUsage(t, e, "E", "user4", 250)
	e.Recalc()
	ue := []struct {
		a, u       string
		actual, ue float64
	}{
		{"A", "", 0.45, 0.45}, {"D", "", 0.25, 0.25},
		{"B", "", 0.20, 0.3875}, {"C", "", 0.25, 0.3},
		{"E", "", 0.25, 0.25}, {"F", "", 0, 0.25 * 35 / 60},
		{"B", "user1", 0.20, 0.3875}, {"C", "user2", 0.25, 0.275},
		{"C", "user3", 0, 0.15}, {"E", "user4", 0.25, 0.25},
		{"F", "user5", 0, 0.25 * 35 / 60},
	}
	for _, tc := range ue {
		i := mustLookup(t, tr, tc.a, tc.u)
		if !near(e.NormUsage(i), tc.actual) || !near(e.EffectiveUsage(i), tc.ue) {
			t.Errorf("(%s,%s): U=%v UE=%v, want %v %v", tc.a, tc.u, e.NormUsage(i), e.EffectiveUsage(i), tc.actual, tc.ue)
		}
	}
	fs := map[string]float64{"user1": 0.45625, "user2": 0.3875, "user3": 0.45, "user4": 0.5, "user5": 0.6020833333333333}
	var users []int
	for _, i := range tr.Order() {
		if tr.IsUser(i) {
			users = append(users, i)
			if got := e.FairShare(i); !near(got, fs[tr.User(i)]) {
				t.Errorf("%s: F = %v, want %v", tr.User(i), got, fs[tr.User(i)])
			}
		}
	}
	// With all five pending and fair-share the only factor, user5's job
	// starts first, then user4, user1, user3, user2.
	slices.SortStableFunc(users, func(a, b int) int {
		switch fa, fb := e.FairShare(a), e.FairShare(b); {
		case fa > fb:
			return -1
		case fa < fb:
			return 1
		}
		return 0
	})
	var order []string
	for _, i := range users {
		order = append(order, tr.User(i))
	}
	if want := []string{"user5", "user4", "user1", "user3", "user2"}; !slices.Equal(order, want) {
		t.Errorf("start order %v, want %v", order, want)
	}
}

// Modern classic: the same effective usage, F = 2^(−UE/S). A 0-share user
// under root ("rest", usage 300) makes root's usage 1000 without changing
// any level share (0 + 40 + 60 = 100), so usage_norm equals the doc's
// fractions of the machine.
func TestEngineClassicSlurm20Tree(t *testing.T) {
	b := newBuilder(t).
		acct("A", "root", 40).acct("B", "A", 30).user("user1", "B", 1).
		acct("C", "A", 10).user("user2", "C", 1).user("user3", "C", 1).
		acct("D", "root", 60).acct("E", "D", 25).user("user4", "E", 1).
		acct("F", "D", 35).user("user5", "F", 1).user("rest", "root", 0)
	tr := b.done()
	e := newEngine(t, tr, Config{Algorithm: Classic, HalfLife: week})
	setUsage(t, e, "B", "user1", 200)
	setUsage(t, e, "C", "user2", 250)
	setUsage(t, e, "E", "user4", 250)
	setUsage(t, e, "root", "rest", 300)
	e.Recalc()
	tests := []struct {
		u     string
		s, ue float64
	}{
		{"user1", 0.30, 0.3875}, {"user2", 0.05, 0.275}, {"user3", 0.05, 0.15},
		{"user4", 0.25, 0.25}, {"user5", 0.35, 0.25 * 35 / 60},
	}
	for _, tc := range tests {
		i := -1
		for _, a := range []string{"B", "C", "E", "F"} {
			if j, ok := tr.Lookup(a, tc.u); ok {
				i = j
			}
		}
		if !near(e.EffectiveUsage(i), tc.ue) || !near(e.NormShares(i), tc.s) {
			t.Errorf("%s: UE=%v S=%v", tc.u, e.EffectiveUsage(i), e.NormShares(i))
		}
		if want := math.Exp2(-tc.ue / tc.s); !near(e.FairShare(i), want) {
			t.Errorf("%s: F=%v, want 2^(-%v/%v)=%v", tc.u, e.FairShare(i), tc.ue, tc.s, want)
		}
	}
	// user4 used exactly its share (UE 0.25 = S 0.25): F = 0.5.
	if got := e.FairShare(mustLookup(t, tr, "E", "user4")); got != 0.5 {
		t.Errorf("user4 F = %v, want 0.5", got)
	}
}

// Classic factor (priority_multifactor.c _get_fairshare_priority):
// F = 2^(−EffectvUsage/NormShares).
func TestClassicFactorRegimes(t *testing.T) {
	tests := []struct {
		name        string
		ue, s, damp float64
		want        string
	}{
		{"no usage", 0, 0.1, 1, "1.0000"},
		{"usage equals share", 0.1, 0.1, 1, "0.5000"},
		{"twice the share", 0.2, 0.1, 1, "0.2500"},
		{"half the share", 0.05, 0.1, 1, "0.7071"},                 // 2^−0.5
		{"dampening 2 halves the exponent", 0.2, 0.1, 2, "0.5000"}, // 2^(−2/2)
		{"no share", 0.1, 0, 1, "0.0000"},
		{"unset effective usage", noVal, 0.1, 1, "0.0000"},
	}
	for _, tc := range tests {
		if got := fmt.Sprintf("%.4f", ClassicFactor(tc.ue, tc.s, tc.damp)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// An Odyssey sshare line: NormShares 0.001363, EffectvUsage 0.000572 →
	// 2^(−0.000572/0.001363) = 0.74760 (sshare prints 0.747627 from its
	// unrounded inputs).
	if got := fmt.Sprintf("%.3f", ClassicFactor(0.000572, 0.001363, 1)); got != "0.748" {
		t.Errorf("Odyssey sshare factor %s, want 0.748", got)
	}
}

// Odyssey's test_lab: users with Fairshare=parent share the
// account's effective usage, shares and factor.
func TestClassicParentUsersShareAccountFactor(t *testing.T) {
	tr := newBuilder(t).acct("test_lab", "root", 244).acct("other", "root", 244).
		userParent("user1", "test_lab").userParent("user2", "test_lab").
		user("o1", "other", 1).done()
	e := newEngine(t, tr, Config{Algorithm: Classic, HalfLife: week})
	setUsage(t, e, "test_lab", "user1", 100)
	setUsage(t, e, "test_lab", "user2", 300)
	setUsage(t, e, "other", "o1", 1600)
	e.Recalc()
	lab := mustLookup(t, tr, "test_lab", "")
	// test_lab: S = 244/488 = 0.5, UE = 400/2000 = 0.2, F = 2^(−0.4).
	if !near(e.FairShare(lab), math.Exp2(-0.4)) {
		t.Fatalf("account F = %v", e.FairShare(lab))
	}
	for _, u := range []string{"user1", "user2"} {
		i := mustLookup(t, tr, "test_lab", u)
		if e.FairShare(i) != e.FairShare(lab) || e.EffectiveUsage(i) != e.EffectiveUsage(lab) || e.NormShares(i) != 0.5 {
			t.Errorf("%s: F=%v UE=%v S=%v", u, e.FairShare(i), e.EffectiveUsage(i), e.NormShares(i))
		}
	}
}

func TestDepthObliviousEffectiveUsage(t *testing.T) {
	tests := []struct {
		name                     string
		s, u, ps, pue, sib, want float64
	}{
		// Rp = .5/.5 = 1 ⇒ ln Rp = 0 ⇒ k = 1; Rs = .4/.5 = .8;
		// Rl = (.2/.5)/.8 = .5; UE = 1 · .5 · .5 = .25.
		{"k = 1", 0.5, 0.2, 0.5, 0.5, 0.4, 0.25},
		// Rp = 1/.5 = 2, Rs = .5/.5 = 1, Rl = (.1/.5)/1 = .2;
		// ln 2 · ln .2 < 0 ⇒ k = 1/(1+(5 ln 2)^2) = 0.0768561213602…;
		// UE = 2 · .2^k · .5 = 0.883649175401643.
		{"k < 1", 0.5, 0.1, 0.5, 1.0, 0.5, 0.883649175401643},
		{"no own usage", 0.5, 0, 0.5, 1, 0.5, 0},
		{"no share", 0, 0.3, 0.5, 1, 0.5, 0.3},
		{"parent unused", 0.5, 0.3, 0.5, 0, 0.5, 0.3},
	}
	for _, tc := range tests {
		if got := DepthObliviousEffectiveUsage(tc.s, tc.u, tc.ps, tc.pue, tc.sib); !near(got, tc.want) {
			t.Errorf("%s: UE = %.17g, want %.17g", tc.name, got, tc.want)
		}
	}
}

// The engine feeds depth-oblivious the fs_parent's UE and S and the sum of
// its children's usage_norm.
func TestEngineDepthOblivious(t *testing.T) {
	// root → A 50 { a1 1, a2 1 }, B 50 { b1 1 }; usage a1 100, a2 100,
	// b1 800 (root 1000). A: first tier, UE = .2, S = .5.
	tr := newBuilder(t).acct("A", "root", 50).user("a1", "A", 1).user("a2", "A", 1).
		acct("B", "root", 50).user("b1", "B", 1).done()
	e := newEngine(t, tr, Config{Algorithm: DepthOblivious, HalfLife: week})
	setUsage(t, e, "A", "a1", 100)
	setUsage(t, e, "A", "a2", 100)
	setUsage(t, e, "B", "b1", 800)
	e.Recalc()
	a1 := mustLookup(t, tr, "A", "a1")
	// a1: S = .25, U = .1, Rp = .2/.5 = .4, Rs = .2/.5 = .4,
	// Rl = (.1/.25)/.4 = 1 ⇒ ln Rl = 0 ⇒ k = 1; UE = .4 · 1 · .25 = .1.
	want := DepthObliviousEffectiveUsage(0.25, 0.1, 0.5, 0.2, 0.2)
	if !near(want, 0.1) || !near(e.EffectiveUsage(a1), want) {
		t.Errorf("a1 UE = %v, want 0.1", e.EffectiveUsage(a1))
	}
	// F = 2^(−.1/.25) = 2^(−0.4).
	if !near(e.FairShare(a1), math.Exp2(-0.4)) {
		t.Errorf("a1 F = %v", e.FairShare(a1))
	}
}
