package sim

import (
	"fmt"
	"slices"
	"testing"
)

// usage is resources some other job holds on a node before a test asks.
type usage struct {
	node  string
	cores int
	mem   int64
}

// allocCase is one TryAlloc question and its answer worked out by hand.
type allocCase struct {
	name string
	used []usage
	part string // "" is "p"
	req  Request
	want string // allocString of the answer, "" when nothing fits
	fit  Fit
}

func runAllocCases(t *testing.T, mk func(t *testing.T) *Cluster, cases []allocCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mk(t)
			for _, u := range tc.used {
				use(t, c, u.node, u.cores, u.mem)
			}
			pname := tc.part
			if pname == "" {
				pname = "p"
			}
			p, ok := c.Partition(pname)
			if !ok {
				t.Fatalf("no partition %s", pname)
			}
			got, fit := c.TryAlloc(&tc.req, p, nil)
			if fit != tc.fit || allocString(c, got) != tc.want {
				t.Errorf("TryAlloc(%+v) = %q (%s), want %q (%s)", tc.req, allocString(c, got), fit, tc.want, tc.fit)
			}
			if fit == FitsNow && got.Cores() < tc.req.CPUs {
				t.Errorf("allocation of %d cores for %d asked", got.Cores(), tc.req.CPUs)
			}
		})
	}
}

// bestFitCluster: four Broadwell nodes with 16000 MB; n1 has Weight 2,
// the others 1, so the allocation order (Weight, then index) is n2, n3,
// n4, n1.
//
//	n1  8 cores  Weight 2
//	n2  4 cores  Weight 1
//	n3  8 cores  Weight 1
//	n4  8 cores  Weight 1
//
// Partition p holds them all (28 cores); partition x is n3 and n4 with
// OverSubscribe=EXCLUSIVE.
func bestFitCluster(t *testing.T) *Cluster {
	x := partSpec("x", "n3", "n4")
	x.Exclusive = true
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 8, 16000, 2, "n1"),
		nodeGroup("broadwell", 4, 16000, 1, "n2"),
		nodeGroup("broadwell", 8, 16000, 1, "n3", "n4"),
	}, partSpec("p"), x)
}

// TestTryAllocBestFit: cons_tres's _eval_nodes (sim/evalnodes.go). The
// Weight-1 nodes n2, n3, n4 are one set of consecutive nodes, n1 (Weight
// 2) another; the lower Weight's set is used first. In it, a job that one
// node can hold goes on the node with the fewest free cores that holds
// it, the first in node order among ties; one that no node can hold takes
// the set's nodes in node order, each giving all it has.
func TestTryAllocBestFit(t *testing.T) {
	any := func(cpus int) Request { return Request{CPUs: cpus, Type: -1} }
	runAllocCases(t, bestFitCluster, []allocCase{
		// Idle: 3 fits n2 (4 free) best.
		{name: "smallest node that holds it", req: any(3), want: "n2:3/0"},
		// Idle: 5 needs an 8-core node: n1, n3, n4 tie at 8 free; n1 has
		// the higher Weight, n3 the lower index of the other two.
		{name: "ties by Weight then index", req: any(5), want: "n3:5/0"},
		// n3 has 2 free, n4 7, n2 4, n1 8.
		{name: "fewest free cores", used: []usage{{"n3", 6, 0}, {"n4", 1, 0}}, req: any(2), want: "n3:2/0"},
		{name: "fewest free cores 3", used: []usage{{"n3", 6, 0}, {"n4", 1, 0}}, req: any(3), want: "n2:3/0"},
		{name: "fewest free cores 5", used: []usage{{"n3", 6, 0}, {"n4", 1, 0}}, req: any(5), want: "n4:5/0"},
		// 12 > 8 cores: the Weight-1 set (n2 4 + n3 8 + n4 8 = 20)
		// holds it; in node order n2 gives 4, n3 the last 8.
		{name: "spread in node order", req: any(12), want: "n2:4/0 n3:8/0"},
		// Free: n1 5, n2 4, n3 6, n4 4. No node has 7; the Weight-1 set
		// (14) holds it: n2 4, then n3 the last 3.
		{name: "spread when no node has room", used: []usage{{"n1", 3, 0}, {"n3", 2, 0}, {"n4", 4, 0}},
			req: any(7), want: "n2:4/0 n3:3/0"},
		// Free: n1 5, n2 4, n3 6, n4 4 (19 cores); 20 cannot fit now.
		{name: "not enough free", used: []usage{{"n1", 3, 0}, {"n3", 2, 0}, {"n4", 4, 0}}, req: any(20), fit: NotNow},
		{name: "more than the partition", req: any(29), fit: NotNow},
	})
}

// TestTryAllocNodeCount: a job asking for N nodes (sbatch -N N) is placed
// as cons_tres _eval_nodes places it, worked by hand: the sets of
// consecutive nodes of bestFitCluster are {n1} (Weight 2, 8 CPUs) and
// {n2, n3, n4} (Weight 1, 20); the lowest Weight wins, and with more than
// one node still to find its nodes are taken in order, each giving all it
// has but one CPU for each node still to come (_cpus_to_use), and a last
// node that cannot hold the rest is passed over. The Slurm 22.05 harness
// placed -N 4 -n 8 on four idle 8-CPU nodes as 5/1/1/1.
func TestTryAllocNodeCount(t *testing.T) {
	nodes := func(cpus, n int) Request { return Request{CPUs: cpus, Nodes: n, Type: -1} }
	runAllocCases(t, bestFitCluster, []allocCase{
		// 6 on 2: n2 gives its 4 (6 less 1 kept back is more), n3 the 2 left.
		{name: "6 on 2", req: nodes(6, 2), want: "n2:4/0 n3:2/0"},
		{name: "7 on 2", req: nodes(7, 2), want: "n2:4/0 n3:3/0"},
		{name: "10 on 2", req: nodes(10, 2), want: "n2:4/0 n3:6/0"},
		// n3 has 2 free: n2 4 (6 less 2 kept back), n3 1 (2 less 1), n4 1.
		{name: "6 on 3", used: []usage{{"n3", 6, 0}}, req: nodes(6, 3), want: "n2:4/0 n3:1/0 n4:1/0"},
		// 8 on 4: no set has 4 nodes; the Weight 1 set first (4, 2, 1),
		// then n1 the last CPU.
		{name: "8 on 4", req: nodes(8, 4), want: "n2:4/0 n3:2/0 n4:1/0 n1:1/0"},
		// 18 on 2: after n2's 4, no node holds the 14 left.
		{name: "last node short", req: nodes(18, 2), fit: NotNow},
		// One node asked, none has 6 free (5, 4, 5, 5): the job must wait
		// for one node, not spread over two.
		{name: "one node asked", used: []usage{{"n1", 3, 0}, {"n3", 3, 0}, {"n4", 3, 0}}, req: nodes(6, 1), fit: NotNow},
		{name: "one node asked, idle", req: nodes(6, 1), want: "n3:6/0"},
	})
	runAllocCases(t, func(t *testing.T) *Cluster {
		return newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 8, 16000, 1, "n1", "n2", "n3", "n4")})
	}, []allocCase{
		{name: "-N 4 -n 8 as the harness placed it", req: nodes(8, 4), want: "n1:5/0 n2:1/0 n3:1/0 n4:1/0"},
		// n1 has 2 free: it gives them, n2 its 8, n3 the 8 left.
		{name: "-N 3 -n 18 beside a busy node", used: []usage{{"n1", 6, 0}}, req: nodes(18, 3), want: "n1:2/0 n2:8/0 n3:8/0"},
		// n1 and n2 have 2 free: after n1's 2 no node holds the 14 left,
		// so choose_nodes tries again without the nodes of 1, then 2
		// free CPUs: n3 and n4 (the harness: n[3-4]).
		{name: "-N 2 -n 16: choose_nodes' retry", used: []usage{{"n1", 6, 0}, {"n2", 6, 0}}, req: nodes(16, 2), want: "n3:8/0 n4:8/0"},
	})
}

// TestTryAllocExclusive: whole idle nodes as _eval_nodes takes them: the
// best set of consecutive idle nodes (lowest Weight: n2, n3, n4 before
// n1), in order until the CPUs and the node count are covered; a node
// with any core or MB in use is not idle. Memory is the node's.
func TestTryAllocExclusive(t *testing.T) {
	excl := func(cpus, n int) Request { return Request{CPUs: cpus, Nodes: n, Exclusive: true, Type: -1} }
	runAllocCases(t, bestFitCluster, []allocCase{
		{name: "first idle nodes", req: excl(10, 0), want: "n2:4/16000 n3:8/16000"},
		{name: "busy node skipped", used: []usage{{"n2", 1, 0}}, req: excl(10, 0), want: "n3:8/16000 n4:8/16000"},
		{name: "memory in use is busy", used: []usage{{"n2", 0, 100}}, req: excl(2, 0), want: "n3:8/16000"},
		{name: "node count", req: excl(2, 2), want: "n2:4/16000 n3:8/16000"},
		{name: "no idle nodes enough", used: []usage{{"n2", 1, 0}, {"n3", 1, 0}, {"n4", 1, 0}}, req: excl(9, 0), fit: NotNow},
		// Partition x is OverSubscribe=EXCLUSIVE: a 1-CPU job takes n3.
		{name: "exclusive partition", part: "x", req: Request{CPUs: 1, Type: -1}, want: "n3:8/16000"},
		{name: "exclusive partition busy", part: "x", used: []usage{{"n3", 1, 0}}, req: Request{CPUs: 1, Type: -1}, want: "n4:8/16000"},
	})
	// _eval_nodes' sets of consecutive idle nodes, as the 22.05 harness
	// placed --exclusive jobs on four 8-CPU nodes: with n2 busy, -n 10
	// takes the set {n3, n4}, the one that holds it, not n1 and n3;
	// with n3 busy, -n 1 takes n4, the tightest set that holds it.
	runAllocCases(t, func(t *testing.T) *Cluster {
		return newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 8, 16000, 1, "n1", "n2", "n3", "n4")})
	}, []allocCase{
		{name: "the set that holds it", used: []usage{{"n2", 1, 1000}}, req: excl(10, 0), want: "n3:8/16000 n4:8/16000"},
		{name: "the tightest set", used: []usage{{"n3", 1, 1000}}, req: excl(1, 0), want: "n4:8/16000"},
	})
}

// memCluster: three Broadwell nodes of different memory per core.
//
//	m1  8 cores   8000 MB (1000 per core)
//	m2  8 cores  16000 MB (2000 per core)
//	m3  4 cores  16000 MB (4000 per core)
func memCluster(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 8, 8000, 1, "m1"),
		nodeGroup("broadwell", 8, 16000, 1, "m2"),
		nodeGroup("broadwell", 4, 16000, 1, "m3"),
	})
}

// TestTryAllocMemory: memory per CPU limits the cores a node can give; a
// negative MemPerCPU asks a core's share of its node's memory, which a
// node whose memory another job over-used may not have.
func TestTryAllocMemory(t *testing.T) {
	mem := func(cpus int, per int64) Request { return Request{CPUs: cpus, MemPerCPU: per, Type: -1} }
	runAllocCases(t, memCluster, []allocCase{
		// 4 x 2000: usable cores m1 8000/2000 = 4, m2 8, m3 4; the best
		// fit counts usable cores, and m1 comes first of the two 4s.
		{name: "per CPU, best fit", req: mem(4, 2000), want: "m1:4/8000"},
		// 6 x 2000 = 12000: m3 has 4 cores, m1 8000 MB; m2 holds it.
		{name: "per CPU, memory rules m1 out", req: mem(6, 2000), want: "m2:6/12000"},
		// 8 x 3000: no node holds 24000 with 8 cores. Usable cores:
		// m1 8000/3000 = 2, m2 16000/3000 = 5, m3 min(4, 5) = 4; in node
		// order m1 2, m2 5, m3 the last 1.
		{name: "per CPU, spread by usable cores", req: mem(8, 3000), want: "m1:2/6000 m2:5/15000 m3:1/3000"},
		// 16 x 5000: usable m1 1, m2 3, m3 3 = 7 < 16.
		{name: "per CPU, short", req: mem(16, 5000), fit: NotNow},
		// Share of the node: 4 on m3 (fewest free) = 16000; 6 on m1 (m1
		// and m2 tie at 8 free, m1 first) = 6 x 8000/8.
		{name: "share, best fit", req: mem(4, -1), want: "m3:4/16000"},
		{name: "share, 6", req: mem(6, -1), want: "m1:6/6000"},
		// m1: a job took 1 core and 7000 MB (7 cores, 1000 MB left: its
		// share of 1000 per core allows 1 core); m2: 4 cores and 8000 MB
		// used (4 cores, 8000 MB = 4 shares left); m3 full. 5 CPUs: no
		// single node (m1 lacks the memory for 5 x 1000), so in node
		// order m1 1 and m2 4.
		{name: "share, over-used node", used: []usage{{"m1", 1, 7000}, {"m2", 4, 8000}, {"m3", 4, 16000}},
			req: mem(5, -1), want: "m1:1/1000 m2:4/8000"},
		// 6 would need 2 cores of m1's 1000 MB: 11 cores free, 5 usable.
		{name: "share, over-used node short", used: []usage{{"m1", 1, 7000}, {"m2", 4, 8000}, {"m3", 4, 16000}},
			req: mem(6, -1), fit: NotNow},
		// Node count with memory: 2 x 4000 on 2 nodes of 1 CPU each:
		// usable m1 2, m2 4, m3 4: the tightest are m1 (2), then m2 (4).
		{name: "node count with memory", req: Request{CPUs: 2, Nodes: 2, MemPerCPU: 4000, Type: -1}, want: "m1:1/4000 m2:1/4000"},
	})
}

// typeCluster: four CPU types in partition p; partition old holds only
// the Nehalem node.
//
//	h1  nehalem      8 cores
//	b1  broadwell    8 cores
//	b2  broadwell    4 cores
//	s1  skylake     16 cores
func typeCluster(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("nehalem", 8, 8000, 1, "h1"),
		nodeGroup("broadwell", 8, 8000, 1, "b1"),
		nodeGroup("broadwell", 4, 8000, 1, "b2"),
		nodeGroup("skylake", 16, 16000, 1, "s1"),
	}, partSpec("p"), partSpec("old", "h1"))
}

// TestTryAllocCPUType: a CPU-type constraint keeps the job on nodes of
// that type, best fit among them.
func TestTryAllocCPUType(t *testing.T) {
	c0 := typeCluster(t)
	bdw, skl, nhm := typeIdx(t, c0, "broadwell"), typeIdx(t, c0, "skylake"), typeIdx(t, c0, "nehalem")
	typed := func(cpus, typ int) Request { return Request{CPUs: cpus, Type: typ} }
	runAllocCases(t, typeCluster, []allocCase{
		{name: "any type, best fit", req: typed(3, -1), want: "b2:3/0"},
		{name: "any type, big", req: typed(10, -1), want: "s1:10/0"},
		{name: "broadwell, b2 too small", req: typed(6, bdw), want: "b1:6/0"},
		{name: "broadwell, spread", req: typed(12, bdw), want: "b1:8/0 b2:4/0"},
		// 10 Nehalem CPUs: only h1 (8); 36 cores free in p, but not of
		// that type.
		{name: "nehalem, too few", req: typed(10, nhm), fit: NotNow},
		{name: "skylake exclusive", req: Request{CPUs: 1, Exclusive: true, Type: skl}, want: "s1:16/16000"},
		{name: "skylake busy", used: []usage{{"s1", 12, 0}}, req: typed(8, skl), fit: NotNow},
	})
}

// TestTryAllocExceptAndFunc: nodes taken out of play are skipped, and the
// exclusion lasts only for the call.
func TestTryAllocExceptAndFunc(t *testing.T) {
	c := typeCluster(t)
	p, _ := c.Partition("p")
	bdw := typeIdx(t, c, "broadwell")
	b1, b2 := node(t, c, "b1"), node(t, c, "b2")

	except := make([]bool, len(c.Nodes))
	except[b1] = true
	// Without b1, 6 Broadwell CPUs do not fit (b2 has 4); 3 go on b2.
	if a, fit := c.TryAllocExcept(&Request{CPUs: 6, Type: bdw}, p, except, nil); fit != NotNow {
		t.Errorf("except b1, 6 broadwell: %q %s, want not now", allocString(c, a), fit)
	}
	if a, fit := c.TryAllocExcept(&Request{CPUs: 3, Type: bdw}, p, except, nil); fit != FitsNow || allocString(c, a) != "b2:3/0" {
		t.Errorf("except b1, 3 broadwell: %q %s, want b2:3/0", allocString(c, a), fit)
	}
	// Without b2, 3 Broadwell CPUs go on b1.
	out := func(n int) bool { return n == b2 }
	if a, fit := c.TryAllocFunc(&Request{CPUs: 3, Type: bdw}, p, out, nil); fit != FitsNow || allocString(c, a) != "b1:3/0" {
		t.Errorf("func without b2, 3 broadwell: %q %s, want b1:3/0", allocString(c, a), fit)
	}
	// The exclusions are gone afterwards: best fit is b2 again.
	if a, fit := c.TryAlloc(&Request{CPUs: 3, Type: bdw}, p, nil); fit != FitsNow || allocString(c, a) != "b2:3/0" {
		t.Errorf("after the exclusions, 3 broadwell: %q %s, want b2:3/0", allocString(c, a), fit)
	}
	// Exclusive jobs honour the exclusions too: b1 comes first in
	// partition order, so without it the whole Broadwell node is b2.
	out2 := func(n int) bool { return n == b1 }
	if a, fit := c.TryAllocFunc(&Request{CPUs: 2, Exclusive: true, Type: bdw}, p, out2, nil); fit != FitsNow || allocString(c, a) != "b2:4/8000" {
		t.Errorf("exclusive without b1: %q %s, want b2:4/8000", allocString(c, a), fit)
	}
	// dst is appended to, not overwritten.
	dst := Alloc{{Node: 0, Cores: 1}}
	if a, _ := c.TryAlloc(&Request{CPUs: 3, Type: bdw}, p, dst); len(a) != 2 || a[0] != dst[0] {
		t.Errorf("TryAlloc did not append to dst: %+v", a)
	}
}

// TestCapacity: Never only when the partition's hardware can never hold
// the request, with the reason naming the resource.
func TestCapacity(t *testing.T) {
	c := typeCluster(t)
	bdw, skl := typeIdx(t, c, "broadwell"), typeIdx(t, c, "skylake")
	p, _ := c.Partition("p")
	old, _ := c.Partition("old")
	mc := memCluster(t)
	for _, tc := range []struct {
		name string
		c    *Cluster
		part int
		req  Request
		fit  Fit
		why  string
	}{
		{"fits", c, p, Request{CPUs: 36, Type: -1}, FitsNow, ""},
		{"no CPUs", c, p, Request{CPUs: 0, Type: -1}, Never, "no CPUs requested"},
		// 8 + 8 + 4 + 16 = 36 cores.
		{"bigger than the partition", c, p, Request{CPUs: 37, Type: -1}, Never, "37 CPUs asked, partition p can give at most 36"},
		{"bigger than its type", c, p, Request{CPUs: 17, Type: skl}, Never, "17 CPUs asked, partition p can give at most 16"},
		{"type not in partition", c, old, Request{CPUs: 1, Type: skl}, Never, "no skylake node in old can hold a CPU with the memory asked"},
		// 5 nodes of a 4-node partition.
		{"too many nodes", c, p, Request{CPUs: 5, Nodes: 5, Type: -1}, Never, "5 nodes asked, partition p has 4 that can hold a CPU with the memory asked"},
		// A node of -N k may give a single CPU (5/1/1/1): the 2 largest
		// nodes (16 + 8) hold 24 on 2, not 25.
		{"largest nodes too small", c, p, Request{CPUs: 25, Nodes: 2, Type: -1}, Never, "25 CPUs on 2 nodes asked, the 2 largest nodes of partition p can give 24"},
		{"uneven over the nodes", c, p, Request{CPUs: 24, Nodes: 2, Type: -1}, FitsNow, ""},
		{"node count fits", c, p, Request{CPUs: 16, Nodes: 2, Type: -1}, FitsNow, ""},
		// One node of 12: only s1; one of 17: none.
		{"one node fits", c, p, Request{CPUs: 12, Nodes: 1, Type: -1}, FitsNow, ""},
		{"one node too small", c, p, Request{CPUs: 17, Nodes: 1, Type: -1}, Never, "1 nodes with 17 CPUs each asked, partition p has 0 such nodes"},
		{"broadwell 12", c, p, Request{CPUs: 12, Type: bdw}, FitsNow, ""},
		// Memory: 20000 MB per CPU fits no node (16000 at most).
		{"memory per CPU", mc, 0, Request{CPUs: 1, MemPerCPU: 20000, Type: -1}, Never, "no node in p can hold a CPU with the memory asked"},
		// 5000 per CPU: m1 1, m2 3, m3 3 cores usable = 7.
		{"memory limits cores", mc, 0, Request{CPUs: 8, MemPerCPU: 5000, Type: -1}, Never, "8 CPUs asked, partition p can give at most 7"},
		{"memory fits", mc, 0, Request{CPUs: 7, MemPerCPU: 5000, Type: -1}, FitsNow, ""},
		// Exclusive jobs take whole nodes with their memory.
		{"exclusive ignores memory per CPU", mc, 0, Request{CPUs: 20, MemPerCPU: 5000, Exclusive: true, Type: -1}, FitsNow, ""},
		// A core's share of the node always fits the node.
		{"share", mc, 0, Request{CPUs: 20, MemPerCPU: -1, Type: -1}, FitsNow, ""},
	} {
		fit, why := tc.c.Capacity(&tc.req, tc.part)
		if fit != tc.fit || why != tc.why {
			t.Errorf("%s: Capacity(%+v) = %s %q, want %s %q", tc.name, tc.req, fit, why, tc.fit, tc.why)
		}
	}
}

// TestAllocSpread: a recorded placement over named nodes. Four 8-core
// nodes, n1 with 1 core taken and n2 with 4. 12 CPUs on n1,n2: 7 + 4 = 11
// are all there is, so no. On n2,n3: n2's 4, then 8 of n3. 10 on n3,n4:
// n3 gives 8 (it leaves the one n4 must have), n4 the other 2. 3 over
// three nodes: one each. One CPU cannot use two nodes.
func TestAllocSpread(t *testing.T) {
	for _, tc := range []struct {
		cpus  int
		nodes []string
		want  string
	}{
		{12, []string{"n1", "n2"}, ""},
		{12, []string{"n2", "n3"}, "n2:4 n3:8"},
		{3, []string{"n3", "n4", "n1"}, "n3:1 n4:1 n1:1"},
		{10, []string{"n3", "n4"}, "n3:8 n4:2"},
		{1, []string{"n3", "n4"}, ""},
	} {
		c := spreadCluster(t)
		c.Occupy(Alloc{{Node: node(t, c, "n1"), Cores: 1}})
		c.Occupy(Alloc{{Node: node(t, c, "n2"), Cores: 4}})
		var ns []int
		for _, n := range tc.nodes {
			ns = append(ns, node(t, c, n))
		}
		req := Request{CPUs: tc.cpus, Type: -1}
		a, fit := c.AllocSpread(&req, 0, ns, nil)
		got := ""
		if fit == FitsNow {
			for i, s := range a {
				if i > 0 {
					got += " "
				}
				got += fmt.Sprintf("%s:%d", c.Nodes[s.Node].Name, s.Cores)
			}
		}
		if got != tc.want {
			t.Errorf("%d CPUs on %v: %q, want %q", tc.cpus, tc.nodes, got, tc.want)
		}
	}
}

// spreadCluster is four 8-core Broadwell nodes n1..n4 in one partition.
func spreadCluster(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 8, 32000, 1, "n1", "n2", "n3", "n4")}, partSpec("p"))
}

// TestKeepAlloc checks that the allocations keepAlloc copies into a
// shared array stay apart: each equals what it was given, none has room
// to grow into the next, and one longer than the array gets its own.
func TestKeepAlloc(t *testing.T) {
	s := &Simulator{}
	mk := func(first, n int) Alloc {
		a := make(Alloc, n)
		for i := range a {
			a[i] = Slice{Node: first + i, Cores: 1 + i%3, MemMB: int64(100 * i)}
		}
		return a
	}
	in := []Alloc{mk(0, 3), mk(10, 1), mk(20, allocSlab-3), mk(30, 5), mk(40, 2*allocSlab), mk(50, 2)}
	var kept []Alloc
	for _, a := range in {
		k := s.keepAlloc(a)
		if cap(k) != len(k) {
			t.Errorf("allocation of %d slices kept with capacity %d: an append would write into the next", len(k), cap(k))
		}
		a[0].Node = -1 // the caller's array is its own to reuse
		kept = append(kept, k)
	}
	kept[0] = append(kept[0], Slice{Node: 99})
	for i, k := range kept {
		want := mk(i*10, len(in[i]))
		if i == 0 {
			want = append(want, Slice{Node: 99})
		}
		if !slices.Equal(k, want) {
			t.Errorf("allocation %d is %v, want %v", i, k[:min(len(k), 4)], want[:min(len(want), 4)])
		}
	}
}

// TestProvisional: a preemptor's allocation on the nodes it would take,
// for its limit check before its victims go (bestFitCluster; what the
// nodes hold now does not matter).
func TestProvisional(t *testing.T) {
	c := bestFitCluster(t)
	n := func(names ...string) []int {
		var ids []int
		for _, s := range names {
			ids = append(ids, node(t, c, s))
		}
		return ids
	}
	use(t, c, "n3", 8, 16000)
	for _, tc := range []struct {
		name  string
		req   Request
		nodes []int
		want  string
	}{
		// 10 CPUs over three nodes: 4, 3, 3 (ceil of what is left).
		{"spread", Request{CPUs: 10, MemPerCPU: 100}, n("n2", "n3", "n4"), "n2:4/400 n3:3/300 n4:3/300"},
		{"one node", Request{CPUs: 2, MemPerNode: 500}, n("n1"), "n1:2/500"},
		{"memory share", Request{CPUs: 2, MemPerCPU: MemCoreShare}, n("n4"), "n4:2/4000"},
		{"whole nodes", Request{CPUs: 1, Exclusive: true}, n("n2", "n3"), "n2:4/16000 n3:8/16000"},
		{"a CPU each at least", Request{CPUs: 1}, n("n1", "n4"), "n1:1/0 n4:1/0"},
		{"no nodes", Request{CPUs: 1}, nil, ""},
	} {
		if got := allocString(c, c.Provisional(&tc.req, tc.nodes, nil)); got != tc.want {
			t.Errorf("%s: Provisional = %q, want %q", tc.name, got, tc.want)
		}
	}
}
