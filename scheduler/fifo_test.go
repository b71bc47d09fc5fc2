package scheduler

import (
	"math/rand/v2"
	"slices"
	"testing"

	"fairsim/sim"
)

// sortingFIFO is FIFO's rule written plainly, as FIFO was before it kept
// its line across passes: sort the pending jobs of partitions that
// schedule by arrival, start them in order until one does not fit.
type sortingFIFO struct{ queue []*sim.Job }

func (*sortingFIFO) Name() string           { return "sorting-fifo" }
func (*sortingFIFO) Triggers() sim.Triggers { return sim.Triggers{OnEnd: true} }
func (s *sortingFIFO) Schedule(v *sim.View, _ sim.PassKind) *sim.Plan {
	p := v.Plan()
	s.queue = sortedQueue(v, s.queue)
	var a sim.Alloc
	for _, j := range s.queue {
		var fit sim.Fit
		if a, fit = v.Cluster().TryAlloc(&j.Req, j.Part, a[:0]); fit != sim.FitsNow {
			break
		}
		start(p, j, a, sim.ByMain)
	}
	return p
}

// TestFIFOLineMatchesSorting drives FIFO and sortingFIFO through 400
// passes of the same changing queue, each on a fake of its own, and
// compares their starts pass by pass. Between passes jobs join the
// pending list (some submitted before jobs already waiting, as a job
// whose dependency just ended), waiting jobs are cancelled, the passes'
// starts leave the list and take their cores for good, running jobs come
// back after a requeue with a new EligSeq, and a partition goes DOWN and
// UP. The cluster is large enough that most passes start several jobs.
func TestFIFOLineMatchesSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	mk := func() *fake {
		return newFake(t, 100, []sim.NodeSpec{nodes("n", 8, 1024, 1024000)}, []sim.PartitionSpec{part("p"), part("q", "n7", "n8")})
	}
	fs := [2]*fake{mk(), mk()}
	scheds := [2]sim.Scheduler{&FIFO{}, &sortingFIFO{}}
	running := [2][]*sim.Job{}
	var seq uint64
	id := int64(10)
	for pass := range 400 {
		// The same events on both fakes, drawn once.
		var joins []struct {
			cpus   int
			q      bool
			submit int64
		}
		for range rng.IntN(6) {
			joins = append(joins, struct {
				cpus   int
				q      bool
				submit int64
			}{1 + rng.IntN(48), rng.IntN(4) == 0, int64(pass*10 - rng.IntN(60))})
		}
		cancel, requeue, flip := rng.IntN(3) == 0, rng.IntN(4) == 0, rng.IntN(10) == 0
		pickC, pickR := rng.Int(), rng.Int()
		startSeq := seq
		for k, f := range fs {
			seq = startSeq
			for i, jn := range joins {
				part := "p"
				if jn.q {
					part = "q"
				}
				j := f.job(id+int64(i), jn.cpus, 1000, 0, part)
				j.Submit = jn.submit
				seq++
				j.State, j.EligSeq = sim.Pending, seq
				f.pending = append(f.pending, j)
			}
			if cancel && len(f.pending) > 0 {
				i := pickC % len(f.pending)
				f.pending[i].State = sim.Cancelled
				f.pending = slices.Delete(f.pending, i, i+1)
			}
			if requeue && len(running[k]) > 0 {
				i := pickR % len(running[k])
				old := running[k][i]
				running[k] = slices.Delete(running[k], i, i+1)
				// The fake's views all count their passes from one, so
				// the job comes back as a new record of the same job
				// (its old one stays Running, its cores taken: the fake
				// frees nothing).
				j := f.job(old.ID, old.CPUs, 1000, 0, f.c.Parts[old.Part].Name)
				j.Submit = old.Submit
				seq++
				j.State, j.EligSeq = sim.Pending, seq
				f.pending = append(f.pending, j)
			}
			if flip {
				q := &f.c.Parts[f.partIdx("q")]
				if q.State == sim.PartUp {
					q.State = sim.PartDown
				} else {
					q.State = sim.PartUp
				}
			}
		}
		id += int64(len(joins))
		var got [2][]int64
		for k, f := range fs {
			p := scheds[k].Schedule(f.view(), sim.PassEvent)
			for _, a := range p.Actions {
				if a.Kind == sim.ActStart {
					got[k] = append(got[k], a.Job.ID)
					a.Job.State = sim.Running
					i := slices.Index(f.pending, a.Job)
					f.pending = slices.Delete(f.pending, i, i+1)
					running[k] = append(running[k], a.Job)
				}
			}
		}
		if !slices.Equal(got[0], got[1]) {
			t.Fatalf("pass %d: FIFO started %v, sorting starts %v", pass, got[0], got[1])
		}
	}
	if len(running[0]) < 50 {
		t.Fatalf("only %d jobs ever started: the test checks too little", len(running[0]))
	}
}

// TestFIFORequeuedJobWaitsItsDelay: job 1 starts at 0 on n1 and is still
// at the head of FIFO's line when n1 fails at 10. Requeued, it is PENDING
// again but out of the queue until 10 + 121 (job_mgr.c
// batch_requeue_fini), with its submit time now 10: the line must not
// take its old entry for it (FIFO planned a start that the plan refused,
// and panicked). Job 2 (both nodes, submitted at 0) is first in line
// once n1 RESUMEs at 500 and runs to 1500; job 1 follows.
func TestFIFORequeuedJobWaitsItsDelay(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 16000)}, []sim.PartitionSpec{part("p")})
	_, by := runWith(t, c, &FIFO{}, []tjob{
		{id: 1, cpus: 4, run: 1000, limit: 2000},
		{id: 2, cpus: 8, run: 1000, limit: 2000},
	}, sim.Options{Events: []sim.SiteEvent{
		{At: 10, Nodes: []int{0}, NodeState: sim.NodeFail, Part: -1, Line: 1},
		{At: 500, Nodes: []int{0}, NodeState: sim.NodeUp, Part: -1, Line: 2},
	}}, nil)
	if by[1].Start != 1500 || by[1].NodeFails != 1 || by[2].Start != 500 {
		t.Errorf("job 1 started at %d after %d node failures, job 2 at %d; want 1500 after 1, and 500", by[1].Start, by[1].NodeFails, by[2].Start)
	}
}
