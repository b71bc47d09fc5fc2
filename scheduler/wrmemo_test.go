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
	if n := reflect.TypeOf(sim.Request{}).NumField(); n != 13 {
		t.Errorf("sim.Request has %d fields, sameRequest compares 13 (with Gres): update it", n)
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
	b = a
	b.MinNodes = 2
	if sameRequest(&a, &b) || wrHash(&a, 0, nil) == wrHash(&b, 0, nil) {
		t.Error("sameRequest or wrHash does not tell requests apart by MinNodes")
	}
}

// TestWillRunMemoByQuestion: an answer belongs to its question (request,
// partition, nodes in play) under one fingerprint, whichever job asked:
// the same question comes back with its start and nodes, another request,
// partition or set of nodes does not, a new fingerprint forgets every
// answer, and so does filling the memo to wrMemoMax.
func TestWillRunMemoByQuestion(t *testing.T) {
	var m wrMemo
	m.fp = 7
	req := sim.Request{CPUs: 4, Type: -1}
	avail := []uint64{0xff, 0}
	store := func(r *sim.Request, part int, av []uint64, start int64) {
		m.store(wrHash(r, part, av), r, part, av, 1_000_000, 0, start, sim.FitsNow, []uint64{uint64(start), 0}, 0)
	}
	answer := func(r *sim.Request, part int, av []uint64) (int64, bool) {
		e, ok := m.lookup(wrHash(r, part, av), r, part, av, 1_000_000, 0, 0)
		if !ok {
			return 0, false
		}
		nodes := make([]uint64, 2)
		tt, _ := e.answer(nodes)
		if nodes[0] != uint64(tt) {
			t.Fatalf("start %d came with the nodes of start %d", tt, nodes[0])
		}
		return tt, true
	}
	store(&req, 0, avail, 100)
	if tt, ok := answer(&req, 0, avail); !ok || tt != 100 {
		t.Fatalf("the same question: %d %v, want 100", tt, ok)
	}
	other := req
	other.CPUs = 5
	if _, ok := answer(&other, 0, avail); ok {
		t.Error("another request got the answer")
	}
	if _, ok := answer(&req, 1, avail); ok {
		t.Error("another partition got the answer")
	}
	if _, ok := answer(&req, 0, []uint64{0xfe, 0}); ok {
		t.Error("other nodes in play got the answer")
	}
	store(&other, 0, avail, 200)
	if tt, ok := answer(&req, 0, avail); !ok || tt != 100 {
		t.Fatalf("after another question's answer: %d %v, want 100", tt, ok)
	}
	if tt, ok := answer(&other, 0, avail); !ok || tt != 200 {
		t.Fatalf("the other question: %d %v, want 200", tt, ok)
	}
	m.fp = 8
	if _, ok := answer(&req, 0, avail); ok {
		t.Error("an answer outlived its fingerprint")
	}
	store(&req, 0, avail, 300)
	if tt, ok := answer(&req, 0, avail); !ok || tt != 300 {
		t.Fatalf("under the new fingerprint: %d %v, want 300", tt, ok)
	}
	for k := range wrMemoMax {
		store(&req, 0, []uint64{uint64(k) << 8, 1}, 400)
	}
	if _, ok := answer(&req, 0, avail); ok {
		t.Error("a full memo kept its answers")
	}
	if len(m.pool) > wrMemoMax {
		t.Errorf("%d entries, at most %d kept", len(m.pool), wrMemoMax)
	}
}

// TestWillRunMemoCutTests: a cut test (no start by `by`) answers a later
// question of the same nodes wanting a start by that time or earlier, and
// no other: not one wanting any start (by 0), not one wanting it by a
// later time. A later cut by a later time widens it; a full answer
// replaces it.
func TestWillRunMemoCutTests(t *testing.T) {
	var m wrMemo
	m.fp = 7
	req := sim.Request{CPUs: 4, Type: -1}
	avail := []uint64{0xff}
	h := wrHash(&req, 0, avail)
	nodes := []uint64{0}
	ask := func(by int64) bool {
		e, ok := m.lookup(h, &req, 0, avail, 1_000_000, 0, by)
		if ok {
			if tt, fit := e.answer(nodes); fit == sim.FitsNow && tt <= by {
				t.Fatalf("by %d: a start at %d from a cut test", by, tt)
			}
		}
		return ok
	}
	m.store(h, &req, 0, avail, 1_000_000, 0, 0, sim.NotNow, nodes, 500)
	for _, tc := range []struct {
		by   int64
		want bool
	}{{400, true}, {500, true}, {501, false}, {0, false}} {
		if got := ask(tc.by); got != tc.want {
			t.Errorf("after a cut by 500, asked by %d: answered %v, want %v", tc.by, got, tc.want)
		}
	}
	m.store(h, &req, 0, avail, 1_000_000, 0, 0, sim.NotNow, nodes, 900)
	if !ask(700) {
		t.Error("a cut by 900 did not answer a question by 700")
	}
	m.store(h, &req, 0, avail, 1_000_000, 0, 1200, sim.FitsNow, []uint64{9}, 0)
	e, ok := m.lookup(h, &req, 0, avail, 1_000_000, 0, 0)
	if !ok {
		t.Fatal("the full answer after the cuts is not kept")
	}
	if tt, fit := e.answer(nodes); fit != sim.FitsNow || tt != 1200 || nodes[0] != 9 {
		t.Errorf("the full answer: %d %v on %v, want 1200 on node bits 9", tt, fit, nodes)
	}
}

// TestWillRunMemoBoundedByBytes: on a big cluster the memo keeps fewer
// answers, so that their bitmaps stay within wrMemoBytes: with 4,096
// words of nodes (262,144 nodes) at most 512.
func TestWillRunMemoBoundedByBytes(t *testing.T) {
	var m wrMemo
	m.fp = 7
	req := sim.Request{CPUs: 4, Type: -1}
	avail := make([]uint64, 4096)
	nodes := make([]uint64, 4096)
	first := wrHash(&req, 0, avail)
	m.store(first, &req, 0, avail, 1_000_000, 0, 100, sim.FitsNow, nodes, 0)
	if m.max != 512 {
		t.Fatalf("at most %d answers of 4,096 words, want 512", m.max)
	}
	for k := 1; k <= 512; k++ {
		av := make([]uint64, 4096)
		av[0] = uint64(k)
		m.store(wrHash(&req, 0, av), &req, 0, av, 1_000_000, 0, 100, sim.FitsNow, nodes, 0)
		if len(m.pool) > 512 {
			t.Fatalf("%d answers kept", len(m.pool))
		}
	}
	if _, ok := m.lookup(first, &req, 0, avail, 1_000_000, 0, 0); ok {
		t.Error("the first answer outlived 512 more")
	}
}
