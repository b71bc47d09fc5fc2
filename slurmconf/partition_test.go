package slurmconf

import (
	"fairsim/policy"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fairsim/slurmtime"
)

const twoGroups = "NodeName=a[1-3] CPUs=4 Features=intel\nNodeName=b[1-2] CPUs=8 Features=amd\n"

func TestPartitionDefaults(t *testing.T) {
	c := mustParse(t, twoGroups+"PartitionName=p\n")
	want := Partition{
		Name: "p", Nodes: "", Hosts: []string{}, PriorityTier: 1, PriorityJobFactor: 1,
		MaxTime: slurmtime.Infinite, DefaultTime: Unset,
		OverSubscribe: OverSubscribe{OverSubscribeNo, 1}, State: "UP",
		MaxNodes: Infinite32, MaxCPUsPerNode: Infinite32,
	}
	if got := c.Partitions[0]; !equalPartition(got, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", got, want)
	}
	if c.DefaultPartition() != nil {
		t.Errorf("no Default=YES, but DefaultPartition = %+v", c.DefaultPartition())
	}
}

func equalPartition(a, b Partition) bool {
	return reflect.DeepEqual(a, b)
}

func TestPartitions(t *testing.T) {
	c := mustParse(t, twoGroups+`NodeSet=amdset Feature=amd
PartitionName=DEFAULT MaxTime=2-0 PriorityTier=5 State=UP
PartitionName=batch Nodes=b1,a[1-3] Default=YES DefaultTime=30 TRESBillingWeights="CPU=1.0,Mem=0.25G"
PartitionName=DEFAULT PriorityTier=7
PartitionName=big Nodes=amdset,a1 MaxTime=UNLIMITED PriorityJobFactor=10 OverSubscribe=EXCLUSIVE QOS=bigqos
PartitionName=all Nodes=ALL Priority=3 Shared=FORCE:2 PreemptMode=requeue State=drained
PartitionName=spaced Nodes="a1 a2" DefaultTime=3-0 MaxTime=1-0
`)
	// Slurm's defaults for the limits the lines below do not set.
	unlimited := func(ps []Partition) []Partition {
		for i := range ps {
			ps[i].MaxNodes, ps[i].MaxCPUsPerNode = Infinite32, Infinite32
		}
		return ps
	}
	want := unlimited([]Partition{
		{Name: "batch", Nodes: "b1,a[1-3]", Hosts: []string{"a1", "a2", "a3", "b1"}, Default: true,
			PriorityTier: 5, PriorityJobFactor: 1, MaxTime: 2880, DefaultTime: 30,
			OverSubscribe: OverSubscribe{OverSubscribeNo, 1}, TRESBillingWeights: "CPU=1.0,Mem=0.25G", State: "UP"},
		{Name: "big", Nodes: "amdset,a1", Hosts: []string{"a1", "b1", "b2"},
			PriorityTier: 7, PriorityJobFactor: 10, MaxTime: slurmtime.Infinite, DefaultTime: Unset,
			OverSubscribe: OverSubscribe{OverSubscribeExclusive, 0}, QOS: "bigqos", State: "UP"},
		{Name: "all", Nodes: "ALL", Hosts: []string{"a1", "a2", "a3", "b1", "b2"},
			PriorityTier: 3, PriorityJobFactor: 3, MaxTime: 2880, DefaultTime: Unset,
			OverSubscribe: OverSubscribe{OverSubscribeForce, 2}, PreemptMode: policy.PreemptRequeue, State: "DRAIN"},
		{Name: "spaced", Nodes: "a1,a2", Hosts: []string{"a1", "a2"},
			PriorityTier: 7, PriorityJobFactor: 1, MaxTime: 1440, DefaultTime: Unset,
			OverSubscribe: OverSubscribe{OverSubscribeNo, 1}, State: "UP"},
	})
	if len(c.Partitions) != len(want) {
		t.Fatalf("got %d partitions, want %d", len(c.Partitions), len(want))
	}
	for i := range want {
		if !equalPartition(c.Partitions[i], want[i]) {
			t.Errorf("partition %d:\n got %+v\nwant %+v", i, c.Partitions[i], want[i])
		}
	}
	if got, want := warnings(c), []string{
		"t.conf:9: PartitionName=spaced: DefaultTime 3-00:00:00 exceeds MaxTime 1-00:00:00; Slurm drops DefaultTime",
	}; !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	if d := c.DefaultPartition(); d == nil || d.Name != "batch" {
		t.Errorf("DefaultPartition = %+v", d)
	}
	if p, ok := c.Partition("big"); !ok || p.PriorityJobFactor != 10 {
		t.Errorf("Partition(big) = %+v, %v", p, ok)
	}
	if ns := c.NodeSets; len(ns) != 1 || !slices.Equal(ns[0].Hosts, []string{"b1", "b2"}) {
		t.Errorf("NodeSets = %+v", ns)
	}
	for key, line := range map[string]int{
		"PartitionName=batch": 5, "PartitionName=batch.MaxTime": 4, "PartitionName=batch.DefaultTime": 5,
		"PartitionName=big.PriorityTier": 6, "PartitionName=all.PriorityTier": 8, "PartitionName=all.OverSubscribe": 8,
	} {
		if got := c.Where(key).Line; got != line {
			t.Errorf("Where(%s) = line %d, want %d", key, got, line)
		}
	}
}

// TestDefaultPartitionChanges follows slurmctld: the last Default=YES wins
// and earlier ones lose the flag.
func TestDefaultPartitionChanges(t *testing.T) {
	c := mustParse(t, twoGroups+"PartitionName=p1 Default=YES\nPartitionName=p2 Default=YES\n")
	if c.Partitions[0].Default || !c.Partitions[1].Default || c.DefaultPartition().Name != "p2" {
		t.Errorf("defaults: %v %v", c.Partitions[0].Default, c.Partitions[1].Default)
	}
	want := []string{"t.conf:4: PartitionName=p2: default partition changes from p1 to p2 (the last Default=YES wins, as in Slurm)"}
	if got := warnings(c); !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

func TestOverSubscribe(t *testing.T) {
	tests := []struct {
		value string
		want  OverSubscribe
		warn  bool
	}{
		{"NO", OverSubscribe{OverSubscribeNo, 1}, false},
		{"no", OverSubscribe{OverSubscribeNo, 1}, false},
		{"EXCLUSIVE", OverSubscribe{OverSubscribeExclusive, 0}, false},
		{"YES", OverSubscribe{OverSubscribeYes, 4}, false},
		{"YES:8", OverSubscribe{OverSubscribeYes, 8}, false},
		{"FORCE", OverSubscribe{OverSubscribeForce, 4}, false},
		{"FORCE:1", OverSubscribe{OverSubscribeForce, 1}, false},
		{"YES:1", OverSubscribe{OverSubscribeNo, 1}, true}, // YES needs at least 2
		{"FORCE:0", OverSubscribe{OverSubscribeNo, 1}, true},
		{"YES:x", OverSubscribe{OverSubscribeNo, 1}, true},
	}
	for _, tc := range tests {
		c := mustParse(t, twoGroups+"PartitionName=p OverSubscribe="+tc.value+"\n")
		if got := c.Partitions[0].OverSubscribe; got != tc.want {
			t.Errorf("OverSubscribe=%s: got %v, want %v", tc.value, got, tc.want)
		}
		if got := len(c.Warnings) > 0; got != tc.warn {
			t.Errorf("OverSubscribe=%s: warnings %q", tc.value, warnings(c))
		}
	}
}

func TestPartitionErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"PartitionName=p Nodes=a[1-4]", []string{`t.conf:3: PartitionName=p: Nodes=a[1-4]: node "a4" is not defined by any NodeName line`}},
		{"PartitionName=p Nodes=nosuch", []string{`t.conf:3: PartitionName=p: Nodes=nosuch: node "nosuch" is not defined by any NodeName line`}},
		{"PartitionName=p\nPartitionName=p", []string{`t.conf:4: PartitionName=p: partition already defined at t.conf:3 (Slurm refuses duplicates)`}},
		{"PartitionName=p MaxTime=1-2-3", []string{`t.conf:3: PartitionName=p: MaxTime: invalid Slurm time "1-2-3": more than one '-'`}},
		{"PartitionName=p DefaultTime=soon", []string{`t.conf:3: PartitionName=p: DefaultTime: invalid Slurm time "soon": unexpected character 's' at offset 0 (only digits, '-' and ':' are allowed)`}},
		{"PartitionName=p OverSubscribe=SOMETIMES", []string{`t.conf:3: PartitionName=p: OverSubscribe: bad value "SOMETIMES" (want NO, YES[:N], FORCE[:N] or EXCLUSIVE)`}},
		{"PartitionName=p State=OPEN", []string{`t.conf:3: PartitionName=p: State: bad value "OPEN" (want UP, DOWN, DRAIN or INACTIVE)`}},
		{"PartitionName=p Default=sure", []string{`t.conf:3: PartitionName=p: Default: "sure" is not a boolean (want YES or NO)`}},
		{"PartitionName=p MaxNodes=0", []string{`t.conf:3: PartitionName=p: MaxNodes=0: no job could run in partition p; give UNLIMITED or a count`}},
		{"PartitionName=p PriorityTier=65536", []string{`t.conf:3: PartitionName=p: PriorityTier: "65536" is greater than 65535`}},
		{"PartitionName=p PreemptMode=GANG,WITHIN", []string{`t.conf:3: PartitionName=p: PreemptMode: "GANG,WITHIN": GANG and WITHIN cannot be combined`}},
		{"PartitionName=DEFAULT MaxTime=x\nPartitionName=p", []string{`t.conf:3: PartitionName=p: MaxTime: invalid Slurm time "x": unexpected character 'x' at offset 0 (only digits, '-' and ':' are allowed)`}},
	}
	for _, tc := range tests {
		if got := parseErrors(t, twoGroups+tc.src+"\n"); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

// TestPartitionsShareNodeLists: partitions naming the same nodes get the
// same hosts, in node order, from one expansion; each list is clipped, so
// appending to one partition's never writes into another's.
func TestPartitionsShareNodeLists(t *testing.T) {
	c := mustParse(t, "NodeName=n[1-4] CPUs=2\nPartitionName=a Nodes=n[3,1]\nPartitionName=b Nodes=n[3,1]\nPartitionName=c Nodes=n[1,3]\n")
	a, b, cc := c.Partitions[0].Hosts, c.Partitions[1].Hosts, c.Partitions[2].Hosts
	for _, h := range [][]string{a, b, cc} {
		if !slices.Equal(h, []string{"n1", "n3"}) {
			t.Fatalf("hosts %v; want [n1 n3]", h)
		}
	}
	_ = append(a, "n4")
	if len(b) != 2 || cap(a) != len(a) {
		t.Errorf("appending to one partition's hosts reached another's: %v (cap %d)", b, cap(a))
	}
}

// TestPartitionOverTimeLimit: a partition's OverTimeLimit as
// read_config.c reads it (UNLIMITED/INFINITE, strtol's leading number,
// above 0xfffe unlimited, negative ignored), the cluster's where it gives
// none, with a warning for what Slurm reads otherwise than written; and
// written back so that it reads the same.
func TestPartitionOverTimeLimit(t *testing.T) {
	for _, tc := range []struct {
		cluster, part string
		want          uint16
		warn          string
	}{
		{"", "", 0, ""},
		{"OverTimeLimit=3\n", "", 3, ""},
		{"OverTimeLimit=UNLIMITED\n", "", Infinite16, ""},
		{"OverTimeLimit=3\n", " OverTimeLimit=0", 0, ""},
		{"", " OverTimeLimit=infinite", Infinite16, ""},
		{"", " OverTimeLimit=70000", Infinite16, ""},
		{"", " OverTimeLimit=5x", 5, `reads only the leading number 5 and ignores "x"`},
		{"", " OverTimeLimit=abc", 0, "is not a number: Slurm reads it as 0"},
		{"OverTimeLimit=2\n", " OverTimeLimit=-4", 2, "is negative: Slurm ignores it (and logs an error), so the cluster's 2 applies"},
	} {
		src := tc.cluster + "NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1" + tc.part + "\n"
		c := mustParse(t, src)
		if got := c.Partitions[0].OverTimeLimit; got != tc.want {
			t.Errorf("%q: OverTimeLimit %d, want %d", src, got, tc.want)
		}
		warned := ""
		for _, w := range c.Warnings {
			if w.Key == "PartitionName=p" || strings.Contains(w.Msg, "OverTimeLimit") {
				warned += w.Msg
			}
		}
		if (tc.warn == "") != (warned == "") || !strings.Contains(warned, tc.warn) {
			t.Errorf("%q: warnings %q, want one saying %q", src, warned, tc.warn)
		}
		var b strings.Builder
		if err := c.Write(&b); err != nil {
			t.Fatal(err)
		}
		back := mustParse(t, b.String())
		if got := back.Partitions[0].OverTimeLimit; got != tc.want || back.OverTimeLimit != c.OverTimeLimit {
			t.Errorf("%q written as\n%s\nreads back OverTimeLimit %d (cluster %d), want %d (cluster %d)", src, b.String(), got, back.OverTimeLimit, tc.want, c.OverTimeLimit)
		}
	}
}
