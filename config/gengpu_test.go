package config

import (
	"strings"
	"testing"
)

// TestGenConfigGPUs: the generate keys for GPU jobs reach the generator;
// left out, they keep its defaults; a bad distribution names the key.
func TestGenConfigGPUs(t *testing.T) {
	const cluster = "cluster:\n  nodes: [{NodeName: \"n[1-2]\", Feature: broadwell, CPUs: 4, RealMemory: 4G}]\n"
	tests := []struct {
		gen  string
		want string // the GPU part of GenConfig.String(), or the error
	}{
		{"{seed: 3, jobs: 50}", ""},
		{"{seed: 3, jobs: 50, gpu_share: 0.3, gpu_partitions: [gpu]}",
			" gpu-share=0.3 gpus-per-job=1:0.5,2:0.25,4:0.15,8:0.1 gpu-partitions=gpu gpu-types= gpu-type-share=0.5 cpus-per-gpu=4 gpus-per-node=4"},
		{"{seed: 3, jobs: 50, gpu_share: 0.5, gpus_per_job: \"1:3,2:1\", gpu_types: [a100], gpu_type_share: 0.25, cpus_per_gpu: 8, gpus_per_node: 2}",
			" gpu-share=0.5 gpus-per-job=1:3,2:1 gpu-partitions= gpu-types=a100 gpu-type-share=0.25 cpus-per-gpu=8 gpus-per-node=2"},
		{"{seed: 3, jobs: 50, gpu_share: 0.5, gpus_per_job: \"1\"}", `s.yaml:3: generate.gpus_per_job: GPUs per job "1": want COUNT:WEIGHT`},
		{"{seed: 3, jobs: 50, gpu_share: 2}", "s.yaml:3: generate: GPU share 2: want 0..1"},
	}
	for _, tc := range tests {
		sc := parse(t, "name: g\nscheduler: fifo\ngenerate: "+tc.gen+"\n"+cluster)
		if err := sc.Resolve(); err != nil {
			t.Fatal(err)
		}
		c, err := sc.genConfig()
		got := ""
		if err != nil {
			got = err.Error()
		} else if i := strings.Index(c.String(), " gpu-share="); i >= 0 {
			got = c.String()[i:]
		}
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.gen, got, tc.want)
		}
	}
}
