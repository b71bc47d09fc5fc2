package sim

import "testing"

func TestInferCPUType(t *testing.T) {
	for _, tc := range []struct {
		features []string
		want     string // "" for none
	}{
		{[]string{"CPU_GEN:SKX", "CPU_SKU:4110", "CPU_FRQ:2.10GHz", "GPU_GEN:VLT"}, "skylake"},
		{[]string{"CPU_GEN:HSW", "CPU_SKU:E5-2670v3"}, "broadwell"},
		{[]string{"CPU_SKU:E5-2670v3"}, "broadwell"},
		{[]string{"E5-2680v4"}, "broadwell"},
		{[]string{"e5-2670"}, "sandybridge"}, // v1: Sandy Bridge
		{[]string{"E5-2650v2"}, "sandybridge"},
		{[]string{"CPU-Gold-6130"}, "skylake"},
		{[]string{"gold-6248r"}, "cascadelake"},
		{[]string{"platinum_8358"}, "icelake"},
		{[]string{"xeon-8480+"}, "sapphirerapids"},
		{[]string{"cascade"}, "cascadelake"},
		{[]string{"icelake-sp"}, "icelake"},
		{[]string{"Ice Lake"}, "icelake"},
		{[]string{"sandy_bridge"}, "sandybridge"},
		{[]string{"ib", "westmere"}, "nehalem"},
		{[]string{"X5650"}, "nehalem"},
		{[]string{"interlagos"}, "abudhabi"},
		{[]string{"opteron-6376"}, "abudhabi"},
		{[]string{"EPYC-7742"}, "rome"},
		{[]string{"epyc7763"}, "milan"},
		{[]string{"epyc", "7601"}, ""}, // the model alone, without its label, is not trusted
		{[]string{"EPYC-9654"}, "genoa"},
		{[]string{"zen2"}, "rome"},
		{[]string{"milan"}, "milan"},
		{[]string{"naples"}, "naples"},
		// Vendor words and other site words name no generation.
		{[]string{"amd"}, ""},
		{[]string{"intel", "IB", "CPU-G", "BigMem"}, ""},
		{[]string{"s09", "1024g", "1T"}, ""},
		{[]string{"gpu"}, ""},
		{[]string{"generic"}, ""},
		{[]string{"4110"}, ""}, // a bare number could be anything
		// The first word that names a generation wins.
		{[]string{"rome", "skylake"}, "rome"},
	} {
		got, _, ok := InferCPUType(tc.features)
		if (tc.want == "") == ok || (ok && got.Name != tc.want) {
			t.Errorf("InferCPUType(%q) = %q, %v; want %q", tc.features, got.Name, ok, tc.want)
		}
	}
}

func TestCPUTypeRegistry(t *testing.T) {
	// The seed's five generations keep seed 001's weights; every other
	// generation takes the weight of its peak-FLOP class.
	for name, w := range map[string]float64{"abudhabi": 0.25, "nehalem": 0.25, "sandybridge": 0.5, "broadwell": 1.0, "skylake": 1.2,
		"naples": 0.5, "rome": 1.0, "milan": 1.0, "genoa": 1.0, "cascadelake": 1.2, "icelake": 1.2, "sapphirerapids": 1.2, GenericCPU: 1.0} {
		ct, err := LookupCPUType(name)
		if err != nil || ct.Weight != w || ct.Speed != w {
			t.Errorf("%s: %+v, %v; want weight = speed = %g", name, ct, err, w)
		}
	}
	if _, err := LookupCPUType("amd"); err == nil {
		t.Error(`"amd" names a CPU type; it must not mean Abu Dhabi`)
	}
}

// TestHeaderClusterBounds: a header's sizes are bounded before a node is
// built, so a 60-byte trace claiming a billion nodes fails at once.
func TestHeaderClusterBounds(t *testing.T) {
	for _, tc := range []struct {
		nodes, procs int
		want         string
	}{
		{1_000_000_000, 1_000_000_000, "the trace header gives MaxNodes 1000000000: fairsim simulates at most 16777215 nodes; give a scenario with a cluster"},
		{2, 1 << 30, "the trace header gives MaxProcs 1073741824 over 2 nodes: more than 1048575 CPUs a node; give a scenario with a cluster"},
	} {
		if _, err := HeaderCluster(tc.nodes, tc.procs, "broadwell", 1000); err == nil || err.Error() != tc.want {
			t.Errorf("HeaderCluster(%d, %d): %v, want %q", tc.nodes, tc.procs, err, tc.want)
		}
	}
}
