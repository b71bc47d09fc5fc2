package multifactor

import (
	"testing"

	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// TestAgeFromSecondZero: Slurm takes accrue_time 0 for "not accruing"
// (priority_multifactor.c _get_priority_internal gives no age then), but
// the simulated clock starts at 0: a job submitted at 0 must accrue like
// one submitted at 1. PriorityWeightAge 1000, PriorityMaxAge 300 s, no
// accrue caps (accrue = begin time); at the tick at 150 s the job
// submitted at 0 has age 1000 × 150/300 = 500 and the one submitted at 1
// has 1000 × 149/300 = 496.67 → 496 (truncated sum). Before its first
// queue build a job does not accrue: age 0, priority the floor of 1.
func TestAgeFromSecondZero(t *testing.T) {
	bw, _ := sim.LookupCPUType("broadwell")
	c, err := sim.NewCluster([]sim.CPUType{bw}, []sim.NodeSpec{{Names: []string{"n1"}, Type: "broadwell", Cores: 4, MemMB: 4096, Weight: 1}},
		[]sim.PartitionSpec{{Partition: sim.Partition{Name: "a", PriorityJobFactor: 1, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: []string{"n1"}}},
		"broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	names := &workload.Names{}
	tree := oneUserTree(t)
	pp := policy.DefaultParams()
	pp.Weights.Age = 1000
	pp.MaxAge = 300
	m, err := New(Config{Priority: pp, FairShare: fairshare.Config{HalfLife: 86400}, CalcPeriod: 300, Tree: tree}, c, names)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []*sim.Job
	for i, submit := range []int64{0, 1} {
		j := &sim.Job{Job: workload.Job{ID: int64(i + 1), Submit: submit, CPUs: 1, Nodes: 1, TimeLimit: 60, QOS: workload.Unset,
			Account: names.Accounts.ID("acct"), User: names.Users.ID("u")}, Idx: i, Part: 0, Parts: []int{0},
			Accrue: sim.NotAccruing, EligibleTime: submit}
		m.Submit(j, submit)
		if j.Priority != 1 {
			t.Errorf("job %d before its first queue build: priority %d, want 1 (no age yet)", j.ID, j.Priority)
		}
		jobs = append(jobs, j)
	}
	m.Queue(1, jobs)
	if jobs[0].Accrue != 0 || jobs[1].Accrue != 1 {
		t.Errorf("accrue times %d and %d, want 0 and 1", jobs[0].Accrue, jobs[1].Accrue)
	}
	m.Tick(150, nil, jobs)
	if jobs[0].Priority != 500 || jobs[1].Priority != 496 {
		t.Errorf("priorities at 150 s: %d and %d, want 500 and 496", jobs[0].Priority, jobs[1].Priority)
	}
}
