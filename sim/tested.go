package sim

// TestedCPUs is the CPU count Slurm's select plugin records for a job of
// request req in partition p when it tests the job against the
// partition's nodes as if they were all idle: the SELECT_MODE_TEST_ONLY
// test select_nodes runs at submission (job_mgr.c job_allocate), after
// which the job's total_cpus is set (cons_common/job_test.c _job_test,
// "needed to get to here to have an accurate total_cpus"). The job-size
// priority factor and the CPU count of limit checks without nodes read
// total_cpus once it is set (priority_multifactor.c: "On the initial run
// of this we don't have total_cpus so go off the requesting").
//
// A whole-node job (OverSubscribe=EXCLUSIVE or --exclusive,
// whole_node == 1) counts every CPU of the nodes it would get: while one
// node can still hold the rest of the job, the node of the lowest Weight
// with the fewest CPUs that does (_eval_nodes' best fit, tried as it
// comes to each Weight's nodes); otherwise the nodes in (Weight, index)
// order, whole, until the CPUs and the node count are covered, passing
// over a node that cannot be the last of -N's nodes. Nodes of one Weight
// are taken as one of _eval_nodes' sets of consecutive nodes, which they
// are unless the partition's node indices have gaps. Any other job counts its CPUs, at least one per node. 0
// when the partition cannot hold the job (the test fails and total_cpus
// stays unset).
func (c *Cluster) TestedCPUs(req *Request, p int) int {
	if !req.Exclusive {
		return max(req.CPUs, req.Nodes, 1)
	}
	// The answer depends on the partition's hardware and the request's
	// shape only: kept, as a walk over a large partition for every job
	// of a whole-node site would cost its node count each.
	k := testedKey{p, req.CPUs, req.Nodes, req.Type, req.GresID}
	if n, ok := c.tested[k]; ok {
		return n
	}
	n := c.testedCPUs(req, p)
	if c.tested == nil {
		c.tested = map[testedKey]int{}
	}
	c.tested[k] = n
	return n
}

// testedKey is a whole-node request's shape in a partition, for
// Cluster.tested.
type testedKey struct {
	part, cpus, nodes, typ int
	gres                   int32
}

// testedCPUs is TestedCPUs of a whole-node request, walked.
func (c *Cluster) testedCPUs(req *Request, p int) int {
	part := &c.Parts[p]
	usable := func(n int) bool {
		return c.typeOK(req, n) && (len(req.Gres) == 0 || c.gresHolds(req, n))
	}
	need := max(req.Nodes, 1)
	cpus, nodes := 0, 0
	for i := 0; i < len(part.Nodes); {
		// One set of nodes of equal Weight at a time, as _eval_nodes
		// takes its sets by Weight; while at most one node is still to
		// be found, the smallest node of the set that holds the rest.
		w, end := c.Nodes[part.Nodes[i]].Weight, i
		for end < len(part.Nodes) && c.Nodes[part.Nodes[end]].Weight == w {
			end++
		}
		if nodes+1 >= need {
			best := -1
			for _, n := range part.Nodes[i:end] {
				if nd := &c.Nodes[n]; usable(n) && cpus+nd.Cores >= req.CPUs && (best < 0 || nd.Cores < c.Nodes[best].Cores) {
					best = n
				}
			}
			if best >= 0 {
				return cpus + c.Nodes[best].Cores
			}
		}
		for _, n := range part.Nodes[i:end] {
			if !usable(n) || req.Nodes > 0 && nodes == req.Nodes-1 && cpus+c.Nodes[n].Cores < req.CPUs {
				continue // -N's last node must hold the rest
			}
			cpus += c.Nodes[n].Cores
			nodes++
			if cpus >= req.CPUs && nodes >= need {
				return cpus
			}
		}
		i = end
	}
	return 0
}
