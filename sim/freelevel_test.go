package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// spreadMemCluster: three Broadwell nodes of 8 cores and 8000 MB, Weight
// 1, allocation order n1, n2, n3.
func spreadMemCluster(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 8, 8000, 1, "n1", "n2", "n3"),
	})
}

// TestSpreadLevelsMemory is the spread through the free-level index where
// memory leaves a node fewer usable cores than free ones: the node must
// land in the bucket of its usable cores, in allocation order there.
func TestSpreadLevelsMemory(t *testing.T) {
	runAllocCases(t, spreadMemCluster, []allocCase{{
		// n1: 6 free cores but 2000 MB, so 2 usable at 1000 MB/CPU;
		// n2: 8 usable; n3: 4 free, 8000 MB, 4 usable.
		// Buckets 8: n2; 4: n3; 2: n1. 12 CPUs = 8 + 4.
		name: "memory-cut node last",
		used: []usage{{"n1", 2, 6000}, {"n3", 4, 0}},
		req:  Request{CPUs: 12, MemPerCPU: 1000, Type: -1},
		want: "n2:8/8000 n3:4/4000", fit: FitsNow,
	}, {
		// 14 CPUs = 8 (n2) + 4 (n3) + 2 (n1).
		name: "memory-cut node used",
		used: []usage{{"n1", 2, 6000}, {"n3", 4, 0}},
		req:  Request{CPUs: 14, MemPerCPU: 1000, Type: -1},
		want: "n2:8/8000 n3:4/4000 n1:2/2000", fit: FitsNow,
	}, {
		// n1: 6 free cores, 4000 MB: 4 usable, the same bucket as n3
		// (4 free, 4 usable); allocation order puts n1 first there.
		// 14 CPUs = 8 (n2) + 4 (n1) + 2 (n3).
		name: "cut node first in its bucket",
		used: []usage{{"n1", 2, 4000}, {"n3", 4, 0}},
		req:  Request{CPUs: 14, MemPerCPU: 1000, Type: -1},
		want: "n2:8/8000 n1:4/4000 n3:2/2000", fit: FitsNow,
	}, {
		// Usable 2 + 8 + 4 = 14 < 15.
		name: "short of usable cores",
		used: []usage{{"n1", 2, 6000}, {"n3", 4, 0}},
		req:  Request{CPUs: 15, MemPerCPU: 1000, Type: -1},
		fit:  NotNow,
	}})
}

// TestFreeLevelsMatchWalk checks that placements through the free-level
// index are those of the walk over every free node, on a cluster of mixed
// node sizes, weights, CPU types and partitions in random states, for
// requests of every memory kind.
func TestFreeLevelsMatchWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 13))
	var nodes []NodeSpec
	sizes := []int{4, 8, 16, 17}
	for i := range 120 {
		typ := "broadwell"
		if i%3 == 0 {
			typ = "skylake"
		}
		cores := sizes[rng.IntN(len(sizes))]
		nodes = append(nodes, nodeGroup(typ, cores, int64(cores)*1000, rng.IntN(3), fmt.Sprintf("n%03d", i)))
	}
	var half []string
	for i := range 60 {
		half = append(half, fmt.Sprintf("n%03d", 2*i))
	}
	c := newTestCluster(t, "broadwell", false, nodes, partSpec("p"), partSpec("x", half...))
	mems := []Request{
		{MemPerCPU: 0}, {MemPerCPU: 1000}, {MemPerCPU: 700}, {MemPerCPU: 3000},
		{MemPerCPU: MemCoreShare}, {MemPerCPU: MemWholeNode}, {MemPerNode: 5000},
	}
	for round := range 300 {
		// Random usage: every node gets a random share taken.
		for n := range c.Nodes {
			nd := &c.Nodes[n]
			c.give(n, nd.Cores-nd.FreeCores, nd.MemMB-nd.FreeMem, 0)
			k := rng.IntN(nd.Cores + 1)
			m := min(nd.MemMB, int64(k)*int64(rng.IntN(2000)))
			c.take(n, k, m, 0)
		}
		if err := c.fl.check(c.Nodes); err != nil {
			t.Fatal(err)
		}
		for q := range 20 {
			req := mems[rng.IntN(len(mems))]
			req.CPUs = 1 + rng.IntN(80)
			req.Type = -1
			if q%4 == 0 {
				req.Type = rng.IntN(len(c.Types))
			}
			if q%5 == 0 {
				req.Nodes = 1
			}
			p := rng.IntN(2)
			got, fit := c.TryAlloc(&req, p, nil)
			levels := c.fl.levels
			c.fl.levels = nil
			want, wfit := c.TryAlloc(&req, p, nil)
			c.fl.levels = levels
			if fit != wfit || allocString(c, got) != allocString(c, want) {
				t.Fatalf("round %d: %+v in %s: index %q (%s), walk %q (%s)", round, req, c.Parts[p].Name, allocString(c, got), fit, allocString(c, want), wfit)
			}
		}
	}
}
