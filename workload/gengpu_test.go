package workload

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

// TestGenGPUs: a 30 % GPU share gives about 30 % GPU jobs (binomial sd
// 0.46 % on 10,000 jobs), only in the GPU partition, CPU jobs only in the
// others, never more GPUs on a node than GPUsPerNode, CPUs = GPUs x
// CPUsPerGPU capped at MaxCPUs, and about half of them typed.
func TestGenGPUs(t *testing.T) {
	c := DefaultGenConfig()
	c.Seed, c.Jobs = 3, 10000
	c.Partitions = []string{"batch", "long"}
	c.GPUShare, c.GPUPartitions, c.GPUTypes = 0.3, []string{"gpu"}, []string{"a100", "h100"}
	c.GPUsPerJob = GPUDist{{1, 0.4}, {2, 0.2}, {4, 0.2}, {6, 0.1}, {16, 0.1}}
	g, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.Config.Partitions, ","); got != "batch,long,gpu" {
		t.Errorf("partitions %q: the GPU partition is added", got)
	}
	gpuPart := int32(2)
	nGPU, typed := 0, 0
	counts := map[int64]int{}
	for _, j := range g.Jobs {
		reqs, err := g.Names.GresOf(&j)
		if err != nil {
			t.Fatal(err)
		}
		if len(reqs) == 0 {
			if j.Partition == gpuPart {
				t.Fatalf("CPU job %d in the GPU partition", j.ID)
			}
			continue
		}
		nGPU++
		r := reqs[0]
		if len(reqs) != 1 || r.Name != "gpu" || j.Partition != gpuPart {
			t.Fatalf("GPU job %d: %v in partition %d", j.ID, reqs, j.Partition)
		}
		if r.Type != "" {
			typed++
		}
		total := GPUs(reqs, j.Nodes)
		counts[total]++
		switch r.Per {
		case GresPerJob: // at most one node's worth, on one node
			if r.Count > int64(c.GPUsPerNode) || j.Nodes != 1 {
				t.Fatalf("job %d: %v over %d nodes", j.ID, r, j.Nodes)
			}
		case GresPerNode: // 6 GPUs: 2 nodes x 3; 16: 4 nodes x 4
			if r.Count > int64(c.GPUsPerNode) || int64(j.Nodes)*r.Count != total || !(total == 6 && j.Nodes == 2 || total == 16 && j.Nodes == 4) {
				t.Fatalf("job %d: %v over %d nodes", j.ID, r, j.Nodes)
			}
		}
		if want := min(int(total)*c.CPUsPerGPU, c.MaxCPUs); j.CPUs != want || j.AllocCPUs != want {
			t.Fatalf("job %d: %d CPUs for %d GPUs, want %d", j.ID, j.CPUs, total, want)
		}
	}
	within(t, "GPU job share", float64(nGPU)/float64(len(g.Jobs)), 0.3, 0.015)
	within(t, "typed share of GPU jobs", float64(typed)/float64(nGPU), 0.5, 0.03)
	within(t, "share of 1-GPU jobs", float64(counts[1])/float64(nGPU), 0.4, 0.03)
	within(t, "share of 16-GPU jobs", float64(counts[16])/float64(nGPU), 0.1, 0.02)
	if len(counts) != 5 {
		t.Errorf("GPU counts %v", counts)
	}
	// The header names the GPU parameters.
	if s := g.Config.String(); !strings.HasSuffix(s, " gpu-share=0.3 gpus-per-job=1:0.4,2:0.2,4:0.2,6:0.1,16:0.1 gpu-partitions=gpu "+
		"gpu-types=a100,h100 gpu-type-share=0.5 cpus-per-gpu=4 gpus-per-node=4") {
		t.Errorf("String: %s", s)
	}
	// sacct output carries the requests and reads back the same.
	var out bytes.Buffer
	if err := g.WriteSacct(&out); err != nil {
		t.Fatal(err)
	}
	back, r, err := readSacct(t, out.Bytes(), SacctOptions{})
	if err != nil || len(back) != len(g.Jobs) {
		t.Fatalf("%d jobs back: %v", len(back), err)
	}
	for i := range back {
		a, b := g.Names.Gres.Name(g.Jobs[i].Gres-1), r.Names().Gres.Name(back[i].Gres-1)
		if a != b || back[i].Nodes != g.Jobs[i].Nodes {
			t.Fatalf("job %d: %q back as %q", g.Jobs[i].ID, a, b)
		}
	}
}

// TestGenWithoutGPUsUnchanged: with GPUShare 0 and no GPU partitions the
// generator draws nothing more, so traces are those drawn before GPUs
// existed: the SWF text of these configurations hashes as it did then
// (hashes taken from the generator before GPUs, commit 7a5f506).
func TestGenWithoutGPUsUnchanged(t *testing.T) {
	tests := []struct {
		edit func(*GenConfig)
		want string
	}{
		{func(c *GenConfig) {}, "43aca102"},
		{func(c *GenConfig) {
			c.Seed, c.Features, c.MemShare, c.Partitions = 9, []string{"a", "b"}, 0.5, []string{"p", "q"}
		}, "7e2f2e7a"},
		{func(c *GenConfig) { c.Seed, c.GPUTypes, c.CPUsPerGPU, c.GPUsPerNode = 9, []string{"x"}, 8, 2 }, "096516fe"}, // unused GPU settings change nothing
	}
	for i, tc := range tests {
		c := DefaultGenConfig()
		c.Jobs = 500
		tc.edit(&c)
		b, err := GenerateSWF(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b))[:8]; got != tc.want {
			t.Errorf("case %d: SWF hash %s, want %s", i, got, tc.want)
		}
	}
}

// TestGenGPUValidate: GPU parameters out of range are refused, the
// others only when GPUs are drawn.
func TestGenGPUValidate(t *testing.T) {
	tests := []struct {
		edit func(*GenConfig)
		err  string
	}{
		{func(c *GenConfig) { c.GPUShare = 1.5 }, "GPU share 1.5: want 0..1"},
		{func(c *GenConfig) { c.GPUShare = -0.1 }, "GPU share -0.1"},
		{func(c *GenConfig) { c.GPUShare, c.CPUsPerGPU = 0.1, 0 }, "CPUs per GPU 0"},
		{func(c *GenConfig) { c.GPUShare, c.GPUsPerNode = 0.1, 0 }, "GPUs per node 0"},
		{func(c *GenConfig) { c.GPUShare, c.GPUTypeShare = 0.1, 2 }, "GPU type share 2"},
		{func(c *GenConfig) { c.GPUShare, c.GPUsPerJob = 0.1, GPUDist{{0, 1}} }, "GPUs per job 0: want 1..1048576"},
		{func(c *GenConfig) { c.GPUShare, c.GPUsPerJob = 0.1, GPUDist{{2, 0}} }, "weight 0 must be positive"},
		{func(c *GenConfig) { c.GPUShare, c.GPUsPerJob = 0.1, GPUDist{{2, 1}, {2, 1}} }, "given twice"},
		{func(c *GenConfig) { c.GPUShare, c.GPUTypes = 0.1, []string{"A 100"} }, `GPU type "A 100"`},
		{func(c *GenConfig) { c.GPUShare, c.MaxCPUs, c.GPUsPerJob = 0.1, 2, GPUDist{{12, 1}} }, "GPUs per job 12: 3 nodes of 4 GPUs, more than max CPUs 2"},
		{func(c *GenConfig) { c.CPUsPerGPU, c.GPUsPerNode = 0, 0 }, ""}, // no GPU jobs: not looked at
	}
	for i, tc := range tests {
		c := DefaultGenConfig()
		tc.edit(&c)
		err := c.Validate()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("case %d: %v, want %q", i, err, tc.err)
		}
	}
}

// TestParseGPUDist reads and writes the distribution's text form.
func TestParseGPUDist(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"1:0.5,2:0.25,4:0.15,8:0.1", "1:0.5,2:0.25,4:0.15,8:0.1", ""},
		{" 1 : 3 , 8:1", "1:3,8:1", ""},
		{"", "", ""},
		{"1", "", "want COUNT:WEIGHT"},
		{"x:1", "", `count "x"`},
		{"1:y", "", `weight "y"`},
		{"1:-1", "", "must be positive"},
		{"-2:1", "", "want 1.."},
	}
	for _, tc := range tests {
		var d GPUDist
		err := d.Set(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || d.String() != tc.want {
			t.Errorf("%q: %q %v, want %q", tc.in, d.String(), err, tc.want)
		}
	}
}
