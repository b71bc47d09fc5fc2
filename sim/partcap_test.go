package sim

import (
	"strings"
	"testing"

	"fairsim/workload"
)

// capCluster is the 22.05 harness's cluster for MaxCPUsPerNode: n1..n4
// with 8 CPUs and 16000 MB; batch over all of them with
// MaxCPUsPerNode=6, half over n1 and n2 with MaxCPUsPerNode=4, full over
// all of them without a cap.
func capCluster(t *testing.T) *Cluster {
	batch, half := partSpec("batch"), partSpec("half", "n1", "n2")
	batch.MaxCPUsPerNode, half.MaxCPUsPerNode = 6, 4
	return newTestCluster(t, "broadwell", false, []NodeSpec{
		nodeGroup("broadwell", 8, 16000, 1, "n1", "n2", "n3", "n4"),
	}, batch, half, partSpec("full"))
}

// partUse is a running job's CPUs on a node, in a partition.
type partUse struct {
	node, part string
	cores      int
}

// TestMaxCPUsPerNodePlacement: _eval_nodes over the CPUs _allocate_sc
// leaves a job under its partition's MaxCPUsPerNode (the cap less what
// the partition's jobs hold on the node), worked by hand.
func TestMaxCPUsPerNodePlacement(t *testing.T) {
	cpus := func(n int) Request { return Request{CPUs: n, MemPerCPU: 1000, Type: -1} }
	cases := []struct {
		name string
		part string
		used []partUse
		req  Request
		want string // "" for NotNow
	}{
		// The harness: -n 8 on idle nodes took 6 of n1 and 2 of n2. No
		// node holds 8 under the cap: the set's nodes in order, n1
		// giving its 6.
		{name: "-n 8 on idle nodes: 6 + 2", part: "batch", req: cpus(8), want: "n1:6/6000 n2:2/2000"},
		// Another partition's job on n1 leaves it 4 free CPUs, under the
		// cap: n1 4, n2 the other 4.
		{name: "another partition's CPUs are only busy", part: "batch", used: []partUse{{"n1", "full", 4}},
			req: cpus(8), want: "n1:4/4000 n2:4/4000"},
		// batch's own jobs hold its 6 of n1 and 2 of n2: n1 gives
		// nothing, n2 4 (of 6 free), n3 and n4 6 each. The single node
		// with the fewest usable CPUs that holds 6 is n3.
		{name: "the partition's own jobs fill the cap", part: "batch",
			used: []partUse{{"n1", "batch", 6}, {"n2", "batch", 2}}, req: cpus(6), want: "n3:6/6000"},
		// ... and -n 5 then fits n2's 4 nowhere but n3.
		{name: "what is left under the cap, not what is free", part: "batch",
			used: []partUse{{"n1", "batch", 6}, {"n2", "batch", 2}}, req: cpus(5), want: "n3:5/5000"},
		// full has no cap: n1's 2 free CPUs take -n 2 (the fewest that
		// hold it).
		{name: "an uncapped partition uses the rest", part: "full", used: []partUse{{"n1", "batch", 6}},
			req: cpus(2), want: "n1:2/2000"},
		// Every node's cap spent: nothing, with 8 CPUs free.
		{name: "cap spent everywhere", part: "batch",
			used: []partUse{{"n1", "batch", 6}, {"n2", "batch", 6}, {"n3", "batch", 6}, {"n4", "batch", 6}},
			req:  cpus(1), want: ""},
		// half's cap of 4 on two nodes: -n 6 is 4 + 2.
		{name: "half: 4 + 2", part: "half", req: cpus(6), want: "n1:4/4000 n2:2/2000"},
		// Caps are per partition: batch's 6 on n1 leave half its 4.
		{name: "caps are per partition", part: "half", used: []partUse{{"n1", "batch", 6}},
			req: cpus(2), want: "n1:2/2000"},
		// -N 2 -n 8 under the cap: n1 gives 6 (one kept back for the
		// other node), n2 the last 2.
		{name: "-N 2 -n 8", part: "batch", req: Request{CPUs: 8, Nodes: 2, MemPerCPU: 1000, Type: -1},
			want: "n1:6/6000 n2:2/2000"},
		// --exclusive: refused on 8-CPU nodes under a cap of 6
		// (_allocate_sc: whole_node with more CPUs than the cap).
		{name: "whole nodes over the cap", part: "batch", req: Request{CPUs: 1, Exclusive: true, Type: -1}, want: ""},
		{name: "whole nodes without a cap", part: "full", req: Request{CPUs: 1, Exclusive: true, Type: -1},
			want: "n1:8/16000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := capCluster(t)
			for _, u := range tc.used {
				p, _ := c.Partition(u.part)
				c.OccupyIn(Alloc{{Node: node(t, c, u.node), Cores: u.cores, MemMB: int64(u.cores) * 1000}}, p)
			}
			p, _ := c.Partition(tc.part)
			a, fit := c.TryAlloc(&tc.req, p, nil)
			got := allocString(c, a)
			if fit != FitsNow {
				got = ""
			}
			if got != tc.want {
				t.Errorf("got %q (%v), want %q", got, fit, tc.want)
			}
		})
	}
}

// TestMaxCPUsPerNodeCapacity: jobs that can never run under a cap are
// refused with a reason naming it. On the harness, -N1 -n7 and
// --exclusive in the capped partition were refused at submission; -n 30
// (more than 4 nodes x 6) pended with PartitionConfig, which a replay
// counts refused.
func TestMaxCPUsPerNodeCapacity(t *testing.T) {
	c := capCluster(t)
	for _, tc := range []struct {
		part string
		req  Request
		why  string // "" for FitsNow
	}{
		{"batch", Request{CPUs: 24, Type: -1}, ""},
		{"batch", Request{CPUs: 30, Type: -1}, "can give at most 24 (MaxCPUsPerNode 6)"},
		{"batch", Request{CPUs: 7, Nodes: 1, Type: -1}, "has 0 such nodes (MaxCPUsPerNode 6)"},
		{"batch", Request{CPUs: 6, Nodes: 1, Type: -1}, ""},
		{"batch", Request{CPUs: 1, Exclusive: true, Type: -1}, "more CPUs than its MaxCPUsPerNode 6"},
		{"half", Request{CPUs: 9, Type: -1}, "at most 8 (MaxCPUsPerNode 4)"},
		{"full", Request{CPUs: 32, Type: -1}, ""},
	} {
		p, _ := c.Partition(tc.part)
		fit, why := c.Capacity(&tc.req, p)
		if tc.why == "" && fit != FitsNow || tc.why != "" && (fit != Never || !strings.Contains(why, tc.why)) {
			t.Errorf("%s %+v: %v %q, want %q", tc.part, tc.req, fit, why, tc.why)
		}
	}
}

// TestMaxCPUsPerNodeShadow: a will-run test gives a holder's CPUs back
// to its partition's cap at its release. batch's job holds 6 of n1 and
// of n2 until 100, full's jobs n3 and n4 until 300: a batch -n 4 fits no
// node now (n1 and n2 have 2 free each, but batch's cap is spent) and
// fits at 100; full's -n 4 fits now on those 2 + 2.
func TestMaxCPUsPerNodeShadow(t *testing.T) {
	c := capCluster(t)
	batch, _ := c.Partition("batch")
	full, _ := c.Partition("full")
	hs := []Holding{
		{Job: &Job{Idx: 0}, Part: batch, End: 100, Alloc: Alloc{{Node: node(t, c, "n1"), Cores: 6, MemMB: 6000}, {Node: node(t, c, "n2"), Cores: 6, MemMB: 6000}}},
		{Job: &Job{Idx: 1}, Part: full, End: 300, Alloc: Alloc{{Node: node(t, c, "n3"), Cores: 8, MemMB: 8000}, {Node: node(t, c, "n4"), Cores: 8, MemMB: 8000}}},
	}
	for _, h := range hs {
		c.OccupyIn(h.Alloc, h.Part)
	}
	var rel Releases
	rel.Reset(hs)
	for _, tc := range []struct {
		part  int
		cpus  int
		start int64
		want  string
	}{
		{batch, 4, 100, "n1:4/4000"},
		{full, 4, 0, "n1:2/2000 n2:2/2000"},
		{batch, 12, 100, "n1:6/6000 n2:6/6000"},
		{batch, 13, 300, "n1:6/6000 n2:6/6000 n3:1/1000"},
	} {
		req := Request{CPUs: tc.cpus, MemPerCPU: 1000, Type: -1}
		a, start, fit := c.WillRun(&req, tc.part, nil, &rel, 1000, nil)
		if fit != FitsNow || start != tc.start || allocString(c, a) != tc.want {
			t.Errorf("%s -n %d: %v at %d on %q, want %d on %q", c.Parts[tc.part].Name, tc.cpus, fit, start, allocString(c, a), tc.start, tc.want)
		}
	}
}

// TestCheckInvariantsMaxCPUsPerNode: the invariants count each capped
// partition's CPUs on a node as its jobs start, apart from other
// partitions' and from jobs that ended.
func TestCheckInvariantsMaxCPUsPerNode(t *testing.T) {
	c := capCluster(t)
	batch, _ := c.Partition("batch")
	full, _ := c.Partition("full")
	n1 := node(t, c, "n1")
	job := func(id int64, part int, start, end int64, cores int) *Job {
		return &Job{Job: workload.Job{ID: id, CPUs: cores}, Idx: int(id - 1), Part: part, State: Completed,
			Start: start, End: end, Alloc: Alloc{{Node: n1, Cores: cores, MemMB: 100}}}
	}
	checkCases(t, c, []invariantCase{
		{"at the cap", func() []*Job {
			return []*Job{job(1, batch, 0, 100, 4), job(2, batch, 50, 150, 2), job(3, full, 50, 150, 2)}
		}, ""},
		{"over the cap", func() []*Job { return []*Job{job(1, batch, 0, 100, 4), job(2, batch, 50, 150, 3)} },
			"partition batch's jobs hold 7 CPUs of node n1 at 50 (MaxCPUsPerNode 6), job 2 starting"},
		{"after an end", func() []*Job { return []*Job{job(1, batch, 0, 100, 4), job(2, batch, 100, 150, 6)} }, ""},
	})
}

// TestMaxCPUsPerNodeShort: the reason a job waits names the cap when
// the partition has the CPUs free but not under it.
func TestMaxCPUsPerNodeShort(t *testing.T) {
	c := capCluster(t)
	batch, _ := c.Partition("batch")
	for _, n := range []string{"n1", "n2", "n3"} {
		c.OccupyIn(Alloc{{Node: node(t, c, n), Cores: 6, MemMB: 6000}}, batch)
	}
	req := Request{CPUs: 8, MemPerCPU: 1000, Type: -1}
	const want = "8 CPUs asked, 14 free in batch and 6 of them under its MaxCPUsPerNode 6"
	if got := c.Short(&req, batch); got != want {
		t.Errorf("Short: %q, want %q", got, want)
	}
}
