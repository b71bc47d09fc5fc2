package sim

import (
	"fmt"
	"strings"
	"testing"

	"fairsim/workload"
)

// gresCluster: three Skylake nodes of 32 cores and 64000 MB.
//
//	g1  gpu:a100:4           Weight 1
//	g2  gpu:v100:2,gpu:a100:1  Weight 1 (two kinds on one node, as at DIKU)
//	c1  no GRES              Weight 1
//
// Partition p holds them all; gpu holds g1 and g2 with DefMemPerGPU 8000
// and DefCpuPerGPU 4.
func gresCluster(t *testing.T) *Cluster {
	t.Helper()
	g1 := nodeGroup("skylake", 32, 64000, 1, "g1")
	g1.Gres = []GresCount{{"gpu", "a100", 4}}
	g2 := nodeGroup("skylake", 32, 64000, 1, "g2")
	g2.Gres = []GresCount{{"gpu", "v100", 2}, {"GPU", "A100", 1}}
	c1 := nodeGroup("skylake", 32, 64000, 1, "c1")
	gp := partSpec("gpu", "g1", "g2")
	gp.DefMemPerGPU, gp.DefCPUPerGPU = 8000, 4
	return newTestCluster(t, "skylake", false, []NodeSpec{g1, g2, c1}, partSpec("p"), gp)
}

// gresString prints an allocation with its GRES: node:cores/MB+kind=n.
func gresString(c *Cluster, a Alloc) string {
	var parts []string
	for _, s := range a {
		p := fmt.Sprintf("%s:%d/%d", c.Nodes[s.Node].Name, s.Cores, s.MemMB)
		for i, g := range c.Nodes[s.Node].Gres {
			if k := s.Gres.At(i); k > 0 {
				p += fmt.Sprintf("+%s=%d", c.GresKinds[g.Kind], k)
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func TestGresKindsAndTotals(t *testing.T) {
	c := gresCluster(t)
	// Kinds in the order first seen, names lower-cased: a100 on g1, then
	// v100 on g2 (g2's A100 is the same kind as g1's).
	var kinds []string
	for _, k := range c.GresKinds {
		kinds = append(kinds, k.String())
	}
	if got := strings.Join(kinds, ","); got != "gpu:a100,gpu:v100" {
		t.Errorf("kinds %s", got)
	}
	// 4 + 2 + 1 = 7 GPUs, all free; partition gpu has all 7.
	gpu, _ := c.Partition("gpu")
	if c.GPUs != 7 || c.FreeGPUs != 7 || c.Parts[gpu].GPUs != 7 {
		t.Errorf("GPUs %d free %d, partition gpu %d", c.GPUs, c.FreeGPUs, c.Parts[gpu].GPUs)
	}
}

func TestGresAlloc(t *testing.T) {
	c0 := gresCluster(t)
	need := func(nodes int, reqs ...workload.GresReq) []GresNeed { return c0.Needs(reqs, nodes) }
	gpu := func(typ string, n int64, per workload.GresScope) workload.GresReq {
		return workload.GresReq{Name: "gpu", Type: typ, Count: n, Per: per}
	}
	for _, tc := range []struct {
		name string
		part string
		req  Request
		pre  []Request // placed first, in order
		want string
		fit  Fit
	}{
		// Best fit by free cores: all three nodes have 32 free; ties go to
		// allocation order, g1 first. A typeless request takes g1's A100s.
		{name: "untyped on the first node", part: "p",
			req: Request{CPUs: 4, MemPerCPU: 1000, Type: -1, Gres: need(0, gpu("", 2, workload.GresPerJob))}, want: "g1:4/4000+gpu:a100=2", fit: FitsNow},
		// V100 only on g2.
		{name: "typed lands on its type", part: "p",
			req: Request{CPUs: 4, MemPerCPU: 1000, Type: -1, Gres: need(1, gpu("v100", 2, workload.GresPerNode))}, want: "g2:4/4000+gpu:v100=2", fit: FitsNow},
		// Three V100 exist nowhere on one node: g2 has 2. Spreading is
		// allowed (no node count), but only 2 V100 exist at all.
		{name: "more of a type than there is", part: "p",
			req: Request{CPUs: 2, MemPerCPU: 1000, Type: -1, Gres: need(0, gpu("v100", 3, workload.GresPerJob))}, want: "", fit: NotNow},
		// Five GPUs, no node count: no node has 5 (c1 has none, so it is
		// no use). g1 and g2 form one set; g1 gives its 4 CPUs and 4
		// A100s, g2 one CPU (_cpus_to_use gives each node one at least)
		// and the fifth GPU, its first kind in node order: a V100. The 4
		// tasks go round the nodes (dist_tasks), 3 and 1, as the 22.05
		// harness laid out --gpus=3 -n 3 as 2 and 1 (evalPerJob).
		{name: "spread for GPUs", part: "p",
			req: Request{CPUs: 4, MemPerCPU: 1000, Type: -1, Gres: need(0, gpu("", 5, workload.GresPerJob))}, want: "g1:3/3000+gpu:a100=4 g2:1/1000+gpu:v100=1", fit: FitsNow},
		// Per node over two nodes: 1 A100 each on g1 and g2 (c1 has none),
		// placed as a CPU-only job (_eval_nodes, _cpus_to_use keeping a
		// CPU for the node still to come): 7 and 1, as the 22.05 harness
		// placed -N 2 -n 8 --gres=gpu:1 on idle 8-CPU nodes.
		{name: "per node on two nodes", part: "p",
			req: Request{CPUs: 8, Nodes: 2, MemPerCPU: 1000, Type: -1, Gres: need(2, gpu("a100", 1, workload.GresPerNode))}, want: "g1:7/7000+gpu:a100=1 g2:1/1000+gpu:a100=1", fit: FitsNow},
		// A GPU is never shared: after 4 A100 on g1 and 1 on g2 are taken,
		// an A100 request waits.
		{name: "no A100 left", part: "p",
			pre: []Request{{CPUs: 1, MemPerCPU: 1, Type: -1, Gres: need(1, gpu("a100", 4, workload.GresPerNode))},
				{CPUs: 1, MemPerCPU: 1, Type: -1, Gres: need(1, gpu("a100", 1, workload.GresPerNode))}},
			req: Request{CPUs: 1, MemPerCPU: 1, Type: -1, Gres: need(1, gpu("a100", 1, workload.GresPerNode))}, want: "", fit: NotNow},
		// MemPerGPU (DefMemPerGPU 8000): 2 GPUs → 16000 MB on the node.
		{name: "memory per GPU", part: "gpu",
			req: Request{CPUs: 8, MemPerGPU: 8000, Type: -1, Gres: need(1, gpu("", 2, workload.GresPerNode))}, want: "g1:8/16000+gpu:a100=2", fit: FitsNow},
		// Whole nodes hold every GRES on them.
		{name: "exclusive holds all", part: "gpu",
			req: Request{CPUs: 8, Exclusive: true, Type: -1, Gres: need(1, gpu("v100", 1, workload.GresPerNode))}, want: "g2:32/64000+gpu:v100=2+gpu:a100=1", fit: FitsNow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gresCluster(t)
			p, _ := c.Partition(tc.part)
			for _, r := range tc.pre {
				a, fit := c.TryAlloc(&r, p, nil)
				if fit != FitsNow {
					t.Fatalf("pre %+v: %s", r, fit)
				}
				c.apply(a, -1, true)
			}
			got, fit := c.TryAlloc(&tc.req, p, nil)
			if fit != tc.fit || gresString(c, got) != tc.want {
				t.Errorf("got %q (%s), want %q (%s)", gresString(c, got), fit, tc.want, tc.fit)
			}
		})
	}
}

func TestGresCapacity(t *testing.T) {
	c := gresCluster(t)
	p, _ := c.Partition("p")
	for _, tc := range []struct {
		reqs   []workload.GresReq
		nodes  int
		memGPU int64
		fit    Fit
		why    string
	}{
		// Two A100 on a node: only g1 has them, and 2 × 40000 MB is more
		// than its 64000: no node can ever hold it, though the partition
		// has 5 A100 and g2 the memory.
		{[]workload.GresReq{{Name: "gpu", Type: "a100", Count: 2}}, 1, 40000, Never, "no node in p has the GRES asked with the CPU and memory asked"},
		{[]workload.GresReq{{Name: "gpu", Type: "h100", Count: 1}}, 1, 0, Never, "GRES gpu:h100 asked, no node of the cluster has it"},
		{[]workload.GresReq{{Name: "gpu", Count: 8, Per: workload.GresPerJob}}, 0, 0, Never, "8 GRES gpu asked, partition p has 7"},
		{[]workload.GresReq{{Name: "gpu", Type: "a100", Count: 1}}, 3, 0, Never, "1 GRES gpu:a100 per node on 3 nodes asked, partition p has 2 such nodes"},
		{[]workload.GresReq{{Name: "gpu", Count: 7, Per: workload.GresPerJob}}, 0, 0, FitsNow, ""},
		{[]workload.GresReq{{Name: "gpu", Type: "a100", Count: 2}}, 1, 30000, FitsNow, ""},
	} {
		req := Request{CPUs: 3, Nodes: tc.nodes, Type: -1, Gres: c.Needs(tc.reqs, tc.nodes), MemPerGPU: tc.memGPU}
		if fit, why := c.Capacity(&req, p); fit != tc.fit || why != tc.why {
			t.Errorf("%+v: %s %q, want %s %q", tc.reqs, fit, why, tc.fit, tc.why)
		}
	}
}

func TestGresNeedsSplitsEvenly(t *testing.T) {
	c := gresCluster(t)
	// --gpus=8 -N2 is 4 per node; --gpus=3 -N2 stays a job total.
	n := c.Needs([]workload.GresReq{{Name: "gpu", Count: 8, Per: workload.GresPerJob}}, 2)
	if n[0].PerNode != 4 || n[0].PerJob != 0 {
		t.Errorf("8 over 2 nodes: %+v", n[0])
	}
	n = c.Needs([]workload.GresReq{{Name: "gpu", Count: 3, Per: workload.GresPerJob}}, 2)
	if n[0].PerNode != 0 || n[0].PerJob != 3 {
		t.Errorf("3 over 2 nodes: %+v", n[0])
	}
}

func TestTrackTRES(t *testing.T) {
	c := gresCluster(t)
	if w, err := c.TrackTRES(""); err != nil || w == "" {
		t.Errorf("untracked GPUs: warning %q, err %v", w, err)
	}
	if w, err := c.TrackTRES("gres/gpu,gres/gpu:a100,license/x"); err != nil || w != "" {
		t.Fatalf("warning %q, err %v", w, err)
	}
	g1 := node(t, c, "g1")
	g2 := node(t, c, "g2")
	a := Alloc{{Node: g1, Cores: 4, MemMB: 65536, Gres: GresTake(0).with(0, 2)}, {Node: g2, Cores: 4, MemMB: 1024, Gres: GresTake(0).with(0, 1).with(1, 1)}}
	tr := c.AllocTRES(a)
	tr.Billing = 12
	// gres/gpu counts all 4 GPUs; gres/gpu:a100 the 3 A100s (2 on g1, g2's
	// second kind); memory 66560 MB = 65 G exactly.
	if got := tr.SacctString(); got != "billing=12,cpu=8,gres/gpu:a100=3,gres/gpu=4,mem=65G,node=2" {
		t.Errorf("AllocTRES %s", got)
	}
	if _, err := c.TrackTRES("gres/gpu:a:b"); err == nil {
		t.Error("gres/gpu:a:b accepted")
	}
}

// TestRequestTRES: a request's GRES in the TRES select_nodes counts for
// limits (_set_type_tres_cnt): gres/gpu sums every GPU request, a typed
// TRES counts its type's request, and an untyped request counts toward
// the first tracked type only when gres/gpu itself is not tracked.
func TestRequestTRES(t *testing.T) {
	c := gresCluster(t)
	untyped := GresNeed{Name: "gpu", PerNode: 2}
	a100 := GresNeed{Name: "gpu", Type: "a100", PerJob: 3}
	for _, tc := range []struct {
		track string
		gres  []GresNeed
		want  string
	}{
		{"gres/gpu,gres/gpu:a100", []GresNeed{untyped}, "cpu=8,gres/gpu=4,mem=1000M,node=2"},
		{"gres/gpu,gres/gpu:a100", []GresNeed{a100}, "cpu=8,gres/gpu:a100=3,gres/gpu=3,mem=1000M,node=2"},
		{"gres/gpu,gres/gpu:a100", []GresNeed{untyped, a100}, "cpu=8,gres/gpu:a100=3,gres/gpu=7,mem=1000M,node=2"},
		{"gres/gpu:a100", []GresNeed{untyped}, "cpu=8,gres/gpu:a100=4,mem=1000M,node=2"},
		{"gres/gpu", []GresNeed{a100}, "cpu=8,gres/gpu=3,mem=1000M,node=2"},
		{"", []GresNeed{untyped, a100}, "cpu=8,mem=1000M,node=2"},
	} {
		if _, err := c.TrackTRES(tc.track); err != nil {
			t.Fatal(err)
		}
		tr := c.RequestTRES(&Request{Gres: tc.gres}, 8, 1000, 2)
		if got := tr.SacctString(); got != tc.want {
			t.Errorf("tracking %q, asking %+v: %s, want %s", tc.track, tc.gres, got, tc.want)
		}
	}
}

// TestGresPerNodeSets: a job asking GRES per node is placed as a job
// without GRES on the nodes that have them free (cons_tres _eval_nodes:
// _select_cores leaves a node without them no CPU), so the best of the
// consecutive sets decides, as the 22.05 harness placed it (differential
// run gpu-per-node): four idle 8-CPU nodes with 2 GPUs each, n3 holding 6
// CPUs and 6000 MB. 2 CPUs, a GPU and 12000 MB cannot use n3, which splits
// the nodes into the sets n[1-2] and n4: the tightest sufficient set is
// n4. With 2000 MB, n3 joins one set n[1-4], whose single node of fewest
// usable CPUs that holds the job is n3.
func TestGresPerNodeSets(t *testing.T) {
	for _, tc := range []struct {
		mem  int64
		want string
	}{{12000, "n4:2/12000+gpu=1"}, {2000, "n3:2/2000+gpu=1"}} {
		ns := nodeGroup("broadwell", 8, 16000, 1, "n1", "n2", "n3", "n4")
		ns.Gres = []GresCount{{"gpu", "", 2}}
		c := newTestCluster(t, "broadwell", false, []NodeSpec{ns})
		use(t, c, "n3", 6, 6000)
		req := Request{CPUs: 2, MemPerNode: tc.mem, Type: -1,
			Gres: c.Needs([]workload.GresReq{{Name: "gpu", Count: 1, Per: workload.GresPerNode}}, 1)}
		got, fit := c.TryAlloc(&req, 0, nil)
		if fit != FitsNow || gresString(c, got) != tc.want {
			t.Errorf("--mem=%d: got %q (%s), want %q", tc.mem, gresString(c, got), fit, tc.want)
		}
	}
}

// TestGresPerJobPlacement: GPUs asked over the job (--gpus) placed as
// cons_tres places them, as the 22.05 harness did on three nodes of 8
// CPUs and 2 GPUs (scontrol show job -d): only nodes with a GPU free are
// usable; nodes are taken until the CPUs and GPUs are found; each node
// gets at most the GPUs still lacking less one per node after it, so an
// early node may get none; the tasks go round the nodes.
func TestGresPerJobPlacement(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cpus, gpus int
		want       string
	}{
		// n1 holds a job with both its GPUs: --gpus=1 -n 12 takes n2
		// whole for CPUs and the GPU on n3.
		{"one GPU, many CPUs", 12, 1, "n2:8/8000 n3:4/4000+gpu=1"},
		// --gpus=3 -n 3: n2's two GPUs and n3's one, the tasks 2 and 1.
		{"three GPUs", 3, 3, "n2:2/2000+gpu=2 n3:1/1000+gpu=1"},
	} {
		ns := nodeGroup("broadwell", 8, 16000, 1, "n1", "n2", "n3")
		ns.Gres = []GresCount{{"gpu", "", 2}}
		c := newTestCluster(t, "broadwell", false, []NodeSpec{ns})
		// A job holding one CPU and both GPUs of n1.
		hold := Request{CPUs: 1, MemPerCPU: 1000, Type: -1,
			Gres: c.Needs([]workload.GresReq{{Name: "gpu", Count: 2, Per: workload.GresPerNode}}, 1)}
		a, fit := c.TryAlloc(&hold, 0, nil)
		if fit != FitsNow || gresString(c, a) != "n1:1/1000+gpu=2" {
			t.Fatalf("holder on %q (%s)", gresString(c, a), fit)
		}
		c.apply(a, -1, true)
		req := Request{CPUs: tc.cpus, MemPerCPU: 1000, Type: -1,
			Gres: c.Needs([]workload.GresReq{{Name: "gpu", Count: int64(tc.gpus), Per: workload.GresPerJob}}, 0)}
		got, fit := c.TryAlloc(&req, 0, nil)
		if fit != FitsNow || gresString(c, got) != tc.want {
			t.Errorf("%s: got %q (%s), want %q", tc.name, gresString(c, got), fit, tc.want)
		}
	}
}
