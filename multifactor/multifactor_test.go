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
	c := twoPartCluster(t)
	names := &workload.Names{}
	tree := oneUserTree(t)
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

// With AccountingStorageEnforce=limits and a QOS with MaxJobsPU=2, one
// user's third job is held with QOSMaxJobsPerUserLimit while two run, or
// while one runs and the pass has planned another; an end frees a slot.
func TestHoldMaxJobsPU(t *testing.T) {
	bw, _ := sim.LookupCPUType("broadwell")
	c, err := sim.NewCluster([]sim.CPUType{bw}, []sim.NodeSpec{{Names: []string{"n1"}, Type: "broadwell", Cores: 8, MemMB: 8192, Weight: 1}},
		[]sim.PartitionSpec{{Partition: sim.Partition{Name: "a", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}}},
		"broadwell", false)
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
	q := policy.NewQOS("normal")
	q.Limits.MaxJobsPU = 2
	qs, err := policy.NewQOSSet([]policy.QOS{q})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{Priority: policy.DefaultParams(), FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300,
		Tree: tree, QOS: qs, EnforceLimits: true}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []*sim.Job
	for i := 0; i < 5; i++ {
		j := &sim.Job{Job: workload.Job{ID: int64(i + 1), CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: workload.Unset,
			Account: names.Accounts.ID("acct"), User: names.Users.ID("u")}, Idx: i, Part: 0, Start: -1, End: -1}
		j.Req.CPUs, j.Req.Nodes = 1, 1
		m.Submit(j, 0)
		jobs = append(jobs, j)
	}
	start := func(j *sim.Job) {
		j.Start, j.Alloc = 0, sim.Alloc{{Node: 0, Cores: 1, MemMB: 100}}
		m.Started(j, 0)
	}
	start(jobs[0])
	if why := m.HoldPlaced(jobs[2], jobs[2].Part, 0, []sim.PlacedJob{{Job: jobs[1], Part: jobs[1].Part}}, nil); why != "QOSMaxJobsPerUserLimit" {
		t.Errorf("one running, one planned: %q, want QOSMaxJobsPerUserLimit", why)
	}
	if why := m.Hold(jobs[1], 0); why != "" {
		t.Errorf("one running: held %q", why)
	}
	start(jobs[1])
	for _, j := range jobs[2:] {
		if why := m.Hold(j, 0); why != "QOSMaxJobsPerUserLimit" {
			t.Errorf("job %d with two running: %q", j.ID, why)
		}
	}
	m.Ended(jobs[0], 10)
	m.Ended(jobs[0], 10) // a second end counts nothing
	if why := m.Hold(jobs[2], 10); why != "" {
		t.Errorf("after an end: held %q", why)
	}
}

// TestBasicPriority: under PriorityType=priority/basic each job gets, at
// submission, one less than the job before, from job_mgr.c's
// TOP_PRIORITY 0xffff0000 (priority_basic.c priority_p_set), the same in
// each of its partitions, whatever the weights; no calc tick changes it.
func TestBasicPriority(t *testing.T) {
	c := twoPartCluster(t)
	names := &workload.Names{}
	tree := oneUserTree(t)
	pp := policy.DefaultParams()
	pp.Weights = policy.Weights{Age: 1000, Partition: 1000, JobSize: 1000, Fairshare: 1000}
	m, err := New(Config{Priority: pp, FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300, Tree: tree, Basic: true}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	job := func(id int64, parts ...int) *sim.Job {
		return &sim.Job{Job: workload.Job{ID: id, CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: workload.Unset,
			Account: names.Accounts.ID("acct"), User: names.Users.ID("u")}, Idx: int(id - 1), Part: parts[0], Parts: parts}
	}
	j1, j2, j3 := job(1, 0), job(2, 0, 1), job(3, 1)
	for _, j := range []*sim.Job{j1, j2, j3} {
		m.Submit(j, 0)
	}
	if j1.Priority != 0xffff0000-1 || j2.Priority != 0xffff0000-2 || j3.Priority != 0xffff0000-3 {
		t.Errorf("priorities %d %d %d, want 0xffff0000 less 1, 2, 3", j1.Priority, j2.Priority, j3.Priority)
	}
	if len(j2.PartPrio) != 2 || j2.PartPrio[0] != j2.Priority || j2.PartPrio[1] != j2.Priority {
		t.Errorf("job 2's per-partition priorities %v, want its %d in both", j2.PartPrio, j2.Priority)
	}
	m.Tick(3600, nil, []*sim.Job{j1, j2, j3})
	m.Reprice(j3, 3600)
	if j1.Priority != 0xffff0000-1 || j3.Priority != 0xffff0000-3 {
		t.Errorf("after a calc tick: %d and %d, want them as set at submission", j1.Priority, j3.Priority)
	}
	// priority_basic.c charges no usage: a job running over ticks and
	// ending leaves usage_raw at 0, where multifactor would charge it.
	j1.Start, j1.Alloc, j1.Billing = 3600, sim.Alloc{{Node: 0, Cores: 1, MemMB: 1024}}, 1
	m.Started(j1, 3600)
	m.Tick(3900, []*sim.Job{j1}, []*sim.Job{j2, j3})
	m.Ended(j1, 4000)
	if u := m.Engine().Usage(j1.Assoc); u != 0 {
		t.Errorf("usage after a 400 s job under priority/basic %v, want 0", u)
	}
	// A job requeued for a failed node goes to the back of the line
	// (set_job_prio); a preempted one keeps its priority.
	m.Requeued(j1, 4000, true)
	m.Requeued(j3, 4000, false)
	if j1.Priority != 0xffff0000-4 || j3.Priority != 0xffff0000-3 {
		t.Errorf("requeued: node failure %d, preemption %d; want 0xffff0000 less 4, and less 3 as before", j1.Priority, j3.Priority)
	}
}

// twoPartCluster is nodes n1 and n2 of 4 CPUs, partition a (n1,
// PriorityJobFactor 10) and b (n2, factor 1).
func twoPartCluster(t *testing.T) *sim.Cluster {
	t.Helper()
	bw, _ := sim.LookupCPUType("broadwell")
	c, err := sim.NewCluster([]sim.CPUType{bw}, []sim.NodeSpec{{Names: []string{"n1", "n2"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}},
		[]sim.PartitionSpec{
			{Partition: sim.Partition{Name: "a", PriorityJobFactor: 10, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}},
			{Partition: sim.Partition{Name: "b", PriorityJobFactor: 1, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n2"}},
		}, "broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// oneUserTree is account acct with its user u, the tests' one
// association.
func oneUserTree(t *testing.T) *fairshare.Tree {
	t.Helper()
	tree := fairshare.NewTree()
	if err := tree.AddAccount("acct", "root", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tree.AddUser("u", "acct", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	return tree
}
