package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A shadow that replays netJournal's sums ends as one that replays the
// journal change by change: every node's free cores, memory and what a
// drained node holds, and the shadow's counters and free-level index.
// The journal has takes and gives that cancel, that leave cores and
// memory moving opposite ways, and gives to a drained node (held).
func TestNetJournalReplaysAsTheJournal(t *testing.T) {
	for round := range 20 {
		rng := rand.New(rand.NewPCG(7, uint64(round)))
		c := newTestCluster(t, "broadwell", false, numbered(12))
		busy := make([]struct {
			cores int
			mem   int64
		}, len(c.Nodes))
		for n := range c.Nodes { // some of every node in use
			k := rng.IntN(8)
			c.take(n, -1, k, int64(k)*500, 0)
			busy[n].cores, busy[n].mem = k, int64(k)*500
		}
		c.SetNodeState(3, NodeDrain)
		a, b := c.newShadow(), c.newShadow()
		c.sh.track, c.sh.journaled = true, true
		c.sh.dirtyMark = make([]bool, len(c.Nodes))
		for range 200 {
			n := rng.IntN(len(c.Nodes))
			nd := &c.Nodes[n]
			if rng.IntN(2) == 0 && nd.FreeCores > 0 && nd.State.Usable() {
				k := 1 + rng.IntN(nd.FreeCores)
				m := min(int64(rng.IntN(3))*int64(k)*400, nd.FreeMem)
				c.take(n, -1, k, m, 0)
				busy[n].cores += k
				busy[n].mem += m
			} else if busy[n].cores > 0 {
				k := 1 + rng.IntN(busy[n].cores)
				m := min(int64(rng.IntN(3))*int64(k)*400, busy[n].mem)
				c.give(n, -1, k, m, 0)
				busy[n].cores -= k
				busy[n].mem -= m
			}
		}
		if c.sh.broken {
			t.Fatal("the journal broke")
		}
		c.replayDeltas(a, c.sh.journal)
		net := c.netJournal()
		if len(net) >= len(c.sh.journal) {
			t.Fatalf("round %d: %d sums for %d changes", round, len(net), len(c.sh.journal))
		}
		c.replayDeltas(b, net)
		for n := range c.Nodes {
			x, y := &a.Nodes[n], &b.Nodes[n]
			if x.FreeCores != y.FreeCores || x.FreeMem != y.FreeMem || x.held != y.held {
				t.Fatalf("round %d node %d: change by change %d cores %d MB held %+v, summed %d cores %d MB held %+v",
					round, n, x.FreeCores, x.FreeMem, x.held, y.FreeCores, y.FreeMem, y.held)
			}
		}
		got := fmt.Sprintf("%d %d %d %v %v %v", b.FreeCores, b.Parts[0].FreeCores, b.memTight, b.freeBits, b.fl.count, b.fl.word)
		want := fmt.Sprintf("%d %d %d %v %v %v", a.FreeCores, a.Parts[0].FreeCores, a.memTight, a.freeBits, a.fl.count, a.fl.word)
		if got != want {
			t.Fatalf("round %d: summed shadow %s, change by change %s", round, got, want)
		}
	}
}
