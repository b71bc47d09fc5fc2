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
type JobStream struct {
	r     *sim.Result // what the rows need: cluster, names, QOS names, header, scheduler
	tally *JobTally
	files []*os.File
	jobs  *bufio.Writer
	swf   *workload.SWFWriter
	row   []byte
	hosts *hostIndex       // node names in hostlist order, made at the first row
	next  int              // arrival index of the next row
	held  map[int]*sim.Job // retired before an earlier job
	group []workload.ScheduledJob
	err   error
}

// NewJobStream creates jobs.csv and schedule.swf in dir for a run
// described by r (Cluster, Names, Header, QOSNames and Scheduler set; no
// jobs needed).
func NewJobStream(dir string, r *sim.Result) (*JobStream, error) {
	s := &JobStream{r: r, tally: NewJobTally(r.Cluster), held: map[int]*sim.Job{}}
	open := func(name string) (*os.File, error) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, f)
		return f, nil
	}
	jf, err := open("jobs.csv")
	if err != nil {
		return nil, err
	}
	s.jobs = bufio.NewWriterSize(jf, 1<<20)
	s.jobs.Write(jobsHeader)
	sw, err := open("schedule.swf")
	if err != nil {
		s.closeFiles()
		return nil, err
	}
	s.swf = workload.NewSWFWriter(sw, r.Names, workload.SWFWriteOptions{Notes: []string{"fairsim: simulated schedule (scheduler " +
		r.Scheduler + "): wait, run time, allocated processors and status are the simulation's"}})
	if err := s.swf.WriteHeader(scheduleHeader(r)); err != nil {
		s.closeFiles()
		return nil, fmt.Errorf("schedule.swf: %w", err)
	}
	return s, nil
}

// Retire takes a job in its final state; sim.Options.Retire calls it.
func (s *JobStream) Retire(j *sim.Job) {
	if j.Idx != s.next {
		s.held[j.Idx] = j
		return
	}
	s.write(j)
	s.drain()
}

// drain writes the held jobs that are next in arrival order.
func (s *JobStream) drain() {
	for len(s.held) > 0 {
		h, ok := s.held[s.next]
		if !ok {
			return
		}
		delete(s.held, s.next)
		s.write(h)
	}
}

// write writes the next job in arrival order.
func (s *JobStream) write(j *sim.Job) {
	s.next++
	s.tally.Add(s.r, j)
	if s.hosts == nil {
		s.hosts = newHostIndex(s.r.Cluster)
	}
	row := jobRow(s.r, s.hosts, j)
	s.row = appendJobRow(s.row[:0], &row)
	if _, err := s.jobs.Write(s.row); err != nil && s.err == nil {
		s.err = fmt.Errorf("jobs.csv: %w", err)
	}
	// schedule.swf is in submit order, then by job ID: arrival order is
	// submit order, so only the jobs of one submit time are sorted.
	if len(s.group) > 0 && s.group[0].Job.Submit != j.Submit {
		s.flushGroup()
	}
	s.group = append(s.group, scheduledJob(j))
}

func (s *JobStream) flushGroup() {
	slices.SortStableFunc(s.group, func(a, b workload.ScheduledJob) int { return cmp.Compare(a.Job.ID, b.Job.ID) })
	for i := range s.group {
		if err := s.swf.WriteScheduled(&s.group[i]); err != nil && s.err == nil {
			s.err = fmt.Errorf("schedule.swf: %w", err)
		}
	}
	s.group = s.group[:0]
}

// Close writes the jobs the run left unretired (res.Jobs: pending,
// running or waiting when it stopped), flushes and closes the files, and
// returns the tally of every job.
func (s *JobStream) Close(res *sim.Result) (*JobTally, error) {
	s.r.First, s.r.Last, s.r.Now = res.First, res.Last, res.Now
	// res.Jobs are in arrival order, after or between the held ones (a
	// result that kept every job has none held: its jobs' Idx, which a
	// hand-made result may leave unset, are not read).
	for _, j := range res.Jobs {
		s.drain()
		s.write(j)
	}
	s.drain()
	if len(s.held) > 0 && s.err == nil {
		s.err = fmt.Errorf("jobs.csv: %d jobs retired after a job that never did (arrival index %d)", len(s.held), s.next)
	}
	s.flushGroup()
	if err := s.swf.Flush(); err != nil && s.err == nil {
		s.err = fmt.Errorf("schedule.swf: %w", err)
	}
	if err := s.jobs.Flush(); err != nil && s.err == nil {
		s.err = fmt.Errorf("jobs.csv: %w", err)
	}
	if err := s.closeFiles(); err != nil && s.err == nil {
		s.err = err
	}
	return s.tally, s.err
}

func (s *JobStream) closeFiles() error {
	var first error
	for _, f := range s.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.files = nil
	return first
}
