package workflow

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"fairsim/config"
	"fairsim/sim"
)

// The schedule of testdata/tiny.yaml, worked out by hand (one 8-core
// node; batch_sched_delay=3, bf_interval=30, PriorityCalcPeriod=5 min,
// bf_resolution=60, PriorityMaxAge=7-0; the controller starts at the
// first submit; an ended job's node is COMPLETING for 1 s, the slurm
// scheduler's default sim.completing_seconds):
//
//	job 1  6 cores, submit 0:  main pass at 3 (batch_sched_delay after
//	       the controller's start) starts it; runs to 3603, node
//	       released at 3604.
//	job 2  8 cores, submit 10: the last queued pass was at 3, 7 s ago, so
//	       the pass runs at 10 (controller.c _slurmctld_background; it
//	       used to run at 13) -> Reason=Resources; starts at 3604 when
//	       job 1's node is released (main, event pass); runs 600 s to
//	       4204, released at 4205.
//	job 3  2 cores, limit 30 min, submit 20: the main pass stops at job 2,
//	       the backfill pass at 30 starts it (ends by 30+1800 < 3603).
//	job 4  2 cores, limit 2 h, submit 40: would overlap job 2's
//	       reservation. Once job 3 ends (930), backfill (at its next poll,
//	       931) plans job 2 at job 1's expected end 3+3600 = 3603, held on
//	       the 60 s grid as [3600, 7200) (backfill.c rounds both ends
//	       down), and job 4 after it at 7200 (2:00:00). Job 4 starts at
//	       4205 when job 2's node is released, by the main scheduler.
func explainTiny(t *testing.T, id int64) *Story {
	t.Helper()
	sc, err := config.Load("testdata/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	st, err := Explain(sc, id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestExplainLongWait(t *testing.T) {
	st := explainTiny(t, 4)
	j := st.Job
	if j.Start != 4205 || j.StartedBy != sim.ByMain {
		t.Fatalf("job 4 started at %d by %v, want 4205 by main", j.Start, j.StartedBy)
	}
	if len(st.Ticks) < 13 {
		t.Fatalf("%d ticks, want one every 300 s from 300 to 4200", len(st.Ticks))
	}
	first, last := st.Ticks[0], st.Ticks[len(st.Ticks)-1]
	if first.T != 300 || first.Rank != 2 || first.Pending != 2 {
		t.Errorf("first tick %+v, want t=300 rank 2 of 2 (behind job 2)", first)
	}
	if last.T != 4200 || last.Rank != 1 || last.Pending != 1 {
		t.Errorf("last tick %+v, want t=4200 rank 1 of 1 (job 2 running)", last)
	}
	// Age at 300: 10,000,000 x (300-40)/604800.
	if want := 1e7 * 260 / 604800; math.Abs(first.Factors.Age-want) > 1e-6 {
		t.Errorf("age factor at 300 = %v, want %v", first.Factors.Age, want)
	}
	for _, k := range st.Ticks {
		if k.Priority != uint32(k.Factors.Sum()) {
			t.Errorf("tick %d: priority %d, factors sum to %v", k.T, k.Priority, k.Factors.Sum())
		}
	}
	var bf *Pass
	for i := range st.Passes {
		if st.Passes[i].Kind == sim.PassBackfill && st.Passes[i].Expect >= 0 {
			bf = &st.Passes[i]
			break
		}
	}
	if bf == nil || bf.T != 931 || bf.Expect != 7200 {
		t.Errorf("first reservation %+v, want at 931 for 7200", bf)
	}
	if p := st.Passes[len(st.Passes)-1]; !p.Start || p.T != 4205 || p.Kind == sim.PassBackfill {
		t.Errorf("last pass %+v, want its start at 4205 by a main pass", p)
	}
	if len(st.Ahead) != 1 || st.Ahead[0].Job.ID != 2 || !st.Ahead[0].Higher {
		t.Errorf("jobs ahead: %+v, want job 2, of higher priority", st.Ahead)
	}
	var b bytes.Buffer
	st.Write(&b, 10)
	for _, want := range []string{
		"Job 4: user u1, account g1, partition batch",
		"started    0-01:10:05  by the main scheduler, after waiting 01:09:25",
		"allocated  n1  AllocTRES billing=2,cpu=2,mem=8G,node=1\n",
		"Its rank in batch's queue went from 2 of 2 pending at 0-00:05:00 to 1 of 1 at 0-01:10:00.",
		"backfill pass: reservation at 0-02:00:00",
		"1 job started on its partition's nodes while it waited: 1 job ahead of it in priority",
		"main: higher priority",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("story lacks %q:\n%s", want, b.String())
		}
	}
}

func TestExplainBackfilled(t *testing.T) {
	st := explainTiny(t, 3)
	if j := st.Job; j.Start != 30 || j.StartedBy != sim.ByBackfill {
		t.Fatalf("job 3 started at %d by %v, want 30 by backfill", j.Start, j.StartedBy)
	}
	if len(st.Passes) != 1 || !st.Passes[0].Start || st.Passes[0].Kind != sim.PassBackfill {
		t.Errorf("passes %+v, want only its start by the backfill pass", st.Passes)
	}
	var b bytes.Buffer
	st.Write(&b, 10)
	for _, want := range []string{"by the backfill scheduler, after waiting 00:00:10", "It was started by backfill"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("story lacks %q:\n%s", want, b.String())
		}
	}

	// Job 2 waited for job 1's CPUs: Resources from the pass at 10, the
	// second of its submit, to its start at 3604, None for no time; job
	// 3 was backfilled past it with lower priority.
	st = explainTiny(t, 2)
	rt := st.reasonTime()
	if rt["Resources"] != 3594 || rt["None"] != 0 {
		t.Errorf("job 2's reasons %v, want Resources 3594 s, None 0 s", rt)
	}
	if len(st.Ahead) != 1 || st.Ahead[0].Job.ID != 3 || st.Ahead[0].Higher || st.Ahead[0].Job.StartedBy != sim.ByBackfill {
		t.Errorf("jobs ahead of job 2: %+v, want job 3, lower priority, backfilled", st.Ahead)
	}
	if st.Passes[1].Expect != 3603 {
		t.Errorf("job 2's reservation %+v, want 3603 (job 1's start + limit)", st.Passes[1])
	}
}

func TestExplainUnknownJob(t *testing.T) {
	sc, _ := config.Load("testdata/tiny.yaml")
	sc.Resolve()
	if _, err := Explain(sc, 99); err == nil || !strings.Contains(err.Error(), "job 99 is not in the scenario's workload") {
		t.Errorf("unknown job: %v", err)
	}
}

func TestLoadRunScenario(t *testing.T) {
	sc, _ := config.Load("testdata/tiny.yaml")
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, _, err := (Pipeline{}).Run(sc, dir); err != nil {
		t.Fatal(err)
	}
	// The resolved file names tiny.swf relative to testdata/, which the
	// run directory does not record.
	if _, err := LoadRunScenario(dir, []string{dir}); err == nil || !strings.Contains(err.Error(), "field trace.file") {
		t.Errorf("without the scenario folder: %v", err)
	}
	again, err := LoadRunScenario(dir, []string{dir, "testdata"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Explain(again, 4)
	if err != nil {
		t.Fatal(err)
	}
	if w := CheckReplay(dir, st); w != "" {
		t.Errorf("the re-run differs from the run: %s", w)
	}
	st.Job.Start++ // as if the code had changed since
	if w := CheckReplay(dir, st); !strings.Contains(w, "jobs.csv says job 4 ran 4205..4805") {
		t.Errorf("a changed schedule went unnoticed: %q", w)
	}
}

// nopPolicy lets tracePolicy's Tick be driven by hand.
type nopPolicy struct{ sim.Policy }

func (nopPolicy) Tick(int64, []*sim.Job, []*sim.Job) {}

// A multi-partition job is in the target's partition's queue with its
// priority there, as build_job_queue (job_scheduler.c) queues it: two jobs
// whose own priority is below the target's but which rank above it in
// "lo" come first, and one whose own priority is above it but which ranks
// below it in "lo" comes after. Counting by the jobs' own priority (or
// only the jobs whose first partition is "lo") would give another rank.
func TestExplainRankUsesPartitionPriority(t *testing.T) {
	c := &sim.Cluster{Parts: []sim.Partition{{Name: "hi", PriorityTier: 1}, {Name: "lo", PriorityTier: 1}}}
	job := func(idx int, part int, parts []int, prio uint32, partPrio []uint32) *sim.Job {
		j := &sim.Job{Idx: idx, Part: part, Parts: parts, Priority: prio, PartPrio: partPrio, State: sim.Pending}
		j.ID, j.Submit = int64(idx+1), int64(10*idx)
		return j
	}
	target := job(0, 1, []int{1}, 100, []uint32{100})
	pending := []*sim.Job{
		target,
		job(1, 0, []int{0, 1}, 500, []uint32{500, 50}), // behind it in lo
		job(2, 0, []int{0, 1}, 50, []uint32{50, 500}),  // ahead of it in lo
		job(3, 0, []int{0, 1}, 60, []uint32{60, 400}),  // ahead of it in lo
		job(4, 0, []int{0}, 900, []uint32{900}),        // not in lo
	}
	st := &Story{ID: target.ID, Job: target, account: -1}
	p := &tracePolicy{Policy: nopPolicy{}, st: st, cluster: c}
	p.Tick(300, nil, pending)
	if len(st.Ticks) != 1 {
		t.Fatalf("%d ticks recorded, want 1", len(st.Ticks))
	}
	if k := st.Ticks[0]; k.Rank != 3 || k.Pending != 4 {
		t.Errorf("rank %d of %d, want 3 of 4 (two jobs ahead of it by their priority in lo)", k.Rank, k.Pending)
	}
}

// TestExplainEASYBackfill: under EASY the backfill happens inside the
// scheduler's event-triggered pass, so the story's pass list must say
// the job was backfilled there, not "started by the main scheduler",
// which the timeline line ("by the backfill scheduler") contradicted.
func TestExplainEASYBackfill(t *testing.T) {
	sc, err := config.Load("testdata/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc.Scheduler = "easy"
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	st, err := Explain(sc, 3)
	if err != nil {
		t.Fatal(err)
	}
	if st.Job.StartedBy != sim.ByBackfill {
		t.Skipf("job 3 was not backfilled under easy (%v)", st.Job.StartedBy)
	}
	var b bytes.Buffer
	st.Write(&b, 10)
	out := b.String()
	if !strings.Contains(out, "by the backfill scheduler") || !strings.Contains(out, "started by backfill within the main scheduler") ||
		strings.Contains(out, "started by the main scheduler") {
		t.Errorf("story contradicts itself on who started job 3:\n%s", out)
	}
}

// TestExplainRequeued: testdata/requeue.yaml, one 8-core node. Job 1
// (low) starts at 3; job 2 (high, PriorityTier 2) arrives at 100 and
// preempts it (partition_prio, REQUEUE): job 1 is submitted anew at 100
// and eligible again 121 s later, at 221; job 3 (low, submitted at 200,
// when the node is free again) holds the node until 300, and job 1
// starts at 301, when the node is released. explain tells of the
// requeue, gives the user's submit beside the new one, and explains the
// wait since 221, 80 s with Reason=Resources, not one that mixes both
// stays in the queue (its Reason shares summed to 610 % in a
// differential run before).
func TestExplainRequeued(t *testing.T) {
	sc, err := config.Load("testdata/requeue.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	st, err := Explain(sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	j := st.Job
	if j.Preemptions != 1 || j.FirstSubmit() != 0 || j.Submit != 100 || j.EligibleTime != 221 || j.Start != 301 {
		t.Fatalf("job 1: preempted %d, submitted %d then %d, eligible %d, started %d; want 1, 0, 100, 221, 301",
			j.Preemptions, j.FirstSubmit(), j.Submit, j.EligibleTime, j.Start)
	}
	var buf bytes.Buffer
	st.Write(&buf, 10)
	out := buf.String()
	for _, want := range []string{
		"submitted  0-00:00:00  (by its user; anew at 0-00:01:40, when it was last requeued)",
		"It was requeued 1 time(s) (preempted, or its node failed) and submitted anew: what follows is its wait since it became eligible again at 0-00:03:41.",
		"squeue would have shown Reason=Resources for 00:01:20 (100%).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
}
