package sim

import "testing"

// spreadMemCluster: three Broadwell nodes of 8 cores and 8000 MB, Weight
// 1, allocation order n1, n2, n3.
func spreadMemCluster(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 8, 8000, 1, "n1", "n2", "n3"),
	})
}

// TestSpreadMemory is a spread where memory leaves a node fewer usable
// cores than free ones: each node gives its usable cores, in node order
// (cons_tres _eval_nodes counts avail_cpus after memory).
func TestSpreadMemory(t *testing.T) {
	runAllocCases(t, spreadMemCluster, []allocCase{{
		// n1: 6 free cores but 2000 MB, so 2 usable at 1000 MB/CPU;
		// n2: 8 usable; n3: 4 free, 8000 MB, 4 usable.
		// 12 CPUs = 2 (n1) + 8 (n2) + 2 (n3, the rest).
		name: "memory-cut node first",
		used: []usage{{"n1", 2, 6000}, {"n3", 4, 0}},
		req:  Request{CPUs: 12, MemPerCPU: 1000, Type: -1},
		want: "n1:2/2000 n2:8/8000 n3:2/2000", fit: FitsNow,
	}, {
		// 14 CPUs = 2 (n1) + 8 (n2) + 4 (n3).
		name: "memory-cut node used",
		used: []usage{{"n1", 2, 6000}, {"n3", 4, 0}},
		req:  Request{CPUs: 14, MemPerCPU: 1000, Type: -1},
		want: "n1:2/2000 n2:8/8000 n3:4/4000", fit: FitsNow,
	}, {
		// n1: 6 free cores, 4000 MB: 4 usable.
		// 14 CPUs = 4 (n1) + 8 (n2) + 2 (n3).
		name: "cut node gives its usable cores",
		used: []usage{{"n1", 2, 4000}, {"n3", 4, 0}},
		req:  Request{CPUs: 14, MemPerCPU: 1000, Type: -1},
		want: "n1:4/4000 n2:8/8000 n3:2/2000", fit: FitsNow,
	}, {
		// Usable 2 + 8 + 4 = 14 < 15.
		name: "short of usable cores",
		used: []usage{{"n1", 2, 6000}, {"n3", 4, 0}},
		req:  Request{CPUs: 15, MemPerCPU: 1000, Type: -1},
		fit:  NotNow,
	}})
}
