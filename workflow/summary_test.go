package workflow

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"fairsim/report"
	"fairsim/sim"
	"fairsim/workload"
)

// TestRunSummaryGPULine: a cluster with GPUs gets a GPU line (one 4-GPU
// node, one job holding 2 GPUs for the whole hour: 2 GPU-hours, 50%); a
// CPU-only cluster's summary is as it was.
func TestRunSummaryGPULine(t *testing.T) {
	sky, err := sim.LookupCPUType("skylake")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		gres []sim.GresCount
		want string
	}{
		{[]sim.GresCount{{Name: "gpu", Type: "a100", Count: 4}}, "GPU utilisation 50.0% of 4 GPUs, 2.0 GPU-hours delivered\n"},
		{nil, ""},
	} {
		c, err := sim.NewCluster([]sim.CPUType{sky}, []sim.NodeSpec{{Names: []string{"n1"}, Type: "skylake", Cores: 8, MemMB: 8000, Gres: tc.gres}},
			[]sim.PartitionSpec{{Partition: sim.Partition{Name: "p", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}}}, "skylake", false)
		if err != nil {
			t.Fatal(err)
		}
		req := sim.Request{CPUs: 2, Type: -1, Gres: c.Needs([]workload.GresReq{{Name: "gpu", Count: 2, Per: workload.GresPerJob}}, 1)}
		if tc.gres == nil {
			req.Gres = nil
		}
		a, fit := c.TryAlloc(&req, 0, nil)
		if fit != sim.FitsNow {
			t.Fatalf("no fit: %v", fit)
		}
		j := &sim.Job{State: sim.Completed, Start: 0, End: 3600, Alloc: a}
		r := &sim.Result{Cluster: c, Jobs: []*sim.Job{j}, First: 0, Last: 3600, Read: workload.NewReadStats(), Scheduler: "fifo"}
		var b bytes.Buffer
		WriteRunSummary(&b, r, report.Compute(r), "out", time.Second)
		got := ""
		for _, l := range strings.SplitAfter(b.String(), "\n") {
			if strings.HasPrefix(l, "GPU") {
				got += l
			}
		}
		if got != tc.want {
			t.Errorf("GPU line %q, want %q in\n%s", got, tc.want, b.String())
		}
	}
}

// TestAllocText: explain's allocation line names the nodes as a hostlist
// and the AllocTRES; GPUs that accounting does not track show apart.
// Two 4-GPU a100 nodes; a job of 2 CPUs and 2 a100s on each of 2 nodes.
func TestAllocText(t *testing.T) {
	sky, err := sim.LookupCPUType("skylake")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		track, want string
	}{
		{"gres/gpu", "g[1-2]  AllocTRES billing=4,cpu=4,gres/gpu=4,mem=4000M,node=2"},
		{"", "g[1-2]  AllocTRES billing=4,cpu=4,mem=4000M,node=2; 4 GPU(s) (gpu:a100=4), not tracked as TRES"},
	} {
		c, err := sim.NewCluster([]sim.CPUType{sky}, []sim.NodeSpec{{Names: []string{"g1", "g2"}, Type: "skylake", Cores: 8, MemMB: 8000,
			Gres: []sim.GresCount{{Name: "gpu", Type: "a100", Count: 4}}}},
			[]sim.PartitionSpec{{Partition: sim.Partition{Name: "p", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}}}, "skylake", false)
		if err != nil {
			t.Fatal(err)
		}
		if tc.track != "" {
			if _, err := c.TrackTRES(tc.track); err != nil {
				t.Fatal(err)
			}
		}
		req := sim.Request{CPUs: 4, Nodes: 2, MemPerCPU: 1000, Type: -1,
			Gres: c.Needs([]workload.GresReq{{Name: "gpu", Type: "a100", Count: 2, Per: workload.GresPerNode}}, 2)}
		a, fit := c.TryAlloc(&req, 0, nil)
		if fit != sim.FitsNow {
			t.Fatalf("no fit: %v", fit)
		}
		j := &sim.Job{State: sim.Completed, Start: 0, End: 60, Alloc: a, Billing: 4}
		if got := allocText(c, j); got != tc.want {
			t.Errorf("tracking %q: %q, want %q", tc.track, got, tc.want)
		}
	}
}
