package sim

// The nodes of jobs that have ended but whose nodes have not all left
// COMPLETING, as slurmctld keeps them when a controller's log says when
// each node left (Timeline.EpilogMs, NodeEpilogMs): the select plugin
// gave the job's resources back when it ended (job_mgr.c deallocate_nodes
// calls select_g_job_fini), and only the nodes stay COMPLETING
// (cg_node_bitmap) until each answers. A placement for a start now passes
// them over (node_scheduler.c _build_node_list: shared or not, a job is
// not started on a COMPLETING node), while the will-run test counts their
// free resources as any others (backfill.c then plans a job whose nodes
// include one for now + 1: "Need to wait for in-progress
// completion/epilog").
//
// cg counts a node's completing jobs (nil until one), cgN the nodes with
// one; inWillRun is set while a will-run test places jobs, which sees
// completing nodes as free.

// completingOn adds d to node n's count of completing jobs.
func (c *Cluster) completingOn(n int, d int32) {
	if c.cg == nil {
		c.cg = make([]int32, len(c.Nodes))
	}
	was := c.cg[n] > 0
	c.cg[n] += d
	switch is := c.cg[n] > 0; {
	case is && !was:
		c.cgN++
	case was && !is:
		c.cgN--
	}
}

// cgOut reports whether a placement for a start now must pass node n
// over: it is COMPLETING, and the placement is not a will-run test's.
func (c *Cluster) cgOut(n int) bool {
	return c.cgN > 0 && !c.inWillRun && c.cg[n] > 0
}

// OnCompleting reports whether any node of a is COMPLETING: a backfill
// start found on it waits for the nodes (backfill.c plans it for now + 1).
func (c *Cluster) OnCompleting(a Alloc) bool {
	if c.cgN == 0 {
		return false
	}
	for _, sl := range a {
		if c.cg[sl.Node] > 0 {
			return true
		}
	}
	return false
}
