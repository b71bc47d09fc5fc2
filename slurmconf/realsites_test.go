package slurmconf

import (
	"fairsim/internal/shared"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sharedDir is ../shared beside the repository, "" when absent.
func sharedDir() string {
	return shared.Dir()
}

// realSiteConfs lists the slurm.conf files under real-sites: every
// *.slurm.conf, and every slurm.conf one folder down.
func realSiteConfs(dir string) []string {
	a, _ := filepath.Glob(filepath.Join(dir, "*.slurm.conf"))
	b, _ := filepath.Glob(filepath.Join(dir, "*", "slurm.conf"))
	return append(a, b...)
}

// TestRealSites parses every real site's slurm.conf exactly as published
// and checks the node and CPU counts its README gives.
func TestRealSites(t *testing.T) {
	shared := sharedDir()
	if shared == "" {
		t.Skip("no ../shared beside the repository: the real-sites tests need it")
	}
	dir := filepath.Join(shared, "real-sites")
	want := map[string]struct{ nodes, cpus int }{
		"ucmerced-elcapitan.slurm.conf":   {51, 204},
		"diku.slurm.conf":                 {26, 1184},
		"uco-creic.slurm.conf":            {127, 4048},
		"genomedk.slurm.conf":             {63, 1032},
		"nstda.slurm.conf":                {10, 48},
		"turaga.slurm.conf":               {8, 624},
		"slac/slurm.conf":                 {3, 96},
		"docker-cluster-25.11.slurm.conf": {0, 0},
		"hpc-toolset.slurm.conf":          {2, 2},
		"ubccr-micro.slurm.conf":          {10, 120},
	}
	files := realSiteConfs(dir)
	if len(files) != len(want) {
		t.Errorf("found %d slurm.conf files under %s, the table has %d: add the new ones", len(files), dir, len(want))
	}
	confs := map[string]*Config{}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		c, err := ParseFile(f)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		confs[rel] = c
		w, ok := want[rel]
		if !ok {
			t.Errorf("%s: not in the table", rel)
			continue
		}
		nodes, cpus := 0, 0
		for _, g := range c.Nodes {
			nodes += len(g.Hosts)
			cpus += len(g.Hosts) * int(g.CPUs)
		}
		if nodes != w.nodes || cpus != w.cpus {
			t.Errorf("%s: %d nodes, %d CPUs; README says %d, %d", rel, nodes, cpus, w.nodes, w.cpus)
		}
		if got := c.DynamicNodes(); got != (rel == "docker-cluster-25.11.slurm.conf") {
			t.Errorf("%s: DynamicNodes = %v", rel, got)
		}
		if len(c.Ignored) == 0 || !slices.IsSortedFunc(c.Ignored, func(a, b string) int {
			return strings.Compare(strings.ToLower(a), strings.ToLower(b))
		}) {
			t.Errorf("%s: Ignored not listed or not sorted: %q", rel, c.Ignored)
		}
		checkRoundTrip(t, rel, c)
	}

	if c := confs["slac/slurm.conf"]; c != nil {
		p := c.DefaultPartition()
		if p == nil || p.Name != "shared" || p.DefMemPerCPU != 2000 || p.DefaultTime != 240 || p.MaxTime != 7*1440 ||
			c.Where("PartitionName=shared.DefMemPerCPU").File != filepath.Join(dir, "slac", "slac.conf") {
			t.Errorf("slac: default partition %+v, DefMemPerCPU from %v", p, c.Where("PartitionName=shared.DefMemPerCPU"))
		}
		if g := c.Nodes[0]; g.Gres != "gpu:v100:4" || g.Weight != 127207 {
			t.Errorf("slac: node group %+v", g)
		}
		// associations,limit,qos: 21.08+ refuse it; older versions read
		// associations and qos, and no limits.
		if e := c.AccountingStorageEnforce; e != (Enforce{Associations: true, QOS: true}) {
			t.Errorf("slac: AccountingStorageEnforce = %+v", e)
		}
		if g := c.Nodes[0]; !slices.Equal(g.GresItems, []GresItem{{Name: "gpu", Type: "v100", Count: 4}}) {
			t.Errorf("slac: Gres read as %+v", g.GresItems)
		}
		if c.AccountingStorageTRES != "gres/gpu" || c.GresTypes != "gpu" {
			t.Errorf("slac: AccountingStorageTRES %q, GresTypes %q", c.AccountingStorageTRES, c.GresTypes)
		}
		if slices.ContainsFunc(c.Ignored, func(s string) bool { return strings.HasPrefix(s, "NodeName.Gres (") }) {
			t.Errorf("slac: Gres listed as ignored: %q", c.Ignored)
		}
		// EnforcePartLimits=ALL is simulated (config reads it from Extra).
		if c.Extra["EnforcePartLimits"] != "ALL" || slices.ContainsFunc(c.Ignored, func(s string) bool { return strings.HasPrefix(s, "EnforcePartLimits (") }) {
			t.Errorf("slac: EnforcePartLimits %q, ignored list %q", c.Extra["EnforcePartLimits"], c.Ignored)
		}
	}
	if c := confs["turaga.slurm.conf"]; c != nil {
		if c.NodeState("c04u01") != "DRAIN" || c.NodeState("c04u07") != "IDLE" {
			t.Errorf("turaga: states %q, %q", c.NodeState("c04u01"), c.NodeState("c04u07"))
		}
	}
	if c := confs["diku.slurm.conf"]; c != nil {
		p, _ := c.Partition("gpu_priority")
		if p == nil || p.TRESBillingWeights != "CPU=1.0,Mem=0.25G,GRES/gpu=2.0" || !slices.Equal(p.AllowGroups, []string{"priority"}) ||
			c.DefMemPerCPU != 3000 || p.DefMemPerCPU != 3000 || p.MaxMemPerCPU != 10000 {
			t.Errorf("diku: gpu_priority %+v", p)
		}
		if g, _ := c.NodeGroupOf("a00636"); g == nil || g.Sockets != 2 || g.CPUs != 24 {
			t.Errorf("diku: lower-case sockets= not read: %+v", g)
		}
	}
	if c := confs["hpc-toolset.slurm.conf"]; c != nil {
		// MaxNodes=2 on both partitions is simulated, not listed ignored.
		for _, name := range []string{"compute", "debug"} {
			if p, _ := c.Partition(name); p == nil || p.MaxNodes != 2 {
				t.Errorf("hpc-toolset: partition %s %+v, want MaxNodes 2", name, p)
			}
		}
		if slices.ContainsFunc(c.Ignored, func(s string) bool { return strings.HasPrefix(s, "PartitionName.MaxNodes (") }) {
			t.Errorf("hpc-toolset: MaxNodes listed as ignored: %q", c.Ignored)
		}
	}
	if c := confs["docker-cluster-25.11.slurm.conf"]; c != nil {
		if len(c.Nodes) != 0 || len(c.NodeSets) != 2 || len(c.Partitions) != 2 || len(c.Partitions[0].Hosts) != 0 {
			t.Errorf("docker-cluster: nodes %v, sets %v, partitions %v", c.Nodes, c.NodeSets, c.Partitions)
		}
	}
}
