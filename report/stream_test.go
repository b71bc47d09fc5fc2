package report

import (
	"math/rand/v2"
	"strings"
	"testing"

	"fairsim/sim"
	"fairsim/workload"
)

// streamJobs are n pending jobs of arrival indices 0 to n-1, and a
// result for their rows.
func streamJobs(t *testing.T, n int) (*sim.Result, []*sim.Job) {
	t.Helper()
	c := gpuCluster(t, sim.NodeUp)
	names := &workload.Names{}
	jobs := make([]*sim.Job, n)
	for i := range jobs {
		jobs[i] = &sim.Job{Job: workload.Job{ID: int64(i + 1), CPUs: 1, User: names.Users.ID("u"), Account: names.Accounts.ID("a"),
			QOS: workload.Unset, Group: workload.Unset}, Idx: i, State: sim.Pending, Start: -1, End: -1}
	}
	return &sim.Result{Cluster: c, Names: names, Read: workload.NewReadStats(), Scheduler: "fifo"}, jobs
}

// TestJobStreamReordersRetiredJobs: jobs retired out of arrival order
// reach the writer in arrival order, each once, whether they wait behind
// one long job (thousands held, the window moved to the front while
// some still wait), come shuffled within small spans, or never retire
// and are handed over by Close.
func TestJobStreamReordersRetiredJobs(t *testing.T) {
	const n = 6000
	r, jobs := streamJobs(t, n)
	var order []int
	s, err := NewJobStreamWith(t.TempDir(), r, func(_ *sim.Result, j *sim.Job) { order = append(order, j.Idx) })
	if err != nil {
		t.Fatal(err)
	}
	retire := func(idx ...int) {
		for _, i := range idx {
			s.Retire(jobs[i])
		}
	}
	span := func(lo, hi int) []int {
		var v []int
		for i := lo; i < hi; i++ {
			v = append(v, i)
		}
		return v
	}
	// Job 0 runs long: 1 to 2000 but 1200 retire first; 0 lets 0 to
	// 1199 through and 1201 to 2000 wait, then 1200 lets them through.
	retire(span(1, 1200)...)
	retire(span(1201, 2001)...)
	retire(0)
	if s.next != 1200 || s.heldCount() != 800 || s.off != 0 {
		t.Fatalf("after job 0: next %d, %d held, window at %d; want 1200, 800 and moved to 0", s.next, s.heldCount(), s.off)
	}
	retire(1200)
	// Shuffled within spans of 50.
	rng := rand.New(rand.NewPCG(1, 2))
	for lo := 2001; lo < 5001; lo += 50 {
		v := span(lo, lo+50)
		rng.Shuffle(len(v), func(a, b int) { v[a], v[b] = v[b], v[a] })
		retire(v...)
	}
	// 5001 to 5999: the even ones retire, the odd ones are left running.
	var left []*sim.Job
	for i := 5001; i < n; i++ {
		if i%2 == 0 {
			retire(i)
		} else {
			left = append(left, jobs[i])
		}
	}
	res := *r
	res.Jobs = left
	if _, err := s.Close(&res); err != nil {
		t.Fatal(err)
	}
	if len(order) != n {
		t.Fatalf("%d jobs written, want %d", len(order), n)
	}
	for i, idx := range order {
		if idx != i {
			t.Fatalf("row %d is job %d: want arrival order", i, idx)
		}
	}
}

// TestJobStreamReportsJobRetiredTwice: a job retired after its row was
// written is an engine error Close reports, not a panic or a lost row.
func TestJobStreamReportsJobRetiredTwice(t *testing.T) {
	r, jobs := streamJobs(t, 3)
	s, err := NewJobStream(t.TempDir(), r)
	if err != nil {
		t.Fatal(err)
	}
	s.Retire(jobs[0])
	s.Retire(jobs[0])
	s.Retire(jobs[1])
	s.Retire(jobs[2])
	if _, err := s.Close(r); err == nil || !strings.Contains(err.Error(), "1 jobs retired after a job that never did") {
		t.Errorf("Close: %v, want the job retired twice reported", err)
	}
}
