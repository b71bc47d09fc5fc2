package slurmconf

import (
	"bytes"
	"fairsim/inputerr"
	"fairsim/policy"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkRoundTrip asserts parse(write(c)) == c and that writing is stable.
func checkRoundTrip(t *testing.T, name string, c *Config) {
	t.Helper()
	var out bytes.Buffer
	if err := c.Write(&out); err != nil {
		t.Fatalf("%s: Write: %v", name, err)
	}
	back, err := Parse(name+".written", out.Bytes())
	if err != nil {
		t.Fatalf("%s: written config does not parse: %v\n%s", name, err, out.String())
	}
	if !back.Equal(c) {
		t.Fatalf("%s: round trip changed the configuration\noriginal:\n%s\nre-read:\n%s", name, c, back)
	}
	var again bytes.Buffer
	if err := back.Write(&again); err != nil || !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Fatalf("%s: Write is not stable (%v):\n%s\n---\n%s", name, err, out.String(), again.String())
	}
}

func TestRoundTripTestdata(t *testing.T) {
	files, err := filepath.Glob("testdata/*.conf")
	if err != nil || len(files) < 4 {
		t.Fatalf("testdata: %v, %d files", err, len(files))
	}
	for _, f := range files {
		c, err := ParseFile(f)
		if err != nil {
			if strings.HasSuffix(f, "seed000_example2.conf") {
				continue // rejected on purpose, see TestWorkedExample2
			}
			t.Fatalf("%s: %v", f, err)
		}
		checkRoundTrip(t, f, c)
	}
	checkRoundTrip(t, "Default()", Default())
}

// TestMixedCPU checks the realistic cluster file in detail: the node shapes
// per CPU generation, DEFAULT lines, node sets, continued lines and the
// SchedulerParameters of a busy site.
func TestMixedCPU(t *testing.T) {
	c, err := ParseFile("testdata/mixed_cpu.conf")
	if err != nil {
		t.Fatal(err)
	}
	type node struct {
		names   string
		hosts   int
		cpus    uint16
		mem     uint64
		weight  uint32
		feature string
	}
	want := []node{
		{"holy2a[01-16]", 16, 64, 256000, 100, "abudhabi"},
		{"holy2b[001-032]", 32, 8, 24000, 100, "nehalem"},
		{"holy2c[01-24]", 24, 16, 64000, 10, "sandybridge"},
		{"holy7c[0101-0124,0201-0224]", 48, 32, 128000, 1, "broadwell"},
		{"holy8a[001-032]", 32, 48, 184000, 1, "skylake"},
		{"holygpu[01-04]", 4, 64, 384000, 50, "v100"},
	}
	if len(c.Nodes) != len(want) {
		t.Fatalf("%d node groups, want %d", len(c.Nodes), len(want))
	}
	for i, w := range want {
		g := c.Nodes[i]
		if g.Names != w.names || len(g.Hosts) != w.hosts || g.CPUs != w.cpus || g.RealMemory != w.mem ||
			g.Weight != w.weight || !g.HasFeature(w.feature) || g.State != "UNKNOWN" {
			t.Errorf("group %d = %+v, want %+v", i, g, w)
		}
	}
	parts := map[string]struct {
		hosts   int
		maxTime int64
		tier    uint16
		billing string
	}{
		"shared":         {48, 7 * 1440, 10, "CPU=1.0,Mem=0.25G"},
		"skylake":        {36, 3 * 1440, 10, "CPU=1.2,Mem=0.3125G,GRES/gpu=75"},
		"legacy":         {48, 14 * 1440, 10, "CPU=0.25,Mem=0.0625G"},
		"sandy":          {24, 7 * 1440, 10, "CPU=0.5,Mem=0.125G"},
		"gpu":            {4, 3 * 1440, 10, ""},
		"serial_requeue": {156, 3 * 1440, 1, "CPU=0.5,Mem=0.125G"},
	}
	for name, w := range parts {
		p, ok := c.Partition(name)
		if !ok || len(p.Hosts) != w.hosts || p.MaxTime != w.maxTime || p.PriorityTier != w.tier ||
			p.TRESBillingWeights != w.billing || p.DefaultTime != 10 {
			t.Errorf("partition %s = %+v, want %+v", name, p, w)
		}
	}
	if d := c.DefaultPartition(); d == nil || d.Name != "shared" {
		t.Errorf("default partition = %v", d)
	}
	sp := c.SchedulerParameters
	if !sp.BfContinue || sp.BfIntervalSec != 45 || sp.BfMaxTimeSec != 45 || sp.BfMaxJobTest != 2000 ||
		sp.BfMaxJobUserPart != 25 || sp.BfWindowMin != 4320 || sp.BfResolutionSec != 300 ||
		sp.DefaultQueueDepth != 1000 || sp.PartitionJobDepth != 50 || sp.SchedMinIntervalUsec != 2000000 {
		t.Errorf("SchedulerParameters = %+v", sp)
	}
	if c.ClusterName != "odyssey" || c.KillWait != 30 || c.MessageTimeout != 20 || c.FairShareDampeningFactor != 5 ||
		c.PriorityWeightFairshare != 20000000 || c.PriorityWeightAge != 10000000 ||
		c.PriorityWeightTRES != "CPU=1000,Mem=2000G,GRES/gpu=3000" || c.PriorityFlags != "NO_FAIR_TREE,MAX_TRES" ||
		!c.AccountingStorageEnforce.HasLimits() || c.PreemptType != "preempt/partition_prio" ||
		c.PreemptMode != policy.PreemptRequeue || c.Extra["EnforcePartLimits"] != "ALL" {
		t.Errorf("top-level values wrong:\n%s", c)
	}
	if c.Where("SchedulerParameters").Line != 27 || c.Where("NodeName=holy7c[0101-0124,0201-0224].Weight").Line != 65 {
		t.Errorf("positions: SchedulerParameters %v, holy7c Weight %v", c.Where("SchedulerParameters"), c.Where("NodeName=holy7c[0101-0124,0201-0224].Weight"))
	}
	if c.Extra["JobCompType"] != "jobcomp/none" || c.Where("JobCompType") != (Pos{File: "testdata/mixed_cpu.local", Line: 2}) {
		t.Errorf("included JobCompType = %q at %v", c.Extra["JobCompType"], c.Where("JobCompType"))
	}
}

// TestWriteRejects checks that Write refuses what slurm.conf cannot hold.
func TestWriteRejects(t *testing.T) {
	c := Default()
	c.PriorityMaxAge = 90 // not a whole minute
	if err := c.Write(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "PriorityMaxAge: 90 seconds is not a whole number of minutes") {
		t.Errorf("Write with 90 s: %v", err)
	}
	c = Default()
	c.Extra["Epilog"] = `a "b" c`
	if err := c.Write(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Errorf("Write with quote and space: %v", err)
	}
}

func TestQuoteValue(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"abc", "abc", true},
		{"", `""`, true},
		{"a b", `"a b"`, true},
		{"a#b", `a\#b`, true},
		{`a\b`, `a\\b`, true},
		{`a"b`, `a"b`, true},
		{`ab"`, `ab"`, true},
		{`"ab`, "", false}, // would pair with a later quoted value on the line (FuzzParse)
		{`"`, "", false},
		{`""`, "", false},
		{`"a"b`, "", false},
		{`"ab"`, "", false},
		{`a "b"`, "", false},
	}
	for _, tc := range tests {
		got, ok := quoteValue(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("quoteValue(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		lines := splitLines("K=" + got + "\n")
		p, rest, found := nextPair(lines[0].text)
		if !found || p.value != tc.in || !isBlank(rest) {
			t.Errorf("quoteValue(%q) = %q reads back as %q (rest %q)", tc.in, got, p.value, rest)
		}
	}
}

// FuzzParse feeds arbitrary text to Parse. Nothing may panic, and every
// configuration that parses must survive Write and Parse unchanged.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.conf")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
		// Each paragraph alone too: small seeds keep the fuzzer's
		// minimisation of new inputs short.
		for _, para := range strings.Split(string(src), "\n\n") {
			f.Add([]byte(para))
		}
	}
	for _, s := range []string{
		"",
		"KillWait = 3 # x\n",
		"GresTypes=gpu\nAccountingStorageTRES=gres/gpu,gres/gpu:a100\nNodeName=g[1-2] CPUs=8 Gres=gpu:a100:4,mps:400(S:0-1)\nPartitionName=p Nodes=ALL DefMemPerGPU=1000 DefCpuPerGPU=2 TRESBillingWeights=\"CPU=1,GRES/gpu=4\"\n",
		"NodeName=n[1-2] CPUs=4\nPartitionName=p Nodes=n[1-2] OverSubscribe=YES:3 PreemptMode=GANG\n",
		"NodeName=DEFAULT Features=a\nNodeName=x\\#y Weight=9\nNodeSet=s Feature=a\nPartitionName=p Nodes=s\n",
		"SchedulerParameters=\"bf_window=5, x\"\nPriorityFlags=\"a b\"\n",
		"PriorityDecayHalfLife=0\nPriorityUsageResetPeriod=weekly\nPreemptType=preempt/qos\nPreemptMode=WITHIN,CANCEL\n",
		"Include x\nDownNodes=n1\nFoo=bar\nKillWait+=2\n",
		"NodeName=n[1-3] State=FAILING\nDownNodes=n[2-4] State=DRAIN Reason=\"x y\"\nPartitionName=p Nodes=ALL AllowAccounts=A,b DenyAccounts=c MaxMemPerCPU=0 DefMemPerNode=5\n",
		"MaxMemPerNode=10\nDefMemPerCPU=3\nPartitionName=p MaxMemPerNode=UNLIMITED AllowQos=ALL Hidden=YES MaxNodes=3\nAccountingStorageEnforce=limit\n",
	} {
		f.Add([]byte(s))
	}
	// The real sites' files, read where they are (never copied here).
	if shared := sharedDir(); shared != "" {
		files := realSiteConfs(filepath.Join(shared, "real-sites"))
		inc, _ := filepath.Glob(filepath.Join(shared, "real-sites", "*", "*.conf"))
		for _, name := range append(files, inc...) {
			if src, err := os.ReadFile(name); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		// Text only: with no folder, Include lines are never followed, so
		// the fuzzer cannot make the parser read files.
		c, err := ParseIn("fuzz.conf", src, "")
		if err != nil {
			if _, ok := err.(inputerr.List); !ok {
				t.Fatalf("error is %T, not inputerr.List", err)
			}
			return
		}
		checkRoundTrip(t, "fuzz", c)
	})
}
