package sim

// WillRun is the select plugin's will-run test (cons_tres, job_test.c
// _will_run_test) on the nodes for which out is false: the earliest time,
// from now (c.Now) on, at which req fits partition p when the holders in
// rel, sorted by End, give their cores, memory and GRES back at their
// ends; and the allocation the simulator's placement would make then.
// The cluster is changed while it runs and restored before it returns.
//
// As _will_run_test does, holders on nodes in play are removed in
// batches: the first batch runs to the first such end rounded up to 30 s
// plus 30 s, each later batch to that time plus a window that doubles
// (further while the next end lies beyond it), and the job is tested
// after each batch (not after a batch of more than 201 holders: removal
// goes on); its start is then the last removed holder's end. A start
// later than until is not looked for (NotNow). Nodes that allocate
// nothing (drained, down) keep what their jobs give back, as in a run.
func (c *Cluster) WillRun(req *Request, p int, out func(n int) bool, rel []Holding, until int64, dst Alloc) (Alloc, int64, Fit) {
	now := c.Now
	a, fit := c.TryAllocFunc(req, p, out, dst)
	if fit == FitsNow {
		return a, now, FitsNow
	}
	part := &c.Parts[p]
	var given []int // indices of rel given back
	defer func() {
		c.Now = now
		for _, i := range given {
			c.willRunMove(rel[i].Alloc, p, out, true)
		}
		c.willRunGiven = given[:0]
	}()
	given = c.willRunGiven[:0]
	const window0 = 30
	window, endTime := int64(window0), int64(0)
	i := 0
	for more := true; more; {
		var last int64
		removed, skip := 0, false
		for {
			if i >= len(rel) {
				more = false
				break
			}
			h := &rel[i]
			i++
			if !c.willRunMove(h.Alloc, p, out, false) {
				continue // no node in play: _will_run_test skips it
			}
			given = append(given, i-1)
			if endTime == 0 {
				endTime = h.End + window0 - h.End%window0
			}
			last = h.End
			if i >= len(rel) {
				more = false
				break
			}
			if rel[i].End > endTime+window {
				break
			}
			if removed++; removed > 200 {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		if last == 0 || last > until {
			if last > until {
				break
			}
			continue
		}
		for window *= 2; i < len(rel) && rel[i].End > endTime+window; {
			window *= 2
		}
		if part.FreeCores < req.CPUs {
			continue // the cheap filter: too few cores in the partition
		}
		// A holder still running now ends a second later at the soonest
		// (_will_run_test guesses the end of one past its limit); a
		// maintenance reservation is judged against that start.
		c.Now = max(last, now+1)
		if a, fit = c.TryAllocFunc(req, p, out, dst); fit == FitsNow {
			return a, c.Now, FitsNow
		}
	}
	return dst, 0, NotNow
}

// willRunMove gives an allocation's resources back (take false) or takes
// them again, on the usable nodes of partition p that out leaves in play:
// the only nodes a will-run test can place on. It reports whether any
// node was.
func (c *Cluster) willRunMove(a Alloc, p int, out func(int) bool, take bool) bool {
	moved := false
	for _, s := range a {
		if !c.Parts[p].member[s.Node] || !c.Nodes[s.Node].State.Usable() || (out != nil && out(s.Node)) {
			continue
		}
		moved = true
		if take {
			c.take(s.Node, s.Cores, s.MemMB, s.Gres)
		} else {
			c.give(s.Node, s.Cores, s.MemMB, s.Gres)
		}
	}
	return moved
}
