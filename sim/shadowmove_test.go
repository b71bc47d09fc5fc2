package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A shadow that moves holders through Releases.moveAlloc ends as one whose
// nodes are taken and given one at a time through take and give: every
// node's free cores and memory and what a drained node holds, the dirty
// list, and the shadow's counters (free cores per partition, memory-tight
// nodes, free-node bits, free-level index). The holders' memory makes
// nodes memory-tight and loose again; a drained node and a down one are
// out of service, where shadows leave what their holders hold.
func TestShadowMoveAsTakeAndGive(t *testing.T) {
	for round := range 20 {
		rng := rand.New(rand.NewPCG(11, uint64(round)))
		c := newTestCluster(t, "broadwell", false, numbered(70), partSpec("a"), partSpec("b", "n0", "n1", "n2", "n65", "n66"))
		var holders []Alloc
		for range 30 {
			var a Alloc
			for _, n := range rng.Perm(len(c.Nodes))[:1+rng.IntN(6)] {
				nd := &c.Nodes[n]
				if nd.FreeCores == 0 {
					continue
				}
				k := 1 + rng.IntN(nd.FreeCores)
				m := min(int64(rng.IntN(4))*int64(k)*700, nd.FreeMem)
				c.take(n, -1, k, m, 0)
				a = append(a, Slice{Node: n, Cores: k, MemMB: m})
			}
			holders = append(holders, a)
		}
		c.SetNodeState(3, NodeDrain)
		c.SetNodeState(66, NodeDown)
		x, y := c.newShadow(), c.newShadow()
		var r Releases
		given := make([]bool, len(holders))
		for range 200 {
			i := rng.IntN(len(holders))
			take := given[i]
			given[i] = !take
			r.moveAlloc(x, holders[i], -1, take)
			for _, s := range holders[i] {
				switch {
				case y.downBits[s.Node>>6]&(1<<(s.Node&63)) != 0:
				case take:
					y.take(s.Node, -1, s.Cores, s.MemMB, s.Gres)
				default:
					y.give(s.Node, -1, s.Cores, s.MemMB, s.Gres)
				}
			}
		}
		for n := range c.Nodes {
			a, b := &x.Nodes[n], &y.Nodes[n]
			if a.FreeCores != b.FreeCores || a.FreeMem != b.FreeMem || a.held != b.held {
				t.Fatalf("round %d node %d: moved %d cores %d MB held %+v, one by one %d cores %d MB held %+v",
					round, n, a.FreeCores, a.FreeMem, a.held, b.FreeCores, b.FreeMem, b.held)
			}
		}
		got := fmt.Sprintf("%d %d %d %d %v %v %v %v", x.FreeCores, x.Parts[0].FreeCores, x.Parts[1].FreeCores, x.memTight, x.freeBits, x.fl.count, x.fl.word, x.fl.levels)
		want := fmt.Sprintf("%d %d %d %d %v %v %v %v", y.FreeCores, y.Parts[0].FreeCores, y.Parts[1].FreeCores, y.memTight, y.freeBits, y.fl.count, y.fl.word, y.fl.levels)
		if got != want {
			t.Fatalf("round %d: moved %s, one by one %s", round, got, want)
		}
		if !slices.Equal(x.sh.dirtyMark, y.sh.dirtyMark) {
			t.Fatalf("round %d: dirty nodes differ", round)
		}
		if y.memTight == 0 {
			t.Fatalf("round %d: no node ended memory-tight", round)
		}
	}
}

// TestShadowNearestInSlices: a will-run test takes the shadow fewest
// slices away, not the one fewest holders away. Holders of 1, 1, 20 and
// 1 nodes; shadows at cursors 3 and 0; the state at cursor 2 is two
// one-node holders from the shadow at 0 but the 20-node holder from the
// one at 3, which must stay where it is.
func TestShadowNearestInSlices(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, numbered(23), partSpec("all"))
	var hs []Holding
	n := 0
	for j, k := range []int{1, 1, 20, 1} {
		var a Alloc
		for range k {
			a = append(a, Slice{Node: n, Cores: 8, MemMB: 8000})
			n++
		}
		c.Occupy(a)
		hs = append(hs, Holding{Job: &Job{Idx: j}, Alloc: a, End: 100 * int64(j+1)})
	}
	var r Releases
	r.Reset(hs)
	r.ready(c)
	if len(r.shs) != 2 {
		t.Fatalf("%d shadows to begin with, want 2", len(r.shs))
	}
	r.at(3) // the first shadow moves to 3, the second stays at 0
	r.at(0)
	if r.shs[0].cur != 3 || r.shs[1].cur != 0 {
		t.Fatalf("shadows at %d and %d, want 3 and 0", r.shs[0].cur, r.shs[1].cur)
	}
	sh := r.at(2)
	if r.shs[0].cur != 3 || r.shs[1].cur != 2 || sh != r.shs[1].c {
		t.Errorf("at(2) moved the shadows to %d and %d, want 3 (20 slices away) kept and 0 (2 slices away) moved to 2", r.shs[0].cur, r.shs[1].cur)
	}
	if got := sh.FreeCores; got != 16 {
		t.Errorf("the state at 2 has %d free cores, want 16 (the first two holders' nodes)", got)
	}
}
