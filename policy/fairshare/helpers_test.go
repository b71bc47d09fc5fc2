package fairshare

import (
	"math"
	"testing"
)

// builder wraps Tree construction so that test trees read like the
// sacctmgr hierarchy they model; any builder error fails the test.
type builder struct {
	t  *testing.T
	tr *Tree
}

func newBuilder(t *testing.T) *builder {
	t.Helper()
	return &builder{t: t, tr: NewTree()}
}

func (b *builder) acct(name, parent string, shares uint32) *builder {
	b.t.Helper()
	if err := b.tr.AddAccount(name, parent, Shares{Raw: shares}, nil); err != nil {
		b.t.Fatal(err)
	}
	return b
}

func (b *builder) acctParent(name, parent string) *builder {
	b.t.Helper()
	if err := b.tr.AddAccount(name, parent, Shares{Parent: true}, nil); err != nil {
		b.t.Fatal(err)
	}
	return b
}

func (b *builder) user(name, acct string, shares uint32) *builder {
	b.t.Helper()
	if err := b.tr.AddUser(name, acct, Shares{Raw: shares}, nil); err != nil {
		b.t.Fatal(err)
	}
	return b
}

func (b *builder) userParent(name, acct string) *builder {
	b.t.Helper()
	if err := b.tr.AddUser(name, acct, Shares{Parent: true}, nil); err != nil {
		b.t.Fatal(err)
	}
	return b
}

func (b *builder) done() *Tree {
	b.t.Helper()
	if err := b.tr.Finalize(); err != nil {
		b.t.Fatal(err)
	}
	return b.tr
}

// mustLookup returns the association index of (account, user).
func mustLookup(t *testing.T, tr *Tree, account, user string) int {
	t.Helper()
	i, ok := tr.Lookup(account, user)
	if !ok {
		t.Fatalf("no association (%s, %s)", account, user)
	}
	return i
}

func newEngine(t *testing.T, tr *Tree, cfg Config) *Engine {
	t.Helper()
	e, err := NewEngine(tr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func setUsage(t *testing.T, e *Engine, account, user string, v float64) {
	t.Helper()
	if err := e.SetUsage(mustLookup(t, e.Tree(), account, user), v); err != nil {
		t.Fatal(err)
	}
}

// near compares floats computed through a few operations with a decimal
// expectation; 1e-12 is far below every digit the tests assert.
func near(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || (math.IsNaN(got) && math.IsNaN(want))
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// slurm20Tree is the example tree of the Slurm 2.0 priority_multifactor page:
// root → A 40 { B 30 { user1 1 }, C 10 { user2 1, user3 1 } },
//
//	D 60 { E 25 { user4 1 }, F 35 { user5 1 } }.
func slurm20Tree(t *testing.T) *Tree {
	return newBuilder(t).
		acct("A", "root", 40).acct("B", "A", 30).user("user1", "B", 1).
		acct("C", "A", 10).user("user2", "C", 1).user("user3", "C", 1).
		acct("D", "root", 60).acct("E", "D", 25).user("user4", "E", 1).
		acct("F", "D", 35).user("user5", "F", 1).
		done()
}
