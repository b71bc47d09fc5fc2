package scheduler

import (
	"testing"

	"fairsim/sim"
	"fairsim/workload"
)

// TestRecordedStartsAsTraced replays a schedule no scheduler of fairsim's
// would make on two 4-core nodes: job 3 starts before jobs 1 and 2
// although it came last, job 2 waits with room free, and job 4 (no
// recorded start) never starts. Job 5's recorded start at 40 finds job
// 1's 4 cores and job 3's 4 still taken until 50 (the recorded placement
// must have been another node set), so it starts at 50 and counts as
// late; sacct names n2 for it, which job 1 (started on n2 at 20, job 3
// having n1) holds until 120, so it goes to n1 and counts as moved.
func TestRecordedStartsAsTraced(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 4096)}, []sim.PartitionSpec{part("p")})
	tjs := []tjob{
		{id: 1, submit: 0, cpus: 4, run: 100, limit: 200},
		{id: 2, submit: 0, cpus: 2, run: 10, limit: 200},
		{id: 3, submit: 5, cpus: 4, run: 45, limit: 200},
		{id: 4, submit: 6, cpus: 1, run: 10, limit: 200},
		{id: 5, submit: 7, cpus: 4, run: 10, limit: 200},
	}
	waits := map[int64]int64{1: 20, 2: 60, 3: 0, 4: workload.Unset, 5: 33}
	jobs, names := newJobs(tjs)
	for i := range jobs {
		jobs[i].Wait = waits[jobs[i].ID]
		if jobs[i].ID == 5 {
			jobs[i].AllocNodeList = 1 // sacct says n2
		}
	}
	n2 := -1
	for i := range c.Nodes {
		if c.Nodes[i].Name == "n2" {
			n2 = i
		}
	}
	rec := &Recorded{NodesOf: func(j *sim.Job) []int {
		if j.ID == 5 {
			return []int{n2}
		}
		return nil
	}}
	src := workload.NewSliceSource(jobs, names, workload.Header{MaxNodes: workload.Unset, MaxProcs: workload.Unset})
	// Job 4 waits for a start that never comes: one idle hour ends the
	// run (a pass a second for StallLimit's default year takes seconds).
	r, err := sim.New(c, rec, nil, src, sim.Options{StallLimit: 3600}).Run()
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]int64{1: 20, 2: 60, 3: 5, 4: -1, 5: 50}
	for _, j := range r.Jobs {
		if j.Start != want[j.ID] {
			t.Errorf("job %d started at %d, want %d", j.ID, j.Start, want[j.ID])
		}
		if j.ID == 4 && j.State != sim.Pending {
			t.Errorf("job 4 is %v, want PENDING", j.State)
		}
	}
	if rec.Late != 1 || rec.Moved != 1 {
		t.Errorf("%d late starts and %d off their recorded nodes, want 1 and 1 (job 5)", rec.Late, rec.Moved)
	}
	for _, j := range r.Jobs {
		if j.ID == 5 && (len(j.Alloc) != 1 || j.Alloc[0].Node == n2) {
			t.Errorf("job 5 on %v, want n1: job 1 holds n2, where sacct put it, until 120", j.Alloc)
		}
	}
}
