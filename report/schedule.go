package report

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
	// The schedule ran on the simulated cluster, whatever the trace's own
	// header said (a generated trace's says 2 nodes of its largest job).
	hdr.MaxNodes, hdr.MaxProcs = len(r.Cluster.Nodes), r.Cluster.TotalCores
	hdr.Lines = clusterLines(hdr.Lines, hdr.MaxNodes, hdr.MaxProcs)
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

// clusterLines rewrites a header's MaxNodes and MaxProcs lines (the writer
// copies header lines verbatim) to the simulated cluster's sizes, adding
// them after the others when the header had none.
func clusterLines(lines []string, nodes, procs int) []string {
	if len(lines) == 0 {
		return nil // the writer then writes the sizes from the fields
	}
	out := make([]string, 0, len(lines)+2)
	var sawNodes, sawProcs bool
	for _, l := range lines {
		k, _, _ := strings.Cut(l, ":")
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "maxnodes":
			l, sawNodes = " MaxNodes: "+strconv.Itoa(nodes), true
		case "maxprocs":
			l, sawProcs = " MaxProcs: "+strconv.Itoa(procs), true
		}
		out = append(out, l)
	}
	if !sawNodes {
		out = append(out, " MaxNodes: "+strconv.Itoa(nodes))
	}
	if !sawProcs {
		out = append(out, " MaxProcs: "+strconv.Itoa(procs))
	}
	return out
}
