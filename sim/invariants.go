package sim

import (
	"fmt"
	"slices"
)

// CheckInvariants verifies a finished run from its records alone, as an
// independent witness of the engine: every job is in a final state (or
// still pending, never started); no job starts before it was submitted or
// became eligible; ends follow starts; and at no instant does any node
// hold more cores, memory or GRES than it has. A job holds the GRES it
// asked for, of the types it asked for (all of its nodes' GRES when it has
// whole nodes).
func CheckInvariants(r *Result) error {
	type edge struct {
		t     int64
		cores int
		mem   int64
		job   int
		gres  [MaxNodeGres]int
	}
	perNode := make([][]edge, len(r.Cluster.Nodes))
	seen := make(map[int]bool, len(r.Jobs))
	for _, j := range r.Jobs {
		if seen[j.Idx] {
			return fmt.Errorf("job %d appears twice", j.ID)
		}
		seen[j.Idx] = true
		switch {
		case j.State == Running:
			return fmt.Errorf("job %d still running at the end", j.ID)
		case j.State == Suspended:
			return fmt.Errorf("job %d still suspended at the end", j.ID)
		case j.State == Pending:
			if j.Start >= 0 {
				return fmt.Errorf("job %d pending with a start time", j.ID)
			}
			continue
		case j.State == Rejected:
			if j.Start >= 0 {
				return fmt.Errorf("rejected job %d has a start time", j.ID)
			}
			continue
		}
		if j.Start < 0 && j.State == Cancelled {
			continue // cancelled before it started
		}
		if j.Start < j.Submit || j.Start < j.EligibleTime {
			return fmt.Errorf("job %d starts at %d before its submit %d or eligibility %d", j.ID, j.Start, j.Submit, j.EligibleTime)
		}
		if j.End < j.Start {
			return fmt.Errorf("job %d ends at %d before its start %d", j.ID, j.End, j.Start)
		}
		if j.Limit > 0 && j.End-j.Start-j.SuspendedSecs > j.Limit {
			return fmt.Errorf("job %d ran %d s, over its limit %d s", j.ID, j.End-j.Start-j.SuspendedSecs, j.Limit)
		}
		if j.Alloc.Cores() < j.CPUs {
			return fmt.Errorf("job %d got %d cores for %d asked", j.ID, j.Alloc.Cores(), j.CPUs)
		}
		for _, s := range j.Alloc {
			if !r.Cluster.InPartition(j.Part, s.Node) {
				return fmt.Errorf("job %d ran on node %s outside partition %s", j.ID, r.Cluster.Nodes[s.Node].Name, r.Cluster.Parts[j.Part].Name)
			}
			up, down := edge{t: j.Start, cores: s.Cores, mem: s.MemMB, job: j.Idx}, edge{t: j.End, cores: -s.Cores, mem: -s.MemMB, job: j.Idx}
			for p := range r.Cluster.Nodes[s.Node].Gres {
				up.gres[p], down.gres[p] = s.Gres.At(p), -s.Gres.At(p)
			}
			perNode[s.Node] = append(perNode[s.Node], up, down)
			for _, sp := range j.susp.spans {
				// Suspended: its cores were free, its memory and GRES not.
				perNode[s.Node] = append(perNode[s.Node], edge{t: sp[0], cores: -s.Cores, job: j.Idx}, edge{t: sp[1], cores: s.Cores, job: j.Idx})
			}
		}
		if err := gresHeld(r.Cluster, j); err != nil {
			return err
		}
	}
	for n, edges := range perNode {
		// Ends before starts at the same instant: a core freed at t may be
		// reused at t.
		slices.SortFunc(edges, func(a, b edge) int {
			if a.t != b.t {
				if a.t < b.t {
					return -1
				}
				return 1
			}
			return a.cores - b.cores
		})
		nd := &r.Cluster.Nodes[n]
		cores, mem := 0, int64(0)
		var gres [MaxNodeGres]int
		for _, e := range edges {
			cores += e.cores
			mem += e.mem
			for p, g := range nd.Gres {
				if gres[p] += e.gres[p]; gres[p] > g.Count {
					return fmt.Errorf("node %s holds %d GRES %s at %d (it has %d), job %d starting",
						nd.Name, gres[p], r.Cluster.GresKinds[g.Kind], e.t, g.Count, r.Jobs[e.job].ID)
				}
			}
			if cores > nd.Cores || mem > nd.MemMB {
				return fmt.Errorf("node %s holds %d cores and %d MB at %d (it has %d and %d), job %d starting",
					nd.Name, cores, mem, e.t, nd.Cores, nd.MemMB, r.Jobs[e.job].ID)
			}
		}
	}
	return nil
}

// gresHeld checks that a started job holds what its GRES requests ask, on
// nodes of the types asked, and nothing else unless it has whole nodes.
func gresHeld(c *Cluster, j *Job) error {
	if len(j.Alloc) == 0 || len(j.Req.Gres) == 0 && j.Alloc[0].Gres == 0 {
		return nil
	}
	whole := j.Req.Exclusive || c.Parts[j.Part].Exclusive
	var mask uint64
	for _, g := range j.Req.Gres {
		mask |= g.Mask
		total := 0
		for _, s := range j.Alloc {
			got := 0
			for p, ng := range c.Nodes[s.Node].Gres {
				if g.Mask&(1<<uint(ng.Kind)) != 0 {
					got += s.Gres.At(p)
				}
			}
			if got < g.PerNode {
				return fmt.Errorf("job %d holds %d GRES %s on node %s, %d per node asked", j.ID, got, g.label(), c.Nodes[s.Node].Name, g.PerNode)
			}
			total += got
		}
		if total < g.PerJob {
			return fmt.Errorf("job %d holds %d GRES %s, %d asked", j.ID, total, g.label(), g.PerJob)
		}
	}
	if whole {
		return nil
	}
	for _, s := range j.Alloc {
		for p, ng := range c.Nodes[s.Node].Gres {
			if s.Gres.At(p) > 0 && mask&(1<<uint(ng.Kind)) == 0 {
				return fmt.Errorf("job %d holds GRES %s on node %s, which it did not ask for", j.ID, c.GresKinds[ng.Kind], c.Nodes[s.Node].Name)
			}
		}
	}
	return nil
}
