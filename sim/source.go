package sim

import "fairsim/workload"

// JobTaker is a workload source that makes the simulator's job records
// itself (workload.Ahead, which reads them on a goroutine of its own):
// Take returns a new Job whose workload.Job is filled and whose other
// fields are zero; false at the end of the input or on error.
type JobTaker interface {
	Take() (*Job, bool)
}

// ReadAhead reads src's jobs on a goroutine beside the simulation
// (workload.Ahead), each into a new Job.
func ReadAhead(src workload.Source) *workload.Ahead[Job] {
	return workload.ReadAhead(src, func(j *Job) *workload.Job { return &j.Job })
}

// ReadDirect makes a read-ahead source read on the caller's goroutine, as
// a run that may stop before its end needs (workload.Ahead.Direct); other
// sources are left as they are.
func ReadDirect(src workload.Source) {
	if d, ok := src.(interface{ Direct() }); ok {
		d.Direct()
	}
}
