package scheduler

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"fairsim/sim"
	"fairsim/workload"
)

// TestEASYSyncAsFullRead runs EASY over 800 random jobs (two overlapping
// partitions, 1 core to 3 nodes, limits over- and under-estimated so jobs
// end early, at their limits and in the same second as others start)
// twice: keeping its expected releases incrementally (the jobs that
// ended leave, the jobs its passes started come) and reading every
// holder at every pass. Every job must start at the same time on the
// same nodes by the same pass. Dropping the ended-job check or the
// started jobs of sync fails it.
func TestEASYSyncAsFullRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	tjs := randomJobs(rng, 800, 30, 1)
	var incremental, full int
	schedule := func(fullRead bool) map[int64]*sim.Job {
		easyFullSync = fullRead
		defer func() { easyFullSync = false }()
		c := cluster(t, []sim.NodeSpec{nodes("n", 6, 8, 32000)}, []sim.PartitionSpec{part("p"), part("q", "n5", "n6")})
		e := &EASY{}
		_, by := run(t, c, e, tjs, 0, nil)
		if fullRead {
			full = e.fullSyncs
		} else {
			incremental = e.fullSyncs
		}
		return by
	}
	a, b := schedule(false), schedule(true)
	backfilled := 0
	for id, x := range a {
		y := b[id]
		if x.Start != y.Start || x.StartedBy != y.StartedBy || !reflect.DeepEqual(x.Alloc, y.Alloc) {
			t.Errorf("job %d: incremental %d by %v on %v, full read %d by %v on %v", id, x.Start, x.StartedBy, x.Alloc, y.Start, y.StartedBy, y.Alloc)
		}
		if x.StartedBy == sim.ByBackfill {
			backfilled++
		}
	}
	t.Logf("full reads: %d incremental, %d forced; backfilled %d", incremental, full, backfilled)
	if full < 500 || incremental > full/10 {
		t.Errorf("full reads %d forced, %d incremental: the test should exercise the incremental sync", full, incremental)
	}
	if backfilled < 50 {
		t.Errorf("%d backfill starts: the test should exercise backfill", backfilled)
	}
}

// TestEASYArrivalsAsWholePasses runs EASY over the same random jobs (two
// overlapping partitions, bursts of arrivals in the same second, limits
// over- and under-estimated, some eligible only an hour after their
// submission, so that they join the line ahead of jobs already in it) and
// over KTH-SP2 twice: testing only the
// jobs that joined when nothing else changed since the last pass, and
// testing the whole queue at every pass. Every job must start at the same
// time on the same nodes by the same pass.
func TestEASYArrivalsAsWholePasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tjs := randomJobs(rng, 800, 12, 1)
	for i := range tjs {
		if i%7 == 3 {
			tjs[i].submit = tjs[i-1].submit // arrivals in the same second
		}
		if i%11 == 5 {
			tjs[i].begin = tjs[i].submit + 3600
		}
	}
	compare := func(name string, a, b map[int64]*sim.Job) {
		t.Helper()
		for id, x := range a {
			y := b[id]
			if x.Start != y.Start || x.StartedBy != y.StartedBy || !reflect.DeepEqual(x.Alloc, y.Alloc) {
				t.Fatalf("%s: job %d: arrivals only %d by %v on %v, whole queue %d by %v on %v", name, id, x.Start, x.StartedBy, x.Alloc, y.Start, y.StartedBy, y.Alloc)
			}
		}
	}
	schedule := func(whole bool) (map[int64]*sim.Job, int) {
		easyNoArrivals = whole
		defer func() { easyNoArrivals = false }()
		c := cluster(t, []sim.NodeSpec{nodes("n", 6, 8, 32000)}, []sim.PartitionSpec{part("p"), part("q", "n5", "n6")})
		e := &EASY{}
		_, by := run(t, c, e, tjs, 0, nil)
		return by, e.skips
	}
	a, skips := schedule(false)
	b, none := schedule(true)
	compare("random jobs", a, b)
	if none != 0 || skips < 200 {
		t.Errorf("passes on arrivals only: %d, and %d with them turned off: the test should exercise them", skips, none)
	}
	t.Logf("random jobs: %d passes tested only the jobs that joined", skips)

	trace := "KTH-SP2-1996-2.1-cln.swf.gz"
	byID := func(r *sim.Result) map[int64]*sim.Job {
		m := make(map[int64]*sim.Job, len(r.Jobs))
		for _, j := range r.Jobs {
			m[j.ID] = j
		}
		return m
	}
	e := &EASY{}
	fast := byID(replayWith(t, trace, e))
	easyNoArrivals = true
	defer func() { easyNoArrivals = false }()
	compare("KTH-SP2", fast, byID(replayWith(t, trace, &EASY{})))
	if e.skips < 5000 {
		t.Errorf("KTH-SP2: %d passes on arrivals only, want thousands", e.skips)
	}
	t.Logf("KTH-SP2: %d passes tested only the jobs that joined", e.skips)
}

// TestEASYArrivalAheadOfTheHead: a job eligible only after its begin time
// (sbatch --begin) joins the line ahead of the waiting head when it was
// submitted before it, so the pass is a whole one: job 2, submitted at
// 1 and eligible at 500, is tried before head job 3 and starts by the
// main pass at 500, where a backfill test would refuse it the spare core
// the head needs at the shadow time 1000.
func TestEASYArrivalAheadOfTheHead(t *testing.T) {
	c := cluster(t, []sim.NodeSpec{nodes("n", 1, 8, 32000)}, []sim.PartitionSpec{part("p")})
	e := &EASY{}
	_, by := run(t, c, e, []tjob{
		{id: 1, submit: 0, cpus: 6, run: 1000, limit: 1000},
		{id: 2, submit: 1, begin: 500, cpus: 2, run: 100, limit: 5000},
		{id: 3, submit: 2, cpus: 7, run: 100, limit: 200},
	}, 0, nil)
	for _, w := range []struct {
		id    int64
		start int64
		by    sim.StartKind
	}{{1, 0, sim.ByMain}, {2, 500, sim.ByMain}, {3, 1000, sim.ByMain}} {
		if j := by[w.id]; j.Start != w.start || j.StartedBy != w.by {
			t.Errorf("job %d started at %d by %v, want %d by %v", w.id, j.Start, j.StartedBy, w.start, w.by)
		}
	}
}

// TestEASYArrivalsUnderSiteEvents is TestEASYArrivalsAsWholePasses over
// everything else that changes the cluster or the queue between passes:
// nodes DOWN and back, a partition DOWN and UP, nodes COMPLETING after
// their jobs end, dependencies, cancellations while pending, begin
// times, CPU-type constraints and memory requests. A state change that
// forgot to move sim.View.Churn would let an arrivals-only pass keep a
// stale head or shadow time and start some job differently.
func TestEASYArrivalsUnderSiteEvents(t *testing.T) {
	skips := 0
	for seed := uint64(0); seed < 120; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		tjs := randomJobs(rng, 150+rng.IntN(150), 1+rng.IntN(40), 1)
		for i := range tjs {
			if i > 0 && rng.IntN(6) == 0 {
				tjs[i].submit = tjs[i-1].submit
			}
			if rng.IntN(9) == 0 {
				tjs[i].begin = tjs[i].submit + int64(rng.IntN(4000))
			}
			if rng.IntN(7) == 0 {
				tjs[i].feature = []string{"broadwell", "skylake"}[rng.IntN(2)]
			}
			if rng.IntN(5) == 0 {
				tjs[i].memPerC = int64(500 + rng.IntN(8000))
			}
		}
		completing := []int64{0, 0, 5, 60}[rng.IntN(4)]
		var events []sim.SiteEvent
		last := tjs[len(tjs)-1].submit
		for k := rng.IntN(6); k > 0; k-- {
			at := int64(rng.IntN(int(last) + 1))
			back := at + int64(rng.IntN(5000))
			if rng.IntN(2) == 0 {
				nd := rng.IntN(8)
				events = append(events,
					sim.SiteEvent{At: at, Nodes: []int{nd}, NodeState: sim.NodeDown, Part: -1, Line: 1},
					sim.SiteEvent{At: back, Nodes: []int{nd}, NodeState: sim.NodeUp, Part: -1, Line: 2})
			} else {
				events = append(events,
					sim.SiteEvent{At: at, Part: 1, PartState: sim.PartDown, Line: 3},
					sim.SiteEvent{At: back, Part: 1, PartState: sim.PartUp, Line: 4})
			}
		}
		jobs, names := newJobs(tjs)
		for i := range jobs {
			jobs[i].Line = i + 1
			if i > 3 && rng.IntN(10) == 0 {
				jobs[i].Preceding = jobs[rng.IntN(i)].ID
				jobs[i].ThinkTime = int64(i % 50)
			}
			if rng.IntN(15) == 0 {
				jobs[i].CancelledPending = true
				jobs[i].Wait = int64(1 + rng.IntN(3000))
			}
		}
		schedule := func(whole bool) (map[int64]*sim.Job, int) {
			easyNoArrivals = whole
			defer func() { easyNoArrivals = false }()
			ns := []sim.NodeSpec{nodes("n", 5, 8, 32000), {Type: "skylake", Cores: 12, MemMB: 48000, Weight: 2, Names: []string{"s1", "s2", "s3"}}}
			c := cluster(t, ns, []sim.PartitionSpec{part("p"), part("q", "n5", "s1")})
			e := &EASY{}
			src := workload.NewSliceSource(slices.Clone(jobs), names, workload.Header{MaxNodes: workload.Unset, MaxProcs: workload.Unset})
			r, err := sim.New(c, e, nil, src, sim.Options{CompletingTime: completing, Events: events}).Run()
			if err != nil {
				t.Fatalf("seed %d (completing %d s, events %+v): %v", seed, completing, events, err)
			}
			by := make(map[int64]*sim.Job, len(r.Jobs))
			for _, j := range r.Jobs {
				by[j.ID] = j
			}
			return by, e.skips
		}
		a, n := schedule(false)
		b, _ := schedule(true)
		skips += n
		for id, x := range a {
			y := b[id]
			if x.Start != y.Start || x.StartedBy != y.StartedBy || !reflect.DeepEqual(x.Alloc, y.Alloc) || x.State != y.State {
				t.Fatalf("seed %d job %d: arrivals only %d by %v on %v %v; whole queue %d by %v on %v %v", seed, id, x.Start, x.StartedBy, x.Alloc, x.State, y.Start, y.StartedBy, y.Alloc, y.State)
			}
		}
	}
	if skips < 5000 {
		t.Errorf("%d arrivals-only passes: the test should exercise them", skips)
	}
	t.Logf("%d passes tested only the jobs that joined", skips)
}
