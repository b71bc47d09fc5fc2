package sim

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fairsim/workload"
)

// speedCluster: one 4-core node of each of three CPU types, Weight making
// the allocation order b1, h1, s1.
//
//	b1  broadwell  speed 1.0
//	h1  nehalem    speed 0.25
//	s1  skylake    speed 1.2
func speedCluster(t *testing.T, ref string, scale, scaleLimit bool) *Cluster {
	c := newTestCluster(t, ref, scale, []NodeSpec{
		nodeGroup("broadwell", 4, 4000, 1, "b1"),
		nodeGroup("nehalem", 4, 4000, 2, "h1"),
		nodeGroup("skylake", 4, 4000, 3, "s1"),
	})
	c.ScaleLimit = scaleLimit
	return c
}

// TestRuntimeScaling: a job's runtime is its trace runtime times the
// reference speed over the speed of the slowest node it runs on (rounded
// up); its limit scales the same way only with ScaleLimit, and a job
// whose runtime passes its limit is killed there (TIMEOUT).
func TestRuntimeScaling(t *testing.T) {
	for _, tc := range []struct {
		name              string
		ref               string
		scale, scaleLimit bool
		job               tj
		end, limit        int64
		state             JobState
		typ               string
	}{
		// 4 CPUs, idle: b1, h1 and s1 tie at 4 free; b1 is first.
		{"broadwell", "broadwell", true, true, tj{cpus: 4, run: 100, limit: 1000}, 100, 1000, Completed, "broadwell"},
		// 100 x 1.0/0.25 = 400; limit 1000 x 4 = 4000.
		{"nehalem", "broadwell", true, true, tj{cpus: 4, run: 100, limit: 1000, feature: "nehalem"}, 400, 4000, Completed, "nehalem"},
		// 100 x 1.0/1.2 = 83.3, rounded up to 84; limit 1000/1.2 = 833.3 → 834.
		{"skylake", "broadwell", true, true, tj{cpus: 4, run: 100, limit: 1000, feature: "skylake"}, 84, 834, Completed, "skylake"},
		// 6 CPUs: no node holds them; spread b1 4 + h1 2 (ties at 4 free
		// in allocation order): the slowest node, h1, sets 400.
		{"spread on the slowest", "broadwell", true, true, tj{cpus: 6, run: 100, limit: 1000}, 400, 4000, Completed, "nehalem"},
		// Limit 200 unscaled: 400 s of work killed at 200.
		{"limit not scaled", "broadwell", true, false, tj{cpus: 4, run: 100, limit: 200, feature: "nehalem"}, 200, 200, Timeout, "nehalem"},
		// Scaled, 800 > 400: completes.
		{"limit scaled", "broadwell", true, true, tj{cpus: 4, run: 100, limit: 200, feature: "nehalem"}, 400, 800, Completed, "nehalem"},
		// Measured on Skylake: 100 x 1.2/1.0 = 120 on Broadwell, and the
		// limit 100 → 120: a runtime equal to the limit completes.
		{"reference skylake", "skylake", true, true, tj{cpus: 4, run: 100, limit: 100}, 120, 120, Completed, "broadwell"},
		// Same without ScaleLimit: 120 > 100, killed at 100.
		{"reference skylake, limit kept", "skylake", true, false, tj{cpus: 4, run: 100, limit: 100}, 100, 100, Timeout, "broadwell"},
		// No scaling: wall-clock time as in the trace on any node.
		{"no scaling", "broadwell", false, true, tj{cpus: 4, run: 100, limit: 1000, feature: "nehalem"}, 100, 1000, Completed, "nehalem"},
		// A trace that says the job failed still times out at its limit.
		{"timeout beats failed", "broadwell", false, false, tj{cpus: 1, run: 300, limit: 200, status: "failed"}, 200, 200, Timeout, "broadwell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := speedCluster(t, tc.ref, tc.scale, tc.scaleLimit)
			tc.job.id = 1
			_, by := simulate(t, c, &testSched{}, nil, []tj{tc.job}, Options{})
			j := by[1]
			if j.Start != 0 || j.End != tc.end || j.Limit != tc.limit || j.State != tc.state || c.Types[j.NodeType].Name != tc.typ {
				t.Errorf("start %d end %d limit %d %s on %s; want 0 %d %d %s on %s",
					j.Start, j.End, j.Limit, j.State, c.Types[j.NodeType].Name, tc.end, tc.limit, tc.state, tc.typ)
			}
		})
	}
}

// TestFinalStates: the trace's status decides how a job that ran to its
// end finishes: 1 or unknown COMPLETED, 0 FAILED, 5 CANCELLED.
func TestFinalStates(t *testing.T) {
	c := speedCluster(t, "broadwell", false, false)
	_, by := simulate(t, c, &testSched{greedy: true}, nil, []tj{
		{id: 1, cpus: 1, run: 10, limit: 60},
		{id: 2, cpus: 1, run: 10, limit: 60, status: "failed"},
		{id: 3, cpus: 1, run: 10, limit: 60, status: "cancelled"},
		{id: 4, cpus: 1, run: 10, limit: 60, status: "unknown"},
	}, Options{})
	want := map[int64]JobState{1: Completed, 2: Failed, 3: Cancelled, 4: Completed}
	for id, st := range want {
		if j := by[id]; j.State != st || j.End != 10 {
			t.Errorf("job %d: %s at %d, want %s at 10", id, j.State, j.End, st)
		}
	}
}

// TestCancelledPending: a job the trace says was cancelled while it
// waited leaves the queue at Submit+Wait without running; one that the
// simulated schedule starts sooner runs its course.
//
// One 4-core node.
//
//	t=0    job 1 (4 CPUs, 1000 s) starts
//	t=10   job 2 (4 CPUs) queued; the trace says it left after 50 s
//	t=20   job 3 (4 CPUs, 100 s) queued behind job 2 (FIFO)
//	t=60   job 2 leaves: CANCELLED, never started
//	t=1000 job 1 ends; job 3 starts, ends at 1100
//	t=2000 job 4 arrives on the idle node and starts: its trace
//	       cancellation at 2000+50 is moot; it runs 100 s to 2100
func TestCancelledPending(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
	r, by := simulate(t, c, &testSched{onEnd: true}, nil, []tj{
		{id: 1, submit: 0, cpus: 4, run: 1000, limit: 2000},
		{id: 2, submit: 10, cpus: 4, run: 0, limit: 2000, cancelAfter: 50, status: "cancelled"},
		{id: 3, submit: 20, cpus: 4, run: 100, limit: 2000},
		{id: 4, submit: 2000, cpus: 4, run: 100, limit: 2000, cancelAfter: 50},
	}, Options{})
	j2 := by[2]
	if j2.State != Cancelled || j2.Start != -1 || j2.End != 60 || j2.Reason != "cancelled while pending (trace)" {
		t.Errorf("job 2: %s start %d end %d %q; want CANCELLED -1 60", j2.State, j2.Start, j2.End, j2.Reason)
	}
	if j3 := by[3]; j3.Start != 1000 || j3.End != 1100 {
		t.Errorf("job 3: start %d end %d, want 1000 1100", j3.Start, j3.End)
	}
	if j4 := by[4]; j4.State != Completed || j4.Start != 2000 || j4.End != 2100 {
		t.Errorf("job 4: %s start %d end %d, want COMPLETED 2000 2100", j4.State, j4.Start, j4.End)
	}
	if len(r.Pending) != 0 {
		t.Errorf("%d jobs left pending", len(r.Pending))
	}
}

// TestRejections: a job over its partition's MaxTime, or bigger than the
// partition, is refused at submit and counted by reason; the others run.
func TestRejections(t *testing.T) {
	mk := func(t *testing.T) *Cluster {
		p := partSpec("p")
		p.MaxTime = 3600
		return newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")}, p)
	}
	jobs := []tj{
		{id: 1, submit: 0, cpus: 1, run: 10, limit: 3600},
		{id: 2, submit: 5, cpus: 1, run: 10, limit: 7200, line: 11},
		{id: 7, submit: 6, cpus: 8, run: 10, limit: 60, line: 12},
		{id: 8, submit: 7, cpus: 1, run: 10, limit: 60, mem: 5000, line: 13},
	}
	r, by := simulate(t, mk(t), &testSched{greedy: true}, nil, jobs, Options{})
	for _, w := range []struct {
		id     int64
		reason string
	}{
		{2, "time limit 7200s over MaxTime 3600s of p"},
		{7, "8 CPUs asked, partition p can give at most 4"},
		{8, "no node in p can hold a CPU with the memory asked"},
	} {
		j := by[w.id]
		if j.State != Rejected || j.Reason != w.reason || j.Start != -1 || j.End != j.Submit {
			t.Errorf("job %d: %s %q start %d end %d; want REJECTED %q -1 %d", w.id, j.State, j.Reason, j.Start, j.End, w.reason, j.Submit)
		}
	}
	if by[1].State != Completed {
		t.Errorf("job 1: %s, want COMPLETED", by[1].State)
	}
	want := workload.Tally{"time limit over partition MaxTime": 1, "bigger than its partition": 2}
	if !maps.Equal(r.Rejected, want) {
		t.Errorf("rejected %v, want %v", r.Rejected, want)
	}

	// FailImpossible: the first impossible job is an error naming the
	// file, its line and the job.
	for _, tc := range []struct {
		jobs []tj
		want string
	}{
		{jobs[:2], "trace.swf:11: job 2: time limit 7200s over MaxTime 3600s of p"},
		{[]tj{jobs[0], jobs[2], jobs[3]}, "trace.swf:12: job 7: 8 CPUs asked, partition p can give at most 4"},
	} {
		_, err := simulateErr(mk(t), &testSched{}, nil, tc.jobs, Options{FailImpossible: true, File: "trace.swf"})
		var we *workload.Error
		if err == nil || !errors.As(err, &we) || err.Error() != tc.want {
			t.Errorf("FailImpossible: error %v, want %q", err, tc.want)
		}
	}
}

// TestSpanBounds: times a run cannot span (workload.MaxSpan, 100 years).
// A job that would run, wait for its begin time or think after its
// predecessor longer is impossible: rejected and counted, the others run
// and the run ends in its own century. A submission further from the
// first is a corrupt trace: an error naming the line.
func TestSpanBounds(t *testing.T) {
	mk := func(t *testing.T) *Cluster {
		return newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")}, partSpec("p"))
	}
	const span = workload.MaxSpan
	jobs := []tj{
		{id: 1, submit: 0, cpus: 1, run: 10},
		{id: 2, submit: 5, cpus: 1, run: span + 1},
		{id: 3, submit: 6, cpus: 1, run: 10, eligible: 6 + span + 1},
		{id: 4, submit: 7, cpus: 1, run: 10, pre: 1, think: span + 1},
		{id: 5, submit: 8, cpus: 1, run: span, limit: span},
		{id: 6, submit: 9, cpus: 1, run: 10, eligible: 9 + span},
		// A chain of think times, each within the span: 7 ends 21 s
		// before the bound, 8 is released 20 s after it (1 s within the
		// span) and ends 9 s past it, 9 would be released 20 s after
		// that (impossible), and 10, released as 9 leaves, is past the
		// span too.
		{id: 7, submit: 10, cpus: 1, run: 10, eligible: span - 31},
		{id: 8, submit: 11, cpus: 1, run: 10, pre: 7, think: 20},
		{id: 9, submit: 12, cpus: 1, run: 10, pre: 8, think: 20},
		{id: 10, submit: 13, cpus: 1, run: 10, pre: 9},
		// Submitted after job 1 ended (at 10): released span+5.
		{id: 11, submit: 20, cpus: 1, run: 10, pre: 1, think: span - 5},
	}
	// One sample a year: hourly ones over the century job 5 runs would
	// cost the test seconds.
	r, by := simulate(t, mk(t), &testSched{greedy: true}, nil, jobs, Options{SampleInterval: 365 * 86400})
	for id, reason := range map[int64]string{
		2:  "run time 3155760001 s (100 years) over the 100 years a run may span",
		3:  "begin time 3155760001 s (100 years) after submit, over the 100 years a run may span",
		4:  "think time 3155760001 s (100 years) over the 100 years a run may span",
		9:  "released after the job it depends on 3155760029 s (100 years) after the first submission, over the 100 years a run may span",
		10: "released after the job it depends on 3155760009 s (100 years) after the first submission, over the 100 years a run may span",
		11: "released after the job it depends on 3155760005 s (100 years) after the first submission, over the 100 years a run may span",
	} {
		if j := by[id]; j.State != Rejected || j.Reason != reason {
			t.Errorf("job %d: %s %q; want REJECTED %q", id, j.State, j.Reason, reason)
		}
	}
	// At the bound itself a job still runs.
	if j := by[5]; j.State != Completed || j.End != 8+span {
		t.Errorf("job 5 (run time of exactly 100 years): %s ends %d; want COMPLETED at %d", j.State, j.End, 8+span)
	}
	if j := by[6]; j.State != Completed || j.Start != 9+span {
		t.Errorf("job 6 (begin exactly 100 years after submit): %s starts %d; want COMPLETED from %d", j.State, j.Start, 9+span)
	}
	if j := by[8]; j.State != Completed || j.Start != span-21+20 {
		t.Errorf("job 8 (released 1 s within the span): %s starts %d; want COMPLETED from %d", j.State, j.Start, span-1)
	}
	want := workload.Tally{"run time over 100 years": 1, "begin time over 100 years after submit": 1, "think time over 100 years": 1,
		"released over 100 years after the first submission": 3}
	if !maps.Equal(r.Rejected, want) {
		t.Errorf("rejected %v, want %v", r.Rejected, want)
	}

	late := []tj{{id: 1, submit: 100, cpus: 1, run: 10}, {id: 2, submit: 100 + span + 1, cpus: 1, run: 10, line: 9}}
	_, err := simulateErr(mk(t), &testSched{}, nil, late, Options{File: "trace.swf"})
	const msg = "trace.swf:9: submit time: job 2 is submitted 3155760001 s after the first job (100 years): more than the 3155760000 s (100 years) a run may span"
	if err == nil || err.Error() != msg {
		t.Errorf("a submission 100 years and 1 s after the first: error %v, want %q", err, msg)
	}
	late[1].submit--
	if _, err := simulateErr(mk(t), &testSched{}, nil, late, Options{File: "trace.swf", SampleInterval: 365 * 86400}); err != nil {
		t.Errorf("a submission exactly 100 years after the first: %v", err)
	}
}

// TestPartitionMapping: a job goes to the partition it names; one naming
// a partition the cluster lacks, or none, goes to the default partition
// (the one marked Default, else the first).
func TestPartitionMapping(t *testing.T) {
	nodes := []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1"), nodeGroup("broadwell", 4, 4000, 1, "n2")}
	jobs := []tj{
		{id: 1, cpus: 1, run: 10, limit: 60, part: "a"},
		{id: 2, cpus: 1, run: 10, limit: 60, part: "gpu"},
		{id: 3, cpus: 1, run: 10, limit: 60},
	}
	for _, tc := range []struct {
		name string
		def  bool   // mark b Default
		want string // partition of jobs 2 and 3
	}{{"marked default", true, "b"}, {"first partition", false, "a"}} {
		t.Run(tc.name, func(t *testing.T) {
			b := partSpec("b", "n2")
			b.Default = tc.def
			c := newTestCluster(t, "broadwell", false, nodes, partSpec("a", "n1"), b)
			r, by := simulate(t, c, &testSched{greedy: true}, nil, jobs, Options{})
			node := map[string]string{"a": "n1", "b": "n2"}
			for id, want := range map[int64]string{1: "a", 2: tc.want, 3: tc.want} {
				j := by[id]
				if got := c.Parts[j.Part].Name; got != want || c.Nodes[j.Alloc[0].Node].Name != node[want] {
					t.Errorf("job %d in %s on %s, want %s on %s", id, got, c.Nodes[j.Alloc[0].Node].Name, want, node[want])
				}
			}
			if got := r.Defaulted["partition not in the cluster: default partition used"]; got != 1 {
				t.Errorf("defaulted partitions: %d, want 1 (job 2)", got)
			}
		})
	}
}

// TestMissingTimeLimit: a job with no limit gets its partition's
// DefaultTime; else its runtime (missing_time_limit runtime, the default)
// or the partition's MaxTime (maxtime), UNLIMITED when there is none.
func TestMissingTimeLimit(t *testing.T) {
	for _, tc := range []struct {
		name         string
		maxT, defT   int64
		policy       string
		run          int64
		limit, end   int64
		state        JobState
		tallied      string
		runErrSubstr string
	}{
		// DefaultTime 600 < 1000 s of work: killed at 600.
		{"DefaultTime", 3600, 600, "runtime", 1000, 600, 600, Timeout, "time limit from partition DefaultTime", ""},
		{"runtime", 3600, Unlimited, "runtime", 1000, 1000, 1000, Completed, "time limit from actual run time", ""},
		{"MaxTime by default, as slurmctld", 3600, Unlimited, "", 1000, 3600, 1000, Completed, "time limit from partition MaxTime", ""},
		{"slurm", 7200, Unlimited, "slurm", 1000, 7200, 1000, Completed, "time limit from partition MaxTime", ""},
		// A zero runtime still gets a limit of 1 s (0 would mean UNLIMITED).
		{"zero runtime", 3600, Unlimited, "runtime", 0, 1, 0, Completed, "time limit from actual run time", ""},
		{"maxtime", 3600, Unlimited, "maxtime", 1000, 3600, 1000, Completed, "time limit from partition MaxTime", ""},
		{"maxtime, none", Unlimited, Unlimited, "maxtime", 1000, 0, 1000, Completed, "time limit UNLIMITED", ""},
		{"bad policy", 3600, Unlimited, "forever", 1000, 0, 0, 0, "", `missing time limit policy "forever": want slurm (DefaultTime, else MaxTime, else unlimited) or runtime`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := partSpec("p")
			p.MaxTime, p.DefaultTime = tc.maxT, tc.defT
			c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")}, p)
			jobs := []tj{{id: 1, cpus: 1, run: tc.run}}
			opt := Options{MissingLimit: tc.policy}
			if tc.runErrSubstr != "" {
				_, err := simulateErr(c, &testSched{}, nil, jobs, opt)
				if err == nil || !strings.Contains(err.Error(), tc.runErrSubstr) {
					t.Errorf("error %v, want %q", err, tc.runErrSubstr)
				}
				return
			}
			r, by := simulate(t, c, &testSched{}, nil, jobs, opt)
			j := by[1]
			if j.TimeLimit != tc.limit || j.Limit != tc.limit || j.End != tc.end || j.State != tc.state {
				t.Errorf("limit %d (in force %d) end %d %s; want %d %d %s", j.TimeLimit, j.Limit, j.End, j.State, tc.limit, tc.end, tc.state)
			}
			if r.Defaulted[tc.tallied] != 1 || len(r.Defaulted) != 1 {
				t.Errorf("defaulted %v, want %q once", r.Defaulted, tc.tallied)
			}
		})
	}
}

// TestDependencies: SWF fields 17 and 18: a job becomes eligible when its
// preceding job has ended plus the think time (at submit if that is
// later); a predecessor not in the trace is ignored. One 8-core node and
// 1-CPU jobs, so every job starts the moment it is eligible.
//
//	job 1  submit 0    runs 0-100
//	job 2  submit 10   after 1 + 30 → 130, runs 130-180
//	job 3  submit 20   after 2 (not yet started) + 0 → 180, runs 180-190
//	job 4  submit 200  after 1 (ended 100) + 20 = 120 < 200 → 200
//	job 5  submit 210  after 1 + 500 → 600
//	job 6  submit 220  after job 99, not in the trace → 220, runs 220-320
//	job 7  submit 230  after 6 → 320
//	job 8  submit 240  begin time 300 → 300
//	job 9  submit 250  20 CPUs: rejected at 250
//	job 10 submit 260  after 9 (rejected at 250) + 40 = 290
func TestDependencies(t *testing.T) {
	jobs := []tj{
		{id: 1, submit: 0, cpus: 1, run: 100},
		{id: 2, submit: 10, cpus: 1, run: 50, pre: 1, think: 30},
		{id: 3, submit: 20, cpus: 1, run: 10, pre: 2},
		{id: 4, submit: 200, cpus: 1, run: 10, pre: 1, think: 20},
		{id: 5, submit: 210, cpus: 1, run: 10, pre: 1, think: 500},
		{id: 6, submit: 220, cpus: 1, run: 100, pre: 99},
		{id: 7, submit: 230, cpus: 1, run: 5, pre: 6},
		{id: 8, submit: 240, cpus: 1, run: 5, eligible: 300},
		{id: 9, submit: 250, cpus: 20, run: 5},
		{id: 10, submit: 260, cpus: 1, run: 5, pre: 9, think: 40},
	}
	for _, tc := range []struct {
		ignore bool
		starts map[int64]int64
	}{
		{false, map[int64]int64{1: 0, 2: 130, 3: 180, 4: 200, 5: 600, 6: 220, 7: 320, 8: 300, 9: -1, 10: 290}},
		// Without dependencies every job starts at submit (job 8 at its
		// begin time).
		{true, map[int64]int64{1: 0, 2: 10, 3: 20, 4: 200, 5: 210, 6: 220, 7: 230, 8: 300, 9: -1, 10: 260}},
	} {
		c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 8, 8000, 1, "n1")})
		r, by := simulate(t, c, &testSched{greedy: true}, nil, jobs, Options{IgnoreDependencies: tc.ignore})
		for id, want := range tc.starts {
			j := by[id]
			if j.Start != want || (want >= 0 && j.EligibleTime != want) {
				t.Errorf("ignore=%v: job %d eligible %d start %d, want %d", tc.ignore, id, j.EligibleTime, j.Start, want)
			}
		}
		wantIgnored := 1
		if tc.ignore {
			wantIgnored = 0
		}
		if got := r.Defaulted["dependency on a job not in the trace: ignored"]; got != wantIgnored {
			t.Errorf("ignore=%v: %d dependencies ignored, want %d", tc.ignore, got, wantIgnored)
		}
	}
}

// TestStopAt: the run stops after the last event at or before StopAt,
// with jobs as they are then.
//
// One 4-core node, FIFO: job 1 (4 CPUs) runs 0-100; job 2 (4 CPUs,
// submitted at 10) waits for it and runs 100-200; job 3 arrives at 500.
func TestStopAt(t *testing.T) {
	jobs := []tj{
		{id: 1, submit: 0, cpus: 4, run: 100},
		{id: 2, submit: 10, cpus: 4, run: 100},
		{id: 3, submit: 500, cpus: 4, run: 100},
	}
	for _, tc := range []struct {
		stop    int64
		states  map[int64]JobState
		pending []int64
	}{
		{50, map[int64]JobState{1: Running, 2: Pending}, []int64{2}},
		// Events at 100 are in: job 1 ends, job 2 starts.
		{100, map[int64]JobState{1: Completed, 2: Running}, nil},
		{499, map[int64]JobState{1: Completed, 2: Completed}, nil},
	} {
		c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
		r, err := simulateErr(c, &testSched{onEnd: true}, nil, jobs, Options{StopAt: tc.stop})
		if err != nil {
			t.Fatal(err)
		}
		if r.Now != tc.stop {
			t.Errorf("StopAt %d: stopped at %d", tc.stop, r.Now)
		}
		for _, j := range r.Jobs {
			if want, ok := tc.states[j.ID]; ok && j.State != want {
				t.Errorf("StopAt %d: job %d %s, want %s", tc.stop, j.ID, j.State, want)
			}
			if j.ID == 3 && j.State != Pending {
				t.Errorf("StopAt %d: job 3 (submitted at 500) is %s", tc.stop, j.State)
			}
		}
		var pend []int64
		for _, j := range r.Pending {
			pend = append(pend, j.ID)
		}
		if !reflect.DeepEqual(pend, tc.pending) {
			t.Errorf("StopAt %d: pending %v, want %v", tc.stop, pend, tc.pending)
		}
	}
}

// invariantCase is a hand-made run and CheckInvariants' error on it ("":
// none).
type invariantCase struct {
	name string
	jobs func() []*Job
	want string
}

func checkCases(t *testing.T, c *Cluster, cases []invariantCase) {
	t.Helper()
	for _, tc := range cases {
		err := CheckInvariants(&Result{Cluster: c, Jobs: tc.jobs()})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCheckInvariants: the checker accepts a valid schedule (a core freed
// at t reused at t) and names the fault in hand-made broken ones.
func TestCheckInvariants(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1", "n2")},
		partSpec("p", "n1"), partSpec("q", "n2"))
	n1 := node(t, c, "n1")
	n2 := node(t, c, "n2")
	// job builds a record of job id (index id-1) that ran on n1.
	job := func(id int64, start, end int64, cores int, mem int64) *Job {
		return &Job{Job: workload.Job{ID: id, Submit: 0, CPUs: cores}, Idx: int(id - 1), State: Completed,
			Start: start, End: end, Alloc: Alloc{{Node: n1, Cores: cores, MemMB: mem}}}
	}
	checkCases(t, c, []invariantCase{
		{"back to back", func() []*Job { return []*Job{job(1, 0, 100, 4, 4000), job(2, 100, 200, 4, 4000)} }, ""},
		{"cores oversubscribed", func() []*Job { return []*Job{job(1, 0, 100, 4, 1000), job(2, 50, 150, 1, 1000)} },
			"node n1 holds 5 cores and 2000 MB at 50 (it has 4 and 4000), job 2 starting"},
		{"memory oversubscribed", func() []*Job { return []*Job{job(1, 0, 100, 2, 3000), job(2, 99, 150, 2, 2000)} },
			"node n1 holds 4 cores and 5000 MB at 99 (it has 4 and 4000), job 2 starting"},
		{"start before submit", func() []*Job { j := job(1, 0, 100, 1, 0); j.Submit = 10; return []*Job{j} },
			"job 1 starts at 0 before its submit 10 or eligibility 0"},
		{"end before start", func() []*Job { return []*Job{job(1, 100, 50, 1, 0)} }, "job 1 ends at 50 before its start 100"},
		{"over its limit", func() []*Job { j := job(1, 0, 100, 1, 0); j.Limit = 60; return []*Job{j} }, "job 1 ran 100 s, over its limit 60 s"},
		{"still running", func() []*Job { j := job(1, 0, 100, 1, 0); j.State = Running; return []*Job{j} }, "job 1 still running at the end"},
		{"too few cores", func() []*Job { j := job(1, 0, 100, 1, 0); j.CPUs = 2; return []*Job{j} }, "job 1 got 1 cores for 2 asked"},
		{"outside its partition", func() []*Job { j := job(1, 0, 100, 1, 0); j.Alloc[0].Node = n2; return []*Job{j} },
			"job 1 ran on node n2 outside partition p"},
		{"twice", func() []*Job { return []*Job{job(1, 0, 100, 1, 0), job(1, 0, 100, 1, 0)} }, "job 1 appears twice"},
	})
}

// TestHeaderCluster: MaxNodes nodes sharing MaxProcs cores exactly.
// CEA-Curie: 93312 = 5544 x 16 + 4608, so nodes 1..4608 have 17 cores and
// 4609..5544 have 16: 4608 x 17 + 936 x 16 = 78336 + 14976 = 93312.
func TestHeaderCluster(t *testing.T) {
	for _, tc := range []struct {
		nodes, procs int
		total        int
		first, last  int // cores of the first and last node
		boundary     int // index of the first node with one core fewer, -1 when even
		err          string
	}{
		{5544, 93312, 93312, 17, 16, 4608, ""},
		{100, 1600, 1600, 16, 16, -1, ""},
		{3, 7, 7, 3, 2, 1, ""},    // 7 = 3 x 2 + 1: node1 3, node2-3 2
		{0, 64, 64, 1, 1, -1, ""}, // no MaxNodes: one core per node
		{16, 0, 16, 1, 1, -1, ""}, // no MaxProcs: one core per node
		{8, 4, 0, 0, 0, 0, "MaxProcs 4 < MaxNodes 8"},
		{0, 0, 0, 0, 0, 0, "neither MaxNodes nor MaxProcs"},
	} {
		c, err := HeaderCluster(tc.nodes, tc.procs, "broadwell", 1000)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%d/%d: error %v, want %q", tc.procs, tc.nodes, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d/%d: %v", tc.procs, tc.nodes, err)
		}
		sum, mem := 0, int64(0)
		for _, n := range c.Nodes {
			sum += n.Cores
			mem += n.MemMB
		}
		n := len(c.Nodes)
		if c.TotalCores != tc.total || sum != tc.total || mem != int64(tc.total)*1000 {
			t.Errorf("%d/%d: %d cores (%d by node), %d MB; want %d cores, %d MB", tc.procs, tc.nodes, c.TotalCores, sum, mem, tc.total, tc.total*1000)
		}
		if c.Nodes[0].Cores != tc.first || c.Nodes[n-1].Cores != tc.last {
			t.Errorf("%d/%d: first node %d cores, last %d; want %d, %d", tc.procs, tc.nodes, c.Nodes[0].Cores, c.Nodes[n-1].Cores, tc.first, tc.last)
		}
		if tc.boundary > 0 && (c.Nodes[tc.boundary-1].Cores != tc.first || c.Nodes[tc.boundary].Cores != tc.first-1) {
			t.Errorf("%d/%d: nodes %d and %d have %d and %d cores, want %d and %d", tc.procs, tc.nodes, tc.boundary, tc.boundary+1,
				c.Nodes[tc.boundary-1].Cores, c.Nodes[tc.boundary].Cores, tc.first, tc.first-1)
		}
		if len(c.Parts) != 1 || c.Parts[0].Name != "batch" || c.Parts[0].TotalCores != tc.total || !c.Parts[0].Default {
			t.Errorf("%d/%d: partitions %+v, want one default batch of %d cores", tc.procs, tc.nodes, c.Parts, tc.total)
		}
	}
	c, _ := HeaderCluster(5544, 93312, "broadwell", 4096)
	if c.Nodes[0].Name != "node0001" || c.Nodes[4607].Name != "node4608" || c.Nodes[5543].Name != "node5544" {
		t.Errorf("names %s, %s, %s; want node0001, node4608, node5544", c.Nodes[0].Name, c.Nodes[4607].Name, c.Nodes[5543].Name)
	}
	if c.Nodes[4607].MemMB != 17*4096 || c.Nodes[4608].MemMB != 16*4096 {
		t.Errorf("memory of node4608 %d, node4609 %d; want %d, %d", c.Nodes[4607].MemMB, c.Nodes[4608].MemMB, 17*4096, 16*4096)
	}
}

// TestDeterministic: two runs of the same generated workload give
// identical job records and samples.
func TestDeterministic(t *testing.T) {
	g := workload.DefaultGenConfig()
	g.Seed, g.Jobs, g.Days, g.MaxCPUs = 7, 400, 2, 24
	g.Partitions = []string{"a", "b"}
	g.Features, g.FeatureShare = []string{"nehalem", "broadwell"}, 0.3
	g.MemShare = 0.5
	gen, err := workload.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	once := func() (string, *Result) {
		c := newTestCluster(t, "broadwell", true, []NodeSpec{
			nodeGroup("nehalem", 8, 16000, 1, "h1", "h2"),
			nodeGroup("broadwell", 16, 64000, 1, "b1", "b2"),
		}, partSpec("a"), partSpec("b", "b1", "b2"))
		pol := &recPolicy{period: 300, c: c}
		r, err := New(c, &testSched{greedy: true, onEnd: true}, pol, gen.Source(), Options{}).Run()
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckInvariants(r); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, j := range r.Jobs {
			fmt.Fprintf(&b, "%d %s %d %d %d %d %d %v %d %d %s\n", j.ID, j.State, j.Part, j.EligibleTime, j.Start, j.End,
				j.Limit, j.Alloc, j.NodeType, j.AllocRuntime, j.Reason)
		}
		fmt.Fprintf(&b, "%v\n%v %v\n%s", r.Samples, r.Rejected, r.Defaulted, strings.Join(pol.log, "\n"))
		return b.String(), r
	}
	a, r := once()
	b, _ := once()
	if a != b {
		t.Error("two runs of the same workload differ")
	}
	// The comparison means something only if the run had choices to make:
	// waits, multi-node allocations, both CPU types.
	waited, spread, types := 0, 0, map[int]bool{}
	for _, j := range r.Jobs {
		if j.QueueWait() > 0 {
			waited++
		}
		if len(j.Alloc) > 1 {
			spread++
		}
		if j.Start >= 0 {
			types[j.NodeType] = true
		}
	}
	if waited == 0 || spread == 0 || len(types) != 2 {
		t.Errorf("a trivial run: %d waited, %d spread, %d CPU types used", waited, spread, len(types))
	}
}

// WaitReason is the reason a job pended under longest: given Priority at
// 100, QOSMaxJobsPerUserLimit at 130, Priority again at 300 and started at
// 320, it waited 30 + 20 = 50 s on Priority and 170 s on the limit.
func TestWaitReasonLongest(t *testing.T) {
	j := &Job{}
	s := &Simulator{}
	for _, st := range []struct {
		at     int64
		reason string
	}{{100, "Priority"}, {130, "QOSMaxJobsPerUserLimit"}, {200, "QOSMaxJobsPerUserLimit"}, {300, "Priority"}} {
		s.now = st.at
		s.pendReason(j, st.reason)
	}
	s.now = 320
	s.closeReason(j)
	if j.WaitReason != "QOSMaxJobsPerUserLimit" || len(j.waits) != 2 || j.waits[0].secs != 50 || j.waits[1].secs != 170 {
		t.Errorf("WaitReason %q, spans %+v", j.WaitReason, j.waits)
	}
}

// TestCheckInvariantsGresAndSuspension: GPUs are counted like cores and
// memory, and a suspended job's cores are free for another job while its
// memory and GPUs are not (node g1: 4 cores, 4000 MB, 2 GPUs).
func TestCheckInvariantsGresAndSuspension(t *testing.T) {
	g := nodeGroup("broadwell", 4, 4000, 1, "g1")
	g.Gres = []GresCount{{"gpu", "", 2}}
	c := newTestCluster(t, "broadwell", false, []NodeSpec{g}, partSpec("p"))
	n := node(t, c, "g1")
	job := func(id int64, start, end int64, cores int, mem int64, gpus int) *Job {
		j := &Job{Job: workload.Job{ID: id, Submit: 0, CPUs: cores}, Idx: int(id - 1), State: Completed,
			Start: start, End: end, Alloc: Alloc{{Node: n, Cores: cores, MemMB: mem, Gres: GresTake(0).with(0, gpus)}}}
		j.Req.Gres = []GresNeed{{Name: "gpu", PerNode: gpus, Mask: 1}}
		return j
	}
	suspended := func(j *Job, from, to int64) *Job {
		j.susp.spans = append(j.susp.spans, [2]int64{from, to})
		j.SuspendedSecs += to - from
		return j
	}
	checkCases(t, c, []invariantCase{
		{"GPUs back to back", func() []*Job { return []*Job{job(1, 0, 100, 1, 100, 2), job(2, 100, 200, 1, 100, 2)} }, ""},
		{"GPUs oversubscribed", func() []*Job { return []*Job{job(1, 0, 100, 1, 100, 2), job(2, 50, 150, 1, 100, 1)} },
			"node g1 holds 3 GRES gpu at 50 (it has 2), job 2 starting"},
		{"cores of a suspended job", func() []*Job {
			return []*Job{suspended(job(1, 0, 300, 4, 1000, 1), 100, 200), job(2, 100, 200, 4, 1000, 1)}
		}, ""},
		{"memory of a suspended job", func() []*Job {
			return []*Job{suspended(job(1, 0, 300, 4, 3000, 0), 100, 200), job(2, 100, 200, 4, 2000, 0)}
		}, "node g1 holds 4 cores and 5000 MB at 100 (it has 4 and 4000), job 2 starting"},
		{"GPUs of a suspended job", func() []*Job {
			return []*Job{suspended(job(1, 0, 300, 4, 100, 2), 100, 200), job(2, 100, 200, 4, 100, 1)}
		}, "node g1 holds 3 GRES gpu at 100 (it has 2), job 2 starting"},
		{"resumed onto a busy node", func() []*Job {
			return []*Job{suspended(job(1, 0, 300, 4, 1000, 0), 100, 200), job(2, 100, 250, 4, 1000, 0)}
		}, "node g1 holds 8 cores and 2000 MB at 200 (it has 4 and 4000), job 1 starting"},
	})
}

// TestInvariantStream: jobs added as they retire, with watermarks
// between, give CheckInvariants' answer: job 1 (4 cores, 0 to 100)
// retires while job 2 (1 core from 50) runs, so the watermark is 50; job
// 2 then overlaps job 1 on n1's 4 cores. A job starting before a
// watermark already applied is a fault of the order itself.
func TestInvariantStream(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")}, partSpec("p"))
	n1 := node(t, c, "n1")
	job := func(id int64, start, end int64, cores int) *Job {
		return &Job{Job: workload.Job{ID: id, CPUs: cores}, Idx: int(id - 1), State: Completed,
			Start: start, End: end, Alloc: Alloc{{Node: n1, Cores: cores, MemMB: 100}}}
	}
	for _, tc := range []struct {
		name  string
		mark  int64 // the watermark between the two
		cores int   // job 2's
		want  string
	}{
		{"fits", 50, 0, ""},
		{"overlap found after the watermark", 50, 1, "node n1 holds 5 cores and 200 MB at 50 (it has 4 and 4000), job 2 starting"},
		{"start before the watermark", 60, 1, "job 2 starts at 50, before 60, which was checked as final"},
	} {
		v := NewInvariantStream(c)
		v.Add(job(1, 0, 100, 4))
		v.Advance(tc.mark)
		j2 := job(2, 50, 150, tc.cores)
		if tc.cores == 0 {
			j2 = job(2, 100, 150, 1)
		}
		err := v.Close(&Result{Jobs: []*Job{j2}})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want || v.Jobs() != 2 {
			t.Errorf("%s: %q after %d jobs, want %q after 2", tc.name, got, v.Jobs(), tc.want)
		}
	}
}

// TestChurnLeavesOutArrivals: View.Churn stays as it was while jobs only
// join the pending list (a submission that cannot start, a job eligible
// from its begin time) and changes with a start, a cancellation of a
// pending job and an end; Version changes with all of them.
func TestChurnLeavesOutArrivals(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
	type seen struct{ churn, version uint64 }
	at := map[int64]seen{}
	s := &testSched{onEnd: true}
	s.pass = func(v *View, p *Plan, _ PassKind) {
		at[v.Now()] = seen{v.Churn(), v.Version()}
		for _, j := range v.Pending() {
			if !s.tryStart(v, p, j) {
				break
			}
		}
	}
	simulate(t, c, s, nil, []tj{
		{id: 1, submit: 0, cpus: 4, run: 1000, limit: 2000},
		{id: 2, submit: 10, cpus: 4, run: 100, limit: 2000},
		{id: 3, submit: 20, cpus: 4, run: 100, limit: 2000, eligible: 30},
		{id: 4, submit: 40, cpus: 4, run: 0, limit: 2000, cancelAfter: 60, status: "cancelled"},
		{id: 5, submit: 200, cpus: 4, run: 100, limit: 2000},
	}, Options{})
	for _, w := range []struct {
		a, b int64
		same bool
	}{
		{0, 10, false},     // job 1 started at the pass at 0
		{10, 30, true},     // job 3 became eligible: only a join
		{30, 40, true},     // job 4 submitted
		{40, 200, false},   // job 4 cancelled at 100
		{200, 1000, false}, // job 1 ended
	} {
		x, okA := at[w.a]
		y, okB := at[w.b]
		if !okA || !okB {
			t.Fatalf("passes at %v; want ones at %d and %d", slices.Sorted(maps.Keys(at)), w.a, w.b)
		}
		if (x.churn == y.churn) != w.same || x.version == y.version {
			t.Errorf("passes at %d and %d: churn %d and %d (same: want %v), version %d and %d (want changed)",
				w.a, w.b, x.churn, y.churn, w.same, x.version, y.version)
		}
	}
}

// TestChurnMovesWithGraceTime: a preemption with a grace time moves the
// running job's expected end (preempt.c _job_check_grace_internal), so
// the next pass sees a new Churn although only a job joined since.
func TestChurnMovesWithGraceTime(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")})
	churn := map[int64]uint64{}
	s := &testSched{onEnd: true}
	s.pass = func(v *View, p *Plan, _ PassKind) {
		churn[v.Now()] = v.Churn()
		if v.Now() == 10 {
			p.PreemptAfter(v.Running()[0], false, 50)
			return
		}
		for _, j := range v.Pending() {
			if !s.tryStart(v, p, j) {
				break
			}
		}
	}
	_, by := simulate(t, c, s, nil, []tj{
		{id: 1, submit: 0, cpus: 4, run: 1000, limit: 2000},
		{id: 2, submit: 10, cpus: 4, run: 100, limit: 2000},
		{id: 3, submit: 20, cpus: 4, run: 100, limit: 2000},
	}, Options{})
	if by[1].End != 60 {
		t.Fatalf("job 1 ended at %d, want 10 + grace 50 = 60", by[1].End)
	}
	a, okA := churn[10]
	b, okB := churn[20]
	if !okA || !okB || a == b {
		t.Errorf("churn at the passes of 10 and 20: %d (%v) and %d (%v), want two different", a, okA, b, okB)
	}
}

// TestCheckInvariantsOverTime: with the time-limit check (a Result's
// TimeLimitTick) a job may run its partition's OverTime and up to one
// tick past its limit, and without bound when OverTime is unlimited.
func TestCheckInvariantsOverTime(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 4000, 1, "n1")}, partSpec("p", "n1"))
	n1 := node(t, c, "n1")
	for _, tc := range []struct {
		over, ran int64
		tick      int64
		want      string
	}{
		{0, 60, 0, ""},
		{0, 61, 0, "job 1 ran 61 s, over its limit 60 s"},
		{0, 90, 30, ""},
		{0, 91, 30, "job 1 ran 91 s, over its limit 60 s and the 30 s the time-limit check lets it run past it"},
		{120, 210, 30, ""},
		{120, 211, 30, "job 1 ran 211 s, over its limit 60 s and the 150 s the time-limit check lets it run past it"},
		{Unlimited, 100000, 30, ""},
	} {
		c.Parts[0].OverTime = tc.over
		j := &Job{Job: workload.Job{ID: 1, CPUs: 1}, State: Timeout, Start: 0, End: tc.ran, Limit: 60,
			Alloc: Alloc{{Node: n1, Cores: 1}}}
		got := ""
		if err := CheckInvariants(&Result{Cluster: c, Jobs: []*Job{j}, TimeLimitTick: tc.tick}); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("OverTime %d, ran %d, tick %d: %q, want %q", tc.over, tc.ran, tc.tick, got, tc.want)
		}
	}
}
