package sim

import (
	"fmt"
	"strings"

	"fairsim/workload"
)

// GresKind is one kind of generic resource in the cluster: a GRES name and
// its type ("gpu", "a100"), Type empty for untyped GRES (Gres=gpu:4).
type GresKind struct {
	Name, Type string
}

// String is the kind as slurm.conf and TRES names spell it: gpu:a100, gpu.
func (k GresKind) String() string {
	if k.Type == "" {
		return k.Name
	}
	return k.Name + ":" + k.Type
}

// GresCount is a count of one GRES kind, as NodeName ... Gres= gives it.
type GresCount struct {
	Name, Type string
	Count      int
}

// NodeGres is a node's count of one GRES kind and how many are free.
type NodeGres struct {
	Kind  int // index into Cluster.GresKinds
	Count int
	Free  int
}

// MaxNodeGres is how many GRES kinds one node may have: a GresTake packs
// one 16-bit count per kind.
const MaxNodeGres = 4

// maxNodeGresCount is the largest count of one kind on one node.
const maxNodeGresCount = 1<<16 - 1

// GresTake is what a Slice takes of its node's GRES: a 16-bit count per
// position in the node's Gres list, packed so a Slice stays small for the
// many jobs that take none.
type GresTake uint64

// At is the count taken of the node's i-th GRES kind.
func (t GresTake) At(i int) int { return int(t >> (16 * uint(i)) & 0xffff) }

func (t GresTake) with(i, n int) GresTake {
	sh := 16 * uint(i)
	return t&^(0xffff<<sh) | GresTake(n)<<sh
}

// GresNeed is one GRES request of a job resolved against the cluster: the
// kinds that satisfy it (a bit per Cluster.GresKinds index; a typed request
// matches only its type, an untyped one every type of the name), and the
// count per node or over the job.
type GresNeed struct {
	Mask    uint64
	PerNode int // on each node; 0 when the count is over the job
	PerJob  int // over the job; 0 when per node
	Name    string
	Type    string
}

func (g *GresNeed) label() string {
	if g.Type == "" {
		return g.Name
	}
	return g.Name + ":" + g.Type
}

// GresKindIndex returns the index of a GRES kind, or -1.
func (c *Cluster) GresKindIndex(name, typ string) int {
	for i, k := range c.GresKinds {
		if k.Name == name && k.Type == typ {
			return i
		}
	}
	return -1
}

// gresMask is the set of kinds that satisfy a request for name (and typ,
// when not empty).
func (c *Cluster) gresMask(name, typ string) uint64 {
	var m uint64
	for i, k := range c.GresKinds {
		if k.Name == name && (typ == "" || k.Type == typ) {
			m |= 1 << uint(i)
		}
	}
	return m
}

// Needs resolves a job's GRES requests for a request of nodes nodes (0 or
// less: the allocator chooses): a per-job count over a fixed node count
// that divides evenly becomes a per-node count, as users who write
// --gpus=8 -N2 get four on each node.
func (c *Cluster) Needs(reqs []workload.GresReq, nodes int) []GresNeed {
	if len(reqs) == 0 {
		return nil
	}
	out := make([]GresNeed, 0, len(reqs))
	for _, r := range reqs {
		g := GresNeed{Mask: c.gresMask(r.Name, r.Type), Name: r.Name, Type: r.Type}
		switch {
		case r.Per == workload.GresPerNode:
			g.PerNode = int(r.Count)
		case nodes == 1 || nodes > 1 && int(r.Count)%nodes == 0:
			g.PerNode = int(r.Count) / nodes
		default:
			g.PerJob = int(r.Count)
		}
		out = append(out, g)
	}
	return out
}

// freeMatching is how many GRES of node n's kinds in mask are free.
func (c *Cluster) freeMatching(n int, mask uint64) int {
	k := 0
	for _, g := range c.Nodes[n].Gres {
		if mask&(1<<uint(g.Kind)) != 0 {
			k += g.Free
		}
	}
	return k
}

// countMatching is how many GRES of node n's kinds in mask it has.
func (c *Cluster) countMatching(n int, mask uint64) int {
	k := 0
	for _, g := range c.Nodes[n].Gres {
		if mask&(1<<uint(g.Kind)) != 0 {
			k += g.Count
		}
	}
	return k
}

// gresOK reports whether node n has the per-node GRES of req free, and,
// when single, all of its per-job GRES too (the job would run there alone).
func (c *Cluster) gresOK(req *Request, n int, single bool) bool {
	for i := range req.Gres {
		g := &req.Gres[i]
		need := g.PerNode
		if single && g.PerJob > 0 {
			need = g.PerJob
		}
		if need > 0 && c.freeMatching(n, g.Mask) < need {
			return false
		}
	}
	return true
}

// gresHolds reports whether node n has, free or not, the per-node GRES
// counts of req (and all of a one-node job's per-job counts).
func (c *Cluster) gresHolds(req *Request, n int) bool {
	for i := range req.Gres {
		g := &req.Gres[i]
		need := g.PerNode
		if req.Nodes == 1 && g.PerJob > 0 {
			need = g.PerJob
		}
		if need > 0 && c.countMatching(n, g.Mask) < need {
			return false
		}
	}
	return true
}

// gresTake picks GRES on node n for req: each need's per-node count, plus
// up to left[i] of its per-job count (left is decremented). Kinds are taken
// in the node's order, so a typeless request on a node of two types takes
// the first type first, as gres_select_filter walks the node's GRES list.
// It returns false when the node lacks a per-node count.
func (c *Cluster) gresTake(req *Request, n int, left []int) (GresTake, bool) {
	nd := &c.Nodes[n]
	var t GresTake
	for i := range req.Gres {
		g := &req.Gres[i]
		want := g.PerNode
		if g.PerJob > 0 && left != nil {
			want = left[i]
		}
		got := 0
		for p, ng := range nd.Gres {
			if want == got {
				break
			}
			if g.Mask&(1<<uint(ng.Kind)) == 0 {
				continue
			}
			k := min(ng.Free-t.At(p), want-got)
			if k > 0 {
				t = t.with(p, t.At(p)+k)
				got += k
			}
		}
		if g.PerNode > 0 && got < g.PerNode {
			return 0, false
		}
		if g.PerJob > 0 && left != nil {
			left[i] -= got
		}
	}
	return t, true
}

// wholeTake takes all of node n's GRES: a job with whole nodes holds every
// GRES on them, as gres_ctld_job_select_whole_node gives it.
func (c *Cluster) wholeTake(n int) GresTake {
	var t GresTake
	for p, g := range c.Nodes[n].Gres {
		t = t.with(p, g.Count)
	}
	return t
}

// WholeGres is a take of all of node n's GRES.
func (c *Cluster) WholeGres(n int) GresTake { return c.wholeTake(n) }

// gpusOf is how many GPUs a take holds on node n. It reads each GRES's
// Kind alone, never the Free count the run keeps changing: jobs.csv's
// writer goroutine calls it (as SliceGres and AllocGres) while the
// simulation goes on.
func (c *Cluster) gpusOf(n int, t GresTake) int {
	if t == 0 {
		return 0
	}
	k := 0
	gs := c.Nodes[n].Gres
	for p := range gs {
		if c.GresKinds[gs[p].Kind].Name == "gpu" {
			k += t.At(p)
		}
	}
	return k
}

// FreeGres is how many GRES of the kinds in mask node n has free.
func (c *Cluster) FreeGres(n int, mask uint64) int { return c.freeMatching(n, mask) }

// SliceGres is how many GRES of the kinds in mask a slice holds.
func (c *Cluster) SliceGres(s Slice, mask uint64) int {
	if s.Gres == 0 {
		return 0
	}
	k := 0
	gs := c.Nodes[s.Node].Gres
	for p := range gs {
		if mask&(1<<uint(gs[p].Kind)) != 0 {
			k += s.Gres.At(p)
		}
	}
	return k
}

// GresMask is the union of the kinds a request's GRES needs accept.
func (r *Request) GresMask() uint64 {
	var m uint64
	for i := range r.Gres {
		m |= r.Gres[i].Mask
	}
	return m
}

// GresPerNode and GresPerJob are the request's GRES counts on each node and
// over the job, summed over its needs.
func (r *Request) GresPerNode() int { return r.gpusPerNode() }

// GresPerJob is the request's per-job GRES count, summed over its needs.
func (r *Request) GresPerJob() int {
	k := 0
	for i := range r.Gres {
		k += r.Gres[i].PerJob
	}
	return k
}

// SliceGPUs is the number of GPUs a slice holds.
func (c *Cluster) SliceGPUs(s Slice) int { return c.gpusOf(s.Node, s.Gres) }

// AllocGPUs is the number of GPUs an allocation holds.
func (c *Cluster) AllocGPUs(a Alloc) int {
	k := 0
	for _, s := range a {
		k += c.gpusOf(s.Node, s.Gres)
	}
	return k
}

// AllocGres adds an allocation's GRES per kind into dst (indexed by
// Cluster.GresKinds, grown as needed) and returns it.
func (c *Cluster) AllocGres(a Alloc, dst []int) []int {
	if len(dst) < len(c.GresKinds) {
		dst = append(dst, make([]int, len(c.GresKinds)-len(dst))...)
	}
	for _, s := range a {
		if s.Gres == 0 {
			continue
		}
		gs := c.Nodes[s.Node].Gres
		for p := range gs {
			dst[gs[p].Kind] += s.Gres.At(p)
		}
	}
	return dst
}

// PartGres is the count of each GRES kind in partition p (indexed by
// Cluster.GresKinds).
func (c *Cluster) PartGres(p int) []int {
	out := make([]int, len(c.GresKinds))
	for _, n := range c.Parts[p].Nodes {
		for _, g := range c.Nodes[n].Gres {
			out[g.Kind] += g.Count
		}
	}
	return out
}

// addNodeGres resolves a node group's GRES into cluster kinds.
func (c *Cluster) nodeGres(name string, gs []GresCount) ([]NodeGres, error) {
	if len(gs) == 0 {
		return nil, nil
	}
	if len(gs) > MaxNodeGres {
		return nil, fmt.Errorf("nodes %s: %d GRES kinds, at most %d per node", name, len(gs), MaxNodeGres)
	}
	var out []NodeGres
	for _, g := range gs {
		nm, ty := strings.ToLower(g.Name), strings.ToLower(g.Type)
		if nm == "" {
			return nil, fmt.Errorf("nodes %s: GRES without a name", name)
		}
		if g.Count < 0 || g.Count > maxNodeGresCount {
			return nil, fmt.Errorf("nodes %s: GRES %s count %d out of range 0..%d", name, GresKind{nm, ty}, g.Count, maxNodeGresCount)
		}
		if g.Count == 0 {
			continue
		}
		k := c.GresKindIndex(nm, ty)
		if k < 0 {
			if len(c.GresKinds) == 64 {
				return nil, fmt.Errorf("nodes %s: more than 64 GRES kinds in the cluster", name)
			}
			k = len(c.GresKinds)
			c.GresKinds = append(c.GresKinds, GresKind{nm, ty})
		}
		dup := false
		for i := range out {
			if out[i].Kind == k {
				out[i].Count += g.Count
				out[i].Free = out[i].Count
				dup = true
			}
		}
		if !dup {
			out = append(out, NodeGres{Kind: k, Count: g.Count, Free: g.Count})
		}
	}
	for _, g := range out {
		if g.Count > maxNodeGresCount {
			return nil, fmt.Errorf("nodes %s: GRES %s count %d over %d", name, c.GresKinds[g.Kind], g.Count, maxNodeGresCount)
		}
	}
	return out, nil
}

// gresShort names the GRES a partition can never give a request, or "".
func (c *Cluster) gresShort(req *Request, p int) string {
	part := &c.Parts[p]
	for i := range req.Gres {
		g := &req.Gres[i]
		if g.Mask == 0 {
			return fmt.Sprintf("GRES %s asked, no node of the cluster has it", g.label())
		}
		total, nodes := 0, 0
		for _, n := range part.Nodes {
			if req.Type >= 0 && c.Nodes[n].Type != req.Type {
				continue
			}
			k := c.countMatching(n, g.Mask)
			total += k
			if g.PerNode > 0 && k >= g.PerNode {
				nodes++
			}
		}
		switch {
		case total == 0:
			return fmt.Sprintf("GRES %s asked, partition %s has none", g.label(), part.Name)
		case g.PerJob > 0 && total < g.PerJob:
			return fmt.Sprintf("%d GRES %s asked, partition %s has %d", g.PerJob, g.label(), part.Name, total)
		case g.PerNode > 0 && nodes < req.MinNodeCount():
			return fmt.Sprintf("%d GRES %s per node on %d nodes asked, partition %s has %d such nodes", g.PerNode, g.label(), req.MinNodeCount(), part.Name, nodes)
		}
	}
	return ""
}
