package fairshare

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestReadDumpTestdata(t *testing.T) {
	f, err := os.Open("testdata/cluster.dump")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ReadDump("cluster.dump", f)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Cluster() != "odyssey" || !tr.Finalized() {
		t.Fatalf("cluster %q finalized %v", tr.Cluster(), tr.Finalized())
	}
	// root + 4 accounts + 11 user associations (carol twice, root once).
	if tr.Len() != 16 || tr.UserCount() != 11 {
		t.Fatalf("Len %d UserCount %d, want 16 and 11", tr.Len(), tr.UserCount())
	}
	idx := func(a, u string) int { return mustLookup(t, tr, a, u) }
	checks := []struct {
		a, u   string
		shares Shares
		prio   uint32
		parent string
	}{
		{"root", "root", Shares{Raw: 1}, 0, "root"},
		{"chemistry", "", Shares{Raw: 100}, 10, "root"},
		{"chemistry", "carol", Shares{Raw: 1}, 10, "chemistry"}, // inherits Priority=10
		{"physics", "carol", Shares{Raw: 5}, 0, "physics"},
		{"physics", "alice", Shares{Raw: 10}, 50, "physics"},
		{"chem_theory", "", Shares{Parent: true}, 10, "chemistry"}, // 2147483647 = parent
		{"test_lab", "user1", Shares{Parent: true}, 0, "test_lab"},
		{"test_lab", "user3", Shares{Parent: true}, 0, "test_lab"}, // quoted ':' and '#'
		{"chem_theory", "frank", Shares{Raw: 2}, 10, "chem_theory"},
	}
	for _, c := range checks {
		i := idx(c.a, c.u)
		if tr.Shares(i) != c.shares || tr.Priority(i) != c.prio || tr.Account(tr.Parent(i)) != c.parent {
			t.Errorf("(%s,%s): shares %+v prio %d parent %s", c.a, c.u, tr.Shares(i), tr.Priority(i), tr.Account(tr.Parent(i)))
		}
	}
	// chem_theory has Fairshare=parent: its users compete in chemistry.
	chem := idx("chemistry", "")
	want := []int{idx("chemistry", "carol"), idx("chemistry", "dave"), idx("chem_theory", ""),
		idx("chem_theory", "erin"), idx("chem_theory", "frank")}
	if got := tr.FSChildren(chem); !slices.Equal(got, want) {
		t.Errorf("FSChildren(chemistry) = %v, want %v", got, want)
	}
	// chemistry's level shares: carol 1 + dave 3 + erin 1 + frank 2 = 7.
	if tr.LevelShares(idx("chem_theory", "erin")) != 7 {
		t.Errorf("level shares %d, want 7", tr.LevelShares(idx("chem_theory", "erin")))
	}
}

func TestReadDumpSyntax(t *testing.T) {
	in := "Cluster - \"MyCluster\"\n" + // double quotes, lowercased
		"Account - 'A':Description='a: \\#1 group' \\\n" + // continuation
		"  :Fairshare=7   # trailing comment\n" +
		"\n" +
		"   # indented comment\n" +
		"Parent - 'a'\n" +
		"User - 'Ann':Priority=-1:FAIRSHARE=Parent\r\n" + // -1 = unset, CRLF
		"User - \"bo\\'b\":Shares=4\n" // escaped quote in a name
	tr, err := ReadDump("x", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	a := mustLookup(t, tr, "a", "")
	if tr.Cluster() != "mycluster" || tr.Shares(a) != (Shares{Raw: 7}) {
		t.Errorf("cluster %q shares %+v", tr.Cluster(), tr.Shares(a))
	}
	ann := mustLookup(t, tr, "a", "ann")
	if tr.Shares(ann) != (Shares{Parent: true}) || tr.Priority(ann) != 0 {
		t.Errorf("ann: %+v %d", tr.Shares(ann), tr.Priority(ann))
	}
	if i, ok := tr.Lookup("a", "bo'b"); !ok || tr.Shares(i).Raw != 4 {
		t.Errorf("escaped quote in name not handled")
	}
}

func TestReadDumpErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty file", "", []string{"d: Cluster: no \"Cluster - 'name'\" line"}},
		{"account before cluster",
			"Account - 'a'\nCluster - 'c'\n",
			[]string{"d:1: Account: a \"Cluster - 'name'\" line must come first"}},
		{"unknown parent",
			"Cluster - 'c'\nParent - 'nope'\n",
			[]string{"d:2: Parent: account \"nope\" must be added before it is used as a parent"}},
		{"bad fairshare and priority, collected together",
			"Cluster - 'c'\nAccount - 'a':Fairshare=lots\nAccount - 'b':Priority=x:Fairshare=2147483648\n",
			[]string{
				"d:2: Fairshare: \"lots\" is neither a number nor \"parent\"",
				"d:3: Priority: \"x\" is not a number",
				"d:3: Fairshare: 2147483648 is out of range (max 2147483646)",
			}},
		{"unknown option and partition",
			"Cluster - 'c'\nUser - 'u':Frobnicate=1\nAccount - 'v':Partition='gpu'\n" +
				"User - 'w':Partition='a,b'\nUser - 'x':Partition=gpu\nUser - 'X':Partition=GPU\n",
			[]string{
				"d:2: Frobnicate: unknown option",
				"d:3: Partition: only a User line can name a partition",
				"d:4: Partition: \"a,b\": one partition name per User line",
				"d:6: User: user \"x\" in account \"root\", partition \"gpu\": duplicate association",
			}},
		{"duplicates",
			"Cluster - 'c'\nAccount - 'a'\nAccount - 'a'\nUser - 'u'\nUser - 'u'\n",
			[]string{
				"d:3: Account: account \"a\": duplicate association",
				"d:5: User: user \"u\" in account \"root\": duplicate association",
			}},
		{"misformatted",
			"Cluster - 'c'\nAccount 'a'\nWidget - 'w'\nUser -\n",
			[]string{
				"d:2: line: misformatted line \"Account 'a'\": want \"Object - 'name':options\"",
				"d:3: line: unknown object \"Widget\": want QOS, Cluster, Parent, Account or User",
				"d:4: User: nothing after object name",
			}},
		{"quotes and names",
			"Cluster - 'c'\nAccount - 'a:Fairshare=1\nAccount - :Fairshare=2\nUser - 'u':'v'\n",
			[]string{
				"d:2: line: unterminated ' quote",
				"d:3: Fairshare: the name must come before the options",
				"d:3: name: no name given",
				"d:4: 'v': option must be Key=Value",
			}},
		{"two clusters, QOS after cluster",
			"Cluster - 'c'\nCluster - 'd'\nQOS - 'late'\n",
			[]string{
				"d:2: Cluster: only one cluster per file (already \"c\")",
				"d:3: QOS: QOS lines must come before the Cluster line",
			}},
		{"continuation keeps the first line number",
			"Cluster - 'c'\nAccount - 'a':\\\nFairshare=-3\n",
			[]string{"d:2: Fairshare: \"-3\" is neither a number nor \"parent\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadDump("d", strings.NewReader(tc.in))
			if err == nil || tr != nil {
				t.Fatalf("no error (tree %v)", tr)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if err.Error() != strings.Join(tc.want, "\n") {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

func TestReadDumpLongLine(t *testing.T) {
	in := "Cluster - 'c'\nAccount - 'a':Description='" + strings.Repeat("x", maxDumpLine+10) + "'\n"
	_, err := ReadDump("d", strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "d:2: line longer than") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzDump: no input may panic, and an accepted tree must be consistent.
func FuzzDump(f *testing.F) {
	seed, err := os.ReadFile("testdata/cluster.dump")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	if seed, err = os.ReadFile("testdata/partition.dump"); err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	if dir, ok := realSitesDir(); ok {
		for _, name := range []string{"coldfront-associations.dump.cfg", "coldfront-parents.dump.cfg"} {
			if seed, err := os.ReadFile(dir + "/" + name); err == nil {
				f.Add(seed)
			}
		}
	}
	for _, s := range []string{
		"",
		"Cluster - 'c'\n",
		"Cluster - 'c'\nUser - 'U':Partition=P\nUser - 'u'\n",
		"Cluster - 'c'\nAccount - 'a':Fairshare=parent\nParent - 'a'\nUser - 'u':Fairshare=parent\n",
		"Cluster - 'c'\nAccount - 'a\\\n':x=\"y:z\"#\n",
		"QOS - 'q'\nCluster - c:Fairshare=2147483647\nUser - u:Priority=4294967295\n",
		"Cluster - 'c':QOS='normal,high'\nParent - 'root'\nAccount - 'a':QOS='+x,-high'\nParent - 'a'\nUser - 'u':QOS='-x'\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadDump("fuzz", bytes.NewReader(data))
		if err != nil {
			if tr != nil {
				t.Fatal("tree returned with an error")
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if !tr.Finalized() || tr.Len() < 1 {
			t.Fatal("accepted tree not finalized")
		}
		users := 0
		for i := 1; i < tr.Len(); i++ {
			if qs, ok := tr.ValidQOS(i); !ok && len(qs) > 0 {
				t.Fatalf("association %d: QOS %v without a list", i, qs)
			}
			if j, ok := tr.LookupExact(tr.Account(i), tr.User(i), tr.Partition(i)); !ok || j != i {
				t.Fatalf("lookup round trip failed for %d", i)
			}
			if p := tr.FSParent(i); p < 0 || p >= i {
				t.Fatalf("fs parent %d of %d", p, i)
			}
			if tr.IsUser(i) {
				users++
			}
		}
		if users != tr.UserCount() || len(tr.Order()) != tr.Len() {
			t.Fatal("inconsistent counts")
		}
		// The tree must run: one tick and an sshare print.
		e, err := NewEngine(tr, Config{HalfLife: week})
		if err != nil {
			t.Fatal(err)
		}
		e.BeginTick(0)
		e.EndTick(0)
		if err := WriteSshare(&bytes.Buffer{}, e.Rows(), SshareOptions{Long: true, All: true}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReadDumpLimits: association limits as sacctmgr dump writes them,
// with the pre-TRES forms (GrpCPUs, MaxNodesPerJob) folded into TRES lists
// and MaxWall in seconds; a bad count names its line and key.
func TestReadDumpLimits(t *testing.T) {
	tr, err := ReadDump("l.cfg", strings.NewReader(`Cluster - 'c':Fairshare=1:GrpJobs=100
Parent - 'root'
Account - 'a1':Fairshare=50:GrpTRES=cpu=8,gres/gpu=4:GrpCPUs=16:MaxWall=1-0:GrpSubmitJobs=30:GrpWall=2-0:GrpTRESMins=cpu=6000:GrpCPURunMins=900:GrpJobsAccrue=5
Parent - 'a1'
User - 'u1':Fairshare=1:MaxJobs=2:MaxNodesPerJob=1:MaxSubmitJobs=4:MaxJobsAccrue=1:MaxTRESPerNode=cpu=32
User - 'u2':Fairshare=1
`))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := tr.AssocLimits(0)
	a1i, _ := tr.Lookup("a1", "")
	a1, _ := tr.AssocLimits(a1i)
	u1i, _ := tr.Lookup("a1", "u1")
	u1, _ := tr.AssocLimits(u1i)
	u2i, _ := tr.Lookup("a1", "u2")
	_, u2has := tr.AssocLimits(u2i)
	want := []Limits{NoLimits(), NoLimits(), NoLimits()}
	want[0].GrpJobs = 100
	want[1].GrpTRES, want[1].MaxWall = "gres/gpu=4,cpu=16", 86400
	// GrpWall=2-0 is 2880 minutes, 172800 s; GrpCPURunMins is the cpu item
	// of GrpTRESRunMins.
	want[1].GrpSubmit, want[1].GrpWall, want[1].GrpTRESMins, want[1].GrpTRESRunMins, want[1].GrpJobsAccrue = 30, 172800, "cpu=6000", "cpu=900", 5
	want[2].MaxJobs, want[2].MaxTRES, want[2].MaxSubmit, want[2].MaxJobsAccrue = 2, "node=1", 4, 1
	want[2].MaxTRESPerNode = "cpu=32"
	for i, got := range []Limits{root, a1, u1} {
		if got != want[i] {
			t.Errorf("limits %d: %+v, want %+v", i, got, want[i])
		}
	}
	if u2has {
		t.Error("u2 has limits it was not given")
	}
	if _, err := ReadDump("l.cfg", strings.NewReader("Cluster - 'c'\nParent - 'root'\nAccount - 'a':GrpJobs=x\n")); err == nil || !strings.Contains(err.Error(), `l.cfg:3: GrpJobs: "x" is not a job count`) {
		t.Errorf("bad GrpJobs: %v", err)
	}
	if _, err := ReadDump("l.cfg", strings.NewReader("Cluster - 'c'\nParent - 'root'\nAccount - 'a':GrpTRES=cpus=4\n")); err == nil || !strings.Contains(err.Error(), `l.cfg:3: GrpTRES: "cpus=4": unknown TRES type "cpus"`) {
		t.Errorf("bad GrpTRES: %v", err)
	}
}
