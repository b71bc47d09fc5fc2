package workflow

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fairsim/internal/shared"
	"fairsim/report"
	"fairsim/sim"
	"fairsim/workload"
)

// TestReuseRecordsAsFresh: a replay that reads later jobs into the
// records of retired ones (streamInto, under EASY and FIFO) writes
// jobs.csv and schedule.swf byte for byte as one that makes a new record
// for every job. The traces are KTH-SP2 (when ../shared is there) and a
// made-up one of bursts in the same second, jobs of no run time that end
// as they start, cancellations, failures and dependencies, on a machine
// small enough that jobs wait. A third of the jobs or more must go into reused records.
// make test also runs it under the race detector, which reports any read
// of a record by the engine or a scheduler after the reader took it back.
func TestReuseRecordsAsFresh(t *testing.T) {
	eachReplay(t, 20000, func(t *testing.T, trace, sched string) {
		want, none := replayStreamed(t, trace, sched, fresh)
		got, n := replayStreamed(t, trace, sched, reuse)
		sameOutputs(t, want, got, "with reused records")
		jobs := bytes.Count(readFile(t, filepath.Join(want, "jobs.csv")), []byte("\n")) - 1
		if none != 0 || 3*n < jobs {
			t.Errorf("%d of %d jobs read into reused records, and %d without reuse: want a third or more, and none", n, jobs, none)
		}
		t.Logf("%d of %d jobs read into reused records", n, jobs)
	})
}

// TestRetiredJobsUnread: once the engine has retired a job, neither it
// nor EASY or FIFO reads the job's record again, which is what reusing
// records rests on. The stream gets a copy of each retired job and the
// record itself is cleared at once, on the engine's goroutine; the
// outputs must not change, and the records must still be clear at the
// end (nothing wrote to them either). Unlike TestReuseRecordsAsFresh this does not
// depend on when the reader happens to take a record back.
func TestRetiredJobsUnread(t *testing.T) {
	eachReplay(t, 4000, func(t *testing.T, trace, sched string) {
		want, _ := replayStreamed(t, trace, sched, fresh)
		got, _ := replayStreamed(t, trace, sched, cleared)
		sameOutputs(t, want, got, "when retired jobs' records are cleared")
	})
}

// eachReplay runs f under EASY and FIFO on a made-up trace of n jobs and,
// when ../shared is there, on KTH-SP2.
func eachReplay(t *testing.T, n int, f func(t *testing.T, trace, sched string)) {
	traces := []string{madeUpTrace(t, n)}
	if d := shared.Dir(); d != "" {
		traces = append(traces, filepath.Join(d, "traces", "KTH-SP2-1996-2.1-cln.swf.gz"))
	} else {
		t.Log("no ../shared beside the repository: KTH-SP2 is left out")
	}
	for _, trace := range traces {
		for _, sched := range []string{"easy", "fifo"} {
			t.Run(filepath.Base(trace)+"/"+sched, func(t *testing.T) { f(t, trace, sched) })
		}
	}
}

// sameOutputs wants jobs.csv and schedule.swf alike in folders a and b.
func sameOutputs(t *testing.T, a, b, how string) {
	t.Helper()
	for _, f := range []string{"jobs.csv", "schedule.swf"} {
		x, y := readFile(t, filepath.Join(a, f)), readFile(t, filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs %s (%d and %d bytes)", f, how, len(x), len(y))
		}
	}
}

// TestReuseRecordsOnlyWhereSafe: a policy (the slurm scheduler's
// multifactor) keeps jobs of its own, so its runs never hand records back.
func TestReuseRecordsOnlyWhereSafe(t *testing.T) {
	if _, n := replayStreamed(t, madeUpTrace(t, 300), "slurm", reuse); n != 0 {
		t.Errorf("slurm: %d jobs read into reused records, want none", n)
	}
}

// How replayStreamed hands retired jobs to the stream.
const (
	fresh   = iota // as they are; every job gets a new record
	reuse          // streamInto: records handed back to the reader
	cleared        // a copy, the record itself cleared at once
)

// replayStreamed replays trace under sched as `fairsim run` does (jobs
// streamed out as they retire), handing the retired jobs over as mode
// says, and returns the folder of jobs.csv and schedule.swf and how many
// jobs the reader read into reused records.
func replayStreamed(t *testing.T, trace, sched string, mode int) (string, int) {
	t.Helper()
	sc, err := (&RunSpec{Trace: trace, Scheduler: sched}).Resolve()
	if err != nil {
		t.Fatal(err)
	}
	var p Pipeline
	run, err := p.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	dir := t.TempDir()
	st, err := report.NewJobStream(dir, StreamResult(run))
	if err != nil {
		t.Fatal(err)
	}
	var gone []*sim.Job // cleared records
	switch mode {
	case fresh:
		run.Options.Retire = st.Retire
	case reuse:
		streamInto(run, st)
	case cleared:
		if !sim.ReusesRecords(run.Scheduler, run.Policy, &sim.Options{Retire: st.Retire}) {
			t.Fatalf("%s: records would not be reused", sched)
		}
		run.Options.Retire = func(j *sim.Job) {
			c := new(sim.Job)
			*c = *j
			st.Retire(c)
			*j = sim.Job{}
			gone = append(gone, j)
		}
	}
	a, ok := run.Source.(*workload.Ahead[sim.Job])
	if !ok {
		t.Fatalf("the trace is read by %T, not a read-ahead", run.Source)
	}
	res, err := p.Simulate(run)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Close(res); err != nil {
		t.Fatal(err)
	}
	run.Close()
	// A write to a retired record would not reach the outputs: the
	// cleared records must still be clear.
	for _, j := range gone {
		if !reflect.ValueOf(*j).IsZero() {
			t.Fatalf("a retired job's record was written after it retired: %+v", *j)
		}
	}
	return dir, a.Reused()
}

// madeUpTrace writes an SWF trace of n jobs on 8 nodes of 8 cores, busy
// about two thirds of the time: bursts of submissions in the same second, a tenth of jobs with no run time, a
// few failed or cancelled, some waiting for an earlier job (fields 17
// and 18), limits over and under the run time.
func madeUpTrace(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 13))
	var b strings.Builder
	b.WriteString("; MaxNodes: 8\n; MaxProcs: 64\n")
	submit := int64(0)
	for id := 1; id <= n; id++ {
		if rng.IntN(3) != 0 {
			submit += int64(rng.IntN(120))
		}
		run := int64(rng.IntN(600))
		if rng.IntN(10) == 0 {
			run = 0
		}
		procs := 1 + rng.IntN(12)
		if rng.IntN(20) == 0 {
			procs = 8 * (1 + rng.IntN(6))
		}
		limit := run + int64(rng.IntN(900)) - 150
		if limit < 60 {
			limit = 60
		}
		status := 1
		switch rng.IntN(20) {
		case 0:
			status = 0
		case 1:
			status = 5
		}
		pre, think := -1, -1
		if id > 10 && rng.IntN(12) == 0 {
			pre, think = id-1-rng.IntN(10), rng.IntN(300)
		}
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 %d %d 1 -1 1 -1 %d %d\n",
			id, submit, run, procs, procs, limit, status, 1+rng.IntN(20), pre, think)
	}
	path := filepath.Join(t.TempDir(), "made-up.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
