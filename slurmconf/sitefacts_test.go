package slurmconf

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInclude follows Include lines as slurmctld does: relative names
// against slurm.conf's folder at every depth, %c as the ClusterName,
// settings in order, positions naming the included file.
func TestInclude(t *testing.T) {
	c, err := ParseFile("testdata/include/main.conf")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.AllHosts(); !slices.Equal(got, []string{"n1", "n2", "m1"}) {
		t.Errorf("hosts %q", got)
	}
	if p := c.DefaultPartition(); p == nil || p.Name != "p" || len(p.Hosts) != 3 {
		t.Errorf("partition from parts/alpha.inc: %+v", p)
	}
	if c.OverTimeLimit != 2 || c.KillWait != 5 {
		t.Errorf("OverTimeLimit %d (tail.inc beside main.conf), KillWait %d", c.OverTimeLimit, c.KillWait)
	}
	for key, want := range map[string]Pos{
		"NodeName=m1":     {"testdata/include/more.inc", 1},
		"PartitionName=p": {"testdata/include/parts/alpha.inc", 2},
		"OverTimeLimit":   {"testdata/include/tail.inc", 1},
		"KillWait":        {"testdata/include/main.conf", 4},
	} {
		if got := c.Where(key); got != want {
			t.Errorf("Where(%s) = %v, want %v", key, got, want)
		}
	}
	checkRoundTrip(t, "include", c)

	// Lower-case "include" and extra spaces are fine.
	if c, err := ParseFile("testdata/include/lower.conf"); err != nil || len(c.Nodes) != 1 {
		t.Errorf("lower-case include: %v", err)
	}

	// An absolute path is used as it is.
	tmp := t.TempDir()
	abs := filepath.Join(tmp, "abs.inc")
	if err := os.WriteFile(abs, []byte("KillWait=9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = ParseIn("x.conf", []byte("Include "+abs+"\n"), "/nonexistent")
	if err != nil || c.KillWait != 9 || c.Where("KillWait").File != abs {
		t.Errorf("absolute include: %v, KillWait %d at %v", err, c.KillWait, c.Where("KillWait"))
	}
	// Parse with a real file name resolves against its folder too.
	main, _ := os.ReadFile("testdata/include/main.conf")
	if c, err := Parse("testdata/include/main.conf", main); err != nil || len(c.Nodes) != 2 {
		t.Errorf("Parse of a real path: %v", err)
	}
}

// TestIncludeErrors checks the Include failures, each citing its line.
func TestIncludeErrors(t *testing.T) {
	tests := []struct {
		name, file string
		src        string // parsed with ParseIn in testdata/include when file is ""
		want       string
	}{
		{"missing", "testdata/include/missing.conf", "",
			"testdata/include/missing.conf:2: Include: cannot read testdata/include/nowhere.inc: no such file or directory"},
		{"loop", "testdata/include/loop_a.conf", "",
			"testdata/include/loop_b.inc:1: Include: loop of includes: testdata/include/loop_a.conf:2 → testdata/include/loop_b.inc:1 → testdata/include/loop_a.conf"},
		{"self", "", "Include t.conf\n", "testdata/include/t.conf:1: Include: loop of includes: testdata/include/t.conf:1 → testdata/include/t.conf"},
		{"glob", "", "Include *.inc\n", `testdata/include/t.conf:1: Include: "*.inc": Slurm does not expand globs and fails this Include`},
		{"no cluster", "", "Include %c.inc\n", `testdata/include/t.conf:1: Include: "%c.inc" uses %c but no ClusterName is set above it (Slurm refuses this)`},
		{"trailing", "", "Include more.inc junk\n", `testdata/include/t.conf:1: Include: unexpected text "junk" after the file name`},
	}
	for _, tc := range tests {
		var err error
		if tc.file != "" {
			_, err = ParseFile(tc.file)
		} else {
			_, err = ParseIn("testdata/include/t.conf", []byte(tc.src), "testdata/include")
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// One file included again and again: capped in all, not only each.
	dir := t.TempDir()
	line := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes
	if err := os.WriteFile(filepath.Join(dir, "big.inc"), []byte(strings.Repeat(line, 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(old int64) { maxIncludedBytes = old }(maxIncludedBytes)
	maxIncludedBytes = 2500
	_, err := ParseIn(filepath.Join(dir, "t.conf"), []byte(strings.Repeat("Include big.inc\n", 4)), dir)
	want := fmt.Sprintf("t.conf:3: Include: %s: the included files would hold more than 2500 bytes in all", filepath.Join(dir, "big.inc"))
	want4 := fmt.Sprintf("t.conf:4: Include: %s: the included files would hold more than 2500 bytes in all", filepath.Join(dir, "big.inc"))
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), want4) {
		t.Errorf("big.inc included 4 times, 1000 bytes each, 2500 in all: %v; want errors on lines 3 and 4", err)
	}
	maxIncludedBytes = 3000
	if _, err := ParseIn(filepath.Join(dir, "t.conf"), []byte(strings.Repeat("Include big.inc\n", 3)), dir); err != nil {
		t.Errorf("3 includes of 1000 bytes within 3000: %v", err)
	}

	// Text without a folder never reads a file.
	c, err := ParseIn("t.conf", []byte("Include /etc/passwd\n"), "")
	if err != nil || len(c.Warnings) != 1 || c.Warnings[0].Key != "Include" {
		t.Errorf("ParseIn without a folder: %v %q", err, warnings(c))
	}
}

// TestNodeStates checks State= on node lines and DownNodes lines, as
// node_conf.c state_str2int and read_config.c _handle_downnodes_line.
func TestNodeStates(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"UNKNOWN", "UNKNOWN", true}, {"idle", "IDLE", true}, {"Down", "DOWN", true},
		{"FUTURE", "FUTURE", true}, {"ALLOCATED", "ALLOCATED", true}, {"MIXED", "MIXED", true},
		{"DRAIN", "DRAIN", true}, {"DRAINED", "DRAIN", true}, {"drain+x", "DRAIN", true},
		{"FAIL", "FAIL", true}, {"FAILING", "FAIL", true},
		{"CLOUD", "CLOUD", true}, {"CLOUD+POWERED_DOWN", "CLOUD", true}, {"EXTERNAL", "EXTERNAL", true},
		{"DOWN+DRAIN", "", false}, {"IDLE+CLOUD", "", false}, {"IDL", "", false}, {"", "", false},
	}
	for _, tc := range tests {
		got, ok := NormalizeNodeState(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeNodeState(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}

	c := mustParse(t, `NodeName=DEFAULT State=IDLE
NodeName=a[1-4] CPUs=2
NodeName=b1 CPUs=2 State=failing Reason="fan broken"
NodeName=f1 CPUs=2 State=FUTURE
DownNodes=a[1-2] Reason="disk"
DownNodes=a2 State=DRAIN Reason=later
DownNodes=a3 State=UNKNOWN Reason=note
`)
	for host, want := range map[string][2]string{
		"a1": {"DOWN", "disk"}, "a2": {"DRAIN", "later"}, "a3": {"IDLE", "note"}, "a4": {"IDLE", ""},
		"b1": {"FAIL", "fan broken"}, "f1": {"FUTURE", ""}, "zz": {"", ""},
	} {
		if s, r := c.NodeState(host), c.NodeReason(host); s != want[0] || r != want[1] {
			t.Errorf("%s: state %q reason %q, want %q", host, s, r, want)
		}
	}
	if len(c.DownNodes) != 3 || c.DownNodes[0].State != "DOWN" || !slices.Equal(c.DownNodes[0].Hosts, []string{"a1", "a2"}) {
		t.Errorf("DownNodes = %+v", c.DownNodes)
	}
	if d := mustParse(t, "NodeName=n1\nDownNodes=n1\n").DownNodes[0]; d.Reason != "Set in slurm.conf" || d.State != "DOWN" {
		t.Errorf("DownNodes defaults: %+v", d)
	}
	checkRoundTrip(t, "states", c)

	_, err := Parse("t.conf", []byte("NodeName=n1 State=DOWN+DRAIN\n"))
	if err == nil || !strings.Contains(err.Error(), `t.conf:1: NodeName=n1: State: invalid node state "DOWN+DRAIN"`) {
		t.Errorf("bad node state: %v", err)
	}
}

// TestWeight checks Weight is Slurm's 32-bit value.
func TestWeight(t *testing.T) {
	tests := []struct {
		src  string
		want uint32
		err  string
	}{
		{"NodeName=n1 Weight=20487900\n", 20487900, ""},
		{"NodeName=n1 Weight=4294967294\n", 4294967294, ""},
		{"NodeName=n1 Weight=UNLIMITED\n", 4294967294, ""}, // INFINITE is reserved
		{"NodeName=n1 Weight=4294967296\n", 0, `t.conf:1: NodeName=n1: Weight: "4294967296" is greater than 4294967295`},
		{"NodeName=n1 Weight=-1\n", 0, `t.conf:1: NodeName=n1: Weight: "-1" is less than zero`},
		{"NodeName=n1 Weight=heavy\n", 0, `t.conf:1: NodeName=n1: Weight: "heavy" is not a valid number`},
	}
	for _, tc := range tests {
		c, err := Parse("t.conf", []byte(tc.src))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %s", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || c.Nodes[0].Weight != tc.want {
			t.Errorf("%q: %v, weight %d", tc.src, err, c.Nodes[0].Weight)
		}
	}
}

// TestMemory checks cluster and partition memory settings, resolved as
// slurmctld applies them to a job.
func TestMemory(t *testing.T) {
	type mem struct{ defCPU, defNode, maxCPU, maxNode uint64 }
	tests := []struct {
		name, src string
		cluster   mem
		part      mem
		warn      string
	}{
		{"none", "PartitionName=p\n", mem{}, mem{}, ""},
		{"cluster inherited", "DefMemPerCPU=1000\nMaxMemPerNode=64000\nPartitionName=p\n",
			mem{1000, 0, 0, 64000}, mem{1000, 0, 0, 64000}, ""},
		{"partition overrides", "DefMemPerCPU=1000\nMaxMemPerCPU=4000\nPartitionName=p DefMemPerNode=8000 MaxMemPerCPU=2k\n",
			mem{1000, 0, 4000, 0}, mem{0, 8000, 2048, 0}, ""},
		{"both at cluster: node wins", "DefMemPerCPU=1000\nDefMemPerNode=5000\nPartitionName=p\n",
			mem{0, 5000, 0, 0}, mem{0, 5000, 0, 0},
			"t.conf:1: DefMemPerCPU: ignored: DefMemPerNode is also set (at t.conf:2) and the two are mutually exclusive; Slurm logs the same"},
		{"both on partition: node wins", "PartitionName=p DefMemPerCPU=10 DefMemPerNode=20\n",
			mem{}, mem{0, 20, 0, 0},
			"t.conf:1: PartitionName=p: DefMemPerCPU ignored: DefMemPerNode is also set and the two are mutually exclusive; Slurm logs the same"},
		{"DEFAULT node beats own cpu", "PartitionName=DEFAULT DefMemPerNode=20\nPartitionName=p DefMemPerCPU=10\n",
			mem{}, mem{0, 20, 0, 0},
			"t.conf:2: PartitionName=p: DefMemPerCPU ignored: DefMemPerNode is also set and the two are mutually exclusive; Slurm logs the same"},
		{"partition zero inherits", "DefMemPerCPU=1000\nMaxMemPerNode=9000\nPartitionName=p DefMemPerCPU=0 MaxMemPerNode=0\n",
			mem{1000, 0, 0, 9000}, mem{1000, 0, 0, 9000}, ""},
		{"partition lifts the limit", "MaxMemPerNode=9000\nPartitionName=p MaxMemPerCPU=0\n",
			mem{0, 0, 0, 9000}, mem{}, ""},
		{"partition unlimited", "MaxMemPerCPU=900\nPartitionName=p MaxMemPerNode=UNLIMITED\n",
			mem{0, 0, 900, 0}, mem{}, ""},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src)
		got := mem{c.DefMemPerCPU, c.DefMemPerNode, c.MaxMemPerCPU, c.MaxMemPerNode}
		p := c.Partitions[0]
		gotP := mem{p.DefMemPerCPU, p.DefMemPerNode, p.MaxMemPerCPU, p.MaxMemPerNode}
		if got != tc.cluster || gotP != tc.part {
			t.Errorf("%s: cluster %+v partition %+v, want %+v %+v", tc.name, got, gotP, tc.cluster, tc.part)
		}
		w := warnings(c)
		if (tc.warn == "" && len(w) > 0) || (tc.warn != "" && !slices.Contains(w, tc.warn)) {
			t.Errorf("%s: warnings %q, want %q", tc.name, w, tc.warn)
		}
		checkRoundTrip(t, tc.name, c)
	}
	c := mustParse(t, "DefMemPerCPU=1000\nDefMemPerGPU=4000\nPartitionName=p\nPartitionName=q DefMemPerCPU=2000 DefCPUPerGPU=4\n")
	if c.Where("PartitionName=p.DefMemPerCPU").Line != 1 || c.Where("PartitionName=q.DefMemPerCPU").Line != 4 {
		t.Errorf("memory positions %v %v", c.Where("PartitionName=p.DefMemPerCPU"), c.Where("PartitionName=q.DefMemPerCPU"))
	}
	if q := c.Partitions[1]; q.DefMemPerGPU != 4000 || q.DefCPUPerGPU != 4 {
		t.Errorf("GPU defaults %+v", q)
	}
	for _, bad := range []string{"DefMemPerCPU=UNLIMITED\n", "PartitionName=p DefMemPerNode=lots\n", "MaxMemPerNode=-5\n"} {
		if _, err := Parse("t.conf", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestAccessLists checks Allow/Deny lists as slurmctld keeps them.
func TestAccessLists(t *testing.T) {
	c := mustParse(t, `PartitionName=DEFAULT AllowQos=Normal,HIGH
PartitionName=a AllowAccounts=Physics,Chem DenyAccounts=bio AllowGroups=Staff
PartitionName=b AllowAccounts=ALL DenyAccounts=Bio DenyQos=low
PartitionName=c AllowQos=all Hidden=YES RootOnly=yes ReqResv=YES ExclusiveUser=YES MinNodes=2 MaxNodes=8 MaxCPUsPerNode=UNLIMITED
PartitionName=DEFAULT ExclusiveUser=YES
PartitionName=d
`)
	a, b, cc, d := c.Partitions[0], c.Partitions[1], c.Partitions[2], c.Partitions[3]
	if !slices.Equal(a.AllowAccounts, []string{"physics", "chem"}) || a.DenyAccounts != nil ||
		!slices.Equal(a.AllowQOS, []string{"normal", "high"}) || !slices.Equal(a.AllowGroups, []string{"Staff"}) {
		t.Errorf("a: %+v", a)
	}
	if b.AllowAccounts != nil || !slices.Equal(b.DenyAccounts, []string{"bio"}) || b.DenyQOS != nil {
		t.Errorf("b: allow %q deny %q denyqos %q (AllowQos from DEFAULT makes DenyQos ignored)", b.AllowAccounts, b.DenyAccounts, b.DenyQOS)
	}
	if cc.AllowQOS != nil || !cc.Hidden || !cc.RootOnly || !cc.ReqResv || !cc.ExclusiveUser || cc.MinNodes != 2 || cc.MaxNodes != 8 || cc.MaxCPUsPerNode != Infinite32 {
		t.Errorf("c: %+v", cc)
	}
	if d.ExclusiveUser || d.MaxNodes != Infinite32 {
		t.Errorf("d: ExclusiveUser from DEFAULT must not apply: %+v", d)
	}
	w := warnings(c)
	for _, want := range []string{
		"t.conf:2: PartitionName=a: both AllowAccounts and DenyAccounts are given: Slurm ignores DenyAccounts (and logs an error), and so does fairsim",
		"t.conf:3: PartitionName=b: both AllowQos and DenyQos are given: Slurm ignores DenyQos (and logs an error), and so does fairsim",
	} {
		if !slices.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
	checkRoundTrip(t, "access", c)
}

// TestOldVersions checks keys and values only older Slurm versions
// accepted: read as those did, with a warning, never an error.
func TestOldVersions(t *testing.T) {
	tests := []struct {
		src     string
		enforce Enforce
		warn    string
	}{
		{"AccountingStorageEnforce=associations,limit,qos\n", Enforce{Associations: true, QOS: true},
			`t.conf:1: AccountingStorageEnforce: invalid flag "limit" (want associations, limits, qos, safe, wckeys, all, nojobs or nosteps): Slurm 21.08 and later refuse to start with it; earlier versions matched flag names as substrings, reading "associations,limit,qos" as "associations,qos", and so does fairsim`},
		{"AccountingStorageEnforce=limits,everything\n", Enforce{Associations: true, Limits: true}, "invalid flag \"everything\""},
		{"AccountingStorageEnforce=qos_limits\n", Enforce{Associations: true, Limits: true, QOS: true}, "reading \"qos_limits\" as \"associations,limits,qos\""},
		{"AccountingStorageEnforce=Safe,WCKeys\n", Enforce{Associations: true, Limits: true, Safe: true, WCKeys: true}, ""},
		{"FastSchedule=2\n", Enforce{}, `t.conf:1: FastSchedule: "2": removed in Slurm 20.02 (which ignores 1 and refuses 0 and 2); fairsim simulates the nodes as configured in this file`},
		{"CacheGroups=0\n", Enforce{}, "t.conf:1: CacheGroups: unknown to current Slurm (removed in 21.08, commit a00c693f4a); line ignored"},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src)
		if c.AccountingStorageEnforce != tc.enforce {
			t.Errorf("%q: enforce %+v, want %+v", tc.src, c.AccountingStorageEnforce, tc.enforce)
		}
		w := strings.Join(warnings(c), "\n")
		if (tc.warn == "") != (w == "") || !strings.Contains(w, tc.warn) {
			t.Errorf("%q: warnings %q, want %q", tc.src, w, tc.warn)
		}
	}
}

// TestIgnored checks the one list of what the simulation leaves out.
func TestIgnored(t *testing.T) {
	c := mustParse(t, `SlurmctldHost=head
AuthType=auth/munge
authtype=auth/none
KillWait=30
DefMemPerGPU=100
Colour=blue
NodeName=n[1-2] CPUs=4 Gres=gpu:2 TmpDisk=100 Feature=x
NodeName=n3 Gres=gpu:1
PartitionName=DEFAULT Hidden=YES
PartitionName=p Nodes=ALL MaxTime=10 AllowGroups=g DefMemPerCPU=10 AllowAccounts=a
NodeSet=s Feature=x
DownNodes=n1
CompleteWait=32
`)
	want := []string{
		"AuthType (t.conf:2)", "Colour (t.conf:6)", "CompleteWait (t.conf:13)", "NodeName.TmpDisk (t.conf:7)",
		"PartitionName.Hidden (t.conf:9)",
		"SlurmctldHost (t.conf:1)",
	}
	if !slices.Equal(c.Ignored, want) {
		t.Errorf("Ignored\n%q\nwant\n%q", c.Ignored, want)
	}
	n := 0
	for _, w := range c.Warnings {
		if w.Key == ignoredWarningKey {
			n++
			if w.String() != "t.conf: not simulated: fairsim ignores "+strings.Join(want, ", ") {
				t.Errorf("warning %q", w)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d warnings list the ignored keys, want 1", n)
	}
	if len(mustParse(t, "KillWait=3\nNodeName=n1 CPUs=2 Weight=3 Feature=a State=IDLE\nPartitionName=p Nodes=n1 State=UP\n").Ignored) != 0 {
		t.Error("simulated keys listed as ignored")
	}
}

// TestNodeSetsAndDynamic checks NodeSet by Nodes= and Feature=, and the
// recognition of a file whose nodes register dynamically.
func TestNodeSetsAndDynamic(t *testing.T) {
	c := mustParse(t, twoGroups+"NodeSet=s1 Nodes=b2,a1\nNodeSet=s2 Feature=amd\nNodeSet=s3 Nodes=a1 Feature=amd\nPartitionName=p Nodes=s1,s2\n")
	for i, want := range [][]string{{"a1", "b2"}, {"b1", "b2"}, {"a1", "b1", "b2"}} {
		if got := c.NodeSets[i].Hosts; !slices.Equal(got, want) {
			t.Errorf("NodeSet %s = %q, want %q", c.NodeSets[i].Name, got, want)
		}
	}
	if got := c.Partitions[0].Hosts; !slices.Equal(got, []string{"a1", "b1", "b2"}) {
		t.Errorf("partition over node sets = %q", got)
	}
	if c.DynamicNodes() {
		t.Error("a file with NodeName lines is not dynamic")
	}
	dyn := mustParse(t, "NodeSet=cpu Feature=cpu\nPartitionName=p Nodes=cpu Default=YES\n")
	if !dyn.DynamicNodes() || len(dyn.Partitions[0].Hosts) != 0 {
		t.Errorf("dynamic: %v %+v", dyn.DynamicNodes(), dyn.Partitions)
	}
	if mustParse(t, "PartitionName=p\n").DynamicNodes() {
		t.Error("no nodes and no feature set is not dynamic, just empty")
	}
}

// TestLowerCaseKeys checks keys and attributes are matched whatever their
// case, and a DEFAULT line mid-file applies only to the lines after it.
func TestLowerCaseKeys(t *testing.T) {
	c := mustParse(t, "killwait=7\nnodename=n1 cpus=2 realmemory=100\nPartitionName=early nodes=n1\npartitionname=DEFAULT maxtime=60\npartitionname=late nodes=n1 defmempercpu=5\n")
	if c.KillWait != 7 || c.Nodes[0].CPUs != 2 || c.Nodes[0].RealMemory != 100 {
		t.Errorf("lower-case keys: %+v %+v", c.KillWait, c.Nodes[0])
	}
	if c.Partitions[0].MaxTime != -1 || c.Partitions[1].MaxTime != 60 || c.Partitions[1].DefMemPerCPU != 5 {
		t.Errorf("DEFAULT mid-file: %+v", c.Partitions)
	}
}

// The "not simulated" warning names the first 20 ignored keys and counts
// the rest (25 - 20 = 5); Config.Ignored keeps all 25.
func TestIgnoredWarningCapped(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "Colour%02d=blue\n", i)
	}
	c := mustParse(t, b.String())
	if len(c.Ignored) != 25 {
		t.Fatalf("Ignored holds %d, want 25", len(c.Ignored))
	}
	for _, w := range c.Warnings {
		if w.Key != ignoredWarningKey {
			continue
		}
		if !strings.HasSuffix(w.Msg, "Colour20 (t.conf:20), … and 5 more") || strings.Contains(w.Msg, "Colour21") {
			t.Errorf("warning %q, want Colour01..Colour20 then … and 5 more", w.Msg)
		}
		return
	}
	t.Error("no warning lists the ignored keys")
}
