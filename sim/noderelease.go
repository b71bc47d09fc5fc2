package sim

import "slices"

// nodeRelease is an ended job whose nodes leave COMPLETING at the times a
// controller's log gives (Timeline.EpilogMs, NodeEpilogMs): its resources
// were given back at its end, and its nodes are COMPLETING
// (completing.go) until each answers, as slurmctld frees each node
// (node_mgr.c make_node_idle); the pass the job asks for comes when its
// last node has (job_epilog_complete).
type nodeRelease struct {
	at []int64 // by slice of the job's Alloc: the millisecond (simulated) its node leaves; 0 once it has
}

// completeNodes keeps the nodes of job j, whose resources its end gave
// back, COMPLETING: each until its time in the timeline, else until last,
// the job's last node's (milliseconds, simulated; endMs is the end's
// within s.now). It queues a release event for each distinct time.
func (s *Simulator) completeNodes(j *Job, endMs int16, last int64) {
	nm := s.opt.Timeline.NodeEpilogMs[j.ID]
	nr := &nodeRelease{at: make([]int64, len(j.Alloc))}
	for k, sl := range j.Alloc {
		s.c.completingOn(sl.Node, 1)
		nr.at[k] = last
		if d, ok := nm[s.c.Nodes[sl.Node].Name]; ok {
			nr.at[k] = min(s.now*1000+int64(endMs)+int64(d), last)
		}
	}
	if s.nodeRel == nil {
		s.nodeRel = map[int]*nodeRelease{}
	}
	s.nodeRel[j.Idx] = nr
	times := slices.Clone(nr.at)
	slices.Sort(times)
	for _, at := range slices.Compact(times) {
		s.push(Event{T: at / 1000, Ms: int16(at % 1000), Kind: EvRelease, Job: int32(j.Idx), Gen: j.gen})
	}
}

// releaseNodes ends COMPLETING on the nodes of job j due by millisecond
// at, and reports true while some are left. A job not kept by
// completeNodes has none.
func (s *Simulator) releaseNodes(j *Job, at int64) bool {
	nr := s.nodeRel[j.Idx]
	if nr == nil {
		return false
	}
	left := false
	for k, sl := range j.Alloc {
		switch {
		case nr.at[k] == 0:
		case nr.at[k] <= at:
			s.c.completingOn(sl.Node, -1)
			nr.at[k] = 0
		default:
			left = true
		}
	}
	if !left {
		delete(s.nodeRel, j.Idx)
		return false
	}
	// make_node_idle sets last_job_update; a pass is asked for only when
	// the job is done (job_epilog_complete).
	s.lastProgress = s.now
	s.changed()
	return true
}
