package sim

import (
	"fmt"
	"math/bits"
	"slices"
)

// Slice is the part of an allocation on one node.
type Slice struct {
	Node  int
	Cores int
	MemMB int64
	Gres  GresTake // GRES taken, by position in the node's Gres
}

// Alloc is a job's allocation: cores and memory on one or more nodes.
type Alloc []Slice

// Cores is the total number of cores allocated.
func (a Alloc) Cores() int {
	n := 0
	for _, s := range a {
		n += s.Cores
	}
	return n
}

// MemMB is the total memory allocated.
func (a Alloc) MemMB() int64 {
	var n int64
	for _, s := range a {
		n += s.MemMB
	}
	return n
}

// Request is what a job needs from one partition.
type Request struct {
	CPUs  int
	Nodes int // minimum node count; 0 or less lets the allocator choose
	// MaxNodes caps the nodes the allocator may choose when Nodes is 0
	// (the partition's MaxNodes, get_node_cnts' max_nodes); 0: no cap.
	MaxNodes int
	// MinNodes is the nodes a job without a node count must spread over
	// (a partition's MinNodes, get_node_cnts' min_nodes, which is then
	// also its req_nodes): at least that many, each with a CPU; 0 or 1
	// for none.
	MinNodes  int
	MemPerCPU int64 // MB per CPU; or MemCoreShare, MemWholeNode, or 0 for none
	// MemPerNode is MB on each node (--mem, DefMemPerNode); when set it
	// takes the place of MemPerCPU.
	MemPerNode int64
	Exclusive  bool // whole nodes (OverSubscribe=EXCLUSIVE or --exclusive)
	Type       int  // required CPU type index; negative for any
	// Gres are the job's GRES requests resolved against the cluster;
	// GresID tells requests with different GRES apart (the job's
	// workload.Job.Gres), for memos keyed by request shape.
	Gres   []GresNeed
	GresID int32
	// Limit is the job's longest time limit in force on any node of the
	// cluster (0: unlimited), which a maintenance reservation's start
	// must not fall within.
	Limit int64
	// MemPerGPU is MB per GPU on each node (DefMemPerGPU, for a job that
	// asks no memory); when set it takes the place of MemPerCPU.
	MemPerGPU int64
	// Resv is the reservation the job asked for (1 + its index among the
	// run's reservations that are not MAINT), 0 for none: it places only
	// on that reservation's nodes while it is active, and others avoid
	// them.
	Resv int32
}

// Fit is the answer of a fit test, as kube-scheduler distinguishes
// Unschedulable from UnschedulableAndUnresolvable: backfill reserves for
// NotNow and skips Never.
type Fit uint8

// Fit outcomes.
const (
	FitsNow Fit = iota // resources are free now
	NotNow             // the partition could hold it, but not with what is free
	Never              // the partition can never hold it
)

func (f Fit) String() string {
	return [...]string{"fits now", "not now", "never"}[f]
}

// Special values of Request.MemPerCPU.
const (
	// MemCoreShare is a core's share of its node's memory per core.
	MemCoreShare int64 = -1
	// MemWholeNode is all of each node's memory (Slurm's --mem=0, and
	// what a job asking none gets without DefMemPerCPU/DefMemPerNode).
	MemWholeNode int64 = -2
)

// memFor is the memory a job takes with cores and GRES t on node n.
func (c *Cluster) memFor(req *Request, n, cores int, t GresTake) int64 {
	nd := &c.Nodes[n]
	switch {
	case req.Exclusive || req.MemPerCPU == MemWholeNode:
		return nd.MemMB
	case req.MemPerNode > 0:
		return req.MemPerNode
	case req.MemPerGPU > 0:
		return int64(c.gpusOf(n, t)) * req.MemPerGPU
	case req.MemPerCPU == MemCoreShare:
		return int64(cores) * nd.MemMB / int64(nd.Cores)
	}
	return int64(cores) * max(req.MemPerCPU, 0)
}

// UsableCores is how many of a node's free cores a request could take,
// given the node's free memory: the one rule placement, fit tests and the
// backfill profile share.
func (r *Request) UsableCores(cores int, mem int64, freeCores int, freeMem int64) int {
	k := freeCores
	switch {
	case r.MemPerCPU == MemWholeNode:
		if freeMem < mem {
			k = 0
		}
	case r.MemPerNode > 0:
		if freeMem < r.MemPerNode {
			k = 0
		}
	case r.MemPerGPU > 0:
		if freeMem < r.MemPerGPU*int64(r.gpusPerNode()) {
			k = 0
		}
	case r.MemPerCPU > 0:
		k = min(k, int(freeMem/r.MemPerCPU))
	case r.MemPerCPU == MemCoreShare && mem > 0:
		// Other jobs may have taken more than their share, so memory
		// can still be the limit.
		k = min(k, int(freeMem*int64(cores)/mem))
	}
	return max(k, 0)
}

// playWord is word wi of the nodes in play of a will-run test, by
// allocation rank (all nodes outside one).
func (c *Cluster) playWord(wi int) uint64 {
	if c.play == nil {
		return ^uint64(0)
	}
	return c.play[wi]
}

// mayOut reports whether out could be true for some node: placements
// skip asking it node by node when not.
func (c *Cluster) mayOut() bool {
	return c.except != nil || c.exceptFn != nil || c.resvFrom != nil || c.resvWin != nil || c.allocResv != 0 ||
		c.cgN > 0 && !c.inWillRun
}

func (c *Cluster) out(n int) bool {
	return (c.except != nil && c.except[n]) || (c.exceptFn != nil && c.exceptFn(n)) ||
		(c.resvFrom != nil && c.resvFrom[n] < c.allocEnd) ||
		((c.resvWin != nil || c.allocResv != 0) && c.resvBars(n, c.allocResv, c.Now, c.allocEnd)) ||
		c.cgOut(n)
}

// HasReservations reports whether a reservation may keep nodes from jobs
// by their time limits or the reservation they ask for (placements then
// depend on Limit and Resv).
func (c *Cluster) HasReservations() bool { return c.resvFrom != nil || c.resvWin != nil }

// TryAllocFunc is TryAlloc without the nodes for which out is true (for
// example nodes a plan has reserved over the job's time limit).
func (c *Cluster) TryAllocFunc(req *Request, p int, out func(n int) bool, dst Alloc) (Alloc, Fit) {
	c.exceptFn = out
	defer func() { c.exceptFn = nil }()
	return c.TryAllocExcept(req, p, nil, dst)
}

func (c *Cluster) typeOK(req *Request, n int) bool {
	return req.Type < 0 || c.Nodes[n].Type == req.Type
}

// Capacity tells whether partition p could ever hold the request, and if not
// which resource falls short. It checks necessary conditions against the
// partition's hardware (so "Never" is always true), over the partition's
// few node shapes rather than its nodes.
func (c *Cluster) Capacity(req *Request, p int) (Fit, string) {
	part := &c.Parts[p]
	var cores, nodes, bigNodes int
	need := 1
	if req.Nodes > 0 {
		need = (req.CPUs + req.Nodes - 1) / req.Nodes
	}
	gres := len(req.Gres) > 0
	// CPU-only placement (evalNodes) may give a node of -N k as little
	// as one CPU: such a job needs k nodes whose k largest hold its CPUs.
	spread := req.Nodes > 1 && !gres
	// A partition's MaxNodes: the job's CPUs must fit on that many nodes.
	capped := req.capped()
	usables := c.capUsable[:0]
	for _, sh := range part.shapes {
		if req.Type >= 0 && sh.typ != req.Type {
			continue
		}
		if gres && !c.gresHolds(req, sh.node) {
			continue // a node of this shape never has the GRES asked on it
		}
		usable := sh.cores
		if !req.Exclusive {
			usable = req.UsableCores(sh.cores, sh.mem, sh.cores, sh.mem)
		}
		if k := c.capOf(p); k >= 0 {
			// MaxCPUsPerNode: a job gets at most the cap of a node,
			// and a whole-node job none whose CPUs exceed it.
			if req.Exclusive && sh.cores > c.caps.max[k] {
				continue
			}
			usable = min(usable, c.caps.max[k])
		}
		if usable <= 0 {
			continue
		}
		nodes += sh.count
		cores += usable * sh.count
		if usable >= need {
			bigNodes += sh.count
		}
		if spread || capped {
			usables = append(usables, [2]int{usable, sh.count})
		}
	}
	c.capUsable = usables
	topK := 0 // the CPUs of the req.Nodes (or MaxNodes) nodes with the most usable
	if spread || capped {
		k := req.Nodes
		if capped {
			k = req.MaxNodes
		}
		slices.SortFunc(usables, func(a, b [2]int) int { return b[0] - a[0] })
		for i := 0; k > 0 && i < len(usables); i++ {
			m := min(k, usables[i][1])
			topK += m * usables[i][0]
			k -= m
		}
	}
	if len(req.Gres) > 0 {
		if why := c.gresShort(req, p); why != "" {
			return Never, why
		}
	}
	switch {
	case req.CPUs <= 0:
		return Never, "no CPUs requested"
	case nodes == 0 && gres:
		return Never, fmt.Sprintf("no node in %s has the GRES asked with the CPU and memory asked", part.Name)
	case nodes == 0 && req.Type >= 0:
		return Never, fmt.Sprintf("no %s node in %s can hold a CPU with the memory asked", c.Types[req.Type].Name, part.Name)
	case nodes == 0 && req.Exclusive && c.capOf(p) >= 0:
		return Never, fmt.Sprintf("whole nodes asked, and every node of %s has more CPUs than its MaxCPUsPerNode %d", part.Name, c.caps.max[c.capOf(p)])
	case nodes == 0:
		return Never, fmt.Sprintf("no node in %s can hold a CPU with the memory asked", part.Name)
	case req.minSpread() && req.MaxNodes > 0 && req.MaxNodes < req.MinNodes:
		// get_node_cnts: max_nodes under min_nodes
		// (ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE), for as long as
		// the partition stays so.
		return Never, fmt.Sprintf("partition %s's MaxNodes %d is under its MinNodes %d", part.Name, req.MaxNodes, req.MinNodes)
	case req.minSpread() && nodes < req.MinNodes:
		return Never, fmt.Sprintf("partition %s's MinNodes %d, and %d of its nodes can hold a CPU with the memory asked", part.Name, req.MinNodes, nodes)
	case spread && nodes < req.Nodes:
		return Never, fmt.Sprintf("%d nodes asked, partition %s has %d that can hold a CPU with the memory asked", req.Nodes, part.Name, nodes)
	case spread && topK < req.CPUs:
		return Never, fmt.Sprintf("%d CPUs on %d nodes asked, the %d largest nodes of partition %s can give %d", req.CPUs, req.Nodes, req.Nodes, part.Name, topK)
	case capped && topK < req.CPUs:
		// job_mgr.c refuses it at submission (select_nodes' test of
		// the partition's nodes with max_nodes capped): "Requested
		// node configuration is not available".
		return Never, fmt.Sprintf("%d CPUs asked, partition %s gives a job at most %d nodes (MaxNodes), whose largest can give %d", req.CPUs, part.Name, req.MaxNodes, topK)
	case !spread && req.Nodes > 0 && bigNodes < req.Nodes:
		return Never, fmt.Sprintf("%d nodes with %d CPUs each asked, partition %s has %d such nodes%s", req.Nodes, need, part.Name, bigNodes, c.capNote(p))
	case cores < req.CPUs:
		return Never, fmt.Sprintf("%d CPUs asked, partition %s can give at most %d%s", req.CPUs, part.Name, cores, c.capNote(p))
	}
	return FitsNow, ""
}

// shape is a class of identical nodes in a partition; node is one of
// them, for their GRES.
type shape struct {
	typ, cores, count int
	mem               int64
	gres              string
	node              int
}

// gresSig tells nodes with the same GRES apart from others, for shapes.
func gresSig(gs []NodeGres) string {
	if len(gs) == 0 {
		return ""
	}
	var b []byte
	for _, g := range gs {
		b = fmt.Appendf(b, "%d:%d,", g.Kind, g.Count)
	}
	return string(b)
}

// TryAlloc finds an allocation for req on partition p with the resources
// free now, appending it to dst. Placement is deterministic:
//   - exclusive jobs take idle nodes in partition order (Weight, index);
//   - jobs with a node count take the nodes with the fewest free cores that
//     still fit (best fit), ties by partition order;
//   - other jobs (CPUs without a node count, or -N1) are placed as
//     cons_tres's _eval_nodes places them (evalnodes.go): the lowest-Weight,
//     then tightest sufficient set of consecutive usable nodes, in it the
//     single node with the fewest usable CPUs that holds the job, else the
//     set's nodes in node order, each giving all it can.
//
// It reports NotNow when nothing fits; Short tells which resource is short.
// It formats nothing, so failed tests in a pass cost no allocation.
func (c *Cluster) TryAlloc(req *Request, p int, dst Alloc) (Alloc, Fit) {
	return c.TryAllocExcept(req, p, nil, dst)
}

// TryAllocExcept is TryAlloc without the nodes marked in except (nodes a
// pass has taken out of play: a blocked partition's, or reserved ones).
func (c *Cluster) TryAllocExcept(req *Request, p int, except []bool, dst Alloc) (Alloc, Fit) {
	c.except = except
	defer func() { c.except = nil }()
	c.allocResv = req.Resv
	if c.resvFrom != nil || c.resvWin != nil {
		c.allocEnd = noResv
		if req.Limit > 0 {
			c.allocEnd = c.Now + req.Limit
		}
	}
	part := &c.Parts[p]
	if part.FreeCores < req.CPUs || !part.State.Schedules() {
		return dst, NotNow
	}
	if len(req.Gres) > 0 && c.FreeGPUs < req.gpusPerNode() {
		return dst, NotNow
	}
	if req.Exclusive || part.Exclusive {
		r := *req
		r.Exclusive = true
		if len(r.Gres) > 0 {
			return c.allocExclusive(&r, p, dst)
		}
		return c.evalNodes(&r, p, dst)
	}
	if len(req.Gres) > 0 && !req.perNodeGres() && !req.perJobGres() {
		if req.minSpread() {
			// GRES whose memory follows them, under a partition's
			// MinNodes: on exactly that many nodes.
			r := *req
			r.Nodes = r.MinNodes
			return c.allocNodes(&r, p, dst)
		}
		if req.Nodes > 1 {
			return c.allocNodes(req, p, dst)
		}
		return c.allocGres(req, p, dst)
	}
	return c.evalNodes(req, p, dst)
}

// maxNodes is _eval_nodes' max_nodes: the node count asked (sbatch -N k:
// min_nodes = max_nodes = k), else the task count (choose_nodes caps an
// unlimited max_nodes at num_tasks; one CPU per task here), capped by the
// partition's MaxNodes (get_node_cnts).
func (r *Request) maxNodes() int {
	switch {
	case r.Nodes >= 1:
		return r.Nodes
	case r.MaxNodes > 0:
		return min(r.CPUs, r.MaxNodes)
	}
	return r.CPUs
}

// MinNodeCount is the fewest nodes the request can take: its node count,
// else its partition's MinNodes, else one.
func (r *Request) MinNodeCount() int { return max(r.Nodes, r.MinNodes, 1) }

// minSpread reports whether a partition's MinNodes spreads a job without a
// node count over several nodes, which _eval_nodes then places with
// rem_nodes = MinNodes and max_nodes as without it (evalCount).
func (r *Request) minSpread() bool { return r.Nodes < 1 && r.MinNodes > 1 }

// capped reports whether a partition's MaxNodes may keep a job without a
// node count from taking as many nodes as it has CPUs.
func (r *Request) capped() bool { return r.Nodes < 1 && r.MaxNodes > 0 && r.MaxNodes < r.CPUs }

// perNodeGres reports whether every GRES of the request is a count per
// node (--gres, --gpus-per-node) and its memory does not follow the GRES
// taken: cons_tres places it as a job without GRES on the nodes that have
// them free (_select_cores leaves a node lacking them no CPU), which
// evalNodes does.
func (r *Request) perNodeGres() bool {
	if r.MemPerGPU > 0 {
		return false
	}
	for i := range r.Gres {
		if r.Gres[i].PerJob > 0 {
			return false
		}
	}
	return true
}

// allocGres is TryAllocExcept's single-node and spread placement for a
// request with GRES (kept apart so CPU-only placement pays nothing for
// it): the same best fit, on nodes with the GRES free; a spread takes the
// per-job GRES node by node, and a node taken only for GRES still gets a
// CPU, as cons_tres gives every node of a job at least one.
func (c *Cluster) allocGres(req *Request, p int, dst Alloc) (Alloc, Fit) {
	part := &c.Parts[p]
	best := -1
	var bestTake GresTake
	if req.CPUs <= part.MaxNodeCores {
		for wi, w := range c.freeBits {
			w &= c.playWord(wi)
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &= w - 1
				n := c.byRank[wi*64+b]
				nd := &c.Nodes[n]
				if min(nd.FreeCores, c.CapLeft(p, n)) < req.CPUs || !part.member[n] || !c.typeOK(req, n) || c.out(n) || !c.gresOK(req, n, true) {
					continue
				}
				t, _ := c.gresTake(req, n, req.perJobLeft(c.gleft[:0]))
				if nd.FreeMem < c.memFor(req, n, req.CPUs, t) {
					continue
				}
				if best < 0 || nd.FreeCores < c.Nodes[best].FreeCores { // ties: the first in allocation order
					best, bestTake = n, t
				}
			}
		}
	}
	if best >= 0 {
		return append(dst, Slice{best, req.CPUs, c.memFor(req, best, req.CPUs, bestTake), bestTake}), FitsNow
	}
	if req.Nodes == 1 {
		return dst, NotNow
	}
	b := c.bucket(req, p, 1)
	left := req.CPUs
	start := len(dst)
	gleft := req.perJobLeft(c.gleft[:0])
	c.gleft = gleft
	for k := len(b) - 1; k > 0 && (left > 0 || anyLeft(gleft)); k-- {
		for _, n := range b[k] {
			if left == 0 && !c.gresHelps(req, n, gleft) {
				continue
			}
			take := max(min(left, k), 1)
			t, _ := c.gresTake(req, n, gleft)
			dst = append(dst, Slice{n, take, c.memFor(req, n, take, t), t})
			left = max(left-take, 0)
			if left == 0 && !anyLeft(gleft) {
				break
			}
		}
	}
	if left == 0 && !anyLeft(gleft) {
		return dst, FitsNow
	}
	return dst[:start], NotNow
}

// gpusPerNode is the GRES count the request needs on each node, for quick
// rejections and the memory of DefMemPerGPU.
func (r *Request) gpusPerNode() int {
	k := 0
	for i := range r.Gres {
		k += r.Gres[i].PerNode
	}
	return k
}

// perJobLeft appends each need's per-job count to dst, the counts a
// placement still has to find.
func (r *Request) perJobLeft(dst []int) []int {
	for i := range r.Gres {
		dst = append(dst, r.Gres[i].PerJob)
	}
	return dst
}

func anyLeft(left []int) bool {
	for _, k := range left {
		if k > 0 {
			return true
		}
	}
	return false
}

// gresHelps reports whether node n has a free GRES some per-job need
// still lacks.
func (c *Cluster) gresHelps(req *Request, n int, left []int) bool {
	for i := range req.Gres {
		if left[i] > 0 && c.freeMatching(n, req.Gres[i].Mask) > 0 {
			return true
		}
	}
	return false
}

// Short explains why req does not fit partition p now, for pending reasons
// and explain; it is not on the scheduling hot path.
func (c *Cluster) Short(req *Request, p int) string {
	part := &c.Parts[p]
	if part.FreeCores < req.CPUs {
		return fmt.Sprintf("%d CPUs asked, %d free in %s", req.CPUs, part.FreeCores, part.Name)
	}
	if k := c.capOf(p); k >= 0 {
		left := 0
		for _, n := range part.Nodes {
			if c.Nodes[n].State.Usable() {
				left += min(c.Nodes[n].FreeCores, c.CapLeft(p, n))
			}
		}
		if left < req.CPUs {
			return fmt.Sprintf("%d CPUs asked, %d free in %s and %d of them under its MaxCPUsPerNode %d", req.CPUs, part.FreeCores, part.Name, left, c.caps.max[k])
		}
	}
	if len(req.Gres) > 0 {
		return fmt.Sprintf("%d CPUs with their GRES and memory not free in %s", req.CPUs, part.Name)
	}
	if req.Exclusive || part.Exclusive {
		return fmt.Sprintf("whole nodes for %d CPUs asked, not enough idle nodes in %s", req.CPUs, part.Name)
	}
	if req.Nodes > 1 {
		return fmt.Sprintf("%d CPUs on %d nodes with the memory asked not free in %s", req.CPUs, req.Nodes, part.Name)
	}
	if req.Type >= 0 {
		return fmt.Sprintf("%d %s CPUs with the memory asked not free in %s", req.CPUs, c.Types[req.Type].Name, part.Name)
	}
	return fmt.Sprintf("%d CPUs with the memory asked not free in %s", req.CPUs, part.Name)
}

// bucket sorts the partition's free nodes that could give at least minK
// cores by how many they could give, each bucket in allocation order.
func (c *Cluster) bucket(req *Request, p int, minK int) [][]int {
	b := c.buckets
	for k := range b {
		b[k] = b[k][:0]
	}
	part := &c.Parts[p]
	for wi, w := range c.freeBits {
		w &= c.playWord(wi)
		for w != 0 {
			bit := bits.TrailingZeros64(w)
			w &= w - 1
			n := c.byRank[wi*64+bit]
			if part.member[n] && c.typeOK(req, n) && !c.out(n) && (len(req.Gres) == 0 || c.gresOK(req, n, false)) {
				if k := min(c.coresWithMem(req, n), c.CapLeft(p, n)); k >= minK && k > 0 {
					b[k] = append(b[k], n)
				}
			}
		}
	}
	return b
}

// coresWithMem is how many cores of node n a job could use now, given its
// memory per CPU.
func (c *Cluster) coresWithMem(req *Request, n int) int {
	nd := &c.Nodes[n]
	return req.UsableCores(nd.Cores, nd.MemMB, nd.FreeCores, nd.FreeMem)
}

// order is the allocation order of nodes: Weight, then index.
func (c *Cluster) order(a, b int) int {
	wa, wb := c.Nodes[a].Weight, c.Nodes[b].Weight
	if wa != wb {
		return wa - wb
	}
	return a - b
}

func (c *Cluster) allocNodes(req *Request, p int, dst Alloc) (Alloc, Fit) {
	per := (req.CPUs + req.Nodes - 1) / req.Nodes
	b := c.bucket(req, p, per)
	count := 0
	for k := per; k < len(b); k++ {
		count += len(b[k])
	}
	if count < req.Nodes {
		return dst, NotNow
	}
	gres := len(req.Gres) > 0
	var gleft []int
	if gres {
		gleft = req.perJobLeft(c.gleft[:0])
		c.gleft = gleft
	}
	// Fewest free cores first (best fit), then allocation order.
	start := len(dst)
	i := 0
	for k := per; k < len(b) && i < req.Nodes; k++ {
		for _, n := range b[k] {
			if i == req.Nodes {
				break
			}
			take := req.CPUs / req.Nodes
			if i < req.CPUs%req.Nodes {
				take++
			}
			var t GresTake
			if gres {
				t, _ = c.gresTake(req, n, gleft)
			}
			dst = append(dst, Slice{n, take, c.memFor(req, n, take, t), t})
			i++
		}
	}
	if anyLeft(gleft) {
		return dst[:start], NotNow
	}
	return dst, FitsNow
}

func (c *Cluster) allocExclusive(req *Request, p int, dst Alloc) (Alloc, Fit) {
	part := &c.Parts[p]
	start := len(dst)
	cores, nodes := 0, 0
	gres := len(req.Gres) > 0
	var gleft []int
	if gres {
		gleft = req.perJobLeft(c.gleft[:0])
		c.gleft = gleft
	}
	for _, n := range part.Nodes { // already in (Weight, index) order
		nd := &c.Nodes[n]
		if nd.FreeCores != nd.Cores || !c.typeOK(req, n) || nd.FreeMem != nd.MemMB || c.play != nil && c.play[nd.rank/64]&(1<<(nd.rank%64)) == 0 || c.out(n) || !c.CapWhole(p, n) {
			continue
		}
		if gres {
			if !c.gresOK(req, n, false) {
				continue
			}
			c.gresTake(req, n, gleft) // count what the node gives per job
		}
		dst = append(dst, Slice{n, nd.Cores, nd.MemMB, c.wholeTake(n)})
		cores += nd.Cores
		nodes++
		if cores >= req.CPUs && nodes >= req.MinNodeCount() && !anyLeft(gleft) {
			return dst, FitsNow
		}
		if nodes == req.MaxNodes {
			break // the partition's MaxNodes
		}
	}
	return dst[:start], NotNow
}

// Provisional is the allocation req would get on exactly the given
// nodes, whatever they hold now: a preemptor's, checked against its
// limits before its victims are stopped (select_nodes checks them after
// selection, before _preempt_jobs). Whole nodes, GRES included, when
// exclusive; else its CPUs spread over the nodes in order, as evenly as
// they go, with the memory each share takes, and no GRES (the request's
// GRES are counted from the request).
func (c *Cluster) Provisional(req *Request, nodes []int, dst Alloc) Alloc {
	if len(nodes) == 0 {
		return dst
	}
	left := max(req.CPUs, len(nodes))
	for i, n := range nodes {
		nd := &c.Nodes[n]
		if req.Exclusive {
			dst = append(dst, Slice{n, nd.Cores, nd.MemMB, c.wholeTake(n)})
			continue
		}
		k := (left + len(nodes) - i - 1) / (len(nodes) - i)
		left -= k
		dst = append(dst, Slice{Node: n, Cores: k, MemMB: c.memFor(req, n, k, 0)})
	}
	return dst
}

// apply takes or returns the resources of an allocation in partition p.
func (c *Cluster) apply(a Alloc, p int, take bool) {
	for _, s := range a {
		if take {
			c.take(s.Node, p, s.Cores, s.MemMB, s.Gres)
		} else {
			c.give(s.Node, p, s.Cores, s.MemMB, s.Gres)
		}
	}
}

// AllocSpread places a CPU-only request on exactly the given nodes of
// partition p, each giving at least one CPU: in the order given, each
// node gives as many of its usable CPUs as it can while leaving one for
// every node after it. It is for replaying a recorded placement (sacct
// names a job's nodes, not its CPUs on each); NotNow when the nodes
// cannot hold the request that way.
func (c *Cluster) AllocSpread(req *Request, p int, nodes []int, dst Alloc) (Alloc, Fit) {
	start := len(dst)
	if len(req.Gres) > 0 || len(nodes) == 0 || len(nodes) > req.CPUs || !c.Parts[p].State.Schedules() {
		return dst, NotNow
	}
	left := req.CPUs
	for i, n := range nodes {
		nd := &c.Nodes[n]
		if !c.InPartition(p, n) || !nd.State.Usable() || !c.typeOK(req, n) {
			return dst[:start], NotNow
		}
		u := min(req.UsableCores(nd.Cores, nd.MemMB, nd.FreeCores, nd.FreeMem), c.CapLeft(p, n))
		if req.Exclusive || c.Parts[p].Exclusive {
			if nd.FreeCores != nd.Cores || !c.CapWhole(p, n) {
				return dst[:start], NotNow
			}
		}
		k := min(u, left-(len(nodes)-1-i))
		if k <= 0 {
			return dst[:start], NotNow
		}
		dst = append(dst, Slice{n, k, c.memFor(req, n, k, 0), 0})
		left -= k
	}
	if left > 0 {
		return dst[:start], NotNow
	}
	return dst, FitsNow
}
