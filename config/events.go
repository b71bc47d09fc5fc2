package config

import (
	"strings"
	"time"

	"fairsim/events"
	"fairsim/inputerr"
	"fairsim/sim"
	"fairsim/slurmtext"
	"fairsim/workload"
)

// siteEvents reads the scenario's events file and resolves it against the
// cluster: hostlists to nodes, partition names, dates to seconds since
// the trace epoch (in the trace's time zone). A name the cluster lacks is
// an error at its line, as scontrol refuses an unknown node.
func (sc *Scenario) siteEvents(c *sim.Cluster, h *workload.Header) ([]sim.SiteEvent, error) {
	loc, err := sc.eventsLocation(h)
	if err != nil {
		return nil, err
	}
	file := sc.path(sc.Events)
	evs, err := events.ReadFile(file, loc)
	if err != nil {
		return nil, err
	}
	nodeIdx := make(map[string]int, len(c.Nodes))
	for i := range c.Nodes {
		nodeIdx[c.Nodes[i].Name] = i
	}
	var epoch int64
	if h != nil {
		epoch = h.UnixStartTime
	}
	var errs inputerr.List
	out := make([]sim.SiteEvent, 0, len(evs))
	for _, e := range evs {
		se := sim.SiteEvent{At: e.At, FromFirst: !e.Date, Part: -1, Reason: e.Reason, Line: e.Line}
		if e.Date {
			se.At -= epoch
		}
		switch e.Action {
		case events.NodeDown:
			se.NodeState = sim.NodeDown
		case events.NodeDrain:
			se.NodeState = sim.NodeDrain
		case events.NodeFail:
			se.NodeState = sim.NodeFail
		case events.NodeResume:
			se.NodeState = sim.NodeUp
		case events.PartUp:
			se.PartState = sim.PartUp
		case events.PartDown:
			se.PartState = sim.PartDown
		case events.PartDrain:
			se.PartState = sim.PartDrain
		case events.PartInactive:
			se.PartState = sim.PartInactive
		}
		if r := e.Resv; r != nil {
			// Reservation times share the creation time's base: both
			// after the first submission, or both Unix dates.
			start, end := r.Start, r.End
			if r.StartDate {
				start -= epoch
			}
			if r.EndDate {
				end -= epoch
			}
			if r.StartDate != e.Date || r.EndDate != e.Date {
				errs.Addf(file, e.Line, "StartTime", "give the reservation's times as its line's time is given (all after the first submission, or all dates)")
				continue
			}
			se.ResvStart, se.ResvEnd = start, end
			if se.ResvStart <= 0 {
				se.ResvStart = 1 // at the first instant: 0 means no reservation
			}
			se.Reason = "reservation " + r.Name
			if !r.Maint {
				se.Resv = &sim.Reservation{Name: r.Name, Users: splitList(r.Users), Accounts: splitList(r.Accounts), NodeCnt: r.NodeCnt}
			}
		}
		switch {
		case e.Action.OnNode() && e.Nodes == "":
			// NodeCnt=: the simulator picks the nodes at the line's time.
		case e.Action.OnNode():
			names, err := slurmtext.Expand(e.Nodes)
			if err != nil {
				errs.Addf(file, e.Line, "NodeName", "%v", err)
				continue
			}
			ok := true
			for _, n := range names {
				i, found := nodeIdx[n]
				if !found {
					errs.Addf(file, e.Line, "NodeName", "node %s is not in the cluster", n)
					ok = false
					break
				}
				se.Nodes = append(se.Nodes, i)
			}
			if !ok {
				continue
			}
		default:
			p, found := c.Partition(e.Partition)
			if !found {
				errs.Addf(file, e.Line, "PartitionName", "partition %s is not in the cluster", e.Partition)
				continue
			}
			se.Part = p
		}
		out = append(out, se)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// splitList is a comma-separated Users= or Accounts= list; nil for none.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// eventsLocation is the zone of the events file's dates: the sacct
// trace's time_zone when set, else the trace header's zone, else UTC.
func (sc *Scenario) eventsLocation(h *workload.Header) (*time.Location, error) {
	if sc.Trace != nil && sc.Trace.TimeZone != "" {
		return time.LoadLocation(sc.Trace.TimeZone)
	}
	return sc.location(h)
}
