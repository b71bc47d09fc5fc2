package sim

import "math/bits"

// consecSet is one of cons_tres's sets of consecutive nodes: nodes with
// consecutive indices, all of one Weight, each with a CPU the job could
// use. first and end index Cluster.evNodes.
type consecSet struct {
	first, end  int
	cpus, nodes int
	weight      int
}

// evalNodes places a job that asks CPUs but no node count beyond -N1
// (min_nodes 1, req_nodes 1) and no GRES, whole node or exclusivity, as
// Slurm 22.05's select/cons_tres does it in
// src/plugins/select/cons_tres/job_test.c _eval_nodes (the default
// branch: no topology, LLN, pack_serial_at_end or bf_busy_nodes):
//
//  1. The nodes the job could use (in the partition and in play, with at
//     least one CPU usable with the memory asked) form sets of consecutive
//     nodes: a set ends at a node it cannot use and where Weight changes.
//  2. The best set is the one of lowest Weight; among equal weights the
//     first that is sufficient (its CPUs cover what is still asked), then
//     any sufficient one with strictly fewer CPUs (the tightest fit), and
//     while none is sufficient the one with the most CPUs.
//  3. While one node is still to be found (rem_nodes <= 1), the best set's
//     single node with the fewest usable CPUs that holds the rest of the
//     job wins (the first such in node order); its other nodes drop out.
//  4. Otherwise the set's nodes are taken in node order, each giving all
//     its usable CPUs up to what is still asked (_cpus_to_use caps the
//     last), and a node that cannot be the job's last while only one more
//     node is allowed (max_nodes == 1) is passed over.
//  5. A set that did not finish the job is spent and the next best set is
//     taken, until the CPUs are found.
//
// max_nodes is the task count (choose_nodes caps an unlimited max_nodes at
// num_tasks), taken here as the CPU count (one CPU per task), or 1 for
// -N1. Each node's CPUs are what _eval_nodes gave it: with the last node
// capped, they sum to the CPUs asked, so dist_tasks_compute_c_b's cyclic
// task layout over them hands each node exactly its count. choose_nodes'
// retry without the nodes of few CPUs cannot succeed where this fails (a
// CPU-only job fails here only when the sets together lack its CPUs), so
// it is not modelled.
func (c *Cluster) evalNodes(req *Request, p int, dst Alloc) (Alloc, Fit) {
	part := &c.Parts[p]
	outs := c.mayOut()
	nodes, avail, sets := c.evNodes[:0], c.evAvail[:0], c.evSets[:0]
	defer func() { c.evNodes, c.evAvail, c.evSets = nodes[:0], avail[:0], sets[:0] }()
	last := -2
	typed := req.Type >= 0 && len(c.fl.typeRank) == 0
	for wi, w := range c.freeBits {
		w &= part.rankBits[wi] & c.playWord(wi) & c.typeWord(req, wi)
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			n := c.byRank[wi*64+b]
			if typed && !c.typeOK(req, n) || outs && c.out(n) {
				continue
			}
			nd := &c.Nodes[n]
			u := req.UsableCores(nd.Cores, nd.MemMB, nd.FreeCores, nd.FreeMem)
			if u <= 0 {
				continue
			}
			wt := nd.Weight
			if k := len(sets) - 1; k < 0 || n != last+1 || sets[k].weight != wt {
				sets = append(sets, consecSet{first: len(nodes), end: len(nodes), weight: wt})
			}
			s := &sets[len(sets)-1]
			nodes, avail = append(nodes, n), append(avail, u)
			s.end++
			s.cpus += u
			s.nodes++
			last = n
		}
	}
	start := len(dst)
	remCPUs, remMax := req.CPUs, req.CPUs
	remNodes := 1
	maxNodes := req.CPUs
	if req.Nodes == 1 {
		maxNodes = 1
	}
	done := false
	for maxNodes > 0 && !done {
		best := -1
		bestSuff := false
		for i := range sets {
			s := &sets[i]
			if s.nodes == 0 {
				continue
			}
			suff := s.cpus >= remCPUs && s.nodes >= remNodes
			nb := best < 0 || s.weight < sets[best].weight
			if !nb && s.weight == sets[best].weight &&
				(suff && !bestSuff || suff && s.cpus < sets[best].cpus || !suff && s.cpus > sets[best].cpus) {
				nb = true
			}
			if nb {
				best, bestSuff = i, suff
			}
		}
		if best < 0 {
			break
		}
		s := &sets[best]
		if remNodes <= 1 {
			fit := -1
			for i := s.first; i < s.end; i++ {
				if avail[i] >= remCPUs && (fit < 0 || avail[i] < avail[fit]) {
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
		for i := s.first; i < s.end; i++ {
			if maxNodes == 0 || remNodes <= 0 && remCPUs <= 0 {
				break
			}
			u := avail[i]
			if u <= 0 || maxNodes == 1 && u < remCPUs {
				continue
			}
			// _cpus_to_use: min_rem_nodes is at most 1 here, so no
			// CPUs are kept back for later nodes.
			u = min(u, max(remMax, 1))
			n := nodes[i]
			dst = append(dst, Slice{n, u, c.memFor(req, n, u, 0), 0})
			avail[i] = 0
			remCPUs -= u
			remMax -= u
			remNodes--
			maxNodes--
		}
		done = remNodes <= 0 && remCPUs <= 0
		s.cpus, s.nodes = 0, 0
	}
	if !done {
		return dst[:start], NotNow
	}
	return dst, FitsNow
}
