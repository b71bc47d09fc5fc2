package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTimelineReplay: with a Timeline the passes run at the logged
// instants only (no pass at a submit or an end), and the events of one
// second follow their milliseconds: a pass sees the submissions and ends
// logged before it in its second, not those after. One 4-core node; job 1
// (4 cores, 10 s) submitted at 0.100, job 2 (1 core) at 0.800.
func TestTimelineReplay(t *testing.T) {
	passes := []TimedPass{{T: 0, Ms: 500}, {T: 0, Ms: 900, Backfill: true}, {T: 10, Ms: 300}, {T: 12, Backfill: true}}
	for _, tc := range []struct {
		name   string
		passes []TimedPass
		end1   int16 // job 1's end as logged, milliseconds from second 10
		epilog int32 // its epilog latency (ms; -1: not logged)
		start2 int64
		at     []int64
		kinds  []PassKind
	}{
		// The main pass at 0.500 sees job 1 only and starts it; job 1 ends
		// at 10.200, before the pass at 10.300, which starts job 2 (the
		// cycle at 12 has no job to see).
		{"end before the pass", passes, 200, -1, 10, []int64{0, 0, 10}, []PassKind{PassEvent, PassBackfill, PassEvent}},
		// Its epilog completes 300 ms after its end, at 10.500: the pass
		// at 10.300 still finds its node COMPLETING.
		{"epilog after the pass", passes, 200, 300, 12, []int64{0, 0, 10, 12}, []PassKind{PassEvent, PassBackfill, PassEvent, PassBackfill}},
		// 900 ms: at 11.100, still before the cycle at 12.
		{"epilog into the next second", passes, 200, 900, 12, []int64{0, 0, 10, 12}, []PassKind{PassEvent, PassBackfill, PassEvent, PassBackfill}},
		// Ended at 10.400, after it: the backfill cycle at 12 starts job 2.
		// Logged at 11.000, in the second after sacct's End of 10: the job
		// ended at the end of second 10 (slurmctld takes end_time before
		// it logs "done"), after the pass at 10.300.
		{"logged in the next second", passes, 1000, -1, 12, []int64{0, 0, 10, 12}, []PassKind{PassEvent, PassBackfill, PassEvent, PassBackfill}},
		{"end after the pass", passes, 400, -1, 12, []int64{0, 0, 10, 12}, []PassKind{PassEvent, PassBackfill, PassEvent, PassBackfill}},
		// The log ends at 0.900 with job 2 pending: the timer model takes
		// over, and job 1's end at 10 runs a pass (Triggers.OnEnd).
		{"model after the log", passes[:2], 200, -1, 10, []int64{0, 0, 10}, []PassKind{PassEvent, PassBackfill, PassEvent}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := &Timeline{Passes: tc.passes, SubmitMs: map[int64]int16{1: 100, 2: 800}, EndAt: map[int64]int64{1: 10000 + int64(tc.end1)}}
			if tc.epilog >= 0 {
				tl.EpilogMs = map[int64]int32{1: tc.epilog}
			}
			s := &testSched{trig: &Triggers{SubmitDelay: 0, OnEnd: true}}
			_, by := simulate(t, oneNode(t), s, nil, []tj{{id: 1, cpus: 4, run: 10}, {id: 2, cpus: 1, run: 5}}, Options{Timeline: tl})
			if by[1].Start != 0 || by[2].Start != tc.start2 {
				t.Errorf("jobs start at %d and %d, want 0 and %d", by[1].Start, by[2].Start, tc.start2)
			}
			if n := len(tc.at); len(s.passes) < n || !slices.Equal(s.passes[:n], tc.at) || !slices.Equal(s.kinds[:n], tc.kinds) {
				t.Errorf("passes %v %v, want %v %v first", s.passes, s.kinds, tc.at, tc.kinds)
			}
		})
	}
}

// TestTimelineSubmitOrder: a pass at 0.500 sees job 1 (0.100) but not
// job 2 (0.800), though both were submitted in its second; without the
// milliseconds both are seen.
func TestTimelineSubmitOrder(t *testing.T) {
	for _, ms := range []int16{800, 300} {
		tl := &Timeline{Passes: []TimedPass{{T: 0, Ms: 500}}, SubmitMs: map[int64]int16{1: 100, 2: ms}}
		var seen []int
		s := &testSched{trig: &Triggers{SubmitDelay: 0, OnEnd: true}}
		s.pass = func(v *View, p *Plan, kind PassKind) {
			seen = append(seen, len(v.Pending()))
			for _, j := range v.Pending() {
				s.tryStart(v, p, j)
			}
		}
		simulate(t, oneNode(t), s, nil, []tj{{id: 1, cpus: 1, run: 10}, {id: 2, cpus: 1, run: 10}}, Options{Timeline: tl})
		want := map[int16]int{800: 1, 300: 2}[ms]
		if len(seen) == 0 || seen[0] != want {
			t.Errorf("job 2 at 0.%03d: the pass at 0.500 saw %v pending, want %d first", ms, seen, want)
		}
	}
}

// TestTimelineCalcPhase: the decay thread ticks at its own millisecond
// (priority_multifactor.c _decay_thread adds PriorityCalcPeriod to its
// start, to the microsecond): a pass at 60.166 comes before the tick of
// second 60 at 60.379, one at 60.500 after it. Without the phase the tick
// comes first in its second.
func TestTimelineCalcPhase(t *testing.T) {
	for _, phase := range []bool{true, false} {
		tl := &Timeline{Passes: []TimedPass{{T: 0, Ms: 500}, {T: 60, Ms: 166}, {T: 60, Ms: 500}}, CalcMs: 379, CalcPhase: phase}
		c := oneNode(t)
		pol := &recPolicy{period: 60, c: c}
		s := &testSched{trig: &Triggers{SubmitDelay: 0, OnEnd: true}}
		s.pass = func(v *View, p *Plan, kind PassKind) {
			pol.log = append(pol.log, fmt.Sprintf("%d pass", v.Now()))
			for _, j := range v.Pending() {
				s.tryStart(v, p, j)
			}
		}
		// A 4-core job holds the node; the 1-core job waits, so every
		// pass has a job to see.
		simulate(t, c, s, pol, []tj{{id: 1, cpus: 4, run: 100}, {id: 2, cpus: 1, run: 10}}, Options{Timeline: tl})
		var at60 []string
		for _, l := range pol.log {
			if strings.HasPrefix(l, "60 ") {
				at60 = append(at60, strings.Fields(l)[1])
			}
		}
		want := []string{"pass", "tick", "pass"}
		if !phase {
			want = []string{"tick", "pass", "pass"}
		}
		if !slices.Equal(at60, want) {
			t.Errorf("phase %v: second 60 runs %v, want %v (log %v)", phase, at60, want, pol.log)
		}
	}
}

// TestTimelineNodeRelease: a multi-node job's nodes leave COMPLETING one
// by one, as the controller's log says (node_mgr.c make_node_idle): job 1
// (-N 3 on three 4-core nodes) ends at 10.000, n2 answers at 10.100 and
// the others at 10.500. The main pass at 10.300 places job 2 (one node)
// on n2; job 3 (-N 2) waits for the other two, free at 10.500, and starts
// at the cycle at 12. With the job's nodes all freed at its last answer,
// job 2 waits for 12 as well. Job 1's record keeps its three nodes.
func TestTimelineNodeRelease(t *testing.T) {
	for _, early := range []bool{true, false} {
		c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1", "n2", "n3")})
		tl := &Timeline{
			Passes:   []TimedPass{{T: 0, Ms: 500}, {T: 10, Ms: 300}, {T: 12, Backfill: true}},
			SubmitMs: map[int64]int16{1: 100, 2: 800, 3: 900},
			EndAt:    map[int64]int64{1: 10000},
			EpilogMs: map[int64]int32{1: 500},
		}
		if early {
			tl.NodeEpilogMs = map[int64]map[string]int32{1: {"n2": 100}}
		}
		s := &testSched{trig: &Triggers{SubmitDelay: 0, OnEnd: true}}
		_, by := simulate(t, c, s, nil, []tj{{id: 1, cpus: 12, nodes: 3, run: 10}, {id: 2, cpus: 4, run: 5}, {id: 3, cpus: 8, nodes: 2, run: 5}}, Options{Timeline: tl})
		want2 := map[bool]int64{true: 10, false: 12}[early]
		if by[2].Start != want2 || by[3].Start != 12 {
			t.Errorf("early %v: jobs 2 and 3 start at %d and %d, want %d and 12", early, by[2].Start, by[3].Start, want2)
		}
		if early && allocString(c, by[2].Alloc) != "n2:4/4000" {
			t.Errorf("job 2 on %s, want n2:4/4000", allocString(c, by[2].Alloc))
		}
		if got := allocString(c, by[1].Alloc); got != "n1:4/4000 n2:4/4000 n3:4/4000" {
			t.Errorf("early %v: job 1's record on %s, want all three nodes", early, got)
		}
	}
}
