package sim

import "slices"

// RunnableOn reports whether req could run in partition p on an idle
// cluster using only p's nodes in service that out does not mark, and
// whether one of those nodes is busy in slurmctld's sense. It is
// _pick_best_nodes' runable_avail and nodes_busy for a main pass: after
// an earlier failure took its partition's nodes out of the pass
// (avail_node_bitmap), a job that cannot run on what is left even idle,
// with no node left COMPLETING (or, for a whole-node job, busy), fails
// with ESLURM_NODE_NOT_AVAIL rather than ESLURM_NODES_BUSY, and
// job_scheduler.c then blocks nothing for it. On the 22.05 harness a
// -n 15 job of a partition capped at 5 CPUs a node, left two nodes by a
// higher tier's failure, did not keep a later job of another partition
// from those two nodes (differential run partition-maxcpus2). Requests
// with GRES answer true: their test is the placement's own.
func (c *Cluster) RunnableOn(req *Request, p int, out []bool) (runnable, busy bool) {
	if len(req.Gres) > 0 {
		return true, false
	}
	part := &c.Parts[p]
	need := 1
	if req.Nodes > 0 {
		need = (req.CPUs + req.Nodes - 1) / req.Nodes
	}
	var cores, nodes, big, left int
	usables := c.capUsable[:0]
	for _, n := range part.Nodes {
		nd := &c.Nodes[n]
		if out[n] || !nd.State.Usable() {
			continue
		}
		left++
		if !c.typeOK(req, n) {
			continue
		}
		if c.cgN > 0 && c.cg[n] > 0 || req.Exclusive && nd.FreeCores != nd.Cores {
			busy = true
		}
		u := nd.Cores
		if req.Exclusive {
			if !c.CapWhole(p, n) {
				continue
			}
		} else {
			u = req.UsableCores(nd.Cores, nd.MemMB, nd.Cores, nd.MemMB)
			if k := c.capOf(p); k >= 0 {
				u = min(u, c.caps.max[k])
			}
		}
		if u <= 0 {
			continue
		}
		nodes++
		cores += u
		if u >= need {
			big++
		}
		usables = append(usables, [2]int{u, 1})
	}
	c.capUsable = usables
	if left < req.MinNodeCount() {
		// job_scheduler.c tests this before select_nodes: fewer of the
		// partition's nodes left than the job's min_nodes blocks the
		// partition ("reserved for jobs in higher priority partitions").
		return true, busy
	}
	top := func(k int) int { // the CPUs of the k nodes with the most
		slices.SortFunc(usables, func(a, b [2]int) int { return b[0] - a[0] })
		s := 0
		for i := 0; i < k && i < len(usables); i++ {
			s += usables[i][0]
		}
		return s
	}
	switch {
	case cores < req.CPUs, nodes < req.MinNodeCount():
		return false, busy
	case req.Nodes > 1 && !req.Exclusive:
		return top(req.Nodes) >= req.CPUs, busy
	case req.Nodes > 0 && !req.Exclusive:
		return big >= req.Nodes, busy
	case req.capped():
		return top(req.MaxNodes) >= req.CPUs, busy
	}
	return true, busy
}
