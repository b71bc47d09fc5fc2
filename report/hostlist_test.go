package report

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fairsim/sim"
	"fairsim/slurmtext"
)

// nodeListRef is NodeList written the plain way: each name gets a sort
// key (prefix, names without a number first, width, number, name), the
// names are sorted by it and handed to slurmtext.Compress. The index must
// write the same bytes.
func nodeListRef(c *sim.Cluster, a sim.Alloc) string {
	if len(a) == 0 {
		return ""
	}
	keyed := map[string]string{}
	for _, s := range a {
		name := c.Nodes[s.Node].Name
		digits := name[len(strings.TrimRightFunc(name, func(r rune) bool { return r < 128 && isDigit(byte(r)) })):]
		prefix := name[:len(name)-len(digits)]
		if digits == "" || len(digits) > 9 {
			keyed[name] = prefix + "\x00" + "0" + name
			continue
		}
		n, _ := strconv.Atoi(digits)
		keyed[name] = fmt.Sprintf("%s\x00%s%03d%012d%s", prefix, "1", len(digits), n, name)
	}
	names := make([]string, 0, len(keyed))
	for n := range keyed {
		names = append(names, n)
	}
	slices.SortFunc(names, func(x, y string) int { return strings.Compare(keyed[x], keyed[y]) })
	return slurmtext.Compress(names)
}

// TestNodeListMatchesCompress draws allocations over names of every
// shape a slurm.conf allows (padded and unpadded numbers under one
// prefix, names without a number, numbers too long to range over,
// several prefixes) and checks the index against the reference.
func TestNodeListMatchesCompress(t *testing.T) {
	sky, err := sim.LookupCPUType("skylake")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"login", "n1", "n2", "n3", "n10", "n01", "n02", "n009", "n0010", "a7", "a8", "b",
		"x12345678901", "x12345678902", "c1", "c3", "c2", "cn", "n4"}
	var nodes []sim.NodeSpec
	for _, n := range names {
		nodes = append(nodes, sim.NodeSpec{Names: []string{n}, Type: "skylake", Cores: 4, MemMB: 1000})
	}
	c, err := sim.NewCluster([]sim.CPUType{sky}, nodes,
		[]sim.PartitionSpec{{Partition: sim.Partition{Name: "p", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: names}}, "skylake", false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var a sim.Alloc
		for range 1 + rng.IntN(len(names)+2) {
			a = append(a, sim.Slice{Node: rng.IntN(len(names)), Cores: 1})
		}
		if got, want := NodeList(c, a), nodeListRef(c, a); got != want {
			t.Fatalf("NodeList(%v) = %q, reference %q", a, got, want)
		}
	}
	// Every name alone, and all of them at once.
	all := sim.Alloc{}
	for n := range names {
		all = append(all, sim.Slice{Node: n, Cores: 1})
		if got := NodeList(c, sim.Alloc{{Node: n}}); got != names[n] {
			t.Errorf("one node %q: got %q", names[n], got)
		}
	}
	want := "b,cn,login,x12345678901,x12345678902,a[7-8],c[1-3],n[1-4],n[01-02,10],n009,n0010" // n10 is two digits wide, as n01
	if got := NodeList(c, all); got != want || nodeListRef(c, all) != want {
		t.Errorf("all nodes: got %q, reference %q, want %q", got, nodeListRef(c, all), want)
	}
}
