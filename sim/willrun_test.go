package sim

import (
	"testing"

	"fairsim/workload"
)

// WillRun on gresCluster's p (g1: 4 A100, g2: 2 V100 + 1 A100, c1: no
// GPU; 32 cores and 64000 MB each) at now = 100, after these holders:
//
//	A: g1 32 cores, 4 A100, until 1000
//	B: g2 16 cores, 60000 MB, until 2000
//	C: c1 32 cores, until 3000
//
// so now g2 has 16 cores and 4000 MB free, the rest nothing.
func TestWillRun(t *testing.T) {
	gpu := func(c *Cluster, n int64) []GresNeed {
		return c.Needs([]workload.GresReq{{Name: "gpu", Type: "a100", Count: n, Per: workload.GresPerJob}}, 0)
	}
	for _, tc := range []struct {
		name  string
		req   func(c *Cluster) Request
		out   string // a node left out of play
		until int64
		want  string
		at    int64
		fit   Fit
	}{
		// 8 cores, 400 MB each: g2 has them now (3200 of 4000 MB).
		{name: "fits now", req: func(*Cluster) Request { return Request{CPUs: 8, MemPerCPU: 400, Type: -1} },
			until: 5000, want: "g2:8/3200", at: 100, fit: FitsNow},
		// 8 cores of 1000 MB: g2's 4000 MB hold 4; g1 frees at 1000.
		{name: "memory waits for A", req: func(*Cluster) Request { return Request{CPUs: 8, MemPerCPU: 1000, Type: -1, Nodes: 1} },
			until: 5000, want: "g1:8/8000", at: 1000, fit: FitsNow},
		// Two A100 on one node: g2 has one; g1's four come back at 1000.
		{name: "GRES waits for A", req: func(c *Cluster) Request {
			return Request{CPUs: 2, MemPerCPU: 100, Type: -1, Nodes: 1, Gres: gpu(c, 2)}
		}, until: 5000, want: "g1:2/200", at: 1000, fit: FitsNow},
		// The same with g1 out of play: g2 never has two A100.
		{name: "GRES with g1 out", req: func(c *Cluster) Request {
			return Request{CPUs: 2, MemPerCPU: 100, Type: -1, Nodes: 1, Gres: gpu(c, 2)}
		}, out: "g1", until: 5000, fit: NotNow},
		// 20 cores on one node: g2 (16 free) waits for B at 2000 when g1
		// is out; until 1500 is too soon.
		{name: "until", req: func(*Cluster) Request { return Request{CPUs: 20, MemPerCPU: 100, Type: -1, Nodes: 1} },
			out: "g1", until: 1500, fit: NotNow},
		{name: "node out", req: func(*Cluster) Request { return Request{CPUs: 20, MemPerCPU: 100, Type: -1, Nodes: 1} },
			out: "g1", until: 5000, want: "g2:20/2000", at: 2000, fit: FitsNow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gresCluster(t)
			c.Now = 100
			g1, g2, c1 := node(t, c, "g1"), node(t, c, "g2"), node(t, c, "c1")
			a := Alloc{{Node: g1, Cores: 32, MemMB: 0, Gres: 4}}
			c.Occupy(a)
			b := Alloc{{Node: g2, Cores: 16, MemMB: 60000}}
			c.Occupy(b)
			cc := Alloc{{Node: c1, Cores: 32}}
			c.Occupy(cc)
			var rel Releases
			rel.Reset([]Holding{{Alloc: a, End: 1000}, {Alloc: b, End: 2000}, {Alloc: cc, End: 3000}})
			var avail []uint64
			if tc.out != "" {
				avail = make([]uint64, (len(c.Nodes)+63)/64)
				for n := range c.Nodes {
					avail[n>>6] |= 1 << (n & 63)
				}
				k := node(t, c, tc.out)
				avail[k>>6] &^= 1 << (k & 63)
			}
			req := tc.req(c)
			got, at, fit := c.WillRun(&req, 0, avail, &rel, tc.until, nil)
			if fit != tc.fit || allocString(c, got) != tc.want || (fit == FitsNow && at != tc.at) {
				t.Errorf("got %q at %d (%v), want %q at %d (%v)", allocString(c, got), at, fit, tc.want, tc.at, tc.fit)
			}
			// The cluster is as it was: tests move only rel's shadows.
			if c.Nodes[g1].FreeCores != 0 || c.Nodes[g2].FreeCores != 16 || c.Nodes[g2].FreeMem != 4000 || c.Parts[0].FreeCores != 16 || c.Now != 100 {
				t.Errorf("cluster changed: g1 %d free, g2 %d/%d MB, p %d, now %d", c.Nodes[g1].FreeCores, c.Nodes[g2].FreeCores, c.Nodes[g2].FreeMem, c.Parts[0].FreeCores, c.Now)
			}
		})
	}
}

// TestWillRunWindowOnWallClock: _will_run_test aligns its first window on
// end_time % 30 of Unix time, so where the trace's time 0 falls on the
// wall clock (Cluster.wall) decides which ends share a batch. A 32-core
// one-node job on gresCluster, now 100, while A holds g1 until 181, B
// holds half of g2 until 224 and C holds c1 until 300. With time 0 on a
// whole minute, A's end rounds up to 210, the batch runs to 240 and takes
// B too: the job's start is B's end, 224. With time 0 at :21, A ends at
// :22 of a minute, the window runs to 219 and holds A alone: 181.
func TestWillRunWindowOnWallClock(t *testing.T) {
	for _, tc := range []struct {
		wall, want int64
	}{{0, 224}, {21, 181}, {21 + 600, 181}, {9, 224}} {
		c := gresCluster(t)
		c.Now, c.wall = 100, tc.wall
		g1, g2, c1 := node(t, c, "g1"), node(t, c, "g2"), node(t, c, "c1")
		a := Alloc{{Node: g1, Cores: 32}}
		b := Alloc{{Node: g2, Cores: 16}}
		cc := Alloc{{Node: c1, Cores: 32}}
		for _, x := range []Alloc{a, b, cc} {
			c.Occupy(x)
		}
		var rel Releases
		rel.Reset([]Holding{{Alloc: a, End: 181}, {Alloc: b, End: 224}, {Alloc: cc, End: 300}})
		req := Request{CPUs: 32, MemPerCPU: 100, Type: -1, Nodes: 1}
		_, at, fit := c.WillRun(&req, 0, nil, &rel, 5000, nil)
		if fit != FitsNow || at != tc.want {
			t.Errorf("wall %d: start %d (%v), want %d", tc.wall, at, fit, tc.want)
		}
	}
}
