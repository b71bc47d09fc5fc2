package fairshare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// test244Tree is the tree of Slurm's own Fair Tree regression test
// (testsuite/expect/test24.4 and test24.4.prog.c), built in the same
// association order, with the same user usage.
func test244Tree(t *testing.T) (*Tree, *Engine) {
	tr := newBuilder(t).
		acct("aA", "root", 40).acct("aAA", "aA", 30).user("uAA1", "aAA", 1).
		acct("aAB", "aA", 10).user("uAB1", "aAB", 1).user("uAB2", "aAB", 1).
		acct("aB", "root", 60).acct("aBA", "aB", 25).user("uBA1", "aBA", 1).
		acct("aBB", "aB", 35).user("uBB1", "aBB", 1).
		acct("aC", "root", 0).user("uC1", "aC", 0).
		acct("aD", "root", 50).acctParent("aDA", "aD").userParent("uDA1", "aDA").
		user("uDA2", "aDA", 30).user("uDA3", "aDA", 50).
		userParent("uD1", "aD").user("uD2", "aD", 40).user("uD3", "aD", 50).
		acct("aE", "root", 10).user("aE1", "aE", 10).user("aE2", "aE", 10).
		user("u1", "root", 10).
		acct("aF", "root", 20).user("uF1", "aF", 10).user("uF2", "aF", 20).
		acct("aG", "root", 8).user("uG1", "aG", 10).acct("aGA", "aG", 10).
		user("uGA1", "aGA", 20).user("uGA2", "aGA", 20).
		user("u2", "root", 10).
		done()
	e := newEngine(t, tr, Config{Algorithm: FairTree, HalfLife: 1})
	for _, u := range []struct {
		a, u string
		v    float64
	}{
		{"aAA", "uAA1", 20}, {"aAB", "uAB1", 25}, {"aBA", "uBA1", 25}, {"aC", "uC1", 30},
		{"aDA", "uDA1", 10}, {"aDA", "uDA2", 10}, {"aDA", "uDA3", 25},
		{"aD", "uD1", 20}, {"aD", "uD2", 20}, {"aD", "uD3", 25},
		{"aG", "uG1", 10}, {"aGA", "uGA1", 4}, {"aGA", "uGA2", 6}, {"root", "u2", 10},
	} {
		setUsage(t, e, u.a, u.u, u.v)
	}
	e.Recalc()
	return tr, e
}

// Slurm's test24.4 checks `sshare -l -p --noheader -a` lines (as
// substrings) against these 35 expectations; fairsim must print each of
// them, behind the account indentation sshare adds.
func TestFairTreeSlurmTest244(t *testing.T) {
	_, e := test244Tree(t)
	var b strings.Builder
	err := WriteSshare(&b, e.Rows(), SshareOptions{
		Algorithm: FairTree, Long: true, Parsable: true, NoHeader: true, All: true, TRESCount: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"root|||0.000000|240||1.000000||||cpu=0|",
		" root|u1|10|0.048077|0|0.000000|0.000000|1.000000|inf||cpu=0|",
		" root|u2|10|0.048077|10|0.041667|0.041667|0.666667|1.153846||cpu=0|",
		" aA||40|0.192308|45|0.187500|0.187500||1.025641||cpu=0|",
		"  aAA||30|0.750000|20|0.083333|0.444444||1.687500||cpu=0|",
		"   aAA|uAA1|1|1.000000|20|0.083333|1.000000|0.619048|1.000000||cpu=0|",
		"  aAB||10|0.250000|25|0.104167|0.555556||0.450000||cpu=0|",
		"   aAB|uAB1|1|0.500000|25|0.104167|1.000000|0.523810|0.500000||cpu=0|",
		"   aAB|uAB2|1|0.500000|0|0.000000|0.000000|0.571429|inf||cpu=0|",
		" aB||60|0.288462|25|0.104167|0.104167||2.769231||cpu=0|",
		"  aBA||25|0.416667|25|0.104167|1.000000||0.416667||cpu=0|",
		"   aBA|uBA1|1|1.000000|25|0.104167|1.000000|0.714286|1.000000||cpu=0|",
		"  aBB||35|0.583333|0|0.000000|0.000000||inf||cpu=0|",
		"   aBB|uBB1|1|1.000000|0|0.000000|0.000000|0.761905|inf||cpu=0|",
		" aC||0|0.000000|30|0.125000|0.125000||0.000000||cpu=0|",
		"  aC|uC1|0|0.000000|30|0.125000|1.000000|0.047619|0.000000||cpu=0|",
		" aD||50|0.240385|110|0.458333|0.458333||0.524476||cpu=0|",
		"  aD|uD1|parent|0.240385|20|0.083333|0.181818|0.476190|||cpu=0|",
		"  aD|uD2|40|0.235294|20|0.083333|0.181818|0.238095|1.294118||cpu=0|",
		"  aD|uD3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118||cpu=0|",
		"  aDA||parent|0.240385|45|0.187500|0.409091||||cpu=0|",
		"   aDA|uDA1|parent|0.240385|10|0.041667|0.090909|0.476190|||cpu=0|",
		"   aDA|uDA2|30|0.176471|10|0.041667|0.090909|0.380952|1.941176||cpu=0|",
		"   aDA|uDA3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118||cpu=0|",
		" aE||10|0.048077|0|0.000000|0.000000||inf||cpu=0|",
		"  aE|aE1|10|0.500000|0|0.000000|0.000000|1.000000|inf||cpu=0|",
		"  aE|aE2|10|0.500000|0|0.000000|0.000000|1.000000|inf||cpu=0|",
		" aF||20|0.096154|0|0.000000|0.000000||inf||cpu=0|",
		"  aF|uF1|10|0.333333|0|0.000000|0.000000|1.000000|inf||cpu=0|",
		"  aF|uF2|20|0.666667|0|0.000000|0.000000|1.000000|inf||cpu=0|",
		" aG||8|0.038462|20|0.083333|0.083333||0.461538||cpu=0|",
		"  aG|uG1|10|0.500000|10|0.041667|0.500000|0.190476|1.000000||cpu=0|",
		"  aGA||10|0.500000|10|0.041667|0.500000||1.000000||cpu=0|",
		"   aGA|uGA1|20|0.500000|4|0.016667|0.400000|0.190476|1.250000||cpu=0|",
		"   aGA|uGA2|20|0.500000|6|0.025000|0.600000|0.095238|0.833333||cpu=0|",
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), b.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, got[i], want[i])
		}
	}
}

// The rounding difference the Slurm test relies on: uD2 (S 40/170, U
// 20/110) and uD3 (S 50/170, U 25/110) have the same exact level_fs, but
// their shares_norm are doubles rounded apart, so uD2 ranks below uD3 (in
// Slurm's long double as in fairsim's extended level_fs: their float64
// values coincide), and uD3 and uDA3 tie exactly.
func TestFairTreeUlpOrder(t *testing.T) {
	tr, e := test244Tree(t)
	uD2, uD3, uDA3 := int32(mustLookup(t, tr, "aD", "uD2")), int32(mustLookup(t, tr, "aD", "uD3")), int32(mustLookup(t, tr, "aDA", "uDA3"))
	lf := func(i int32) string { return fmt.Sprintf("%.17g%+.3g", e.levelFS[i], e.levelLo[i]) }
	if ddCmp(e.levelFS[uD2], e.levelLo[uD2], e.levelFS[uD3], e.levelLo[uD3]) >= 0 || e.compareLevelFS(uD2, uD3) != 1 {
		t.Errorf("level_fs uD2=%s should be below uD3=%s", lf(uD2), lf(uD3))
	}
	if ddCmp(e.levelFS[uD3], e.levelLo[uD3], e.levelFS[uDA3], e.levelLo[uDA3]) != 0 {
		t.Errorf("level_fs uD3=%s and uDA3=%s should tie", lf(uD3), lf(uDA3))
	}
	if d := math.Abs(e.levelFS[uD3] - e.levelFS[uD2]); d > 2*(math.Nextafter(e.levelFS[uD3], 2)-e.levelFS[uD3]) {
		t.Errorf("uD2 and uD3 differ by %g, more than rounding", d)
	}
}

// ranks returns every user's fs_factor × UserCount (its rank).
func ranks(t *testing.T, e *Engine) map[string]float64 {
	t.Helper()
	tr := e.Tree()
	out := map[string]float64{}
	for i := range tr.Len() {
		if tr.IsUser(i) {
			out[tr.Account(i)+"/"+tr.User(i)] = math.Round(e.FairShare(i) * float64(tr.UserCount()))
		}
	}
	return out
}

func checkRanks(t *testing.T, e *Engine, want map[string]float64) {
	t.Helper()
	got := ranks(t, e)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("rank of %s = %v, want %v", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("ranked %d users, want %d", len(got), len(want))
	}
}

func TestFairTreeHandBuilt(t *testing.T) {
	type use struct {
		a, u string
		v    float64
	}
	tests := []struct {
		name  string
		build func(b *builder) *builder
		usage []use
		want  map[string]float64 // ranks; fs = rank / number of users
	}{
		{
			// Nothing used yet: every LF is +Inf, the whole tree ties and
			// every user gets rank N (fs 1.0).
			name: "start-up ties everyone",
			build: func(b *builder) *builder {
				return b.acct("A", "root", 1).user("a1", "A", 1).acct("B", "root", 3).user("b1", "B", 1).user("b2", "B", 5)
			},
			want: map[string]float64{"A/a1": 3, "B/b1": 3, "B/b2": 3},
		},
		{
			// Sibling users with equal LF share a rank; the next rank
			// skips (competition ranking). X: S 1/3 each;
			// x1 U 10/60 → LF 2, x2 10/60 → 2, x3 40/60 → .5. Root: X only.
			name: "tied users",
			build: func(b *builder) *builder {
				return b.acct("X", "root", 1).user("x1", "X", 1).user("x2", "X", 1).user("x3", "X", 1)
			},
			usage: []use{{"X", "x1", 10}, {"X", "x2", 10}, {"X", "x3", 40}},
			// x1 rank 3; x2 tied → 3; x3 → rnt 1.
			want: map[string]float64{"X/x1": 3, "X/x2": 3, "X/x3": 1},
		},
		{
			// A user directly under root tied with a sibling account gets
			// the rank of that account's best user: users sort first at
			// equal LF, and the account is entered tied.
			// Root: r1 S 10/30, U 10/30 → LF 1; K S 10/30, U 10/30 → 1;
			// L S 10/30, U 10/30 → 1 as well but inserted after K.
			// K: k1 S .5 U 0 → Inf, k2 S .5 U 1 → .5. L: l1 S 1 U 1 → 1.
			name: "user tied with accounts, users directly under root",
			build: func(b *builder) *builder {
				return b.user("r1", "root", 10).acct("K", "root", 10).user("k1", "K", 1).user("k2", "K", 1).
					acct("L", "root", 10).user("l1", "L", 1)
			},
			usage: []use{{"root", "r1", 10}, {"K", "k2", 10}, {"L", "l1", 10}},
			// r1: rank = rnt = 4, rnt 3. K tied: k1 (first, tied) 4, rnt 2;
			// k2 not tied → 2, rnt 1. L tied with K: l1 inherits the
			// current rank 2 (no merge), rnt 0.
			want: map[string]float64{"root/r1": 4, "K/k1": 4, "K/k2": 2, "L/l1": 2},
		},
		{
			// Tied sibling accounts are NOT merged (code, not docs).
			// A: a1 S .5 U 1/4 → LF 2, a2 S .5 U 3/4 → .667.
			// B: b1 S .5 U 2/4 → 1, b2 same → 1. Root: A and B both LF 1.
			name: "tied accounts carry the tie, no merge",
			build: func(b *builder) *builder {
				return b.acct("A", "root", 1).user("a1", "A", 1).user("a2", "A", 1).
					acct("B", "root", 1).user("b1", "B", 1).user("b2", "B", 1)
			},
			usage: []use{{"A", "a1", 1}, {"A", "a2", 3}, {"B", "b1", 2}, {"B", "b2", 2}},
			// A: a1 4, a2 3 (rnt 2). B entered tied: b1 takes rank 3,
			// b2 ties b1 → 3. Merging (docs) would give a1 4, b1 3, b2 3,
			// a2 1.
			want: map[string]float64{"A/a1": 4, "A/a2": 3, "B/b1": 3, "B/b2": 3},
		},
		{
			// Same tree, B inserted before A: the stable sort keeps the
			// association order among the tied accounts, so B goes first.
			name: "stable sort keeps insertion order of tied accounts",
			build: func(b *builder) *builder {
				return b.acct("B", "root", 1).user("b1", "B", 1).user("b2", "B", 1).
					acct("A", "root", 1).user("a1", "A", 1).user("a2", "A", 1)
			},
			usage: []use{{"A", "a1", 1}, {"A", "a2", 3}, {"B", "b1", 2}, {"B", "b2", 2}},
			// B: b1 4, b2 tied 4 (rnt 2). A entered tied: a1 takes rank 4,
			// a2 (.667 ≠ 2) → rnt 1.
			want: map[string]float64{"B/b1": 4, "B/b2": 4, "A/a1": 4, "A/a2": 1},
		},
		{
			// Zero-share accounts get LF 0 and sort last, whatever their
			// usage; a zero-share user too.
			// Root: Z S 0 → 0; P S 1, U 10/20 → 2. P: p1 S 1/1 (p0 has 0
			// shares) U 5/10 → 2, p0 S 0 → 0.
			name: "zero shares sort last",
			build: func(b *builder) *builder {
				return b.acct("Z", "root", 0).user("z1", "Z", 5).acct("P", "root", 5).
					user("p1", "P", 1).user("p0", "P", 0)
			},
			usage: []use{{"Z", "z1", 10}, {"P", "p1", 5}, {"P", "p0", 5}},
			// P first: p1 3, p0 2; Z: z1 1.
			want: map[string]float64{"P/p1": 3, "P/p0": 2, "Z/z1": 1},
		},
		{
			// "parent" users rank at the top of their fs-parent's list
			// (LF +Inf, tied together); a "parent" account (NO_VAL) sorts
			// just below them and its children compete in the grandparent.
			// A 1 (only top-level account): children after hoisting:
			// pu (parent user) Inf, PA (parent acct) NO_VAL, h1 (from PA,
			// S 1/3, U 10/38 → 38/30), a1 (S 2/3, U 20/38 → 38/30, the
			// same double), qu (parent user under PA) Inf. A's usage is
			// 5+10+20+3 = 38.
			name: "parent users and accounts",
			build: func(b *builder) *builder {
				return b.acct("A", "root", 1).userParent("pu", "A").acctParent("PA", "A").
					user("h1", "PA", 1).userParent("qu", "PA").user("a1", "A", 2)
			},
			usage: []use{{"A", "pu", 5}, {"PA", "h1", 10}, {"A", "a1", 20}, {"PA", "qu", 3}},
			// Sorted: pu Inf, qu Inf (users, insertion order), PA NO_VAL,
			// h1, a1 (ties h1). pu 4, qu tied 4, PA (no children),
			// h1 → rnt 2, a1 tied → 2.
			want: map[string]float64{"A/pu": 4, "PA/qu": 4, "PA/h1": 2, "A/a1": 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.build(newBuilder(t)).done()
			e := newEngine(t, tr, Config{Algorithm: FairTree, HalfLife: week})
			for _, u := range tc.usage {
				setUsage(t, e, u.a, u.u, u.v)
			}
			e.Recalc()
			checkRanks(t, e, tc.want)
		})
	}
}

func TestFairTreeLevelFS(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name         string
		s, u         float64
		parent, user bool
		want         float64
	}{
		{"S/U", 0.5, 0.25, false, true, 2},
		{"unused share", 0.5, 0, false, true, inf},
		{"zero share", 0, 0.5, false, false, 0},
		{"zero share unused", 0, 0, false, true, 0},
		{"parent user", 0.3, 0.9, true, true, inf},
		{"parent account", 0.3, 0.9, true, false, 4294967294},
	}
	for _, tc := range tests {
		if got := FairTreeLevelFS(tc.s, tc.u, tc.parent, tc.user); got != tc.want {
			t.Errorf("%s: LF = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A Fair Tree pass sorts each account's children from the order of the
// pass before (sortAgain); its factors must be those of the stable sort
// of the tree's order, pass after pass, through ties (equal usage, and
// the +Inf of users who used nothing), moves of a few siblings, and a
// reshuffle of all of them.
func TestFairTreeResortMatchesStableSort(t *testing.T) {
	b := newBuilder(t)
	for a := range 3 {
		acct := fmt.Sprintf("A%d", a)
		b.acct(acct, "root", uint32(1+a))
		for u := range 40 {
			b.user(fmt.Sprintf("u%d_%d", a, u), acct, uint32(1+u%3))
		}
	}
	tr := b.done()
	e := newEngine(t, tr, Config{Algorithm: FairTree})
	rng := rand.New(rand.NewPCG(3, 4))
	for pass := range 30 {
		n := 3 // a few siblings move
		if pass%10 == 9 {
			n = 120 // all of them
		}
		for range n {
			a, u := rng.IntN(3), rng.IntN(40)
			v := float64(rng.IntN(5)) * 10 // ties, and zero usage
			setUsage(t, e, fmt.Sprintf("A%d", a), fmt.Sprintf("u%d_%d", a, u), v)
		}
		e.Recalc()
		got := slices.Clone(e.fs)
		clear(e.sorted) // the reference: every list sorted from the tree's order
		e.Recalc()
		if !slices.Equal(got, e.fs) {
			t.Fatalf("pass %d: factors from the last order %v, from the tree's order %v", pass, got, e.fs)
		}
	}
}
