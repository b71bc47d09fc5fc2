package multifactor

import (
	"testing"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// A job submitted to partitions a (PriorityJobFactor 10) and b (factor 1)
// under PriorityWeightPartition 1000 gets 1000 × 10/10 = 1000 in a and
// 1000 × 1/10 = 100 in b (priority_multifactor.c: the partition factor is
// the job's partition's PriorityJobFactor over the largest one). Its
// Priority is its first partition's, and computing the second partition's
// priority leaves the job in its first partition.
func TestSubmitPerPartitionPriority(t *testing.T) {
	bw, _ := sim.LookupCPUType("broadwell")
	c, err := sim.NewCluster([]sim.CPUType{bw}, []sim.NodeSpec{{Names: []string{"n1", "n2"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}},
		[]sim.PartitionSpec{
			{Partition: sim.Partition{Name: "a", PriorityJobFactor: 10, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}},
			{Partition: sim.Partition{Name: "b", PriorityJobFactor: 1, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n2"}},
		}, "broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	names := &workload.Names{}
	tree := fairshare.NewTree()
	if err := tree.AddAccount("acct", "root", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tree.AddUser("u", "acct", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	pp := policy.DefaultParams()
	pp.Weights.Partition = 1000
	m, err := New(Config{Priority: pp, FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300, Tree: tree}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	j := &sim.Job{Job: workload.Job{ID: 7, CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: workload.Unset,
		Account: names.Accounts.ID("ACCT"), User: names.Users.ID("u")}, Part: 0, Parts: []int{0, 1}}
	m.Submit(j, 0)
	if j.Assoc < 0 {
		t.Error("job of account ACCT, user u: no association (names must match sacctmgr's lower case)")
	}
	if len(j.PartPrio) != 2 || j.PartPrio[0] != 1000 || j.PartPrio[1] != 100 || j.Priority != 1000 {
		t.Errorf("priorities %v, Priority %d; want [1000 100] and 1000", j.PartPrio, j.Priority)
	}
	if j.Part != 0 {
		t.Errorf("the job was left in partition %d, want its first, 0", j.Part)
	}
	if pf := m.PartFactors(j); len(pf) != 2 || pf[0].Partition != 1000 || pf[1].Partition != 100 {
		t.Errorf("per-partition breakdowns %+v, want PARTITION 1000 and 100", pf)
	}
	if why := m.Hold(j, 0); why != "" {
		t.Errorf("Hold %q with no limits enforced, want none", why)
	}
}

// A job is charged to its first partition's association when its user has
// one there, else to the partition-less one (job_mgr.c job_allocate,
// assoc_mgr_fill_in_assoc); names match whatever their case.
func TestSubmitPartitionAssociation(t *testing.T) {
	bw, _ := sim.LookupCPUType("broadwell")
	c, err := sim.NewCluster([]sim.CPUType{bw}, []sim.NodeSpec{{Names: []string{"n1", "n2"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}},
		[]sim.PartitionSpec{
			{Partition: sim.Partition{Name: "cpu", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}},
			{Partition: sim.Partition{Name: "GPU", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n2"}},
		}, "broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	tree := fairshare.NewTree()
	for _, err := range []error{
		tree.AddAccount("acct", "root", fairshare.Shares{Raw: 1}, nil),
		tree.AddUser("u", "acct", fairshare.Shares{Raw: 1}, nil),
		tree.AddUserPartition("u", "acct", "gpu", fairshare.Shares{Raw: 1}, nil),
		tree.AddUserPartition("v", "acct", "gpu", fairshare.Shares{Raw: 1}, nil),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	names := &workload.Names{}
	m, err := New(Config{Priority: policy.DefaultParams(), FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300, Tree: tree}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := tree.LookupExact("acct", "u", "")
	gpu, _ := tree.LookupExact("acct", "u", "gpu")
	vgpu, _ := tree.LookupExact("acct", "v", "gpu")
	tests := []struct {
		user  string
		parts []int
		want  int
	}{
		{"u", []int{0}, plain},
		{"U", []int{1}, gpu},
		{"u", []int{1, 0}, gpu}, // the first partition's
		{"u", []int{0, 1}, plain},
		{"v", []int{1}, vgpu},
		{"v", []int{0}, -1}, // v has no partition-less association
	}
	for k, tc := range tests {
		j := &sim.Job{Idx: k, Job: workload.Job{ID: int64(k + 1), CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: workload.Unset,
			Account: names.Accounts.ID("Acct"), User: names.Users.ID(tc.user)}, Part: tc.parts[0], Parts: tc.parts}
		m.Submit(j, 0)
		if j.Assoc != tc.want {
			t.Errorf("user %s in partitions %v: association %d, want %d", tc.user, tc.parts, j.Assoc, tc.want)
		}
	}
}
