package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// refCluster is the cluster of the recorded reference runs
// (scenarios/testdata/slurm-ref/main): n1..n4 with 8 CPUs and 16000 MB,
// Weight 1; batch holds them all, short n3 and n4.
func refCluster(t *testing.T) *Cluster {
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 8, 16000, 1, "n1", "n2", "n3", "n4"),
	}, partSpec("batch"), partSpec("short", "n3", "n4"))
}

// TestEvalNodes: cons_tres _eval_nodes for jobs asking -n N without -N,
// worked by hand. The first cases are placements the Slurm 22.05
// controller made in the reference runs (sacct NodeList), from the CPUs
// its running jobs held then.
func TestEvalNodes(t *testing.T) {
	cpus := func(n int) Request { return Request{CPUs: n, MemPerCPU: 1000, Type: -1} }
	cases := []struct {
		name   string
		mk     func(t *testing.T) *Cluster
		part   string
		used   []usage
		except []string // nodes out of play (a backfill reservation's)
		req    Request
		want   string
		fit    Fit
	}{
		// Run 1, t0+23: job 14 holds 2 CPUs of n3. Job 13 (-n 12, short):
		// one set {n3 6, n4 8}, no node holds 12; in node order n3 gives
		// its 6 and n4 the 6 left (_cpus_to_use caps it). The controller
		// put job 23 on n4 next, so n4 kept 2 free: 6 + 6, not 8 + 4.
		{name: "job 13: 6 + 6", part: "short", used: []usage{{"n3", 2, 2000}}, req: cpus(12),
			want: "n3:6/6000 n4:6/6000"},
		// Run 1, t0+43: n1 full (jobs 2 and 21), n2 3 free, n3 6, n4 6.
		// Set {n2, n3, n4} = 15: n2 3, n3 6, n4 the last 3 (sacct: n[2-4]).
		{name: "job 29: three nodes in order", part: "batch",
			used: []usage{{"n1", 8, 8000}, {"n2", 5, 5000}, {"n3", 2, 2000}, {"n4", 2, 2000}}, req: cpus(12),
			want: "n2:3/3000 n3:6/6000 n4:3/3000"},
		// Run 1, t0+45: free n1 7, n2 5, n3 0, n4 3. Sets {n1, n2} = 12
		// (sufficient) and {n4} = 3 (not). In {n1, n2} the best fit for
		// 4 is n2 (5 < 7); sacct: job 12 on n2.
		{name: "job 12: best fit in the set", part: "batch",
			used: []usage{{"n1", 1, 1000}, {"n2", 3, 3000}, {"n3", 8, 8000}, {"n4", 5, 5000}}, req: cpus(4),
			want: "n2:4/4000"},
		// Then job 16 (-n 8): free n1 7, n2 1, n4 3. {n1, n2} = 8 holds
		// it, no node does: n1 7, n2 1 (sacct: n[1-2]).
		{name: "job 16: n1 and n2", part: "batch",
			used: []usage{{"n1", 1, 1000}, {"n2", 7, 7000}, {"n3", 8, 8000}, {"n4", 5, 5000}}, req: cpus(8),
			want: "n1:7/7000 n2:1/1000"},
		// Run 1, t0+75, backfill: n2 and n3 are reserved for jobs ahead,
		// n1 and n4 have 1 free each. Sets {n1} and {n4}, neither holds
		// 2: the bigger (the first of equals) gives 1, then the other
		// (sacct: job 30 on n[1,4]).
		{name: "job 30: two sets", part: "batch", except: []string{"n2", "n3"},
			used: []usage{{"n1", 7, 7000}, {"n4", 7, 7000}}, req: cpus(2),
			want: "n1:1/1000 n4:1/1000"},
		// Free n1 2, n2 2, n3 0, n4 8. Both sets hold 3; the tighter
		// {n1, n2} (4 < 8) wins, and no node of it holds 3, so the job
		// spreads there although n4 alone could hold it.
		{name: "tightest set before a single node", part: "batch",
			used: []usage{{"n1", 6, 6000}, {"n2", 6, 6000}, {"n3", 8, 8000}}, req: cpus(3),
			want: "n1:2/2000 n2:1/1000"},
		// -N1 (max_nodes 1): {n1, n2} (4) is the first of two sufficient
		// sets of 4 CPUs, but neither of its nodes holds 3 and a last
		// node must (max_nodes == 1): spent; {n4} gives 3.
		{name: "-N1 skips a set without a node that holds it", part: "batch",
			used: []usage{{"n1", 6, 6000}, {"n2", 6, 6000}, {"n3", 8, 8000}, {"n4", 4, 4000}},
			req:  Request{CPUs: 3, Nodes: 1, MemPerCPU: 1000, Type: -1}, want: "n4:3/3000"},
		// Weight: w1 (4 CPUs, Weight 1) and w2 (8, Weight 2) are sets of
		// their own; the lower Weight's comes first even when it falls
		// short: w1 gives 4, then the best fit in {w2} the last 2.
		{name: "lower Weight first", mk: func(t *testing.T) *Cluster {
			return newTestCluster(t, "broadwell", false, []NodeSpec{
				nodeGroup("broadwell", 4, 4000, 1, "w1"),
				nodeGroup("broadwell", 8, 8000, 2, "w2"),
			}, partSpec("batch"))
		}, part: "batch", req: Request{CPUs: 6, Type: -1}, want: "w1:4/0 w2:2/0"},
		// short has 16 CPUs.
		{name: "more than free", part: "short", req: cpus(17), fit: NotNow},
		// A partition's MinNodes=2 on the 22.05 harness (4 idle nodes of
		// 8 CPUs, DefMemPerCPU=1000): -n 1 ran on n1 and n2 with one CPU
		// each (NumCPUs=2: nodeBounds raised its CPUs); then -n 12 took
		// n1's 7 free and n2's 5 (rem_nodes 2 keeps a CPU back for n2);
		// on idle nodes -n 20 took 8, 8 and 4 (max_nodes as without it).
		{name: "MinNodes: -n 1 on two nodes", part: "batch", req: Request{CPUs: 2, MinNodes: 2, MemPerCPU: 1000, Type: -1},
			want: "n1:1/1000 n2:1/1000"},
		{name: "MinNodes: -n 12 beside it", part: "batch", used: []usage{{"n1", 1, 1000}, {"n2", 1, 1000}},
			req: Request{CPUs: 12, MinNodes: 2, MemPerCPU: 1000, Type: -1}, want: "n1:7/7000 n2:5/5000"},
		{name: "MinNodes: -n 20 on three", part: "batch", req: Request{CPUs: 20, MinNodes: 2, MemPerCPU: 1000, Type: -1},
			want: "n1:8/8000 n2:8/8000 n3:4/4000"},
		// Asking no memory (the bitmap path, evalSets, takes such jobs
		// without MinNodes).
		{name: "MinNodes: no memory asked", part: "batch", req: Request{CPUs: 2, MinNodes: 2, Type: -1},
			want: "n1:1/0 n2:1/0"},
		// A set is sufficient only with MinNodes nodes (_enough_nodes):
		// {n1} (8 free) holds the CPUs but is one node; {n3, n4} (4 + 8)
		// is the only sufficient set.
		{name: "MinNodes: a one-node set is not sufficient", part: "batch",
			used: []usage{{"n2", 8, 0}, {"n3", 4, 0}}, req: Request{CPUs: 2, MinNodes: 2, Type: -1},
			want: "n3:1/0 n4:1/0"},
		// One node could hold it, but two must share it: n4 alone has
		// room for 3, the set {n3, n4} (2 + 8) gives 2 and 1.
		{name: "MinNodes: spread where one node would do", part: "short", used: []usage{{"n3", 6, 6000}},
			req: Request{CPUs: 3, MinNodes: 2, MemPerCPU: 1000, Type: -1}, want: "n3:2/2000 n4:1/1000"},
		// Only one node has a free CPU: MinNodes cannot be met now.
		{name: "MinNodes: one node free", part: "short", used: []usage{{"n3", 8, 8000}},
			req: Request{CPUs: 2, MinNodes: 2, MemPerCPU: 1000, Type: -1}, fit: NotNow},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mk := tc.mk
			if mk == nil {
				mk = refCluster
			}
			c := mk(t)
			for _, u := range tc.used {
				use(t, c, u.node, u.cores, u.mem)
			}
			var except []bool
			if len(tc.except) > 0 {
				except = make([]bool, len(c.Nodes))
				for _, n := range tc.except {
					except[node(t, c, n)] = true
				}
			}
			p, ok := c.Partition(tc.part)
			if !ok {
				t.Fatalf("no partition %s", tc.part)
			}
			got, fit := c.TryAllocExcept(&tc.req, p, except, nil)
			if fit != tc.fit || allocString(c, got) != tc.want {
				t.Errorf("got %q (%s), want %q (%s)", allocString(c, got), fit, tc.want, tc.fit)
			}
		})
	}
}

// TestEvalSetsMatchesScan places random requests on random clusters both
// ways: through evalSets (the sets found from bitmaps and the free-level
// index) and through evalNodes' walk over every usable node, whole-node
// requests among them (idle nodes only). Nodes have
// 1-8 cores and Weights 1-3 scattered over their indices (so sets break
// at weight changes and index gaps), some partitions hold a subset, part
// of the cores are busy (with their share of memory, or sometimes more,
// which makes memory short and sends share requests to the walk), and a
// will-run test's nodes in play are sometimes a random subset. Where
// Cluster.FreeFits answers, it gives placement's fit.
func TestEvalSetsMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	defer func() { evalFast = true }()
	counted := 0 // requests Cluster.FreeFits answered, which must agree
	defer func() {
		if counted < 500 {
			t.Errorf("FreeFits answered %d requests: the test should exercise it", counted)
		}
	}()
	for trial := range 300 {
		nn := 1 + rng.IntN(150)
		var specs []NodeSpec
		var names, some []string
		for i := range nn {
			cores := 1 + rng.IntN(8)
			name := fmt.Sprintf("n%03d", i)
			names = append(names, name)
			if rng.IntN(2) == 0 {
				some = append(some, name)
			}
			specs = append(specs, nodeGroup("broadwell", cores, int64(cores)*1000, 1+rng.IntN(3), name))
		}
		if len(some) == 0 {
			some = names[:1]
		}
		c := newTestCluster(t, "broadwell", false, specs, partSpec("all"), partSpec("some", some...))
		for n := range c.Nodes {
			nd := &c.Nodes[n]
			k := rng.IntN(nd.Cores + 1)
			mem := int64(k) * nd.MemMB / int64(nd.Cores)
			if trial%4 == 3 && k < nd.Cores && rng.IntN(4) == 0 {
				mem += 500 // more than its share: memory binds
			}
			c.take(n, -1, k, mem, 0)
		}
		tight := 0
		for n := range c.Nodes {
			if c.Nodes[n].memTight() {
				tight++
			}
		}
		if tight != c.memTight {
			t.Fatalf("trial %d: memTight %d, recount %d", trial, c.memTight, tight)
		}
		for range 20 {
			req := Request{CPUs: 1 + rng.IntN(c.TotalCores), Type: -1}
			switch rng.IntN(3) {
			case 0:
				req.MemPerCPU = MemCoreShare
			case 1:
				req.CPUs = 1 + rng.IntN(8)
				req.MemPerCPU = MemCoreShare
			}
			if rng.IntN(5) == 0 {
				req.Nodes = 1
				req.CPUs = 1 + rng.IntN(8)
			}
			if rng.IntN(4) == 0 {
				// Whole nodes: the idle ones (freeLevels.idleWord).
				req.Exclusive = true
				req.CPUs = 1 + rng.IntN(20)
			}
			p := rng.IntN(2)
			var avail []uint64
			if rng.IntN(2) == 0 {
				avail = make([]uint64, (nn+63)/64)
				for n := range nn {
					if rng.IntN(3) > 0 {
						avail[n>>6] |= 1 << (n & 63)
					}
				}
				c.setPlay(&req, p, avail, false)
			}
			evalFast = true
			ff, ok := c.FreeFits(&req, p)
			fast, ffit := c.TryAllocExcept(&req, p, nil, nil)
			if ok {
				counted++
				if ff != (ffit == FitsNow) {
					t.Fatalf("trial %d, %+v on %s: FreeFits %v, placement %v", trial, req, c.Parts[p].Name, ff, ffit)
				}
			}
			evalFast = false
			slow, sfit := c.TryAllocExcept(&req, p, nil, nil)
			c.play = nil
			if ffit != sfit || allocString(c, fast) != allocString(c, slow) {
				t.Fatalf("trial %d, %+v on %s (play %v): sets %v %q, walk %v %q", trial, req, c.Parts[p].Name,
					avail != nil, ffit, allocString(c, fast), sfit, allocString(c, slow))
			}
		}
	}
}
