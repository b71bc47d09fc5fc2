package sim

import (
	"fmt"
	"strings"
	"testing"
)

// planFixture is two 4-core nodes in partition p (n1, n2) and n3 in q, a
// pending 2-CPU job 1 of p and a job 2 running on n2 (3 cores, from 0,
// limit 500), as NewView sees them without the engine.
func planFixture(t *testing.T) (*Cluster, *View, *Job, *Job) {
	t.Helper()
	bw, _ := LookupCPUType("broadwell")
	c, err := NewCluster([]CPUType{bw}, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1", "n2", "n3")},
		[]PartitionSpec{{Partition: Partition{Name: "p", MaxTime: Unlimited, DefaultTime: Unlimited}, NodeNames: []string{"n1", "n2"}},
			{Partition: Partition{Name: "q", MaxTime: Unlimited, DefaultTime: Unlimited}, NodeNames: []string{"n3"}}}, "broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	pj := &Job{Idx: 0, State: Pending, Part: 0, Parts: []int{0}, Start: -1, End: -1, ExpectStart: -1}
	pj.ID, pj.CPUs = 1, 2
	pj.Req = Request{CPUs: 2, MemPerCPU: -1, Type: -1}
	rj := &Job{Idx: 1, State: Running, Part: 0, Parts: []int{0}, Start: 0, Limit: 500, Alloc: Alloc{{Node: 1, Cores: 3}}}
	rj.ID, rj.CPUs = 2, 3
	c.Occupy(rj.Alloc)
	v := NewView(ViewState{Now: 100, Cluster: c, Pending: []*Job{pj}, Running: []*Job{rj}})
	return c, v, pj, rj
}

// Plan.Start refuses what the simulator could not apply, and plans
// nothing then.
func TestPlanStartValidates(t *testing.T) {
	for _, tc := range []struct {
		name string
		part int
		a    Alloc
		want string
	}{
		{"too few CPUs", 0, Alloc{{Node: 0, Cores: 1}}, "allocation of 1 CPUs for 2 asked"},
		{"not its partition", 1, Alloc{{Node: 2, Cores: 2}}, "partition 1 is not one it was submitted to"},
		{"node outside the partition", 0, Alloc{{Node: 2, Cores: 2}}, "node 2 is not in partition p"},
		{"node twice", 0, Alloc{{Node: 0, Cores: 1}, {Node: 0, Cores: 1}}, "node n1 allocated twice"},
		{"more than free", 0, Alloc{{Node: 1, Cores: 2}}, "node n2 has 1 CPUs and 4000 MB free, 2 and 0 asked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, v, pj, _ := planFixture(t)
			p := v.Plan()
			err := p.Start(pj, tc.part, tc.a, ByMain)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if len(p.Actions) != 0 || v.Placed(pj) || c.FreeCores != 12-3 {
				t.Errorf("a refused start left %d actions, placed %v, %d free cores (want 0, false, 9)", len(p.Actions), v.Placed(pj), c.FreeCores)
			}
		})
	}
}

// A planned start shows in the view at once (free cores, Placed,
// Holdings with its expected end), a second start of the same job is
// refused, and a preemption frees its victim's cores in the view and
// drops it from Running; the jobs themselves are untouched.
func TestPlanOverlay(t *testing.T) {
	c, v, pj, rj := planFixture(t)
	p := v.Plan()
	if err := p.Start(pj, 0, Alloc{{Node: 0, Cores: 2}}, ByBackfill); err != nil {
		t.Fatal(err)
	}
	if c.Nodes[0].FreeCores != 2 || !v.Placed(pj) {
		t.Errorf("after the start: n1 has %d free cores, placed %v; want 2, true", c.Nodes[0].FreeCores, v.Placed(pj))
	}
	if err := p.Start(pj, 0, Alloc{{Node: 0, Cores: 2}}, ByBackfill); err == nil {
		t.Error("a second start of the same job in one plan was accepted")
	}
	h := v.Holdings(nil)
	if len(h) != 2 || h[0].Job != rj || h[0].End != 500 || h[1].Job != pj || h[1].Start != 100 || h[1].End != 100+365*86400 {
		t.Errorf("holdings %+v: want job 2 ending at 0+500, then job 1 from 100, unlimited (a year)", h)
	}
	p.Preempt(rj, true)
	if c.Nodes[1].FreeCores != 4 || len(v.Running()) != 0 {
		t.Errorf("after the preemption: n2 has %d free cores, %d running; want 4, 0", c.Nodes[1].FreeCores, len(v.Running()))
	}
	p.Preempt(rj, true) // twice: ignored
	if pj.State != Pending || rj.State != Running || pj.Start != -1 || len(p.Actions) != 2 {
		t.Errorf("jobs changed before commit, or the second preemption counted: %s %s start %d, %d actions",
			pj.State, rj.State, pj.Start, len(p.Actions))
	}
	started, _, _ := p.Outcome(pj)
	if !started {
		t.Error("Outcome: job 1 not started")
	}
	p.Pass(50)
	if p.WantPass != 100 {
		t.Errorf("WantPass %d, want now (100): a pass is never asked for in the past", p.WantPass)
	}
}

// View.Hold gives HoldPlaced the jobs the pass's plan starts, in plan
// order, however often it is asked: a start between two calls joins
// them, a started job preempted in the same pass leaves them, and the
// next pass starts with none.
func TestHoldPlacedSeesThePlan(t *testing.T) {
	bw, _ := LookupCPUType("broadwell")
	c, err := NewCluster([]CPUType{bw}, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1", "n2", "n3")},
		[]PartitionSpec{{Partition: Partition{Name: "p", MaxTime: Unlimited, DefaultTime: Unlimited}, NodeNames: []string{"n1", "n2", "n3"}}}, "broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []*Job
	for i := range 4 {
		j := &Job{Idx: i, State: Pending, Part: 0, Parts: []int{0}, Start: -1, End: -1, ExpectStart: -1}
		j.ID, j.CPUs = int64(i+1), 1
		j.Req = Request{CPUs: 1, MemPerCPU: -1, Type: -1}
		jobs = append(jobs, j)
	}
	var seen []int64
	st := ViewState{Now: 100, Cluster: c, Pending: jobs, HoldPlaced: func(_ *Job, _ int, _ int64, placed []PlacedJob, _ Alloc) string {
		seen = seen[:0]
		for _, p := range placed {
			seen = append(seen, p.Job.ID)
		}
		return ""
	}}
	v := NewView(st)
	p := v.Plan()
	ask := func(want string) {
		t.Helper()
		v.Hold(jobs[3])
		if got := fmt.Sprint(seen); got != want {
			t.Fatalf("HoldPlaced saw %s, want %s", got, want)
		}
	}
	start := func(j *Job, node int) {
		t.Helper()
		if err := p.Start(j, 0, Alloc{{Node: node, Cores: 1}}, ByMain); err != nil {
			t.Fatal(err)
		}
	}
	ask("[]")
	start(jobs[0], 0)
	ask("[1]")
	p.Expect(jobs[2], 500, 0)
	start(jobs[1], 1)
	ask("[1 2]")
	ask("[1 2]")
	p.Preempt(jobs[0], false)
	ask("[2]")
	start(jobs[2], 2)
	ask("[2 3]")
	v.reset(st) // the next pass: its first ask comes after as many actions
	for range 4 {
		p.Expect(jobs[2], 500, 0)
	}
	start(jobs[0], 0)
	ask("[1]")
}
