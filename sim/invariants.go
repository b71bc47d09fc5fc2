package sim

import (
	"fmt"
	"slices"
)

// CheckInvariants verifies a finished run from its records alone, as an
// independent witness of the engine: every job is in a final state (or
// still pending, never started); no job starts before it was submitted or
// became eligible; ends follow starts; and at no instant does any node
// hold more cores or memory than it has.
func CheckInvariants(r *Result) error {
	type edge struct {
		t     int64
		cores int
		mem   int64
		job   int
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
		if j.Limit > 0 && j.End-j.Start > j.Limit {
			return fmt.Errorf("job %d ran %d s, over its limit %d s", j.ID, j.End-j.Start, j.Limit)
		}
		if j.Alloc.Cores() < j.CPUs {
			return fmt.Errorf("job %d got %d cores for %d asked", j.ID, j.Alloc.Cores(), j.CPUs)
		}
		for _, s := range j.Alloc {
			if !r.Cluster.InPartition(j.Part, s.Node) {
				return fmt.Errorf("job %d ran on node %s outside partition %s", j.ID, r.Cluster.Nodes[s.Node].Name, r.Cluster.Parts[j.Part].Name)
			}
			perNode[s.Node] = append(perNode[s.Node], edge{j.Start, s.Cores, s.MemMB, j.Idx}, edge{j.End, -s.Cores, -s.MemMB, j.Idx})
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
		for _, e := range edges {
			cores += e.cores
			mem += e.mem
			if cores > nd.Cores || mem > nd.MemMB {
				return fmt.Errorf("node %s holds %d cores and %d MB at %d (it has %d and %d), job %d starting",
					nd.Name, cores, mem, e.t, nd.Cores, nd.MemMB, r.Jobs[e.job].ID)
			}
		}
	}
	return nil
}
