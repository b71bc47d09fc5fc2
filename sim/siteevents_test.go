package sim

import (
	"slices"
	"testing"
	"time"
)

// twoNodes: n1 and n2, 4 cores each, n1 first in allocation order, in
// partition p.
func twoNodes(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 4, 4000, 1, "n1"),
		nodeGroup("broadwell", 4, 4000, 2, "n2"),
	})
}

// countingSched is FIFO, recounting the cluster's counters at every pass
// (after submits, ends and site events).
func countingSched(t *testing.T) *testSched {
	s := &testSched{onEnd: true}
	s.pass = func(v *View, p *Plan, kind PassKind) {
		if err := v.Cluster().checkCounters(v.Running(), nil, v.compl); err != nil {
			t.Errorf("at %d: %v", v.Now(), err)
		}
		for _, j := range v.Pending() {
			if !s.tryStart(v, p, j) {
				break
			}
		}
	}
	return s
}

func nodeEv(c *Cluster, t *testing.T, at int64, st NodeState, names ...string) SiteEvent {
	e := SiteEvent{At: at, NodeState: st, Part: -1, Reason: "test"}
	for _, n := range names {
		e.Nodes = append(e.Nodes, node(t, c, n))
	}
	return e
}

type want struct {
	id         int64
	state      JobState
	start, end int64
	node       string
	fails      int
}

func checkJobs(t *testing.T, c *Cluster, by map[int64]*Job, ws []want) {
	t.Helper()
	for _, w := range ws {
		j := by[w.id]
		if j.State != w.state || j.Start != w.start || j.End != w.end || j.NodeFails != w.fails {
			t.Errorf("job %d: %s %d..%d fails %d, want %s %d..%d fails %d", w.id, j.State, j.Start, j.End, j.NodeFails, w.state, w.start, w.end, w.fails)
			continue
		}
		if w.node != "" && (len(j.Alloc) != 1 || c.Nodes[j.Alloc[0].Node].Name != w.node) {
			t.Errorf("job %d ran on %s, want %s", w.id, allocString(c, j.Alloc), w.node)
		}
	}
}

// TestNodeFailRequeue: job 1 runs on n1 from 0; n1 fails at 100: the job
// is killed (NODE_FAIL) and, requeueable as batch jobs are by default,
// goes back to the queue. It is eligible again at 100 + 121 = 221
// (job_mgr.c batch_requeue_fini: begin time = now + cred_expire 120 + 1;
// it used to restart at once, at 100) and restarts then on n2, running
// its whole 1000 s again, to 1221. With JobRequeue=0 it ends NODE_FAIL at
// 100.
func TestNodeFailRequeue(t *testing.T) {
	for _, st := range []NodeState{NodeFail, NodeDown} {
		c := twoNodes(t)
		r, by := simulate(t, c, countingSched(t), nil, []tj{{id: 1, cpus: 4, run: 1000}},
			Options{Events: []SiteEvent{nodeEv(c, t, 100, st, "n1")}})
		checkJobs(t, c, by, []want{{1, Completed, 221, 1221, "n2", 1}})
		if c.DownCores != 4 || c.FreeCores != 4 || c.Nodes[0].State != st {
			t.Errorf("%s: at the end DownCores %d FreeCores %d n1 %s", st, c.DownCores, c.FreeCores, c.Nodes[0].State)
		}
		if err := c.checkCounters(nil, nil, nil); err != nil {
			t.Error(err)
		}
		_ = r
	}
	c := twoNodes(t)
	_, by := simulate(t, c, countingSched(t), nil, []tj{{id: 1, cpus: 4, run: 1000}},
		Options{NoRequeue: true, Events: []SiteEvent{nodeEv(c, t, 100, NodeFail, "n1")}})
	checkJobs(t, c, by, []want{{1, NodeFailed, 0, 100, "n1", 1}})
}

// TestNodeFailMultiNode: a job on n1 and n2 is killed whole when n2 fails
// (no --no-kill); requeued, it is out of the queue until 100 + 121 = 221
// (job_mgr.c batch_requeue_fini), so job 2 takes n1 at once (the kill's
// epilog asks for a pass); job 1 waits for n2 to RESUME at 500, then
// runs. A job ending at the instant of the failure completes first.
func TestNodeFailMultiNode(t *testing.T) {
	c := twoNodes(t)
	_, by := simulate(t, c, countingSched(t), nil, []tj{
		{id: 1, cpus: 8, run: 1000},
		{id: 2, submit: 1, cpus: 1, run: 99},
	}, Options{Events: []SiteEvent{nodeEv(c, t, 100, NodeFail, "n2"), nodeEv(c, t, 500, NodeUp, "n2")}})
	checkJobs(t, c, by, []want{{1, Completed, 500, 1500, "", 1}, {2, Completed, 100, 199, "n1", 0}})
	if c.DownCores != 0 || c.FreeCores != 8 {
		t.Errorf("after RESUME: DownCores %d FreeCores %d", c.DownCores, c.FreeCores)
	}

	c = twoNodes(t)
	_, by = simulate(t, c, countingSched(t), nil, []tj{{id: 1, cpus: 4, run: 100}},
		Options{Events: []SiteEvent{nodeEv(c, t, 100, NodeFail, "n1")}})
	checkJobs(t, c, by, []want{{1, Completed, 0, 100, "n1", 0}})
}

// TestNodeDrain: n1 drains at 100 while job 1 runs on it: job 1 finishes
// at 1000; job 3, arriving at 200 with n2 busy, does not go to n1 when it
// frees but to n2 at 500; job 4 (both nodes) waits for RESUME at 3000.
func TestNodeDrain(t *testing.T) {
	c := twoNodes(t)
	_, by := simulate(t, c, countingSched(t), nil, []tj{
		{id: 1, cpus: 4, run: 1000},
		{id: 2, cpus: 4, run: 500},
		{id: 3, submit: 200, cpus: 4, run: 100},
		{id: 4, submit: 2000, cpus: 8, run: 100},
	}, Options{Events: []SiteEvent{nodeEv(c, t, 100, NodeDrain, "n1"), nodeEv(c, t, 3000, NodeUp, "n1")}})
	checkJobs(t, c, by, []want{
		{1, Completed, 0, 1000, "n1", 0},
		{2, Completed, 0, 500, "n2", 0},
		{3, Completed, 500, 600, "n2", 0},
		{4, Completed, 3000, 3100, "", 0},
	})
}

// TestDrainThenDown: a node drained under a running job, then downed,
// kills the job; RESUME gives back the whole node. The requeued job is
// eligible at 20 + 121 = 141 (job_mgr.c batch_requeue_fini), not at once.
func TestDrainThenDown(t *testing.T) {
	c := twoNodes(t)
	_, by := simulate(t, c, countingSched(t), nil, []tj{{id: 1, cpus: 4, run: 1000}, {id: 2, cpus: 4, run: 2000}},
		Options{Events: []SiteEvent{nodeEv(c, t, 10, NodeDrain, "n1"), nodeEv(c, t, 20, NodeDown, "n1"), nodeEv(c, t, 30, NodeUp, "n1")}})
	// Job 1 on n1 (all 4 cores), job 2 on n2 (with 2 cores, job 2 would
	// fill n1's, the lower Weight, first). Killed at 20, requeued; n1 back
	// at 30; job 1 eligible at 141, runs 141..1141 on n1.
	checkJobs(t, c, by, []want{{1, Completed, 141, 1141, "n1", 1}, {2, Completed, 0, 2000, "n2", 0}})
}

// TestPartitionEvents: p goes DOWN at 50: job 1 (submitted at 100, a
// DOWN partition takes submissions) waits until UP at 400. DRAIN at 500
// refuses job 2 at 600; INACTIVE too; UP again takes job 4.
func TestPartitionEvents(t *testing.T) {
	c := twoNodes(t)
	pe := func(at int64, st PartState) SiteEvent { return SiteEvent{At: at, Part: 0, PartState: st} }
	_, by := simulate(t, c, countingSched(t), nil, []tj{
		{id: 1, submit: 100, cpus: 4, run: 10},
		{id: 2, submit: 600, cpus: 4, run: 10},
		{id: 3, submit: 800, cpus: 4, run: 10},
		{id: 4, submit: 1000, cpus: 4, run: 10},
	}, Options{Events: []SiteEvent{pe(50, PartDown), pe(400, PartUp), pe(500, PartDrain), pe(700, PartInactive), pe(900, PartUp)}})
	checkJobs(t, c, by, []want{
		{1, Completed, 400, 410, "", 0},
		{2, Rejected, -1, 600, "", 0},
		{3, Rejected, -1, 800, "", 0},
		{4, Completed, 1000, 1010, "", 0},
	})
}

// TestSiteEventTimes: FromFirst counts from the first submission; events
// sort by time, file order among equals; an event after the last job's
// end does not stretch the run.
func TestSiteEventTimes(t *testing.T) {
	c := twoNodes(t)
	down := nodeEv(c, t, 100, NodeDown, "n1", "n2")
	down.FromFirst = true
	up := nodeEv(c, t, 1200, NodeUp, "n1", "n2")
	late := nodeEv(c, t, 99999, NodeDrain, "n1")
	r, by := simulate(t, c, countingSched(t), nil, []tj{{id: 1, submit: 1000, cpus: 4, run: 500}},
		Options{Events: []SiteEvent{late, up, down}})
	// Starts at 1000, killed at 1100, requeued, nodes back at 1200; the
	// job is eligible at 1100 + 121 = 1221 (job_mgr.c batch_requeue_fini).
	checkJobs(t, c, by, []want{{1, Completed, 1221, 1721, "n1", 1}})
	if r.Now >= 99999 || c.Nodes[0].State != NodeUp {
		t.Errorf("run stopped at %d with n1 %s: the late DRAIN ran", r.Now, c.Nodes[0].State)
	}
}

// TestNodeHashKept: NodeHash, once on, follows every change of a node's
// free cores, memory and state (take, give, SetNodeState, and give to a
// drained node), and is the same again when the nodes are.
func TestNodeHashKept(t *testing.T) {
	c := twoNodes(t)
	h0 := c.NodeHash()
	c.take(0, -1, 3, 100, 0)
	h1 := c.NodeHash()
	if h1 == h0 {
		t.Fatal("NodeHash did not change with a take")
	}
	c.SetNodeState(0, NodeDrain)
	c.give(0, -1, 3, 100, 0) // held: a drained node keeps what it is given
	c.SetNodeState(1, NodeDown)
	if err := c.checkCounters(nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	c.SetNodeState(1, NodeUp)
	c.SetNodeState(0, NodeUp)
	if err := c.checkCounters(nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := c.NodeHash(); got != h0 {
		t.Errorf("NodeHash %x with the nodes as they began, want %x", got, h0)
	}
}

// allocKeeper is recPolicy that keeps each run's allocation as Started
// saw it.
type allocKeeper struct {
	recPolicy
	runs []Alloc
}

func (p *allocKeeper) Started(j *Job, now int64) { p.runs = append(p.runs, j.Alloc) }

// TestRequeuedRunGetsItsOwnAlloc: a requeued job's next run does not
// write over the allocation of its first run, which Releases (Reset)
// may still read as a holder's nodes: job 1 runs on n1, is requeued
// when n1 fails, and restarts on n2; its first run's allocation still
// says n1.
func TestRequeuedRunGetsItsOwnAlloc(t *testing.T) {
	c := twoNodes(t)
	pol := &allocKeeper{recPolicy: recPolicy{c: c}}
	_, by := simulate(t, c, countingSched(t), pol, []tj{{id: 1, cpus: 4, run: 1000}},
		Options{Events: []SiteEvent{nodeEv(c, t, 100, NodeFail, "n1")}})
	checkJobs(t, c, by, []want{{1, Completed, 221, 1221, "n2", 1}})
	if len(pol.runs) != 2 {
		t.Fatalf("%d runs, want 2", len(pol.runs))
	}
	if got := allocString(c, pol.runs[0]); got != "n1:4/4000" {
		t.Errorf("first run's allocation now reads %s, want n1:4/4000", got)
	}
}

// TestSiteEventWhileCompleting: job 1 ends on n1 at 100 and its node stays
// COMPLETING to 160 (CompletingTime 60). A site event on n1 at 120 must
// count those cores as still busy (the recount after every site event
// used to leave COMPLETING jobs out and failed the run). With n1 back in
// service at 130, job 2 (both nodes) starts at the release, 160; with n1
// DRAINED to 200, the released cores stay held until its RESUME.
func TestSiteEventWhileCompleting(t *testing.T) {
	for _, tc := range []struct {
		st     NodeState
		resume int64
		start  int64
	}{
		{NodeDown, 130, 160},
		{NodeDrain, 130, 160},
		{NodeDrain, 200, 200},
		{NodeFail, 200, 200},
	} {
		c := twoNodes(t)
		_, by := simulate(t, c, countingSched(t), nil, []tj{
			{id: 1, cpus: 4, run: 100},
			{id: 2, submit: 110, cpus: 8, run: 50},
		}, Options{CompletingTime: 60, Events: []SiteEvent{nodeEv(c, t, 120, tc.st, "n1"), nodeEv(c, t, tc.resume, NodeUp, "n1")}})
		checkJobs(t, c, by, []want{{1, Completed, 0, 100, "n1", 0}, {2, Completed, tc.start, tc.start + 50, "", 0}})
		if err := c.checkCounters(nil, nil, nil); err != nil {
			t.Errorf("%s to %d: at the end: %v", tc.st, tc.resume, err)
		}
	}
}

// TestCancelledDependentRetires: job 2 waits for job 1 (afterany) and is
// cancelled at 100, before job 1 ends at 1000. Retired at once, it must
// not be looked up again when job 1 ends and releases its dependents
// (the engine dereferenced the retired job and crashed).
func TestCancelledDependentRetires(t *testing.T) {
	c := twoNodes(t)
	var retired []int64
	r, err := simulateErr(c, countingSched(t), nil, []tj{
		{id: 1, cpus: 4, run: 1000},
		{id: 2, submit: 10, cpus: 1, run: 50, pre: 1, cancelAfter: 90, status: "cancelled"},
		{id: 3, submit: 20, cpus: 1, run: 50, pre: 1},
	}, Options{Retire: func(j *Job) { retired = append(retired, j.ID) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != 0 || !slices.Equal(retired, []int64{2, 1, 3}) {
		t.Errorf("retired %v, %d jobs left: want 2, 1, 3 and none", retired, len(r.Jobs))
	}
}

// A job that can never start (here, held as by a QOS MaxWall below its
// limit) with a job depending on it: the run ends once the queue has
// stalled for StallLimit, the dependent reported pending on Dependency.
// Counting the dependent as work left kept the run sampling forever.
func TestStalledPredecessorEndsRun(t *testing.T) {
	c := twoNodes(t)
	s := &testSched{onEnd: true}
	s.pass = func(v *View, p *Plan, kind PassKind) {
		for _, j := range v.Pending() {
			if j.ID == 1 {
				p.Pend(j, "QOSMaxWallDurationPerJobLimit")
				continue
			}
			s.tryStart(v, p, j)
		}
	}
	done := make(chan struct{})
	var r *Result
	var err error
	go func() {
		defer close(done)
		r, err = simulateErr(c, s, nil, []tj{
			{id: 1, cpus: 1, run: 100},
			{id: 2, submit: 10, cpus: 1, run: 50, pre: 1},
			{id: 3, submit: 20, cpus: 1, run: 50},
		}, Options{SampleInterval: 60, StallLimit: 3600})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end: a job waiting on a stalled one kept it going")
	}
	if err != nil {
		t.Fatal(err)
	}
	by := map[int64]*Job{}
	for _, j := range r.Jobs {
		by[j.ID] = j
	}
	if j := by[2]; j == nil || j.State != Pending || j.Reason != "Dependency" || j.WaitReason != "Dependency" {
		t.Errorf("job 2: %+v, want pending on Dependency", j)
	}
	if j := by[3]; j == nil || j.State != Completed {
		t.Errorf("job 3: want completed, got %+v", j)
	}
	if r.Defaulted["jobs left waiting on a dependency"] != 1 {
		t.Errorf("summary: %v, want 1 job left waiting on a dependency", r.Defaulted)
	}
	if r.Now > 3600+200 {
		t.Errorf("run went on to %d s, past the stall limit", r.Now)
	}
	// The last progress was job 3's end; the reports end their plots
	// soon after it.
	if !r.Stalled || r.StalledFrom != by[3].End {
		t.Errorf("Stalled %v from %d; want stalled from job 3's end (%d)", r.Stalled, r.StalledFrom, by[3].End)
	}
}

// A run whose jobs all end did not stall, nor did one stopped (StopAt)
// with a held job pending and nothing running: the user ended it.
func TestNotStalled(t *testing.T) {
	for _, stop := range []int64{0, 500} {
		s := &testSched{onEnd: true}
		s.pass = func(v *View, p *Plan, kind PassKind) {
			for _, j := range v.Pending() {
				if j.ID == 1 && stop > 0 {
					p.Pend(j, "QOSMaxWallDurationPerJobLimit")
					continue
				}
				s.tryStart(v, p, j)
			}
		}
		r, err := simulateErr(twoNodes(t), s, nil, []tj{
			{id: 1, cpus: 1, run: 100},
			{id: 2, submit: 10, cpus: 1, run: 50},
			{id: 3, submit: 40, cpus: 1, run: 50},
		}, Options{SampleInterval: 60, StopAt: stop})
		if err != nil {
			t.Fatal(err)
		}
		if r.Stalled {
			t.Errorf("StopAt %d: stalled from %d, want not stalled", stop, r.StalledFrom)
		}
		if stop > 0 && (r.Now != stop || len(r.Pending) != 1) {
			t.Errorf("StopAt %d: ended at %d with %d pending; want the held job pending at the stop", stop, r.Now, len(r.Pending))
		}
	}
}
