package sim

import "slices"

// nodeRelease is an ended job whose nodes leave COMPLETING one by one, as
// a controller's log says (Timeline.NodeEpilogMs): slurmctld frees each
// node when it answers (node_mgr.c make_node_idle clears it from the
// completing nodes), so a pass that runs between two answers may place a
// job on the first node. While some are left the job's Alloc is the part
// still held, which the cluster's counters, the planners' Completing
// holdings and the checks all read; full is its allocation as it ran,
// given back to it at the last node, before the job is written.
type nodeRelease struct {
	full Alloc
	at   []int64 // by slice of the job's Alloc: the millisecond (simulated) its node is free
}

// armNodeReleases queues the early releases of ended job j's nodes from
// the timeline's per-node times; endMs is the millisecond of its
// completion within s.now, last the millisecond of its last node.
func (s *Simulator) armNodeReleases(j *Job, endMs int16, last int64) {
	nm := s.opt.Timeline.NodeEpilogMs[j.ID]
	if len(nm) == 0 || len(j.Alloc) < 2 {
		return
	}
	nr := &nodeRelease{full: j.Alloc, at: make([]int64, len(j.Alloc))}
	early := false
	for k, sl := range j.Alloc {
		nr.at[k] = last
		if d, ok := nm[s.c.Nodes[sl.Node].Name]; ok && s.now*1000+int64(endMs)+int64(d) < last {
			nr.at[k] = s.now*1000 + int64(endMs) + int64(d)
			early = true
			// One event per node: release frees every node due by its
			// time, so the events of nodes freed alongside do nothing.
			s.push(Event{T: nr.at[k] / 1000, Ms: int16(nr.at[k] % 1000), Kind: EvRelease, Job: int32(j.Idx), Gen: j.gen})
		}
	}
	if !early {
		return
	}
	if s.nodeRel == nil {
		s.nodeRel = map[int]*nodeRelease{}
	}
	// A copy: the job keeps the nodes still held, its record all of them.
	j.Alloc = append(Alloc(nil), j.Alloc...)
	s.nodeRel[j.Idx] = nr
}

// releaseNodes frees the nodes of completing job j that are due by
// millisecond at, and reports true while some are left. When the last is
// due it gives the job back its Alloc as it ran and returns what is still
// held, for the whole release to free.
func (s *Simulator) releaseNodes(j *Job, at int64) (Alloc, bool) {
	nr := s.nodeRel[j.Idx]
	if nr == nil {
		return j.Alloc, false
	}
	if slices.Max(nr.at) <= at {
		held := j.Alloc
		j.Alloc = nr.full
		delete(s.nodeRel, j.Idx)
		return held, false
	}
	var freed Alloc
	kept, keptAt := j.Alloc[:0], nr.at[:0]
	for k, sl := range j.Alloc {
		if nr.at[k] <= at {
			freed = append(freed, sl)
		} else {
			kept, keptAt = append(kept, sl), append(keptAt, nr.at[k])
		}
	}
	j.Alloc, nr.at = kept, keptAt
	if len(freed) == 0 {
		return nil, true // the event of a node freed alongside another
	}
	s.c.apply(freed, false)
	// make_node_idle sets last_job_update; a pass is asked for only when
	// the job is done (job_epilog_complete).
	s.lastProgress = s.now
	s.changed()
	return nil, true
}
