package fairshare

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// shape renders a tree in sshare order, one association a line: depth,
// account, user, partition, shares, effective priority and direct parent,
// so two readers' trees compare as text.
func shape(t *Tree) []string {
	var out []string
	for _, i := range t.Order() {
		sh := fmt.Sprint(t.Shares(i).Raw)
		if t.Shares(i).Parent {
			sh = "parent"
		}
		out = append(out, fmt.Sprintf("%d %s/%s/%s shares=%s prio=%d parent=%s",
			t.Depth(i), t.Account(i), t.User(i), t.Partition(i), sh, t.Priority(i), t.Account(t.Parent(i))))
	}
	return out
}

func readFixture(t *testing.T, name string) (*Tree, []string) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, warns, err := ReadAssocFile(name, f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tr, warns
}

// The partition.dump tree in sshare (lineage) order: chem before physics,
// users before sub-accounts, a partition-less association before the
// user's per-partition ones.
var partitionTree = []string{
	"0 root// shares=0 prio=0 parent=",
	"1 root/root/ shares=1 prio=0 parent=root",
	"1 chem// shares=100 prio=0 parent=root",
	"2 chem/dave/ shares=3 prio=0 parent=chem",
	"1 physics// shares=100 prio=10 parent=root",
	"2 physics/alice/ shares=10 prio=10 parent=physics",
	"2 physics/alice/gpu shares=5 prio=20 parent=physics",
	"2 physics/bob/ shares=parent prio=10 parent=physics",
	"2 theory// shares=50 prio=10 parent=physics",
	"3 theory/carol/ shares=1 prio=10 parent=theory",
	"3 theory/carol/debug shares=2 prio=10 parent=theory",
}

func TestReadAssocFileForms(t *testing.T) {
	tests := []struct {
		file  string
		warns []string
		want  []string
	}{
		{"partition.dump", nil, partitionTree},
		{"assoc-parentname.psv", []string{"assoc-parentname.psv:2: column QOS holds values fairsim does not model; ignored"}, partitionTree},
		// -p with a trailing '|', columns reordered, rows out of order
		// (theory before its parent physics): parents from Lineage.
		{"assoc-lineage.psv", nil, partitionTree},
		{"assoc-tree.psv", nil, partitionTree},
		{"assoc-parentid.psv", nil, partitionTree},
		// The default format says nothing of account parents: every
		// account goes under root, and the reader says so.
		{"assoc-default.psv", []string{
			"assoc-default.psv:2: column QOS holds values fairsim does not model; ignored",
			"assoc-default.psv: 3 account(s) without a parent in the listing (no ParentName, Lineage or ParentID column, nor the tree option's indentation) are put under root; list with format=...,ParentName to keep the hierarchy",
		}, []string{
			"0 root// shares=0 prio=0 parent=",
			"1 root/root/ shares=1 prio=0 parent=root",
			"1 chem// shares=100 prio=0 parent=root",
			"2 chem/dave/ shares=3 prio=0 parent=chem",
			"1 physics// shares=100 prio=10 parent=root",
			"2 physics/alice/ shares=10 prio=10 parent=physics",
			"2 physics/alice/gpu shares=5 prio=20 parent=physics",
			"2 physics/bob/ shares=parent prio=10 parent=physics",
			"1 theory// shares=50 prio=10 parent=root",
			"2 theory/carol/ shares=1 prio=10 parent=theory",
			"2 theory/carol/debug shares=2 prio=10 parent=theory",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tr, warns := readFixture(t, tc.file)
			if got := shape(tr); !slices.Equal(got, tc.want) {
				t.Errorf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if !slices.Equal(warns, tc.warns) {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(tc.warns, "\n"))
			}
			// 11 associations, 7 of them user associations (2 per-partition).
			if tr.Len() != 11 || tr.UserCount() != 7 {
				t.Errorf("Len %d UserCount %d, want 11 and 7", tr.Len(), tr.UserCount())
			}
		})
	}
}

func TestReadAssocListCluster(t *testing.T) {
	tr, _ := readFixture(t, "assoc-parentname.psv")
	if tr.Cluster() != "odin" {
		t.Errorf("cluster %q", tr.Cluster())
	}
}

func TestReadAssocListErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{"l: header: no header line (list with sacctmgr -P show assoc, without -n)"}},
		{"header", "Account|Usr|Share|Account|\n", []string{
			"l:1: Usr: unknown column (want sacctmgr show assoc's column names)",
			"l:1: Account: column given twice",
		}},
		{"required", "Account|Share\n", []string{"l:1: User: required column missing from header"}},
		{"rows", "Account|User|Partition|Share|Priority|ID|ParentName\n" +
			"a|||1||||\n" + // one field too many
			"|u||1|||\n" + // no account
			"a||p|1|||root\n" + // partition on an account row
			"a|||x|-2|y|root\n",
			[]string{
				"l:2: 8 fields, header has 7",
				"l:3: Account: empty",
				"l:4: Partition: only a user association can have a partition",
				`l:5: Share: "x" is neither a number nor "parent"`,
				`l:5: Priority: "-2" is not a number`,
				`l:5: ID: "y" is not an association id`,
			}},
		{"two clusters", "Cluster|Account|User\nc1|a|\nc2|a|u\n", []string{
			`l:3: Cluster: a second cluster "c2" (first "c1"): list one cluster (sacctmgr show assoc where cluster=NAME)`,
		}},
		{"parents", "Account|User|Lineage|ParentID\n" +
			"a||/b/|\n" + // lineage of another account
			"c||/x//c/|\n" +
			"d|||99\n" +
			"e|||\n" + // fine: under root, with a warning
			"f||/zz/f/|\n" + // zz is not in the listing
			"g|u|/zz/0-u/|\n" + // user of an unknown account
			"e||/e/|\n", // duplicate
			[]string{
				`l:2: Lineage: account "a": lineage "/b/" does not end in /a/ (want /PARENT/.../a/)`,
				`l:3: Lineage: account "c": lineage "/x//c/" does not end in /c/ (want /PARENT/.../c/)`,
				`l:4: ParentID: account "d": no account row has ID 99`,
				`l:8: Account: account "e": duplicate association`,
				`l:6: Account: account "f": parent "zz" is not an account of the listing`,
				`l:7: User: user "u": account "g": unknown parent account`,
			}},
		// slurmdbd refuses a parent loop and numbers each association once.
		{"parent loop", "Account|User|ID|ParentID\nroot||1|0\na||3|4\nb||4|3\nc||5|3\nb|u|6|4\n", []string{
			`l:3: Account: account "a": its parents never reach root (a -> b -> a)`,
			`l:4: Account: account "b": its parents never reach root (b -> a -> b)`,
			`l:5: Account: account "c": its parents never reach root (c -> a -> b -> a)`,
		}},
		// as_mysql_assoc.c: a user's lineage is its account's, then
		// 0-USER/ and its partition.
		{"lineages disagree", "Lineage|User|Account|Partition\n/||root|\n/chem/||chem|\n/chem/theory/||theory|\n/physics/||physics|\n" +
			"/physics/theory/0-carol/|carol|theory|\n/chem/theory/0-carol/debug/|carol|theory|debug\n/chem/theory/0-carol/gpu/|carol|theory|debug\n", []string{
			`l:6: Lineage: user "carol": lineage "/physics/theory/0-carol/", but account "theory"'s is "/chem/theory/" (want "/chem/theory/0-carol/")`,
			`l:8: Lineage: user "carol": lineage "/chem/theory/0-carol/gpu/", but account "theory"'s is "/chem/theory/" (want "/chem/theory/0-carol/debug/")`,
		}},
		{"account lineages disagree", "Lineage|User|Account\n/||root\n/chem/||chem\n/physics/chem/x/||x\n/physics/chem/x/0-u/|u|x\n", []string{
			`l:4: Lineage: account "x": lineage "/physics/chem/x/", but its parent "chem"'s is "/chem/" (want "/chem/x/")`,
		}},
		{"duplicate id", "Account|User|ID|ParentID\nroot||1|0\na||3|1\nb||3|1\n", []string{
			`l:4: ID: association id 3 also on line 3`,
		}},
		{"tree too deep", "Account|User\nroot|\n a|\n   b|\n", []string{
			`l:4: Account: account "b": indented 3 spaces, deeper than the account before it allows`,
		}},
		{"duplicate user", "Account|User|Partition\nroot|u|\nroot|U|\nroot|u|gpu\nroot|u|GPU\n", []string{
			`l:3: User: user "u" in account "root": duplicate association`,
			`l:5: User: user "u" in account "root", partition "gpu": duplicate association`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, _, err := ReadAssocList("l", strings.NewReader(tc.in))
			var list ErrorList
			if tr != nil || !errors.As(err, &list) {
				t.Fatalf("tree %v err %v", tr, err)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A dump is told from a listing by its first line that is not a comment.
func TestReadAssocFileDetects(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
		len               int
	}{
		{"dump", "# comment | with a bar\n\nCluster - 'c'\nUser - 'u'\n", "", 2},
		{"dump, object with spaces", "  Machine-'c'\nAccount - 'a':Description='x|y'\n", "", 2},
		{"listing", "\n# a comment\nAccount|User\nroot|u\n", "", 2},
		{"neither", "\n  Cluster    Account  User\n", `x:2: line: "Cluster    Account  User" is neither a sacctmgr dump line ("Cluster - 'name'") nor the header of a '|'-separated listing (sacctmgr -P show assoc)`, 0},
		{"empty", "", `x: Cluster: no "Cluster - 'name'" line`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, _, err := ReadAssocFile("x", strings.NewReader(tc.in))
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.Len() != tc.len {
				t.Errorf("Len %d, want %d", tr.Len(), tc.len)
			}
		})
	}
}

func FuzzAssocList(f *testing.F) {
	for _, name := range []string{"assoc-parentname.psv", "assoc-lineage.psv", "assoc-tree.psv", "assoc-parentid.psv", "assoc-default.psv", "partition.dump", "cluster.dump"} {
		seed, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	if dir, ok := realSitesDir(); ok {
		for _, name := range []string{"coldfront-associations.dump.cfg", "coldfront-parents.dump.cfg"} {
			if seed, err := os.ReadFile(dir + "/" + name); err == nil {
				f.Add(seed)
			}
		}
	}
	f.Add([]byte("Account|User\n"))
	f.Add([]byte("Account|User|\nroot||\n a||\n  b|u|\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, _, err := ReadAssocFile("fuzz", strings.NewReader(string(data)))
		if err != nil {
			if tr != nil {
				t.Fatal("tree returned with an error")
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v is not an ErrorList", err)
			}
			return
		}
		if !tr.Finalized() {
			t.Fatal("tree not finalized")
		}
		// Every association is found again by its own names.
		for i := 1; i < tr.Len(); i++ {
			j, ok := tr.LookupExact(tr.Account(i), tr.User(i), tr.Partition(i))
			if !ok || j != i {
				t.Fatalf("association %d (%s, %s, %s) looks up as %d, %v", i, tr.Account(i), tr.User(i), tr.Partition(i), j, ok)
			}
		}
		if len(tr.Order()) != tr.Len() {
			t.Fatalf("Order has %d of %d associations", len(tr.Order()), tr.Len())
		}
	})
}
