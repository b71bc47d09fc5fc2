package report

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"fairsim/sim"
	"fairsim/workload"
)

// WriteScheduleSWF writes the simulated schedule as SWF (schedule.swf):
// the trace's header, fairsim's provenance notes, and each job with its
// simulated wait, run time and status, so the result can be read by the
// tools made for the Parallel Workloads Archive.
func WriteScheduleSWF(dir string, r *sim.Result, notes []string) error {
	jobs := make([]workload.ScheduledJob, len(r.Jobs))
	for i, j := range r.Jobs {
		sj := workload.ScheduledJob{Job: j.Job, Start: workload.Unset, End: j.End, Status: workload.StatusCompleted}
		if j.Start >= 0 {
			sj.Start = j.Start
			sj.Procs = j.Alloc.Cores()
		}
		switch j.State {
		case sim.Timeout, sim.Failed:
			sj.Status = workload.StatusFailed
		case sim.Cancelled, sim.Rejected:
			sj.Status = workload.StatusCancelled
		case sim.Pending:
			sj.End = workload.Unset
		}
		jobs[i] = sj
	}
	f, err := os.Create(filepath.Join(dir, "schedule.swf"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	hdr := workload.Header{}
	if r.Header != nil {
		hdr = *r.Header
	}
	if err := workload.WriteScheduleSWF(w, jobs, r.Names, &hdr, workload.SWFWriteOptions{Notes: notes}); err != nil {
		f.Close()
		return fmt.Errorf("schedule.swf: %w", err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
