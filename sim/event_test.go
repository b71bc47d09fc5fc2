package sim

import (
	"slices"
	"strings"
	"testing"
)

// TestEventHeapOrder: events pop by time, then kind rank (end, calc,
// submit, eligible, pass, backfill, sample), then job index, then the
// order they were pushed in. Gen labels each event by its push order.
func TestEventHeapOrder(t *testing.T) {
	push := []Event{
		{T: 10, Kind: EvPass, Pass: PassFull, Gen: 11}, // pushed first, popped after the event pass
		{T: 10, Kind: EvSubmit, Job: 3, Gen: 1},
		{T: 10, Kind: EvJobEnd, Job: 5, Gen: 2},
		{T: 5, Kind: EvSample, Gen: 3},
		{T: 10, Kind: EvJobEnd, Job: 1, Gen: 4},
		{T: 10, Kind: EvSubmit, Job: 3, Gen: 5}, // same key as 1, pushed later
		{T: 10, Kind: EvCalc, Gen: 6},
		{T: 10, Kind: EvPass, Pass: PassEvent, Gen: 7},
		{T: 0, Kind: EvBackfill, Gen: 8},
		{T: 10, Kind: EvEligible, Job: 2, Gen: 9},
		{T: 10, Kind: EvJobEnd, Job: 1, Gen: 10}, // same key as 4, pushed later
	}
	// By hand: t=0 backfill (8); t=5 sample (3); t=10: ends of job 1 (4
	// then 10, push order) before job 5's (2); the calc tick (6); the two
	// submits of job 3 (1, 5); the eligible event (9); the event-triggered
	// pass (7), then the periodic full pass (11).
	want := []uint32{8, 3, 4, 10, 2, 6, 1, 5, 9, 7, 11}
	var h eventHeap
	for _, e := range push {
		h.push(e)
	}
	var got []uint32
	for h.Len() > 0 {
		got = append(got, h.pop().Gen)
	}
	if !slices.Equal(got, want) {
		t.Errorf("pop order %v, want %v", got, want)
	}

	// Many events with colliding keys, pushed and popped interleaved (a
	// new least event often pushed right after a pop, as a pass at the
	// same instant is): every pop is the least event left, by a model
	// that keeps them all.
	var h2 eventHeap
	x := uint32(12345)
	rnd := func(n uint32) uint32 { x = x*1103515245 + 12345; return (x >> 16) % n }
	var model []Event
	popCheck := func() {
		t.Helper()
		e := h2.pop()
		i := 0
		for k := range model {
			if model[k].less(&model[i]) {
				i = k
			}
		}
		if model[i] != e {
			t.Fatalf("popped %+v, want the least left %+v", e, model[i])
		}
		model = slices.Delete(model, i, i+1)
		if h2.Len() != len(model) {
			t.Fatalf("Len %d, want %d", h2.Len(), len(model))
		}
	}
	now := int64(0)
	for i := 0; i < 3000; i++ {
		e := Event{T: now + int64(rnd(50)), Kind: EventKind(rnd(7)), Job: int32(rnd(5))}
		if rnd(4) == 0 {
			e = Event{T: now, Kind: EvPass} // the pass an event asks for at its instant
		}
		h2.push(e)
		model = append(model, h2.lastPushed())
		if p := h2.peek(); h2.Len() > 0 && p.T > now {
			now = p.T
		}
		if rnd(3) > 0 {
			popCheck()
		}
	}
	for h2.Len() > 0 {
		popCheck()
	}
}

// TestSimultaneousEvents: at one instant a job's end frees its cores
// before the priority tick and before a submit at that instant is seen,
// so the job submitted then starts at once.
//
// One 4-core node, ticks every 100 s, a pass at every submit only.
//
//	t=0    tick (nothing running: 4 free); job 1 (4 CPUs, 100 s) submitted
//	       and started
//	t=100  job 1 ends (rank 0) → tick sees 4 free (rank 1) → job 2
//	       (4 CPUs) submitted with 4 free (rank 2) → pass starts it
//	t=150  job 2 ends
//	t=200  last tick: nothing left to do, ticks stop
func TestSimultaneousEvents(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
	pol := &recPolicy{period: 100, c: c}
	jobs := []tj{{id: 1, submit: 0, cpus: 4, run: 100, limit: 200}, {id: 2, submit: 100, cpus: 4, run: 50, limit: 200}}
	_, by := simulate(t, c, &testSched{}, pol, jobs, Options{})
	want := []string{
		"0 tick free=4", "0 submit 1 free=4", "0 start 1",
		"100 end 1", "100 tick free=4", "100 submit 2 free=4", "100 start 2",
		"150 end 2", "200 tick free=4",
	}
	if !slices.Equal(pol.log, want) {
		t.Errorf("events:\n  %s\nwant\n  %s", strings.Join(pol.log, "\n  "), strings.Join(want, "\n  "))
	}
	if by[2].Start != 100 || by[2].QueueWait() != 0 {
		t.Errorf("job 2 starts at %d (wait %d), want 100 (wait 0)", by[2].Start, by[2].QueueWait())
	}
}

// TestSimultaneousEndsByJobIndex: jobs started in reverse order that end
// at the same instant end in job index order (the heap's third key), not
// in the order their end events were queued.
func TestSimultaneousEndsByJobIndex(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
	pol := &recPolicy{c: c}
	s := &testSched{}
	s.pass = func(x *View, p *Plan, _ PassKind) {
		q := append([]*Job(nil), x.Pending()...)
		for i := len(q) - 1; i >= 0; i-- { // newest first
			s.tryStart(x, p, q[i])
		}
	}
	// Jobs 1-3 (indices 0-2) arrive at 0, one pass after each submit: job
	// 1 starts at its own pass, so to start them in reverse order they
	// must arrive together before any pass: a pass runs after all three
	// submits because submits (rank 2) come before passes (rank 4).
	jobs := []tj{{id: 1, cpus: 1, run: 100}, {id: 2, cpus: 1, run: 100}, {id: 3, cpus: 1, run: 100}}
	simulate(t, c, s, pol, jobs, Options{})
	want := []string{"0 submit 1 free=4", "0 submit 2 free=4", "0 submit 3 free=4",
		"0 start 3", "0 start 2", "0 start 1",
		"100 end 1", "100 end 2", "100 end 3"}
	if !slices.Equal(pol.log, want) {
		t.Errorf("events:\n  %s\nwant\n  %s", strings.Join(pol.log, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestStaleEndDropped: a job preempted and requeued keeps its old end
// event in the heap; that event must not end its second run.
//
// One 4-core node, passes at submits and ends.
//
//	t=0   job 1 (4 CPUs, 100 s) starts; its end event is at 100
//	t=10  job 2 (4 CPUs, 50 s) arrives; the pass requeues job 1 (it ran
//	      10 s on 4 cores: 40 core-seconds lost) and starts job 2
//	t=60  job 2 ends; job 1 is not eligible yet
//	t=100 job 1's first end event: stale, dropped
//	t=131 job 1 is eligible again, 10 + 121 s after its requeue
//	      (job_mgr.c batch_requeue_fini; it used to restart at 60); the
//	      pass restarts it, to end at 231
//	t=231 job 1 ends
func TestStaleEndDropped(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
	pol := &recPolicy{c: c}
	s := &testSched{onEnd: true}
	s.pass = func(x *View, p *Plan, _ PassKind) {
		for _, j := range append([]*Job(nil), x.Pending()...) {
			if j.ID == 2 {
				for _, r := range append([]*Job(nil), x.Running()...) {
					if r.ID == 1 {
						p.Preempt(r, true)
					}
				}
			}
		}
		for _, j := range append([]*Job(nil), x.Pending()...) {
			if j.ID == 2 || len(x.Running()) == 0 {
				s.tryStart(x, p, j)
			}
		}
	}
	jobs := []tj{{id: 1, submit: 0, cpus: 4, run: 100}, {id: 2, submit: 10, cpus: 4, run: 50}}
	_, by := simulate(t, c, s, pol, jobs, Options{})
	want := []string{"0 submit 1 free=4", "0 start 1", "10 submit 2 free=0", "10 end 1", "10 start 2",
		"60 end 2", "131 start 1", "231 end 1"}
	if !slices.Equal(pol.log, want) {
		t.Errorf("events:\n  %s\nwant\n  %s", strings.Join(pol.log, "\n  "), strings.Join(want, "\n  "))
	}
	j1 := by[1]
	if j1.State != Completed || j1.Start != 131 || j1.End != 231 || j1.Preemptions != 1 || j1.LostCoreSecs != 40 {
		t.Errorf("job 1: %s start %d end %d preemptions %d lost %g core-s; want COMPLETED 131 231 1 40",
			j1.State, j1.Start, j1.End, j1.Preemptions, j1.LostCoreSecs)
	}
}

// BenchmarkEventHeap is a replay's pattern: a queue of a few hundred
// pending events, each pop followed by a push of a later one.
func BenchmarkEventHeap(b *testing.B) {
	var h eventHeap
	var x uint64 = 1
	next := func() int64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return int64(x % 100000) }
	for i := range 300 {
		h.push(Event{T: next(), Kind: EventKind(i % 4), Job: int32(i)})
	}
	b.ResetTimer()
	for i := range b.N {
		e := h.pop()
		h.push(Event{T: e.T + next()%5000, Kind: EventKind(i % 4), Job: int32(i)})
	}
}

// lastPushed is the event push stored last, with its sequence number.
func (h *eventHeap) lastPushed() Event {
	if h.hasTop && h.top.seq == h.seq {
		return h.top
	}
	for _, e := range h.ev {
		if e.seq == h.seq {
			return e
		}
	}
	panic("no event has the last sequence number")
}
