package workload

// Source streams jobs in submit order, so that a million-job trace does not
// have to be parsed before the first event.
type Source interface {
	// Next fills j with the next accepted job. It returns false at the end
	// of the input or on error; Err tells which.
	Next(j *Job) bool
	// Err is the error that stopped Next, nil at a clean end of input.
	Err() error
	// Header is the trace's header (SWF comment lines).
	Header() *Header
	// Names holds the interned strings that jobs refer to.
	Names() *Names
	// Stats counts what was read, skipped and defaulted so far.
	Stats() *ReadStats
}

// ReadStats says what a reader did with every record, so that nothing is
// dropped silently: each skipped record is counted by reason, each value the
// reader filled in is counted too.
type ReadStats struct {
	Records   int   // job records seen
	Accepted  int   // records turned into jobs
	Skipped   Tally // records left out, by reason
	Defaulted Tally // values filled in, by what was filled in
	// CancelledPending counts the accepted jobs that were cancelled before
	// they ever started (Job.CancelledPending): submissions that only
	// waited, never ran.
	CancelledPending int
	// Input is how far the reader is through its file (nil when it reads
	// from memory or standard input).
	Input *InputPos
}

// NewReadStats returns empty counters.
func NewReadStats() *ReadStats {
	return &ReadStats{Skipped: Tally{}, Defaulted: Tally{}}
}

// SliceSource serves jobs from memory; tests and generators use it.
type SliceSource struct {
	Jobs  []Job
	Hdr   Header
	Nm    *Names
	St    *ReadStats
	index int
}

// NewSliceSource wraps jobs (already in submit order) and their names.
func NewSliceSource(jobs []Job, names *Names, hdr Header) *SliceSource {
	if names == nil {
		names = &Names{}
	}
	st := NewReadStats()
	st.Records = len(jobs)
	st.Accepted = len(jobs)
	return &SliceSource{Jobs: jobs, Hdr: hdr, Nm: names, St: st}
}

// Next implements Source.
func (s *SliceSource) Next(j *Job) bool {
	if s.index >= len(s.Jobs) {
		return false
	}
	*j = s.Jobs[s.index]
	s.index++
	return true
}

// Err implements Source.
func (s *SliceSource) Err() error { return nil }

// Header implements Source.
func (s *SliceSource) Header() *Header { return &s.Hdr }

// Names implements Source.
func (s *SliceSource) Names() *Names { return s.Nm }

// Stats implements Source.
func (s *SliceSource) Stats() *ReadStats { return s.St }
