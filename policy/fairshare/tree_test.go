package fairshare

import (
	"errors"
	"slices"
	"testing"
)

func TestTreeBuilderErrors(t *testing.T) {
	u32 := func(v uint32) *uint32 { return &v }
	tests := []struct {
		name string
		run  func(tr *Tree) error
		want error
	}{
		{"duplicate account", func(tr *Tree) error {
			_ = tr.AddAccount("a", "root", Shares{Raw: 1}, nil)
			return tr.AddAccount("a", "root", Shares{Raw: 2}, nil)
		}, ErrDuplicate},
		{"root is reserved", func(tr *Tree) error {
			return tr.AddAccount("root", "", Shares{Raw: 1}, nil)
		}, ErrDuplicate},
		{"unknown parent", func(tr *Tree) error {
			return tr.AddAccount("a", "nope", Shares{Raw: 1}, nil)
		}, ErrUnknownParent},
		{"user in unknown account", func(tr *Tree) error {
			return tr.AddUser("u", "nope", Shares{Raw: 1}, nil)
		}, ErrUnknownParent},
		{"duplicate user association", func(tr *Tree) error {
			_ = tr.AddAccount("a", "", Shares{Raw: 1}, nil)
			_ = tr.AddUser("u", "a", Shares{Raw: 1}, nil)
			return tr.AddUser("u", "a", Shares{Raw: 1}, u32(3))
		}, ErrDuplicate},
		{"empty account name", func(tr *Tree) error {
			return tr.AddAccount("", "root", Shares{Raw: 1}, nil)
		}, ErrEmptyName},
		{"empty user name", func(tr *Tree) error {
			return tr.AddUser("", "root", Shares{Raw: 1}, nil)
		}, ErrEmptyName},
		{"add after finalize", func(tr *Tree) error {
			_ = tr.Finalize()
			return tr.AddAccount("late", "root", Shares{Raw: 1}, nil)
		}, ErrFinalized},
		{"same user in two accounts is fine", func(tr *Tree) error {
			_ = tr.AddAccount("a", "", Shares{Raw: 1}, nil)
			_ = tr.AddAccount("b", "", Shares{Raw: 1}, nil)
			_ = tr.AddUser("u", "a", Shares{Raw: 1}, nil)
			return tr.AddUser("u", "b", Shares{Raw: 1}, nil)
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(NewTree())
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

// The Slurm 2.0 example tree: classic normalised shares are the product of
// shares/level_shares down the tree.
func TestNormSharesClassicSlurm20Example(t *testing.T) {
	tr := slurm20Tree(t)
	tests := []struct {
		acct, user string
		want       float64
	}{
		{"A", "", 0.40},      // 40/100
		{"B", "", 0.30},      // 30/40 · 40/100
		{"C", "", 0.10},      // 10/40 · 40/100
		{"D", "", 0.60},      // 60/100
		{"E", "", 0.25},      // 25/60 · 60/100
		{"F", "", 0.35},      // 35/60 · 60/100
		{"B", "user1", 0.30}, // 1/1 · 30/40 · 40/100
		{"C", "user2", 0.05}, // 1/2 · 10/40 · 40/100
		{"C", "user3", 0.05}, // 1/2 · 10/40 · 40/100
		{"E", "user4", 0.25}, // 1/1 · 25/60 · 60/100
		{"F", "user5", 0.35}, // 1/1 · 35/60 · 60/100
		{"root", "", 0},      // root shows 0
	}
	for _, tc := range tests {
		i := mustLookup(t, tr, tc.acct, tc.user)
		if got := tr.NormShares(i, Classic); !near(got, tc.want) {
			t.Errorf("classic NormShares(%s,%s) = %v, want %v", tc.acct, tc.user, got, tc.want)
		}
	}
	// Fair Tree normalises per level only.
	ft := []struct {
		acct, user string
		want       float64
	}{
		{"A", "", 0.4}, {"B", "", 0.75}, {"C", "", 0.25}, {"E", "", 25.0 / 60},
		{"C", "user2", 0.5}, {"B", "user1", 1},
	}
	for _, tc := range ft {
		i := mustLookup(t, tr, tc.acct, tc.user)
		if got := tr.NormShares(i, FairTree); !near(got, tc.want) {
			t.Errorf("fair tree NormShares(%s,%s) = %v, want %v", tc.acct, tc.user, got, tc.want)
		}
	}
	if tr.UserCount() != 5 || tr.Len() != 12 {
		t.Errorf("UserCount=%d Len=%d, want 5, 12", tr.UserCount(), tr.Len())
	}
}

// A tree with Fairshare=parent accounts and users:
//
//	root
//	├─ A 10
//	│  ├─ P parent
//	│  │  ├─ pu1 4
//	│  │  └─ Q parent
//	│  │     └─ qu1 6
//	│  ├─ a1 2
//	│  └─ ap parent      (user)
//	├─ B 30 ─ b1 1
//	└─ r1 5              (user directly under root)
func parentTree(t *testing.T) *Tree {
	return newBuilder(t).
		acct("A", "root", 10).acctParent("P", "A").user("pu1", "P", 4).
		acctParent("Q", "P").user("qu1", "Q", 6).
		user("a1", "A", 2).userParent("ap", "A").
		acct("B", "root", 30).user("b1", "B", 1).
		user("r1", "root", 5).
		done()
}

func TestParentHoisting(t *testing.T) {
	tr := parentTree(t)
	idx := func(a, u string) int { return mustLookup(t, tr, a, u) }
	A, P, Q, B := idx("A", ""), idx("P", ""), idx("Q", ""), idx("B", "")
	// fs_parent is the nearest strict ancestor without "parent" shares.
	fsParent := map[int]int{
		A: 0, P: A, idx("P", "pu1"): A, Q: A, idx("Q", "qu1"): A,
		idx("A", "a1"): A, idx("A", "ap"): A, B: 0, idx("B", "b1"): B, idx("root", "r1"): 0,
	}
	for i, want := range fsParent {
		if got := tr.FSParent(i); got != want {
			t.Errorf("FSParent(%s) = %d, want %d", tr.Name(i), got, want)
		}
	}
	// Children of "parent" accounts are hoisted to A, in insertion order;
	// P and Q keep an empty list.
	wantA := []int{P, idx("P", "pu1"), Q, idx("Q", "qu1"), idx("A", "a1"), idx("A", "ap")}
	if got := tr.FSChildren(A); !slices.Equal(got, wantA) {
		t.Errorf("FSChildren(A) = %v, want %v", got, wantA)
	}
	if len(tr.FSChildren(P)) != 0 || len(tr.FSChildren(Q)) != 0 {
		t.Errorf("parent accounts must have empty fs children")
	}
	if got := tr.Children(P); !slices.Equal(got, []int{idx("P", "pu1"), Q}) {
		t.Errorf("direct Children(P) = %v", got)
	}
	// level_shares under A: pu1 4 + qu1 6 + a1 2 (parents add 0) = 12;
	// under root: A 10 + B 30 + r1 5 = 45.
	if got := tr.LevelShares(idx("A", "a1")); got != 12 {
		t.Errorf("level shares under A = %d, want 12", got)
	}
	if got := tr.LevelShares(A); got != 45 {
		t.Errorf("level shares under root = %d, want 45", got)
	}
	norm := []struct {
		a, u    string
		ft, cls float64
	}{
		{"A", "", 10.0 / 45, 10.0 / 45},
		{"P", "", 10.0 / 45, 10.0 / 45},            // parent: fs_parent A's value
		{"P", "pu1", 4.0 / 12, 4.0 / 12 * 10 / 45}, // 4/12 · (P skipped) · 10/45
		{"Q", "qu1", 6.0 / 12, 6.0 / 12 * 10 / 45}, // Q and P skipped
		{"A", "a1", 2.0 / 12, 2.0 / 12 * 10 / 45},
		{"A", "ap", 10.0 / 45, 10.0 / 45}, // parent user
		{"B", "b1", 1, 30.0 / 45},
		{"root", "r1", 5.0 / 45, 5.0 / 45},
	}
	for _, tc := range norm {
		i := idx(tc.a, tc.u)
		if got := tr.NormShares(i, FairTree); !near(got, tc.ft) {
			t.Errorf("FT NormShares(%s,%s) = %v, want %v", tc.a, tc.u, got, tc.ft)
		}
		if got := tr.NormShares(i, Classic); !near(got, tc.cls) {
			t.Errorf("classic NormShares(%s,%s) = %v, want %v", tc.a, tc.u, got, tc.cls)
		}
	}
	depth := map[int]int{0: 0, A: 1, P: 2, Q: 3, idx("Q", "qu1"): 4, idx("root", "r1"): 1}
	for i, want := range depth {
		if got := tr.Depth(i); got != want {
			t.Errorf("Depth(%s) = %d, want %d", tr.Name(i), got, want)
		}
	}
}

func TestZeroLevelShares(t *testing.T) {
	tr := newBuilder(t).acct("Z", "root", 5).user("z1", "Z", 0).user("z2", "Z", 0).done()
	z1 := mustLookup(t, tr, "Z", "z1")
	// level_shares 0 ⇒ shares_norm 0 in both variants (no division by 0).
	if tr.LevelShares(z1) != 0 || tr.NormShares(z1, FairTree) != 0 || tr.NormShares(z1, Classic) != 0 {
		t.Errorf("zero level shares: level=%d ft=%v classic=%v", tr.LevelShares(z1),
			tr.NormShares(z1, FairTree), tr.NormShares(z1, Classic))
	}
}

func TestPriorityInheritance(t *testing.T) {
	p := func(v uint32) *uint32 { return &v }
	tr := NewTree()
	steps := []error{
		tr.AddAccount("A", "", Shares{Raw: 1}, p(100)),
		tr.AddAccount("A1", "A", Shares{Raw: 1}, nil),
		tr.AddUser("inherits", "A1", Shares{Raw: 1}, nil),
		tr.AddUser("own", "A1", Shares{Raw: 1}, p(50)),
		tr.AddAccount("B", "", Shares{Raw: 1}, nil),
		tr.AddUser("unset", "B", Shares{Raw: 1}, nil),
		tr.Finalize(),
	}
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		a, u string
		prio uint32
		norm float64
	}{
		{"A1", "inherits", 100, 1}, // from A through A1
		{"A1", "own", 50, 0.5},     // 50/100
		{"B", "unset", 0, 0},       // INFINITE counts as 0
		{"A1", "", 100, 1},
	}
	for _, tc := range tests {
		i := mustLookup(t, tr, tc.a, tc.u)
		if tr.Priority(i) != tc.prio || !near(tr.NormPriority(i), tc.norm) {
			t.Errorf("(%s,%s) prio=%d norm=%v, want %d %v", tc.a, tc.u, tr.Priority(i), tr.NormPriority(i), tc.prio, tc.norm)
		}
	}
}

// sshare lists each account's users first, then its sub-accounts, each
// group by name, whatever the insertion order.
func TestSshareOrder(t *testing.T) {
	tr := newBuilder(t).
		acct("b", "root", 1).user("zed", "root", 1).acct("a", "root", 1).
		user("amy", "root", 1).user("y", "b", 1).acct("ba", "b", 1).user("x", "b", 1).
		done()
	var got []string
	for _, i := range tr.Order() {
		got = append(got, tr.Account(i)+"/"+tr.User(i))
	}
	want := []string{"root/", "root/amy", "root/zed", "a/", "b/", "b/x", "b/y", "ba/"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestTreeAccessorsOutOfRange(t *testing.T) {
	tr := slurm20Tree(t)
	for _, i := range []int{-1, tr.Len(), 1 << 30} {
		if tr.Account(i) != "" || tr.User(i) != "" || tr.IsUser(i) || tr.Parent(i) != -1 ||
			tr.FSParent(i) != -1 || tr.Depth(i) != 0 || tr.NormShares(i, Classic) != 0 ||
			tr.Children(i) != nil || tr.Priority(i) != 0 {
			t.Errorf("accessors at %d must return zero values", i)
		}
	}
	if _, ok := tr.Lookup("B", "nobody"); ok {
		t.Error("Lookup of a missing user succeeded")
	}
	if i, ok := tr.Lookup("root", ""); !ok || i != 0 {
		t.Error("root must be index 0")
	}
}
