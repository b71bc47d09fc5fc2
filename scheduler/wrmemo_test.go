package scheduler

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// TestWillRunMemoChangesNothing runs the slurm scheduler over 600 random
// jobs (two overlapping partitions, sizes from 1 core to 3 nodes, limits
// over- and under-estimated, fair-share and age weights on so priorities
// move at every calc tick) twice, with the will-run memo and without,
// and wants every job to start at the same time on the same nodes by the
// same pass, with the same last expected start. Removing the fingerprint
// or the until rule of wrMemo.lookup fails it. With the cluster and its
// releases unchanged an answer reused across cycles is never "now" (it
// would have started the job then), so the comparison of the nodes in
// play guards reservations only: here it turns away some 600 answers
// whose change would have moved no start and no final estimate. The rule
// for a start that has come (e.t <= now) needs a holder past its
// expected end that has not ended, which this workload does not make.
func TestWillRunMemoChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tjs := randomJobs(rng, 600, 40, 30)
	for i := range tjs {
		if rng.IntN(2) == 1 {
			tjs[i].acct = "b"
		}
	}
	for i := range tjs {
		if tjs[i].acct == "a" {
			tjs[i].user = "ua"
		} else {
			tjs[i].user = "ub"
		}
	}
	pol := func(c *sim.Cluster, names *workload.Names) sim.Policy {
		tree, err := fairshare.ReadDump("test.cfg", strings.NewReader(grpDump))
		if err != nil {
			t.Fatal(err)
		}
		pp := policy.DefaultParams()
		pp.Weights = policy.Weights{Fairshare: 10000, Age: 1000, JobSize: 500}
		m, err := multifactor.New(multifactor.Config{Priority: pp, FairShare: fairshare.Config{Algorithm: fairshare.FairTree, HalfLife: 600},
			CalcPeriod: 60, Tree: tree, PartitionBilling: make([]policy.TRESWeights, len(c.Parts))}, c, names)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	hits := 0
	schedule := func(off bool) map[int64]*sim.Job {
		wrMemoOff = off
		defer func() { wrMemoOff = false }()
		c := cluster(t, []sim.NodeSpec{nodes("n", 6, 8, 32000)}, []sim.PartitionSpec{part("p"), part("q", "n5", "n6")})
		p := DefaultParams()
		p.BfInterval, p.BfResolution = 10, 60
		s := NewSlurm(p)
		_, by := run(t, c, s, tjs, 0, pol)
		hits += s.wr.hits
		return by
	}
	with, without := schedule(false), schedule(true)
	backfilled := 0
	for id, a := range with {
		b := without[id]
		if a.Start != b.Start || a.StartedBy != b.StartedBy || !reflect.DeepEqual(a.Alloc, b.Alloc) {
			t.Errorf("job %d: with the memo %d by %v on %v, without %d by %v on %v", id, a.Start, a.StartedBy, a.Alloc, b.Start, b.StartedBy, b.Alloc)
		}
		if a.ExpectStart != b.ExpectStart {
			t.Errorf("job %d: last expected start %d with the memo, %d without", id, a.ExpectStart, b.ExpectStart)
		}
		if a.StartedBy == sim.ByBackfill {
			backfilled++
		}
	}
	t.Logf("hits %d backfilled %d", hits, backfilled)
	if hits < 100 {
		t.Errorf("the memo answered %d will-run tests: the test should exercise it", hits)
	}
	if backfilled < 50 {
		t.Errorf("%d backfill starts: the test should exercise backfill", backfilled)
	}
}

// TestSameRequestCoversRequest: sameRequest compares sim.Request field by
// field; a new field must be added to it.
func TestSameRequestCoversRequest(t *testing.T) {
	if n := reflect.TypeOf(sim.Request{}).NumField(); n != 12 {
		t.Errorf("sim.Request has %d fields, sameRequest compares 12 (with Gres): update it", n)
	}
	a := sim.Request{CPUs: 2, Type: -1}
	b := a
	b.Limit = 60
	if sameRequest(&a, &b) || !sameRequest(&a, &a) {
		t.Error("sameRequest does not tell requests apart by Limit")
	}
	b = a
	b.MaxNodes = 1
	if sameRequest(&a, &b) {
		t.Error("sameRequest does not tell requests apart by MaxNodes")
	}
}

// TestWillRunMemoFollowsTheQueue: the memo's slice spans the jobs it
// holds, not every index ever asked: once the oldest entries are swept it
// starts at the oldest kept, an older job's test is still kept (the slice
// grows at the front), and each answer comes back for its own job.
func TestWillRunMemoFollowsTheQueue(t *testing.T) {
	var m wrMemo
	m.fp = 7
	req := sim.Request{CPUs: 4, Type: -1}
	avail := []uint64{0xff}
	store := func(idx int, cycle uint64) {
		m.store(wrKey{idx, 0}, &req, 0, avail, 1_000_000, 0, int64(100+idx), sim.FitsNow, []uint64{uint64(idx)}, cycle)
	}
	answer := func(idx int, cycle uint64) (int64, bool) {
		e, ok := m.lookup(wrKey{idx, 0}, &req, 0, avail, 1_000_000, 0, cycle)
		if !ok {
			return 0, false
		}
		nodes := make([]uint64, 1)
		tt, _ := e.answer(nodes)
		if nodes[0] != uint64(idx) {
			t.Fatalf("job %d got job %d's nodes", idx, nodes[0])
		}
		return tt, true
	}
	for idx := 5000; idx < 5100; idx++ {
		store(idx, 1)
	}
	for idx := 5080; idx < 5100; idx++ {
		store(idx, 10) // the queue's tail is still asked
	}
	m.sweep(10) // entries of cycle 1 are more than 4 cycles old
	if m.base != 5080 || len(m.entries) != 20 {
		t.Fatalf("after the sweep: base %d, %d entries; want 5080 and 20", m.base, len(m.entries))
	}
	if _, ok := answer(5050, 10); ok {
		t.Errorf("a swept job's answer came back")
	}
	for idx := 5080; idx < 5100; idx++ {
		if tt, ok := answer(idx, 10); !ok || tt != int64(100+idx) {
			t.Fatalf("job %d: %d %v, want its start %d", idx, tt, ok, 100+idx)
		}
	}
	store(4990, 11) // held until now: older than every kept job
	if m.base != 4990 {
		t.Fatalf("base %d after an older job's test, want 4990", m.base)
	}
	for _, idx := range []int{4990, 5080, 5099} {
		if tt, ok := answer(idx, 11); !ok || tt != int64(100+idx) {
			t.Fatalf("job %d after the slice grew at the front: %d %v", idx, tt, ok)
		}
	}
	m.sweep(100)
	if len(m.entries) != 0 || len(m.live) != 0 {
		t.Fatalf("every entry old: %d entries, %d live, want none", len(m.entries), len(m.live))
	}
	store(9000, 100)
	if tt, ok := answer(9000, 100); !ok || tt != 9100 || m.base != 9000 {
		t.Fatalf("a new job after an empty memo: %d %v, base %d", tt, ok, m.base)
	}
}
