package sim

import (
	"fmt"
	"math"
)

// A partition's MaxCPUsPerNode caps the CPUs its jobs together hold on
// any one node, whatever other partitions' jobs hold there: the way a
// site keeps cores of its GPU nodes free for GPU jobs. Slurm 22.05 counts
// them in cons_common.c's _allocate_sc (common_allocate_cores): the CPUs
// the partition's row uses on the node (used_cpu_count) leave
// MaxCPUsPerNode - used for the job (part_cpu_limit, none once used
// reaches the cap), and a whole-node job is refused on a node whose CPUs
// exceed the cap. On the 22.05 harness (8-CPU nodes, MaxCPUsPerNode=6)
// `-n 8` took 6 + 2 CPUs of two idle nodes and a second partition's jobs
// still had the other 2 of each.

// partCaps is what the cluster keeps for capped partitions: nil slices
// when no partition sets MaxCPUsPerNode, so placement pays one nil check.
type partCaps struct {
	// of is, per partition, the index of its cap among the capped
	// partitions, -1 for a partition without one.
	of []int8
	// max is each capped partition's MaxCPUsPerNode.
	max []int
	// used is, at [k*len(Nodes)+n], the CPUs the jobs of capped
	// partition k hold on node n. A shadow has its own copy.
	used []int32
}

// maxCappedParts bounds the partitions with a MaxCPUsPerNode (an int8
// index each).
const maxCappedParts = 127

// indexCaps sets up the counts of the partitions that set
// MaxCPUsPerNode, after the nodes and partitions are known.
func (c *Cluster) indexCaps() error {
	var caps partCaps
	for p := range c.Parts {
		if c.Parts[p].MaxCPUsPerNode <= 0 {
			continue
		}
		if len(caps.max) == maxCappedParts {
			return errTooManyCaps
		}
		if caps.of == nil {
			caps.of = make([]int8, len(c.Parts))
			for q := range caps.of {
				caps.of[q] = -1
			}
		}
		caps.of[p] = int8(len(caps.max))
		caps.max = append(caps.max, c.Parts[p].MaxCPUsPerNode)
	}
	if caps.of != nil {
		caps.used = make([]int32, len(caps.max)*len(c.Nodes))
	}
	c.caps = caps
	return nil
}

var errTooManyCaps = capError("more than 127 partitions set MaxCPUsPerNode")

type capError string

func (e capError) Error() string { return string(e) }

// SetMaxCPUsPerNode sets partition p's MaxCPUsPerNode (0: unlimited) on
// a cluster that runs no job yet (a scenario's --set).
func (c *Cluster) SetMaxCPUsPerNode(p, n int) error {
	for _, u := range c.caps.used {
		if u != 0 {
			return capError("MaxCPUsPerNode changed while jobs run")
		}
	}
	c.Parts[p].MaxCPUsPerNode = n
	return c.indexCaps()
}

// capOf is partition p's index among the capped partitions, -1 when it
// sets no MaxCPUsPerNode (or p is no partition: a node's own hold).
func (c *Cluster) capOf(p int) int {
	if c.caps.of == nil || p < 0 {
		return -1
	}
	return int(c.caps.of[p])
}

// Capped reports whether partition p sets MaxCPUsPerNode.
func (c *Cluster) Capped(p int) bool { return c.capOf(p) >= 0 }

// CapLeft is how many more CPUs jobs of partition p may take on node n
// under its MaxCPUsPerNode (math.MaxInt without one; 0 once its jobs
// hold the cap).
func (c *Cluster) CapLeft(p, n int) int {
	k := c.capOf(p)
	if k < 0 {
		return math.MaxInt
	}
	return max(c.caps.max[k]-int(c.caps.used[k*len(c.Nodes)+n]), 0)
}

// capNote names partition p's MaxCPUsPerNode for a refusal's reason, ""
// without one.
func (c *Cluster) capNote(p int) string {
	if k := c.capOf(p); k >= 0 {
		return fmt.Sprintf(" (MaxCPUsPerNode %d)", c.caps.max[k])
	}
	return ""
}

// CapWhole reports whether a whole-node job of partition p may take node
// n: _allocate_sc refuses it where the node's CPUs exceed the cap.
func (c *Cluster) CapWhole(p, n int) bool {
	k := c.capOf(p)
	return k < 0 || c.Nodes[n].Cores <= c.caps.max[k]
}

// capMove counts cores taken (positive) or given back (negative) by a
// job of partition p on node n, keeping the node hash in step: two
// clusters with the same free cores but another partition's share of
// them must not look alike to the will-run memo.
func (c *Cluster) capMove(p, n, cores int) {
	k := c.capOf(p)
	if k < 0 {
		return
	}
	u := &c.caps.used[k*len(c.Nodes)+n]
	if c.hashing {
		c.nodeHash += capKey(n, k, int(*u)+cores) - capKey(n, k, int(*u))
	}
	*u += int32(cores)
}

// capKey is node n's term of NodeHash for capped partition k's CPUs on
// it (zero when it holds none, so a cluster with caps and no jobs hashes
// as one without).
func capKey(n, k, used int) uint64 {
	if used == 0 {
		return 0
	}
	return mix64(uint64(n)<<32 ^ uint64(k)<<24 ^ uint64(used) ^ 0x5bd1e995<<32)
}

// capHash is the caps' share of recountNodeHash.
func (c *Cluster) capHash() uint64 {
	var h uint64
	for i, u := range c.caps.used {
		h += capKey(i%len(c.Nodes), i/len(c.Nodes), int(u))
	}
	return h
}

// syncCaps copies node n's capped counts from c into the shadow sh.
func (sh *Cluster) syncCaps(c *Cluster, n int) {
	for k := range c.caps.max {
		i := k*len(c.Nodes) + n
		sh.caps.used[i] = c.caps.used[i]
	}
}
