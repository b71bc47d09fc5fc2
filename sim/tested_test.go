package sim

import "testing"

// TestTestedCPUs: total_cpus after select's test at submission, worked by
// hand from cons_tres _eval_nodes over idle nodes. The cluster: n0 and n1
// with 32 CPUs at Weight 1, n2 with 16 and n3 with 8 at Weight 1, n4 with
// 64 at Weight 5.
func TestTestedCPUs(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 32, 64000, 1, "n0", "n1"),
		nodeGroup("broadwell", 16, 32000, 1, "n2"),
		nodeGroup("broadwell", 8, 16000, 1, "n3"),
		nodeGroup("skylake", 64, 128000, 5, "n4"),
	}, partSpec("all"), partSpec("big", "n4"))
	all, big := 0, 1
	excl := func(cpus, nodes int) Request {
		return Request{CPUs: cpus, Nodes: nodes, Exclusive: true, Type: -1, MemPerCPU: MemWholeNode}
	}
	sky := excl(1, 0)
	sky.Type = c.Nodes[4].Type
	cases := []struct {
		name string
		req  Request
		part int
		want int
	}{
		// Not whole nodes: the CPUs asked, one at least per node.
		{"shared: its CPUs", Request{CPUs: 6, Type: -1}, all, 6},
		{"shared: a CPU per node", Request{CPUs: 2, Nodes: 3, Type: -1}, all, 3},
		// One node: the smallest of the lowest Weight that holds it.
		{"exclusive 1 CPU: n3's 8", excl(1, 0), all, 8},
		{"exclusive 12 CPUs: n2's 16", excl(12, 0), all, 16},
		{"exclusive 20 CPUs: n0's 32", excl(20, 0), all, 32},
		// No node of Weight 1 holds 40: their nodes whole in order,
		// n0 then n1.
		{"exclusive 40 CPUs: n0 and n1", excl(40, 0), all, 64},
		// 90: all of Weight 1 (88), then n4 holds the 2 left.
		{"exclusive 90 CPUs: Weight 1, then n4", excl(90, 0), all, 152},
		// -N 2: two nodes still to find when the set is taken, so no
		// best fit: n0 and n1 in order, though n3 would hold the 8 left.
		{"exclusive -N 2 -n 40: n0 and n1", excl(40, 2), all, 64},
		{"exclusive -N 3 -n 3: n0, n1, n2", excl(3, 3), all, 80},
		// -N 3 -n 85: n0, n1 (64); n2's 16 and n3's 8 cannot be the
		// last with 21 left (max_nodes 1), n4 holds them.
		{"exclusive -N 3 -n 85: the last node holds the rest", excl(85, 3), all, 128},
		{"exclusive in a partition of n4", excl(1, 0), big, 64},
		{"constraint: only n4 is Skylake", sky, all, 64},
		{"too big for the partition: no test", excl(200, 0), all, 0},
	}
	for _, tc := range cases {
		if got := c.TestedCPUs(&tc.req, tc.part); got != tc.want {
			t.Errorf("%s: %d CPUs, want %d", tc.name, got, tc.want)
		}
	}
}
