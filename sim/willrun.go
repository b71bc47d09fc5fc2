package sim

// WillRun is the select plugin's will-run test (cons_tres, job_test.c
// _will_run_test) on the nodes for which out is false: the earliest time,
// from now (c.Now) on, at which req fits partition p when the holders in
// rel, sorted by End, give their cores, memory and GRES back at their
// ends; and the allocation the simulator's placement would make then.
// Releases later than until are not tried (NotNow). The cluster is
// changed while it runs and restored before it returns.
//
// Holders end one end time at a time; _will_run_test removes jobs in
// batches whose time window grows (30 s, then doubling), which can only
// make its answer later by up to that window. Nodes that allocate nothing
// (drained, down) keep what their jobs give back, as they do in a run.
func (c *Cluster) WillRun(req *Request, p int, out func(n int) bool, rel []Holding, until int64, dst Alloc) (Alloc, int64, Fit) {
	now := c.Now
	a, fit := c.TryAllocFunc(req, p, out, dst)
	if fit == FitsNow {
		return a, now, FitsNow
	}
	part := &c.Parts[p]
	given := 0
	defer func() {
		c.Now = now
		for _, h := range rel[:given] {
			c.willRunMove(h.Alloc, p, out, true)
		}
	}()
	for given < len(rel) {
		t := rel[given].End
		if t > until {
			break
		}
		for given < len(rel) && rel[given].End == t {
			c.willRunMove(rel[given].Alloc, p, out, false)
			given++
		}
		if part.FreeCores < req.CPUs {
			continue // the cheap filter: too few cores in the partition
		}
		// A maintenance reservation is judged against a start at t.
		c.Now = max(t, now)
		if a, fit = c.TryAllocFunc(req, p, out, dst); fit == FitsNow {
			return a, max(t, now), FitsNow
		}
	}
	return dst, 0, NotNow
}

// willRunMove gives an allocation's resources back (take false) or takes
// them again, on the usable nodes of partition p that out leaves in play:
// the only nodes a will-run test can place on.
func (c *Cluster) willRunMove(a Alloc, p int, out func(int) bool, take bool) {
	for _, s := range a {
		if !c.Parts[p].member[s.Node] || !c.Nodes[s.Node].State.Usable() || (out != nil && out(s.Node)) {
			continue
		}
		if take {
			c.take(s.Node, s.Cores, s.MemMB, s.Gres)
		} else {
			c.give(s.Node, s.Cores, s.MemMB, s.Gres)
		}
	}
}
