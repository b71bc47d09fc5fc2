package sim

// perJobGres reports whether the request asks one GRES as a count over
// the job (--gpus, -G) and nothing per node, without a node count, with its memory not following
// the GRES taken: cons_tres places it with _eval_nodes' gres_per_job rules
// (evalPerJob).
func (r *Request) perJobGres() bool {
	return r.MemPerGPU == 0 && r.Nodes <= 1 && len(r.Gres) == 1 && r.Gres[0].PerJob > 0 && r.Gres[0].PerNode == 0
}

// evalPerJob places a request of perJobGres as cons_tres's _eval_nodes does
// with gres_per_job, then selects its GRES and lays out its tasks:
//
//   - A node is usable with at least one of the GRES free
//     (gres_select_filter_remove_unusable: min_gres is 1); nodes holds them
//     in allocation order with their usable CPUs avail and free GRES gfree.
//   - The sets of consecutive nodes count their GRES too, and a set is
//     sufficient only with the GRES still asked (gres_sched_sufficient);
//     the best set is chosen as for any job (bestSet's rules).
//   - One node is still to be found (rem_nodes is min(min_nodes,
//     req_nodes), 1 without -N): the set's node of fewest usable CPUs that
//     holds the rest of the CPUs and of the GRES, alone; else its nodes in
//     order, each with _cpus_to_use's CPUs and all its free GRES counted
//     (gres_sched_add), until the CPUs and the GRES are found.
//   - The GRES are then taken node by node in order, each node at most
//     what the job still lacks less one for each node after it
//     (gres_select_filter_select_and_set _get_job_cnt), so an early node
//     may get none; the tasks (one per CPU) are laid out cyclically over
//     the nodes' usable CPUs (dist_tasks_compute_c_b), which sets each
//     node's CPUs.
//
// The 22.05 harness placed --gpus=1 -n 12 with n1's GPUs taken on n2 (8
// CPUs, no GPU) and n3 (4 CPUs and the GPU), and --gpus=3 -n 3 on idle
// nodes as n2 with 2 CPUs and 2 GPUs, n3 with 1 and 1.
func (c *Cluster) evalPerJob(req *Request, dst Alloc, nodes, avail []int) (Alloc, Fit) {
	g := &req.Gres[0]
	gfree := c.evGPU[:0]
	keptN, keptA := nodes[:0], avail[:0]
	for i, n := range nodes {
		if f := c.freeMatching(n, g.Mask); f > 0 && avail[i] > 0 {
			keptN, keptA, gfree = append(keptN, n), append(keptA, avail[i]), append(gfree, f)
		}
	}
	nodes, avail = keptN, keptA
	c.evGPU = gfree
	sets := c.consecSets(c.evSets[:0], nodes, avail)
	c.evSets = sets
	setGPUs := c.evSetGPU[:0]
	for _, s := range sets {
		k := 0
		for i := s.first; i < s.end; i++ {
			k += gfree[i]
		}
		setGPUs = append(setGPUs, k)
	}
	c.evSetGPU = setGPUs
	remCPUs, remMax, remGPUs := req.CPUs, req.CPUs, g.PerJob
	remNodes, minRem := req.MinNodeCount(), req.MinNodeCount() // req_nodes = min_nodes
	maxNodes := req.maxNodes()
	chosen, use := c.evChosen[:0], c.evUse[:0]
	done := func() bool { return remNodes <= 0 && remCPUs <= 0 && remGPUs <= 0 }
	for maxNodes > 0 && !done() {
		best, bestSuff := -1, false
		var bw, bc int
		for i := range sets {
			s := &sets[i]
			if s.nodes == 0 {
				continue
			}
			suff := s.cpus >= remCPUs && s.nodes >= remNodes && setGPUs[i] >= remGPUs
			if best < 0 || betterSet(s.weight, s.cpus, suff, bw, bc, bestSuff) {
				best, bestSuff, bw, bc = i, suff, s.weight, s.cpus
			}
		}
		if best < 0 {
			break
		}
		s := &sets[best]
		if remNodes <= 1 {
			fit := -1
			for i := s.first; i < s.end; i++ {
				if avail[i] >= remCPUs && gfree[i] >= remGPUs && (fit < 0 || avail[i] < avail[fit]) {
					fit = i
					if avail[i] == remCPUs {
						break
					}
				}
			}
			if fit >= 0 {
				for i := s.first; i < s.end; i++ {
					if i != fit {
						avail[i] = 0
					}
				}
			}
		}
		for i := s.first; i < s.end && maxNodes > 0 && !done(); i++ {
			u := avail[i]
			if u <= 0 || maxNodes == 1 && u < remCPUs {
				continue
			}
			u = min(u, max(remMax-max(minRem-1, 0), 1)) // _cpus_to_use
			chosen, use = append(chosen, i), append(use, u)
			remCPUs -= u
			remMax -= u
			remGPUs -= gfree[i]
			remNodes--
			minRem--
			maxNodes--
			avail[i] = 0
		}
		s.cpus, s.nodes, setGPUs[best] = 0, 0, 0
	}
	c.evChosen, c.evUse = chosen, use
	if !(remCPUs <= 0 && remGPUs <= 0) {
		return dst, NotNow
	}
	// The tasks, one per CPU, cyclically over the nodes' usable CPUs.
	cpus := c.evCPUs[:0]
	for range chosen {
		cpus = append(cpus, 0)
	}
	c.evCPUs = cpus
	for left := req.CPUs; left > 0; {
		gave := false
		for k := range chosen {
			if left > 0 && cpus[k] < use[k] {
				cpus[k]++
				left--
				gave = true
			}
		}
		if !gave {
			break
		}
	}
	if c.sink != nil {
		for _, i := range chosen {
			n := nodes[i]
			c.sink[n>>6] |= 1 << (n & 63)
		}
		return dst, FitsNow
	}
	need := g.PerJob
	for k, i := range chosen {
		n := nodes[i]
		want := min(gfree[i], need-(len(chosen)-k-1))
		var t GresTake
		if want > 0 {
			c.gleft = append(c.gleft[:0], want)
			t, _ = c.gresTake(req, n, c.gleft)
			need -= want
		}
		dst = append(dst, Slice{n, max(cpus[k], 1), c.memFor(req, n, max(cpus[k], 1), t), t})
	}
	return dst, FitsNow
}
