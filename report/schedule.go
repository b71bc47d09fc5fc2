package report

import (
	"strconv"
	"strings"

	"fairsim/sim"
	"fairsim/workload"
)

// scheduledJob is job j as schedule.swf records it: its simulated wait,
// run time, allocated processors and status.
func scheduledJob(j *sim.Job) workload.ScheduledJob {
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
	return sj
}

// scheduleHeader is schedule.swf's header: the trace's, with the sizes of
// the simulated cluster (whatever the trace's own header said: a
// generated trace's says 2 nodes of its largest job).
func scheduleHeader(r *sim.Result) *workload.Header {
	hdr := workload.Header{}
	if r.Header != nil {
		hdr = *r.Header
	}
	hdr.MaxNodes, hdr.MaxProcs = len(r.Cluster.Nodes), r.Cluster.TotalCores
	hdr.Lines = clusterLines(hdr.Lines, hdr.MaxNodes, hdr.MaxProcs)
	return &hdr
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
