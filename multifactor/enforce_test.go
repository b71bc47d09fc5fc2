package multifactor

import (
	"strings"
	"testing"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// AccountingStorageEnforce=associations,qos at submit (job_mgr.c
// _job_create, _determine_and_validate_qos). The tree: root's QOS list
// is normal; account a (inherits normal), its user u1 adds high
// (QOS='+high'); account b lists standby only, its user u2 inherits it.
//
//	job  account/user  QOS      associations  qos          both
//	1    a/u1          normal   ok            ok (normal)  ok
//	2    a/u1          high     ok            ok (+high)   ok
//	3    b/u2          normal   ok            InvalidQOS   InvalidQOS
//	4    b/u2          standby  ok            ok           ok
//	5    a/nobody      normal   InvalidAcct   ok (no assoc: not judged)  InvalidAccount
//
// With neither flag nothing is refused.
func TestEnforceAssociationsAndQOS(t *testing.T) {
	c := oneNode(t)
	tree, err := fairshare.ReadDump("e.cfg", strings.NewReader(`Cluster - 'c':QOS='normal'
Parent - 'root'
Account - 'a'
Account - 'b':QOS='standby'
Parent - 'a'
User - 'u1':QOS='+high'
Parent - 'b'
User - 'u2'
`))
	if err != nil {
		t.Fatal(err)
	}
	qs, _, err := policy.ParseQOSFile(strings.NewReader("Name|Priority\nnormal|0\nhigh|10\nstandby|0\n"), "qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	jobs := []struct {
		acct, user, qos string
	}{{"a", "u1", "normal"}, {"a", "u1", "high"}, {"b", "u2", "normal"}, {"b", "u2", "standby"}, {"a", "nobody", "normal"}}
	for _, tc := range []struct {
		assocs, qos bool
		want        []string
	}{
		{false, false, []string{"", "", "", "", ""}},
		{true, false, []string{"", "", "", "", "InvalidAccount"}},
		{false, true, []string{"", "", "InvalidQOS", "", ""}},
		{true, true, []string{"", "", "InvalidQOS", "", "InvalidAccount"}},
	} {
		names := &workload.Names{}
		m, err := New(Config{Priority: policy.DefaultParams(), FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300,
			Tree: tree, QOS: qs, DefaultQOS: "normal", EnforceAssocs: tc.assocs, EnforceQOS: tc.qos}, c, names)
		if err != nil {
			t.Fatal(err)
		}
		for i, jb := range jobs {
			j := &sim.Job{Job: workload.Job{ID: int64(i + 1), CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: names.QOS.ID(jb.qos),
				Account: names.Accounts.ID(jb.acct), User: names.Users.ID(jb.user)}, Idx: i, Part: 0, Parts: []int{0}}
			m.Submit(j, 0)
			if got := m.Refuse(j, 0); got != tc.want[i] {
				t.Errorf("associations=%v qos=%v: job %d (%s/%s, %s) refused %q, want %q", tc.assocs, tc.qos, i+1, jb.acct, jb.user, jb.qos, got, tc.want[i])
			}
		}
		if got := len(m.Unmapped.Keys()); got != map[bool]int{false: 1, true: 0}[tc.assocs] {
			t.Errorf("associations=%v: %d unmapped, want the job without association counted only when not refused", tc.assocs, got)
		}
	}
	// A tree that lists no QOS at all (built from shares or a generator)
	// says nothing of QOS access: no job is refused for its QOS.
	bare := fairshare.NewTree()
	if err := bare.AddAccount("b", "root", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := bare.AddUser("u2", "b", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	names := &workload.Names{}
	m, err := New(Config{Priority: policy.DefaultParams(), FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300,
		Tree: bare, QOS: qs, DefaultQOS: "normal", EnforceAssocs: true, EnforceQOS: true}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	j := &sim.Job{Job: workload.Job{ID: 1, CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: names.QOS.ID("high"),
		Account: names.Accounts.ID("b"), User: names.Users.ID("u2")}, Idx: 0, Part: 0, Parts: []int{0}}
	m.Submit(j, 0)
	if got := m.Refuse(j, 0); got != "" {
		t.Errorf("tree without QOS lists: refused %q", got)
	}
}

// A job naming a QOS the QOS list lacks runs under the default QOS, or
// under none without one, and is counted by name with what it ran
// under: it used to get no QOS and no word.
func TestUnknownQOSCounted(t *testing.T) {
	c := oneNode(t)
	for _, tc := range []struct {
		list    string
		wantIdx int
		wantKey string
	}{
		{"Name|Priority\nnormal|0\nhigh|10\n", 0, "highprio (run under normal)"},
		{"Name|Priority\ngutter|0\n", -1, "highprio (run without a QOS)"},
	} {
		qs, _, err := policy.ParseQOSFile(strings.NewReader(tc.list), "qos.txt")
		if err != nil {
			t.Fatal(err)
		}
		names := &workload.Names{}
		m, err := New(Config{Priority: policy.DefaultParams(), FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300,
			Tree: fairshare.NewTree(), QOS: qs}, c, names)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			j := &sim.Job{Job: workload.Job{ID: int64(i + 1), CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: names.QOS.ID("highprio"),
				Account: names.Accounts.ID("a"), User: names.Users.ID("u")}, Idx: i, Part: 0, Parts: []int{0}}
			m.Submit(j, 0)
			if j.QOSIdx != tc.wantIdx {
				t.Errorf("%q: job %d QOS index %d, want %d", tc.list, i+1, j.QOSIdx, tc.wantIdx)
			}
		}
		if got := m.UnknownQOS; len(got) != 1 || got[tc.wantKey] != 2 {
			t.Errorf("%q: unknown QOS tally %v, want %q: 2", tc.list, got, tc.wantKey)
		}
	}
}

// oneNode is a cluster of one 4-core Broadwell node n1 in partition p.
func oneNode(t *testing.T) *sim.Cluster {
	t.Helper()
	bw, _ := sim.LookupCPUType("broadwell")
	c, err := sim.NewCluster([]sim.CPUType{bw}, []sim.NodeSpec{{Names: []string{"n1"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}},
		[]sim.PartitionSpec{{Partition: sim.Partition{Name: "p", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}}},
		"broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
