package scheduler

import (
	"testing"

	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// TestMultiPartitionJob: a job submitted to two partitions (sbatch -p a,b)
// gets one priority per partition and starts in whichever can run it.
// Partitions a (node n1, PriorityJobFactor 10) and b (node n2, factor 1),
// 4 cores each, PriorityWeightPartition 1000:
//
//	t=0  job 1 (a, 4 CPUs, 1000 s) fills n1 at the first pass (t=3)
//	t=10 job 2 (a,b, 4 CPUs, 100 s): its priority is 1000 × 10/10 = 1000 in
//	     a and 1000 × 1/10 = 100 in b; a is full, so at t=10 its record in
//	     a blocks a and its record in b starts it on n2, in b.
func TestMultiPartitionJob(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{
		{Partition: sim.Partition{Name: "a", PriorityJobFactor: 10, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}},
		{Partition: sim.Partition{Name: "b", PriorityJobFactor: 1, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n2"}},
	})
	jobs, names := newJobs([]tjob{
		{id: 1, submit: 0, part: "a", cpus: 4, run: 1000, limit: 1000},
		{id: 2, submit: 10, part: "a", cpus: 4, run: 100, limit: 100},
	})
	jobs[1].PartitionList = 1 + names.PartitionLists.ID("a,b")
	names.Partitions.ID("b")
	tree := fairshare.NewTree()
	if err := tree.AddAccount("a", "root", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tree.AddUser("u", "a", fairshare.Shares{Raw: 1}, nil); err != nil {
		t.Fatal(err)
	}
	pp := policy.DefaultParams()
	pp.Weights.Partition = 1000
	mf, err := multifactor.New(multifactor.Config{Priority: pp, FairShare: fairshare.Config{HalfLife: 86400},
		CalcPeriod: 300, Tree: tree, PartitionBilling: make([]policy.TRESWeights, 2)}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	src := workload.NewSliceSource(jobs, names, workload.Header{MaxNodes: workload.Unset, MaxProcs: workload.Unset})
	r, err := sim.New(c, NewSlurm(DefaultParams()), mf, src, sim.Options{}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.CheckInvariants(r); err != nil {
		t.Fatal(err)
	}
	j2 := r.Jobs[1]
	if len(j2.Parts) != 2 || len(j2.PartPrio) != 2 || j2.PartPrio[0] != 1000 || j2.PartPrio[1] != 100 {
		t.Errorf("job 2: partitions %v, priorities %v; want [a b] with 1000 and 100", j2.Parts, j2.PartPrio)
	}
	// sprio lists the job once per partition, each row with that
	// partition's breakdown: PARTITION 1000 in a, 100 in b.
	if pf := mf.PartFactors(j2); len(pf) != 2 || pf[0].Partition != 1000 || pf[1].Partition != 100 {
		t.Errorf("job 2 per-partition factors %+v, want PARTITION 1000 and 100", pf)
	}
	if got := c.Parts[j2.Part].Name; got != "b" || j2.Start != 10 || c.Nodes[j2.Alloc[0].Node].Name != "n2" {
		t.Errorf("job 2 started at %d in %s on %v, want 10 in b on n2", j2.Start, got, j2.Alloc)
	}
	if j1 := r.Jobs[0]; j1.Start != 3 || c.Parts[j1.Part].Name != "a" {
		t.Errorf("job 1 started at %d in %s, want 3 in a", j1.Start, c.Parts[j1.Part].Name)
	}
}

// TestMultiPartitionExclusiveKeepsWholeNode: an exclusive job (sbatch
// --exclusive -p a,b) that starts in its second partition stays
// exclusive there. The engine reset its request's Exclusive to the
// partition's flag alone at the start, so the job held a whole node
// (and its GPUs, where it had some) while its request said it shared:
// --check failed ("holds GRES gpu ... which it did not ask for") and
// anything reading the request after the start saw a shared job.
func TestMultiPartitionExclusiveKeepsWholeNode(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{
		{Partition: sim.Partition{Name: "a", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}},
		{Partition: sim.Partition{Name: "b", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n2"}},
	})
	jobs, names := newJobs([]tjob{
		{id: 1, submit: 0, part: "a", cpus: 4, run: 1000, limit: 1000},
		{id: 2, submit: 10, part: "a", cpus: 1, run: 100, limit: 100},
	})
	jobs[1].PartitionList = 1 + names.PartitionLists.ID("a,b")
	jobs[1].Exclusive = true
	names.Partitions.ID("b")
	src := workload.NewSliceSource(jobs, names, workload.Header{MaxNodes: workload.Unset, MaxProcs: workload.Unset})
	r, err := sim.New(c, NewSlurm(DefaultParams()), nil, src, sim.Options{}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.CheckInvariants(r); err != nil {
		t.Fatal(err)
	}
	j2 := r.Jobs[1]
	if c.Parts[j2.Part].Name != "b" || !j2.Req.Exclusive || j2.Alloc.Cores() != 4 {
		t.Errorf("job 2 ran in %s with %d cores, exclusive %v: want b, the whole node (4), exclusive",
			c.Parts[j2.Part].Name, j2.Alloc.Cores(), j2.Req.Exclusive)
	}
}
