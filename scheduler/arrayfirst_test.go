package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestArrayFirst: after a backfill test reserved for one task of an
// array, the next test of the same array that can start now starts the
// array's first pending task (slurmctld holds the pending tasks in one
// record, and job_array_split gives the start to the lowest index), only
// where the two tasks are alike: same array, an earlier index, the same
// request and limit in the same partition, still pending.
func TestArrayFirst(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 16000)}, []sim.PartitionSpec{part("p"), part("q")})
	mk := func(task int32, cpus int, limit int64) *sim.Job {
		j := &sim.Job{State: sim.Pending, Part: 0, Parts: []int{0, 1}}
		j.ArrayJobID, j.ArrayTaskID, j.CPUs, j.TimeLimit = 7, task, cpus, limit
		j.Req = sim.Request{CPUs: cpus, Type: -1}
		return j
	}
	s := NewSlurm(DefaultParams())
	x := func(j *sim.Job, part int) *cand { return &cand{j: j, part: part, req: sim.RequestIn(c, j, part)} }
	cur := mk(3, 2, 600)
	tl := s.bfLimit(c, x(cur, 0))
	other := mk(1, 2, 600)
	other.ArrayJobID = 8
	running := mk(1, 2, 600)
	running.State = sim.Running
	onlyQ := mk(1, 2, 600)
	onlyQ.Parts = []int{1}
	for _, tc := range []struct {
		name string
		p    *sim.Job
		want bool
	}{
		{"earlier task, same request", mk(1, 2, 600), true},
		{"later task", mk(4, 2, 600), false},
		{"more CPUs", mk(1, 3, 600), false},
		{"longer limit", mk(1, 2, 1200), false},
		{"another array", other, false},
		{"not pending", running, false},
		{"not in the partition", onlyQ, false},
	} {
		if got := s.arrayFirst(c, tc.p, x(cur, 0), tl); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
