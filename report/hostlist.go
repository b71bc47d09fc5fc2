package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"fairsim/sim"
)

// hostIndex puts a cluster's node names in the order slurmctld prints a
// job's node list, once, so that writing a million rows of jobs.csv sorts
// small integers and appends digits instead of parsing names per row.
type hostIndex struct {
	c     *sim.Cluster
	nodes int
	rank  []int32 // per node: its place in hostlist order
	byRnk []int32 // per place: the node
	// Per place: the (prefix, width) group of a name ending in a number,
	// -1 for one printed as it is (slurmtext.Compress's rules).
	group []int32
	num   []int
	width []int
	pre   []string
	ranks []int32 // scratch
	out   []byte  // scratch
}

// lastIndex keeps the index of the cluster written last, for NodeList's
// callers outside a stream (squeue, explain).
var lastIndex atomic.Pointer[hostIndex]

// NodeList is an allocation's nodes as a Slurm hostlist expression,
// sorted as slurmctld prints a job's node list (bitmap2node_name sorts its
// hostlist: by prefix, names without a number first, then by number), so
// the order of placement does not show.
func NodeList(c *sim.Cluster, a sim.Alloc) string {
	if len(a) == 0 {
		return ""
	}
	x := lastIndex.Load()
	if x == nil || !x.of(c) {
		x = newHostIndex(c)
	} else {
		x = x.clone()
	}
	s := x.list(a)
	lastIndex.Store(x)
	return s
}

func (x *hostIndex) of(c *sim.Cluster) bool { return x.c == c && x.nodes == len(c.Nodes) }

// clone shares the tables and owns fresh scratch, so concurrent callers
// never write the same buffers.
func (x *hostIndex) clone() *hostIndex {
	y := *x
	y.ranks, y.out = nil, nil
	return &y
}

func newHostIndex(c *sim.Cluster) *hostIndex {
	if c == nil {
		return &hostIndex{}
	}
	type host struct {
		name, prefix string
		single       bool
		width, num   int
		node         int32
	}
	hosts := make([]host, len(c.Nodes))
	for n := range c.Nodes {
		name := c.Nodes[n].Name
		i := len(name)
		for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
			i--
		}
		h := host{name: name, prefix: name[:i], single: i == len(name) || len(name)-i > 9, node: int32(n)}
		if !h.single {
			h.width = len(name) - i
			h.num, _ = strconv.Atoi(name[i:])
		}
		hosts[n] = h
	}
	slices.SortStableFunc(hosts, func(x, y host) int {
		switch {
		case x.prefix != y.prefix:
			return strings.Compare(x.prefix, y.prefix)
		case x.single != y.single:
			if x.single {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(x.width, y.width), cmp.Compare(x.num, y.num), strings.Compare(x.name, y.name))
	})
	x := &hostIndex{c: c, nodes: len(c.Nodes),
		rank: make([]int32, len(hosts)), byRnk: make([]int32, len(hosts)),
		group: make([]int32, len(hosts)), num: make([]int, len(hosts)),
		width: make([]int, len(hosts)), pre: make([]string, len(hosts))}
	g := int32(-1)
	for r, h := range hosts {
		x.rank[h.node], x.byRnk[r] = int32(r), h.node
		x.num[r], x.width[r], x.pre[r] = h.num, h.width, h.prefix
		if h.single || strings.ContainsAny(h.prefix, "[],") {
			x.group[r] = -1
			continue
		}
		if r == 0 || x.group[r-1] < 0 || x.pre[r-1] != h.prefix || x.width[r-1] != h.width {
			g++
		}
		x.group[r] = g
	}
	return x
}

// list is a's hostlist: names without a range first, in hostlist order,
// then each (prefix, width) group with its ranges, as Compress writes the
// sorted names.
func (x *hostIndex) list(a sim.Alloc) string {
	if len(a) == 1 {
		return x.c.Nodes[a[0].Node].Name
	}
	x.out = x.appendList(x.out[:0], a)
	return string(x.out)
}

// appendList appends list(a) to out.
func (x *hostIndex) appendList(out []byte, a sim.Alloc) []byte {
	if len(a) == 1 {
		return append(out, x.c.Nodes[a[0].Node].Name...)
	}
	x.ranks = x.ranks[:0]
	for _, s := range a {
		x.ranks = append(x.ranks, x.rank[s.Node])
	}
	slices.Sort(x.ranks)
	x.ranks = slices.Compact(x.ranks)
	first := len(out)
	sep := func() {
		if len(out) > first {
			out = append(out, ',')
		}
	}
	for _, r := range x.ranks {
		if x.group[r] < 0 {
			sep()
			out = append(out, x.c.Nodes[x.byRnk[r]].Name...)
		}
	}
	for k := 0; k < len(x.ranks); {
		r := x.ranks[k]
		g := x.group[r]
		if g < 0 {
			k++
			continue
		}
		e := k // the group's last member
		for e+1 < len(x.ranks) && x.group[x.ranks[e+1]] == g {
			e++
		}
		sep()
		out = append(out, x.pre[r]...)
		if e > k {
			out = append(out, '[')
		}
		for i := k; i <= e; {
			j := i
			for j < e && x.num[x.ranks[j+1]] <= x.num[x.ranks[j]]+1 {
				j++
			}
			if i > k {
				out = append(out, ',')
			}
			out = x.appendNum(out, x.ranks[i])
			if j > i {
				out = append(out, '-')
				out = x.appendNum(out, x.ranks[j])
			}
			i = j + 1
		}
		if e > k {
			out = append(out, ']')
		}
		k = e + 1
	}
	return out
}

// appendNum appends the number of the name at place r, zero-padded to its
// width.
func (x *hostIndex) appendNum(out []byte, r int32) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], int64(x.num[r]), 10)
	for range x.width[r] - len(s) {
		out = append(out, '0')
	}
	return append(out, s...)
}
