package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// oneNode is one 4-core node in partition p.
func oneNode(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
}

// TestSubmitTriggers follows controller.c _slurmctld_background: a submit
// queues a request (queue_job_scheduler) and the background loop runs it
// once batch_sched_delay has passed since its own previous pass, which a
// full sched_interval pass restarts. Jobs are 1 core, long, on a 4-core
// node, so every pass starts what is pending; no pass at ends.
func TestSubmitTriggers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		interval int64
		submits  []int64
		passes   []int64
		kinds    []PassKind
	}{
		// Controller up at 0. Submit 0: 0+3 = 3. Submit 10: 10-3 = 7 >= 3,
		// at once: 10. Submit 11: 11-10 = 1 < 3, at 10+3 = 13. Submit 100:
		// 100-13 >= 3: 100 (it used to be 103).
		{"delay since the previous pass", 0, []int64{0, 10, 11, 100}, []int64{3, 10, 13, 100},
			[]PassKind{PassEvent, PassEvent, PassEvent, PassEvent}},
		// sched_interval 60: the full pass at 60 restarts the clock, so a
		// submit at 61 waits for 60+3 = 63. (A 4-core job at 0 keeps the
		// second job pending, so the full pass has something to see.)
		{"full pass restarts the delay", 60, []int64{0, 0, 61}, []int64{3, 60, 63},
			[]PassKind{PassEvent, PassFull, PassEvent}},
		// Two submits in one second: one pass.
		{"one pass per instant", 0, []int64{0, 0, 50, 50}, []int64{3, 50}, []PassKind{PassEvent, PassEvent}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var jobs []tj
			for i, at := range tc.submits {
				cpus := 1
				if tc.interval > 0 && i == 0 {
					cpus = 4
				}
				jobs = append(jobs, tj{id: int64(i + 1), submit: at, cpus: cpus, run: 70})
			}
			s := &testSched{trig: &Triggers{SubmitDelay: 3, Interval: tc.interval}}
			simulate(t, oneNode(t), s, nil, jobs, Options{})
			// Only the passes up to the last submit's: later full passes
			// run while the jobs end.
			n := len(tc.passes)
			if len(s.passes) < n || !slices.Equal(s.passes[:n], tc.passes) || !slices.Equal(s.kinds[:n], tc.kinds) {
				t.Errorf("passes %v %v, want %v %v first", s.passes, s.kinds, tc.passes, tc.kinds)
			}
		})
	}
}

// TestMinInterval follows job_scheduler.c _sched_agent: a pass starts only
// sched_min_interval after the end of the previous one, and the requests
// made meanwhile make one pass. One core; job 1 (1 core, 2 s) submitted
// at 0, job 2 (1 core) at 1; passes at submits (no delay) and ends.
func TestMinInterval(t *testing.T) {
	for _, tc := range []struct {
		usec    int64
		passes  []int64
		start2  int64
		comment string
	}{
		// 5 s: pass at 0 starts job 1; job 2's request at 1 waits for
		// 0+5; job 1's end at 2 joins it: one pass at 5 starts job 2.
		{5000000, []int64{0, 5}, 5, "5 s"},
		// Under a second (Slurm's default is 2 µs): below the clock, a
		// pass at each request: 0, 1 (job 2 does not fit), 2 (job 1's
		// end: job 2 starts).
		{999999, []int64{0, 1, 2}, 2, "under a second"},
		// 1.5 s rounds up to 2: 0, then 2 (job 2's request at 1 and job
		// 1's end at 2 in one pass).
		{1500000, []int64{0, 2}, 2, "1.5 s"},
	} {
		c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 1, 4000, 1, "n1")})
		s := &testSched{trig: &Triggers{SubmitDelay: 0, OnEnd: true, MinInterval: tc.usec}}
		_, by := simulate(t, c, s, nil, []tj{{id: 1, cpus: 1, run: 2}, {id: 2, submit: 1, cpus: 1, run: 2}}, Options{})
		// The last pass, at job 2's end, is not asked about.
		if got := s.passes[:len(tc.passes)]; !slices.Equal(got, tc.passes) || by[2].Start != tc.start2 {
			t.Errorf("%s: passes %v, job 2 at %d; want %v first, job 2 at %d", tc.comment, s.passes, by[2].Start, tc.passes, tc.start2)
		}
	}
}

// TestDefer follows proc_req.c _slurm_rpc_epilog_complete: without defer
// a job's release runs a pass at once (schedule()); with defer it only
// queues one (queue_job_scheduler), which the background loop runs
// batch_sched_delay after its previous pass. Job 1 (4 cores, 1 s) and job
// 2 (4 cores) on one 4-core node, submitted at 0 and 1: the queued pass at
// 3 starts job 1 and not job 2; job 1 ends at 4.
func TestDefer(t *testing.T) {
	for _, tc := range []struct {
		deferred bool
		start2   int64
	}{
		{false, 4}, // the release at 4 runs a pass at once
		{true, 6},  // queued: 3 + 3 = 6
	} {
		s := &testSched{trig: &Triggers{SubmitDelay: 3, OnEnd: true, Defer: tc.deferred}}
		_, by := simulate(t, oneNode(t), s, nil, []tj{{id: 1, cpus: 4, run: 1}, {id: 2, submit: 1, cpus: 4, run: 5}}, Options{})
		if by[1].Start != 3 || by[2].Start != tc.start2 {
			t.Errorf("defer %v: jobs start at %d and %d, want 3 and %d", tc.deferred, by[1].Start, by[2].Start, tc.start2)
		}
	}
}

// TestControllerPhase: timers tick on grids from the controller's start,
// as _slurmctld_background, backfill_agent and the decay thread start
// their clocks when slurmctld starts. First submit at 1000, one job of
// 200 s; sched_interval 60, bf_interval 30, calc period 300,
// batch_sched_delay 3.
func TestControllerPhase(t *testing.T) {
	for _, tc := range []struct {
		uptime             int64
		firstEvent, full   int64
		firstBackfill, cal int64
		lastCalc           int64 // the decay thread's tick before 1000 (CalcPhaser), -1: none
	}{
		// Started with the first submit: event pass at 1000+3, full at
		// 1060, backfill at 1030, calc tick at 1000, none before.
		{0, 1003, 1060, 1030, 1000, -1},
		// Up 25 s (started at 975): the delay has passed, so the pass is
		// at once, 1000; full at 975+60 = 1035; backfill at 975+30 =
		// 1005; calc tick at 975+300 = 1275, after the one at the
		// start, 975.
		{25, 1000, 1035, 1005, 1275, 975},
		// Up 40 s (started at 960): the backfill agent's first wake-up,
		// at 990, runs a cycle (the nodes' registrations are changes)
		// with nothing to test, so the next waits for 990+30 = 1020, not
		// for its poll after the submit (a real 22.05 controller: first
		// cycle at its start+3 s with bf_interval=3, "no jobs to
		// backfill", and the first jobs backfilled 3 s later). Full at
		// 1020, calc at 1260 after 960.
		{40, 1000, 1020, 1020, 1260, 960},
		// Up 60 s (started at 940): idle cycle at 970, the next at 1000
		// finds the submission of its second (a real controller up 6 s
		// with bf_interval=3 backfilled the first wave at t0). Full at
		// 1000, calc at 1240 after 940.
		{60, 1000, 1000, 1000, 1240, 940},
		// Up 1000 s (started at 0): full at 1020 (0+17·60), backfill at
		// its first poll after the submit, 1001 (its first 30 s passed
		// long ago with nothing to do); calc at 1200, the last before
		// at 900.
		{1000, 1000, 1020, 1001, 1200, 900},
	} {
		pol := &recPolicy{period: 300, c: oneNode(t)}
		s := &testSched{trig: &Triggers{SubmitDelay: 3, Interval: 60, BackfillInterval: 30}}
		simulate(t, pol.c, s, pol, []tj{{id: 1, submit: 1000, cpus: 1, run: 200}}, Options{ControllerUptime: tc.uptime})
		if by := s.passes; len(by) == 0 || by[0] != tc.firstEvent {
			t.Errorf("uptime %d: passes %v, want the first at %d", tc.uptime, s.passes, tc.firstEvent)
		}
		tick := int64(-1)
		for _, l := range pol.log {
			var at, free int64
			if n, _ := fmt.Sscanf(l, "%d tick free=%d", &at, &free); n == 2 {
				tick = at
				break
			}
		}
		last := int64(-1)
		for _, l := range pol.log {
			if strings.HasSuffix(l, " lastcalc") {
				fmt.Sscanf(l, "%d", &last)
			}
		}
		if last != tc.lastCalc {
			t.Errorf("uptime %d: LastCalc(%d), want %d (%v)", tc.uptime, last, tc.lastCalc, pol.log)
		}
		if tick != tc.cal {
			t.Errorf("uptime %d: first calc tick at %d, want %d (%v)", tc.uptime, tick, tc.cal, pol.log)
		}
		// The periodic passes, seen with a job that never fits pending.
		s2 := &testSched{trig: &Triggers{SubmitDelay: 3, Interval: 60, BackfillInterval: 30}}
		simulate(t, oneNode(t), s2, nil, []tj{{id: 1, submit: 1000, cpus: 4, run: 200}, {id: 2, submit: 1000, cpus: 4, run: 10}},
			Options{ControllerUptime: tc.uptime})
		var full, bf int64 = -1, -1
		for i, k := range s2.kinds {
			if k == PassFull && full < 0 {
				full = s2.passes[i]
			}
			if k == PassBackfill && bf < 0 {
				bf = s2.passes[i]
			}
		}
		if full != tc.full || bf != tc.firstBackfill {
			t.Errorf("uptime %d: first full pass %d, first backfill %d; want %d and %d", tc.uptime, full, bf, tc.full, tc.firstBackfill)
		}
	}
}

// TestBackfillAfterEnd follows backfill.c backfill_agent: the next cycle
// starts bf_interval after the previous one ENDED, and only if anything
// changed since that end (_more_work); otherwise at the agent's next poll
// after a change. One 4-core node: job 1 (4 cores, 1000 s) at 0, then a
// job every 10 s that cannot fit (a change every 10 s).
func TestBackfillAfterEnd(t *testing.T) {
	busy := []tj{{id: 1, cpus: 4, run: 1000}}
	for i := int64(1); i <= 20; i++ {
		busy = append(busy, tj{id: 1 + i, submit: 10 * i, cpus: 4, run: 10})
	}
	for _, tc := range []struct {
		name     string
		jobs     []tj
		duration int64
		want     []int64
	}{
		// Cycles of 0 s: 30, 60, 90, 120 (a change in every interval).
		{"instant cycles", busy, 0, []int64{30, 60, 90, 120}},
		// Cycles of 7 s: 30 (ends 37), 37+30 = 67 (ends 74), 104, 141.
		{"7 s cycles", busy, 7, []int64{30, 67, 104, 141}},
		// Nothing changes after the pass at 30 until job 3's submit at
		// 100: the agent waits and runs at its next poll, 101.
		{"idle until a change", []tj{{id: 1, cpus: 4, run: 1000}, {id: 2, cpus: 4, run: 10}, {id: 3, submit: 100, cpus: 4, run: 10}},
			0, []int64{30, 101}},
	} {
		s := &testSched{trig: &Triggers{SubmitDelay: 0, OnEnd: true, BackfillInterval: 30}, bfDuration: tc.duration}
		simulate(t, oneNode(t), s, nil, tc.jobs, Options{})
		var bf []int64
		for i, k := range s.kinds {
			if k == PassBackfill {
				bf = append(bf, s.passes[i])
			}
		}
		if len(bf) < len(tc.want) || !slices.Equal(bf[:len(tc.want)], tc.want) {
			t.Errorf("%s: backfill passes %v, want %v first", tc.name, bf, tc.want)
		}
	}
}

// TestCompletingTime: an ended job's node stays COMPLETING for
// CompletingTime: its cores are busy until then, and the pass its epilog
// asks for runs then (proc_req.c _slurm_rpc_epilog_complete). Job 1 (4
// cores) runs 0..100; job 2 (4 cores) waits from 10. With 2 s, job 1
// ends at 100 (End), its node is released at 102 and job 2 starts at 102;
// a pass at 101 (job 3's submit) sees job 1 completing until 102.
func TestCompletingTime(t *testing.T) {
	for _, tc := range []struct {
		completing, start2 int64
	}{{0, 100}, {2, 102}} {
		var seen []Holding
		s := &testSched{onEnd: true}
		s.pass = func(v *View, p *Plan, _ PassKind) {
			if v.Now() == 101 {
				seen = v.Completing(nil)
			}
			for _, j := range v.Pending() {
				if !s.tryStart(v, p, j) {
					break
				}
			}
		}
		_, by := simulate(t, oneNode(t), s, nil, []tj{{id: 1, cpus: 4, run: 100}, {id: 2, submit: 10, cpus: 4, run: 10},
			{id: 3, submit: 101, cpus: 4, run: 10}}, Options{CompletingTime: tc.completing})
		if by[1].End != 100 || by[1].Release != 100+tc.completing || by[2].Start != tc.start2 {
			t.Errorf("completing %d: job 1 ends %d, released %d; job 2 starts %d; want 100, %d, %d",
				tc.completing, by[1].End, by[1].Release, by[2].Start, 100+tc.completing, tc.start2)
		}
		if tc.completing > 0 && (len(seen) != 1 || seen[0].Job != by[1] || seen[0].End != 102) {
			t.Errorf("completing %d: the pass at 101 saw %+v completing, want job 1 until 102", tc.completing, seen)
		}
	}
}

// requeuePolicy records Requeued calls (sim.Requeuer).
type requeuePolicy struct {
	recPolicy
	requeued []int64
}

func (p *requeuePolicy) Requeued(j *Job, now int64, _ bool) { p.requeued = append(p.requeued, now) }

// TestRequeueTiming follows job_mgr.c batch_requeue_fini: a requeued job
// is eligible again at now + cred_expire (120) + 1, its submit time is
// now and its age restarts (accrue cleared; the policy is told). Job 1 (4
// cores, 100 s) runs from 0; job 2 (4 cores, 50 s) arrives at 10 and
// preempts it (REQUEUE) at 10, runs 10..60.
func TestRequeueTiming(t *testing.T) {
	for _, tc := range []struct {
		delay, eligible int64
	}{
		{0, 131},   // Slurm's default: 10 + 121
		{51, 61},   // AuthInfo=cred_expire=50: 10 + 51
		{200, 210}, // a longer credential
	} {
		c := oneNode(t)
		pol := &requeuePolicy{recPolicy: recPolicy{c: c}}
		s := &testSched{onEnd: true}
		s.pass = func(x *View, p *Plan, _ PassKind) {
			for _, j := range append([]*Job(nil), x.Pending()...) {
				if j.ID == 2 {
					for _, r := range append([]*Job(nil), x.Running()...) {
						p.Preempt(r, true)
					}
				}
			}
			for _, j := range append([]*Job(nil), x.Pending()...) {
				if j.ID == 2 || len(x.Running()) == 0 {
					s.tryStart(x, p, j)
				}
			}
		}
		_, by := simulate(t, c, s, pol, []tj{{id: 1, cpus: 4, run: 100}, {id: 2, submit: 10, cpus: 4, run: 50}},
			Options{RequeueDelay: tc.delay})
		j1 := by[1]
		// Job 2 ends at 60: job 1 restarts when eligible, or at 60 if
		// that is later.
		start := max(tc.eligible, 60)
		if j1.Submit != 10 || j1.EligibleTime != tc.eligible || j1.Start != start || !slices.Equal(pol.requeued, []int64{10}) {
			t.Errorf("delay %d: job 1 submit %d eligible %d start %d requeued %v; want 10, %d, %d, [10]",
				tc.delay, j1.Submit, j1.EligibleTime, j1.Start, pol.requeued, tc.eligible, start)
		}
	}
}

// TestBackgroundLoopDelay: a controller up 6 s at the first submission
// (1000), batch_sched_delay 3, bf_interval 3, as the main reference run 1
// was. The backfill agent's idle cycle at 997 makes its next come at
// 1000. With the background loop's clocks at the start, the registration
// pass at 997 lets the submission's main pass run at 1000 too, before the
// cycle; with them a second later (the loop's phase, as slurmctld's log
// showed), that pass is at 998 and the submission would wait for 1001:
// the backfill cycle at 1000 starts the job, and no main pass runs.
func TestBackgroundLoopDelay(t *testing.T) {
	for _, tc := range []struct {
		delay     int64
		firstKind PassKind
		firstMain int64
	}{{0, PassEvent, 1000}, {1, PassBackfill, -1}} {
		s := &testSched{trig: &Triggers{SubmitDelay: 3, Interval: 60, BackfillInterval: 3}}
		simulate(t, oneNode(t), s, nil, []tj{{id: 1, submit: 1000, cpus: 1, run: 20}},
			Options{ControllerUptime: 6, LoopDelay: tc.delay})
		main := int64(-1)
		for i, k := range s.kinds {
			if k != PassBackfill && main < 0 {
				main = s.passes[i]
			}
		}
		if len(s.kinds) == 0 || s.passes[0] != 1000 || s.kinds[0] != tc.firstKind || main != tc.firstMain {
			t.Errorf("loop delay %d: passes %v kinds %v, want the first at 1000 of kind %v and the first main pass at %d",
				tc.delay, s.passes, s.kinds, tc.firstKind, tc.firstMain)
		}
	}
}
