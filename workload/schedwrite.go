package workload

import (
	"cmp"
	"io"
	"slices"
)

// ScheduledJob is one job as a simulation ran it. The simulator fills a
// slice of them so that a simulated schedule can be written as SWF and
// read by the tools made for the Parallel Workloads Archive, or compared
// with the trace it came from field by field.
type ScheduledJob struct {
	Job    Job   // the request as read: id, submit, user, limits, ...
	Start  int64 // simulated start, seconds since the epoch; Unset if it never started
	End    int64 // simulated end (or, for a job that never started, when it left the queue); Unset if unknown
	Procs  int   // processors allocated in the simulation
	Status int   // SWF status: StatusCompleted, StatusFailed (killed at its time limit), StatusCancelled
}

// WriteScheduleSWF writes a simulated schedule as SWF, in submit order
// (ties by job id) whatever the order of jobs: wait is Start-Submit, run
// time End-Start, allocated processors Procs, status Status; the other
// fields are the request's. A job that never started has run time 0 and
// waits until End (or -1 when End is Unset too). The header's lines come
// first, then opts.Notes; its comments amid the records come last.
func WriteScheduleSWF(w io.Writer, jobs []ScheduledJob, names *Names, hdr *Header, opts SWFWriteOptions) error {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ja, jb := &jobs[a].Job, &jobs[b].Job
		return cmp.Or(cmp.Compare(ja.Submit, jb.Submit), cmp.Compare(ja.ID, jb.ID))
	})
	sw := NewSWFWriter(w, names, opts)
	if err := sw.WriteHeader(hdr); err != nil {
		return err
	}
	for _, i := range order {
		if err := sw.WriteScheduled(&jobs[i]); err != nil {
			return err
		}
	}
	if hdr != nil {
		if err := sw.WriteComments(hdr.Comments); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// WriteScheduled writes one job of a simulated schedule as
// WriteScheduleSWF does, for a caller that streams the schedule in submit
// order itself.
func (w *SWFWriter) WriteScheduled(s *ScheduledJob) error {
	j := s.Job
	j.AllocCPUs = s.Procs
	j.Status = s.Status
	j.CancelledPending = false
	switch {
	case s.Start != Unset:
		j.Wait = s.Start - j.Submit
		j.Runtime = Unset
		if s.End != Unset {
			j.Runtime = s.End - s.Start
		}
	case s.End != Unset:
		j.Wait, j.Runtime = s.End-j.Submit, 0
	default:
		j.Wait, j.Runtime = Unset, Unset
	}
	return w.Write(&j)
}
