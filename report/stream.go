package report

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"fairsim/sim"
	"fairsim/workload"
)

// JobStream writes a run's per-job outputs (jobs.csv, schedule.swf) while
// the run goes, one job as it retires (sim.Options.Retire), and tallies
// what summary.csv and the plots need (JobTally), so that no output asks
// for every job to be kept. Rows keep the order they always had (arrival
// order; schedule.swf by submit time, then job ID): a job that retires
// before an earlier one waits in a reorder buffer until every earlier job
// has retired.
//
// The rows are made and written on a goroutine of their own, so that on a
// machine with a second core the simulation does not wait for its output:
// Retire hands jobs over in batches, each with a copy of the result whose
// name tables are a snapshot (the trace reader goes on interning while the
// run goes; the tables only grow, so a snapshot's names never change). A
// retired job is final: the engine no longer writes it.
type JobStream struct {
	r    *sim.Result // what the rows need: cluster, names, QOS names, header, scheduler
	next int         // arrival index of the next row
	// held are the jobs retired before an earlier one: held[off+k] is
	// the job of arrival index next+k (nil: not retired yet). A window
	// over arrival indices, not a map: hashing every retired job's index
	// was 3 % of a KTH-SP2 replay's simulating goroutine.
	held  []*sim.Job
	off   int
	stray int // jobs retired after their row was made
	batch []*sim.Job
	give  func(*sim.Job) // ReuseWith's, until Close
	work  chan streamBatch
	free  chan []*sim.Job
	done  chan struct{}
	w     streamWriter
}

// streamBatch is jobs in arrival order with the result their rows read.
type streamBatch struct {
	jobs  []*sim.Job
	r     sim.Result
	names workload.Names
	give  func(*sim.Job) // ReuseWith's; nil for the jobs of Close
}

// streamBatchSize is how many jobs a batch carries; streamBatches bounds
// the batches in flight, and with it the jobs kept alive for the writer
// (4,096 jobs, about 3 MB). With 4, the simulation waited for the writer
// to catch up in two KTH-SP2 runs of five, 2-4 ms each time (the writer
// shares the second core with the trace reader and the collector, and
// falls behind in bursts); with 16, in none of them.
const (
	streamBatchSize = 256
	streamBatches   = 16
)

// streamWriter is the writer goroutine's side.
type streamWriter struct {
	tally *JobTally
	each  func(*sim.Result, *sim.Job) // NewJobStreamWith's, or nil
	files []*os.File
	jobs  *bufio.Writer
	swf   *workload.SWFWriter
	row   []byte
	cells csvCells       // names as cells, made as rows first use them
	tres  []byte         // scratch for a row's AllocTRES and NodeList
	hosts *hostIndex     // node names in hostlist order, made at the first row
	group []*sim.Job     // schedule.swf's rows of one submit time, waiting for the next
	give  func(*sim.Job) // the batch's: where a written job's record goes
	err   error
}

// NewJobStream creates jobs.csv and schedule.swf in dir for a run
// described by r (Cluster, Names, Header, QOSNames and Scheduler set; no
// jobs needed).
func NewJobStream(dir string, r *sim.Result) (*JobStream, error) {
	return NewJobStreamWith(dir, r, nil)
}

// NewJobStreamWith is NewJobStream that also hands each job, in arrival
// order, to each on the writer's goroutine, with the result its row
// read (a sweep point's own tally).
func NewJobStreamWith(dir string, r *sim.Result, each func(*sim.Result, *sim.Job)) (*JobStream, error) {
	s := &JobStream{r: r}
	w := &s.w
	w.tally = NewJobTally(r.Cluster)
	w.each = each
	open := func(name string) (*os.File, error) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		w.files = append(w.files, f)
		return f, nil
	}
	jf, err := open("jobs.csv")
	if err != nil {
		return nil, err
	}
	// 64 KiB, not more: a buffer's pages are page faults as it first
	// fills (1 MiB cost a small run 330 more), and the writes it saves
	// are on the writer's goroutine.
	w.jobs = bufio.NewWriterSize(jf, 1<<16)
	w.jobs.Write(jobsHeader)
	sw, err := open("schedule.swf")
	if err != nil {
		w.closeFiles()
		return nil, err
	}
	w.swf = workload.NewSWFWriter(sw, r.Names, workload.SWFWriteOptions{Notes: []string{"fairsim: simulated schedule (scheduler " +
		r.Scheduler + "): wait, run time, allocated processors and status are the simulation's"}})
	if err := w.swf.WriteHeader(scheduleHeader(r)); err != nil {
		w.closeFiles()
		return nil, fmt.Errorf("schedule.swf: %w", err)
	}
	s.work = make(chan streamBatch, streamBatches)
	s.free = make(chan []*sim.Job, streamBatches+2)
	s.done = make(chan struct{})
	go s.w.run(s.work, s.free, s.done)
	return s, nil
}

// ReuseWith has each retired job's record handed to give once its rows
// are written, if the job says it is Reusable: for a run where
// sim.ReusesRecords holds, give is the trace reader's Give. Call it
// before the run starts.
func (s *JobStream) ReuseWith(give func(*sim.Job)) { s.give = give }

// Retire takes a job in its final state; sim.Options.Retire calls it.
func (s *JobStream) Retire(j *sim.Job) {
	if k := j.Idx - s.next; k < 0 {
		s.stray++ // retired twice: Close reports it
		return
	} else if k > 0 {
		for len(s.held) <= s.off+k {
			s.held = append(s.held, nil)
		}
		s.held[s.off+k] = j
		return
	}
	s.add(j)
	s.drain()
}

// drain hands over the held jobs that are next in arrival order.
func (s *JobStream) drain() {
	for s.off < len(s.held) && s.held[s.off] != nil {
		h := s.held[s.off]
		s.held[s.off] = nil
		s.add(h)
	}
	switch {
	case s.off >= len(s.held):
		s.held, s.off = s.held[:0], 0
	case s.off >= 1024 && 2*s.off >= len(s.held):
		// A long job kept next back while thousands of later ones
		// retired: move the window's rest to the front.
		n := copy(s.held, s.held[s.off:])
		clear(s.held[n:])
		s.held, s.off = s.held[:n], 0
	}
}

// heldCount is how many retired jobs wait for an earlier one.
func (s *JobStream) heldCount() int {
	n := 0
	for _, j := range s.held[min(s.off, len(s.held)):] {
		if j != nil {
			n++
		}
	}
	return n
}

// add hands over the next job in arrival order; the window moves with it.
func (s *JobStream) add(j *sim.Job) {
	s.next++
	s.off++
	if s.batch == nil {
		select {
		case b := <-s.free:
			s.batch = b[:0]
		default:
			s.batch = make([]*sim.Job, 0, streamBatchSize)
		}
	}
	s.batch = append(s.batch, j)
	if len(s.batch) == streamBatchSize {
		s.send()
	}
}

// send hands the batch to the writer with a snapshot of the names.
func (s *JobStream) send() {
	if len(s.batch) == 0 {
		return
	}
	b := streamBatch{jobs: s.batch, r: *s.r, give: s.give}
	if s.r.Names != nil {
		b.names = *s.r.Names
	}
	s.work <- b
	s.batch = nil
}

// run writes the batches in order until work is closed.
func (w *streamWriter) run(work <-chan streamBatch, free chan<- []*sim.Job, done chan<- struct{}) {
	defer close(done)
	for b := range work {
		if b.r.Names != nil {
			b.r.Names = &b.names
			w.swf.UseNames(&b.names)
		}
		w.give = b.give
		for _, j := range b.jobs {
			w.write(&b.r, j)
		}
		clear(b.jobs)
		select {
		case free <- b.jobs:
		default:
		}
	}
}

// write writes the next job in arrival order.
func (w *streamWriter) write(r *sim.Result, j *sim.Job) {
	w.tally.Add(r, j)
	if w.each != nil {
		w.each(r, j)
	}
	if w.hosts == nil {
		w.hosts = newHostIndex(r.Cluster)
	}
	w.row = appendJob(w.row[:0], r, w.hosts, &w.cells, &w.tres, j)
	if _, err := w.jobs.Write(w.row); err != nil && w.err == nil {
		w.err = fmt.Errorf("jobs.csv: %w", err)
	}
	// schedule.swf is in submit order, then by job ID: arrival order is
	// submit order, so only the jobs of one submit time are sorted.
	if len(w.group) > 0 && w.group[0].Submit != j.Submit {
		w.flushGroup()
	}
	w.group = append(w.group, j)
}

func (w *streamWriter) flushGroup() {
	slices.SortStableFunc(w.group, func(a, b *sim.Job) int { return cmp.Compare(a.ID, b.ID) })
	for _, j := range w.group {
		sj := scheduledJob(j)
		if err := w.swf.WriteScheduled(&sj); err != nil && w.err == nil {
			w.err = fmt.Errorf("schedule.swf: %w", err)
		}
		if w.give != nil && j.Reusable() {
			w.give(j) // nothing reads it from here on
		}
	}
	clear(w.group)
	w.group = w.group[:0]
}

// Close writes the jobs the run left unretired (res.Jobs: pending,
// running or waiting when it stopped), waits for the writer, flushes and
// closes the files, and returns the tally of every job.
func (s *JobStream) Close(res *sim.Result) (*JobTally, error) {
	s.r.First, s.r.Last, s.r.Now = res.First, res.Last, res.Now
	s.give = nil // res.Jobs are the caller's still
	// res.Jobs are in arrival order, after or between the held ones (a
	// result that kept every job has none held: its jobs' Idx, which a
	// hand-made result may leave unset, are not read).
	for _, j := range res.Jobs {
		s.drain()
		s.add(j)
	}
	s.drain()
	left, next := s.heldCount()+s.stray, s.next
	s.send()
	close(s.work)
	<-s.done
	w := &s.w
	if left > 0 && w.err == nil {
		w.err = fmt.Errorf("jobs.csv: %d jobs retired after a job that never did (arrival index %d)", left, next)
	}
	w.give = nil
	w.flushGroup()
	if res.Header != nil { // the trace's comments amid its records, now all read
		if err := w.swf.WriteComments(res.Header.Comments); err != nil && w.err == nil {
			w.err = fmt.Errorf("schedule.swf: %w", err)
		}
	}
	if err := w.swf.Flush(); err != nil && w.err == nil {
		w.err = fmt.Errorf("schedule.swf: %w", err)
	}
	if err := w.jobs.Flush(); err != nil && w.err == nil {
		w.err = fmt.Errorf("jobs.csv: %w", err)
	}
	if err := w.closeFiles(); err != nil && w.err == nil {
		w.err = err
	}
	return w.tally, w.err
}

func (w *streamWriter) closeFiles() error {
	var first error
	for _, f := range w.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	w.files = nil
	return first
}
