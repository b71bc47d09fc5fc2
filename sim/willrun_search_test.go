package sim

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWillRunSearchMatchesSequential: the monotone search over the
// cursor (willRunMonotone) answers every will-run test exactly as testing
// each batch in order from the present state does: same start, same
// allocation, same fit. Random clusters (node weights that make
// allocation order differ from index order, two overlapping partitions,
// a drained node), random holders, and random requests and nodes in
// play; the cursor is left where each test put it, as in a pass. Between
// tests, as in a pass, a job starts now (the cluster takes its
// allocation and Insert adds its release, which the shadow follows) or a
// node leaves or re-enters service (the shadows must notice). Each round
// is four passes over the same clusters: between them holders end, and
// others change their expected end, which the shadows carry over
// (Reset) instead of starting from the present.
func TestWillRunSearchMatchesSequential(t *testing.T) {
	// flat rounds give every node one Weight: allocation order is then
	// index order, where the search takes its free cores from
	// MayHaveCores' count.
	build := func(rng *rand.Rand, flat bool) (*Cluster, []Holding) {
		var specs []NodeSpec
		for i := range 24 {
			w := rng.IntN(3)
			if flat {
				w = 1
			}
			typ := "broadwell"
			if i%4 == 3 {
				typ = "skylake" // requests of one type see fewer nodes in play
			}
			specs = append(specs, nodeGroup(typ, 4+4*(i%3), 8000, w, fmt.Sprintf("n%d", i)))
		}
		var half []string
		for i := range 16 {
			half = append(half, fmt.Sprintf("n%d", i))
		}
		c := newTestCluster(t, "broadwell", false, specs, partSpec("all"), partSpec("half", half...))
		c.Now = 1000
		var hs []Holding
		for j := range 30 {
			var a Alloc
			for range 1 + rng.IntN(4) {
				n := rng.IntN(len(c.Nodes))
				if c.Nodes[n].FreeCores == 0 || slices.ContainsFunc(a, func(s Slice) bool { return s.Node == n }) {
					continue
				}
				k := 1 + rng.IntN(c.Nodes[n].FreeCores)
				a = append(a, Slice{Node: n, Cores: k, MemMB: int64(k) * 500})
			}
			if len(a) == 0 {
				continue
			}
			c.Occupy(a)
			// A few are past their limits (end before now): a will-run
			// test guesses their ends (releaseAt), which need not come
			// in the order of the ends.
			hs = append(hs, Holding{Job: &Job{Idx: j}, Alloc: a, End: 700 + int64(rng.IntN(20300))})
		}
		c.SetNodeState(rng.IntN(len(c.Nodes)), NodeDrain)
		c.KillWait = int64(rng.IntN(2)) * 30
		c.Parts[0].OverTime = []int64{0, 60, 900}[rng.IntN(3)]
		slices.SortStableFunc(hs, func(a, b Holding) int { return int(a.End - b.End) })
		return c, hs
	}
	cuts, later, reused := 0, 0, 0
	for round := range 40 {
		rng := rand.New(rand.NewPCG(15, uint64(round)))
		byRng := rand.New(rand.NewPCG(16, uint64(round)))
		c, hs := build(rng, round%2 == 1)
		cs, hss := build(rand.New(rand.NewPCG(15, uint64(round))), round%2 == 1)
		var fast, seq Releases
		for pass := range 4 {
			fast.Reset(hs)
			seq.Reset(hss)
			for q := range 30 {
				req := Request{CPUs: 1 + rng.IntN(60), Type: -1, MemPerCPU: int64(rng.IntN(3)) * 400}
				switch rng.IntN(4) {
				case 0:
					req.Nodes = 1
					req.CPUs = 1 + rng.IntN(12)
				case 1:
					req.Nodes = 2 + rng.IntN(3)
					req.CPUs = req.Nodes * (1 + rng.IntN(8))
				case 2:
					req.Exclusive = true
				}
				if rng.IntN(3) == 0 {
					req.Type = rng.IntN(len(c.Types))
				}
				p := rng.IntN(2)
				avail := make([]uint64, 1)
				for n := range c.Nodes {
					if rng.IntN(5) > 0 {
						avail[0] |= 1 << n
					}
				}
				until := 1000 + int64(rng.IntN(25000))
				switch rng.IntN(6) {
				case 0: // a start now, released at a random end
					sreq := Request{CPUs: 1 + rng.IntN(8), Type: -1, MemPerCPU: 300}
					if a, fit := c.TryAlloc(&sreq, 0, nil); fit == FitsNow {
						c.Occupy(a)
						cs.Occupy(a)
						h := Holding{Job: &Job{Idx: 100 + q}, Alloc: slices.Clone(a), End: 1000 + int64(rng.IntN(20000))}
						k, _ := slices.BinarySearchFunc(fast.Holdings(), h, func(a, b Holding) int { return int(a.End - b.End) })
						fast.Insert(k, h)
						seq.Insert(k, h)
						// The caller may reuse the allocation's memory
						// once Insert returns; the next pass needs it.
						for i := range h.Alloc {
							h.Alloc[i] = Slice{Node: len(c.Nodes) - 1, Cores: 1}
						}
					}
				case 1: // a node changes state, in one pass of four
					if pass != 2 {
						break
					}
					n, st := rng.IntN(len(c.Nodes)), NodeUp
					if rng.IntN(2) == 0 {
						st = NodeDrain
					}
					c.SetNodeState(n, st)
					cs.SetNodeState(n, st)
				}
				wrSequential = true
				wa, wt, wf := cs.WillRun(&req, p, avail, &seq, until, nil)
				want := fmt.Sprintf("%v at %d: %s", wf, wt, allocString(cs, wa))
				wrSequential = false
				ga, gt, gf := c.WillRun(&req, p, avail, &fast, until, nil)
				got := fmt.Sprintf("%v at %d: %s", gf, gt, allocString(c, ga))
				if got != want {
					t.Fatalf("round %d request %d (%+v in %d): search %s, sequential %s", round, q, req, p, got, want)
				}
				// With Releases.Cut, the nodes in play given already cut
				// to the partition's nodes in service are taken as they
				// are: the same answer.
				cutSet := make([]uint64, len(avail))
				for wi := range cutSet {
					cutSet[wi] = avail[wi] & c.Parts[p].memberBits[wi] &^ c.downBits[wi]
				}
				fast.Cut = true
				ca, ct, cf := c.WillRun(&req, p, cutSet, &fast, until, nil)
				fast.Cut = false
				if got := fmt.Sprintf("%v at %d: %s", cf, ct, allocString(c, ca)); got != want {
					t.Fatalf("round %d request %d (%+v in %d): search on the cut set %s, sequential %s", round, q, req, p, got, want)
				}
				// The nodes counted (playT) are those of the type asked,
				// cut set or not: a typed request's count must not take
				// the cut set's other nodes.
				c.setPlay(&req, p, cutSet, true)
				for n := range c.Nodes {
					if c.playT[n>>6]&(1<<(n&63)) != 0 && (cutSet[n>>6]&(1<<(n&63)) == 0 || !c.typeOK(&req, n)) {
						t.Fatalf("round %d request %d (%+v in %d): node %d counted in play, not in the cut set or not of the type", round, q, req, p, n)
					}
				}
				c.play = nil
				// WillRunBy answers as WillRun, or is cut short only when
				// WillRun finds no start by its time.
				by := c.Now + 1 + int64(byRng.IntN(25000))
				if q%2 == 0 {
					// MayHaveCores first, on the nodes in play, as planJob
					// asks: the search then starts from its sums and its
					// count of the free cores.
					set := make([]uint64, len(avail))
					for wi := range set {
						set[wi] = avail[wi] & c.Parts[p].memberBits[wi] &^ c.downBits[wi]
					}
					fast.MayHaveCores(c, p, set, until, req.CPUs)
					// (It may answer from the partition's cores alone,
					// leaving the sums of another set.)
					if c.rankIsIndex && slices.Equal(fast.sums.set, set) {
						if fast.sums.free != c.freeCoresIn(set) {
							t.Fatalf("round %d request %d: MayHaveCores counted %d free cores, the nodes have %d", round, q, fast.sums.free, c.freeCoresIn(set))
						}
						reused++
					}
				}
				ba, bt, bf, cut := c.WillRunBy(&req, p, avail, &fast, until, by, nil)
				if by := fmt.Sprintf("%v at %d: %s", bf, bt, allocString(c, ba)); !cut && by != want {
					t.Fatalf("round %d request %d (%+v in %d): by-search %s, sequential %s", round, q, req, p, by, want)
				}
				if cut && wf == FitsNow && wt <= by {
					t.Fatalf("round %d request %d (%+v in %d): cut short by %d, sequential %s", round, q, req, p, by, want)
				}
				if cut {
					cuts++
				}
				// WillRunNodes answers as WillRunBy, with the nodes of
				// its allocation, which it gives only for a start now.
				nodes := slices.Repeat([]uint64{^uint64(0)}, len(c.freeBits))
				na, nt, nf, ncut := c.WillRunNodes(&req, p, avail, &fast, until, by, nil, nodes)
				if nt != bt || nf != bf || ncut != cut {
					t.Fatalf("round %d request %d (%+v in %d): nodes-search %v at %d (cut %v), by-search %v at %d (cut %v)", round, q, req, p, nf, nt, ncut, bf, bt, cut)
				}
				if bf == FitsNow {
					wantNodes := make([]uint64, len(nodes))
					allocNodes(wantNodes, ba)
					if !slices.Equal(nodes, wantNodes) {
						t.Fatalf("round %d request %d (%+v in %d): nodes %b, allocation %s", round, q, req, p, nodes, allocString(c, ba))
					}
					if bt == c.Now && allocString(c, na) != allocString(c, ba) || bt > c.Now && len(na) != 0 {
						t.Fatalf("round %d request %d (%+v in %d): nodes-search gave %s at %d, by-search %s", round, q, req, p, allocString(c, na), bt, allocString(c, ba))
					}
					if bt > c.Now {
						later++
					}
				}
			}
			busy := 0
			for _, h := range fast.Holdings() {
				busy += h.Alloc.Cores()
			}
			// The cluster is the present one: the tests moved only the
			// shadow.
			if c.FreeCores+busy+c.DownCores != c.TotalCores || c.FreeCores != cs.FreeCores {
				t.Fatalf("round %d: tests left %d free + %d busy + %d down of %d", round, c.FreeCores, busy, c.DownCores, c.TotalCores)
			}
			// Between passes: a quarter of the holders end, a sixth of the
			// others are expected to end later.
			hs = hs[:0]
			for _, h := range fast.Holdings() {
				switch rng.IntN(12) {
				case 0, 1, 2:
					c.apply(h.Alloc, h.Part, false)
					cs.apply(h.Alloc, h.Part, false)
					continue
				case 3, 4:
					h.End += int64(rng.IntN(5000))
				}
				hs = append(hs, h)
			}
			slices.SortStableFunc(hs, func(a, b Holding) int { return cmp.Or(cmp.Compare(a.End, b.End), cmp.Compare(a.Job.Idx, b.Job.Idx)) })
			hss = slices.Clone(hs)
		}
	}
	if cuts == 0 {
		t.Fatal("no WillRunBy test was cut short: the test does not reach the cut")
	}
	if later == 0 {
		t.Fatal("no WillRunNodes test found a later start: the test does not reach the nodes it gives")
	}
	if reused == 0 {
		t.Fatal("no search followed MayHaveCores in index order: the test does not reach the count it reuses")
	}
	t.Logf("%d WillRunBy tests cut short, %d later starts by nodes, %d after MayHaveCores", cuts, later, reused)
}

// TestWillRunByPastLimit: a job past its limit is expected back at its
// guessed end (releaseAt), which can come after the ends of the jobs
// behind it in end order; _will_run_test still tries them in end order
// and takes the first that fits. n0 (4 cores) holds A (1 core, limit end
// 990, now 1000, OverTime 600: guessed at 1620) and C (2 cores, end
// 5000); n1 holds B (3 cores, end 1100). Three CPUs on one node fit on n1
// once B ends: 1100, also for a test that wants a start by 1300.
func TestWillRunByPastLimit(t *testing.T) {
	c := newTestCluster(t, "broadwell", false, []NodeSpec{nodeGroup("broadwell", 4, 8000, 1, "n0", "n1")})
	c.Now, c.KillWait = 1000, 30
	c.Parts[0].OverTime = 600
	a := Alloc{{Node: 0, Cores: 1, MemMB: 100}}
	cc := Alloc{{Node: 0, Cores: 2, MemMB: 100}}
	b := Alloc{{Node: 1, Cores: 3, MemMB: 100}}
	for _, x := range []Alloc{a, cc, b} {
		c.Occupy(x)
	}
	hs := []Holding{{Job: &Job{Idx: 0}, Alloc: a, End: 990}, {Job: &Job{Idx: 1}, Alloc: b, End: 1100}, {Job: &Job{Idx: 2}, Alloc: cc, End: 5000}}
	var rel Releases
	rel.Reset(hs)
	req := Request{CPUs: 3, Nodes: 1, Type: -1}
	avail := []uint64{3}
	for _, by := range []int64{0, 1300} {
		_, at, fit, cut := c.WillRunBy(&req, 0, avail, &rel, 1<<40, by, nil)
		if fit != FitsNow || at != 1100 || cut {
			t.Errorf("by %d: %v at %d (cut %v); want a fit at 1100", by, fit, at, cut)
		}
	}
}
