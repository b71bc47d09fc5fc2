package fairshare

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestReadUsageCSV(t *testing.T) {
	tr := slurm20Tree(t)
	in := "Account,User,RawUsage\nB,user1,200\n C , user2 ,250.5\n\"E\",user4,2.5e2\n"
	entries, err := ReadUsageCSV("u.csv", strings.NewReader(in), tr)
	if err != nil {
		t.Fatal(err)
	}
	want := []UsageEntry{
		{mustLookup(t, tr, "B", "user1"), 200},
		{mustLookup(t, tr, "C", "user2"), 250.5},
		{mustLookup(t, tr, "E", "user4"), 250},
	}
	if !slices.Equal(entries, want) {
		t.Fatalf("entries %v, want %v", entries, want)
	}
	e := newEngine(t, tr, Config{Algorithm: Classic, HalfLife: week})
	if err := e.LoadUsage(entries); err != nil {
		t.Fatal(err)
	}
	// Accounts are sums of their users: A = 200 + 250.5, root = 700.5.
	if e.Usage(mustLookup(t, tr, "A", "")) != 450.5 || e.Usage(0) != 700.5 {
		t.Errorf("A %v root %v", e.Usage(mustLookup(t, tr, "A", "")), e.Usage(0))
	}
	// LoadUsage recomputed the factors: user2 is far over its share.
	if f := e.FairShare(mustLookup(t, tr, "C", "user2")); !(f > 0 && f < 0.01) {
		t.Errorf("user2 factor %v not recomputed", f)
	}
}

func TestReadUsageCSVErrors(t *testing.T) {
	tr := slurm20Tree(t)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{`u: header: missing "account,user,rawusage" header`}},
		{"bad header", "acct,user,usage\n", []string{`u:1: header: want "account,user,rawusage" and optionally "partition", in any order`}},
		{"row errors collected", "account,user,rawusage\n" +
			"A,,5\n" + // account rows are refused
			"B,user1,-1\n" +
			"B,user1,NaN\n" +
			"B,nobody,3\n" +
			"B,user1,1\n" +
			"B,user1,2\n" +
			"B,user1\n" +
			"B,user1,1e308\n",
			[]string{
				"u:2: user: blank: only user rows are accepted (account usage is the sum of its users)",
				`u:3: rawusage: "-1" is not a finite number >= 0`,
				`u:4: rawusage: "NaN" is not a finite number >= 0`,
				"u:5: user: no association (B, nobody)",
				"u:7: user: (B, user1) already given on line 6",
				"u:8: want 3 fields, got 2",
				`u:9: rawusage: "1e308" is above 1e+18 billing-seconds (a million billing units for 31,000 years): the tree's sums would overflow into NaN`,
			}},
		{"csv syntax", "account,user,rawusage\nB,\"user1,3\n", []string{`u:2: extraneous or missing " in quoted-field`}},
		// A malformed header is the one problem: the next line is data,
		// not a header to complain about.
		{"csv syntax in the header", "\"account\"x,user,rawusage\nB,user1,3\n", []string{`u:1: extraneous or missing " in quoted-field`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := ReadUsageCSV("u", strings.NewReader(tc.in), tr)
			var list ErrorList
			if entries != nil || !errors.As(err, &list) {
				t.Fatalf("entries %v err %v", entries, err)
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
	if _, err := ReadUsageCSV("u", strings.NewReader("account,user,rawusage\n"), NewTree()); err == nil {
		t.Error("unfinalized tree accepted")
	}
}

// FuzzUsageCSV: no input may panic; accepted entries are valid for SetUsage.
func FuzzUsageCSV(f *testing.F) {
	f.Add([]byte("account,user,rawusage\nB,user1,200\nC,user2,250\nE,user4,250\n"))
	f.Add([]byte("account,user,rawusage\nA,,1\nB,user1,1e400\n\"C\",\"user3\",0\n"))
	f.Add([]byte("account,user\n"))
	f.Add([]byte("\"\n"))
	f.Add([]byte("Partition,RawUsage,User,Account\ngpu,5,alice,physics\n,6,Alice,PHYSICS\ndebug,1,carol,theory\n"))
	data, err := os.ReadFile("testdata/partition.dump")
	if err != nil {
		f.Fatal(err)
	}
	parts, err := ReadDump("partition.dump", bytes.NewReader(data))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, tr := range []*Tree{slurm20Tree(t), parts} {
			entries, err := ReadUsageCSV("fuzz", bytes.NewReader(data), tr)
			if err != nil {
				if entries != nil {
					t.Fatal("entries returned with an error")
				}
				continue
			}
			e, err := NewEngine(tr, Config{Algorithm: FairTree, HalfLife: week})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.LoadUsage(entries); err != nil {
				t.Fatalf("accepted entry rejected by SetUsage: %v", err)
			}
			if err := WriteSshare(&bytes.Buffer{}, e.Rows(), SshareOptions{Long: true, All: true, Partitions: true}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
