package fairshare

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// A job is charged to the association of its partition when the user has
// one in that account, else to the user's partition-less association
// (assoc_mgr_fill_in_assoc); names match whatever their case.
func TestLookupJob(t *testing.T) {
	tr, _ := readFixture(t, "partition.dump")
	id := func(a, u, p string) int {
		i, ok := tr.LookupExact(a, u, p)
		if !ok {
			t.Fatalf("no association (%s, %s, %s)", a, u, p)
		}
		return i
	}
	tests := []struct {
		account, user, part string
		want                int // -1: none
	}{
		{"physics", "alice", "gpu", id("physics", "alice", "gpu")},
		{"physics", "alice", "cpu", id("physics", "alice", "")}, // falls back
		{"physics", "alice", "", id("physics", "alice", "")},
		{"PHYSICS", "Alice", "GPU", id("physics", "alice", "gpu")},
		{"theory", "carol", "gpu", id("theory", "carol", "")},
		{"theory", "carol", "debug", id("theory", "carol", "debug")},
		{"physics", "carol", "debug", -1}, // carol's debug association is in theory
		{"chem", "bob", "gpu", -1},
		{"physics", "", "", -1}, // a job always has a user
	}
	for _, tc := range tests {
		got, ok := tr.LookupJob(tc.account, tc.user, tc.part)
		if !ok {
			got = -1
		}
		if got != tc.want {
			t.Errorf("LookupJob(%s, %s, %s) = %d, want %d", tc.account, tc.user, tc.part, got, tc.want)
		}
	}
	// A usage table names an association exactly: no fallback.
	if i, ok := tr.LookupExact("physics", "alice", "cpu"); ok {
		t.Errorf("LookupExact(physics, alice, cpu) = %d, want none", i)
	}
	if tr.Partition(id("physics", "alice", "gpu")) != "gpu" || tr.Partition(id("physics", "alice", "")) != "" {
		t.Error("Partition() does not give the association's partition")
	}
}

// sacctmgr stores names lower-cased, so a dump, a usage table and lookups
// written with capitals all name the same associations.
func TestCapitals(t *testing.T) {
	dump := "Cluster - 'C1'\nParent - 'root'\nAccount - 'aAA':Fairshare=2\nParent - 'AAA'\n" +
		"User - 'uAA1':Partition='GPU'\nUser - 'UAA1'\n"
	tr, _, err := ReadAssocFile("d", strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	if got := shape(tr); !slices.Equal(got, []string{
		"0 root// shares=0 prio=0 parent=",
		"1 aaa// shares=2 prio=0 parent=root",
		"2 aaa/uaa1/ shares=1 prio=0 parent=aaa",
		"2 aaa/uaa1/gpu shares=1 prio=0 parent=aaa",
	}) {
		t.Errorf("tree %q", got)
	}
	if tr.Cluster() != "c1" {
		t.Errorf("cluster %q", tr.Cluster())
	}
	usage := "Account,User,RawUsage,Partition\naAA,uAA1,100,\nAaa,Uaa1,50,Gpu\n"
	entries, err := ReadUsageCSV("u", strings.NewReader(usage), tr)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := tr.Lookup("aaa", "uaa1")
	gpu, _ := tr.LookupExact("aaa", "uaa1", "gpu")
	if want := []UsageEntry{{plain, 100}, {gpu, 50}}; !slices.Equal(entries, want) {
		t.Errorf("entries %v, want %v", entries, want)
	}
}

func TestUsageCSVPartitionErrors(t *testing.T) {
	tr, _ := readFixture(t, "partition.dump")
	in := "user,partition,account,rawusage\nalice,cpu,physics,1\nalice,GPU,physics,2\nalice,gpu,physics,3\nalice,physics,4\n"
	_, err := ReadUsageCSV("u", strings.NewReader(in), tr)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("err %v", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"u:2: user: no association (physics, alice, partition cpu)",
		"u:4: user: (physics, alice, partition gpu) already given on line 3",
		"u:5: want 4 fields, got 3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sshare -m adds a Partition column after User (process.c's "A,User,P,...");
// it is blank on every row but a per-partition association's.
func TestSsharePartitionColumn(t *testing.T) {
	tr, _ := readFixture(t, "partition.dump")
	e := newEngine(t, tr, Config{Algorithm: FairTree, HalfLife: week})
	var b bytes.Buffer
	if err := WriteSshare(&b, e.Rows(), SshareOptions{Algorithm: FairTree, Partitions: true, All: true, Parsable2: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if lines[0] != "Account|User|Partition|RawShares|NormShares|RawUsage|EffectvUsage|FairShare" {
		t.Errorf("header %q", lines[0])
	}
	var parts []string
	for _, l := range lines[1:] {
		f := strings.Split(l, "|")
		parts = append(parts, strings.TrimSpace(f[0])+"/"+f[1]+"/"+f[2]+"/"+f[3])
	}
	want := []string{"root///", "root/root//1", "chem//", "chem/dave//3", "physics//", "physics/alice//10",
		"physics/alice/gpu/5", "physics/bob//parent", "theory//", "theory/carol//1", "theory/carol/debug/2"}
	want[2], want[4], want[8] = "chem///100", "physics///100", "theory///50"
	if !slices.Equal(parts, want) {
		t.Errorf("rows %q\nwant %q", parts, want)
	}
	b.Reset()
	if err := WriteSshare(&b, e.Rows(), SshareOptions{Algorithm: FairTree, Partitions: true, All: true}); err != nil {
		t.Fatal(err)
	}
	table := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(table[0], "Account                    User    Partition  RawShares") ||
		!strings.HasPrefix(table[8], "  physics                 alice          gpu          5") {
		t.Errorf("table:\n%s", b.String())
	}
}
