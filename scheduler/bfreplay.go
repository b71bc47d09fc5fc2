package scheduler

// A record's test in planJob tries start times in turn: now, then each
// time reservations free more of its nodes (availOver's later), moving
// on where a try cannot start the job by that time. Queues hold runs of
// records of one key (shape, limit, horizon, test-now-only): three in
// four of a CEA-Curie cycle's tests follow one of the same key, and each
// walked the same tries again from now.
//
// Within a cycle, resources only go: reservations take nodes from the
// map and starts take resources until their end, both for the rest of
// the cycle. A record planned after one of the same key therefore has,
// at every start time, the same or fewer nodes free of reservations, and
// on them the same or fewer free cores at every time. Two reasons to
// move on hold on fewer nodes and resources: too few nodes for the node
// count (count), and too few cores by later for the will-run test to
// find a start (MayHaveCores). So a later record of the key makes those
// moves of the earlier one without counting or bounding again, as long
// as each try ends at the same later, which only the map's records
// decide (nodeSpace.laterOver). A will-run test's own answer does not
// carry over (its batches of releases depend on the nodes in play): such
// a try is made again, and the replay goes on only while it moves on to
// the same later.
//
// The moves are kept until something gives resources back within the
// cycle (a preemption), which forgets them all.

// moveKind is why a try moved on.
type moveKind uint8

const (
	moveNodes moveKind = iota // too few nodes free of reservations
	moveCores                 // MayHaveCores: too few cores by later
	moveTest                  // the will-run test's answer: not replayed
)

// bfMove is one try of a record that moved on: from start to later.
type bfMove struct {
	start, later int64
	kind         moveKind
}

// moveChains are the tries of the last record of each key in a cycle.
type moveChains struct {
	index keyTable[planKey, int32] // key to chains
	lists [][]bfMove
	used  int      // lists in use this cycle
	cur   []bfMove // the tries of the record being planned
	// replayed counts the moves replayed (for tests and profiles).
	replayed int
}

// reset forgets every key's tries.
func (m *moveChains) reset() {
	if m.index.hash == nil {
		m.index.hash = hashPlanKey
	}
	m.index.reset()
	m.used = 0
}

// of is the tries of the last record of key k (hash h) this cycle (nil:
// none).
func (m *moveChains) of(k *planKey, h uint64) []bfMove {
	if i, ok := m.index.getHashed(k, h); ok {
		return m.lists[i]
	}
	return nil
}

// keep makes the record just planned, whose tries are in cur, the last
// of key k (hash h).
func (m *moveChains) keep(k *planKey, h uint64) {
	i, ok := m.index.getHashed(k, h)
	if !ok {
		if m.used == len(m.lists) {
			m.lists = append(m.lists, nil)
		}
		i = int32(m.used)
		m.used++
		m.index.putHashed(k, h, i)
	}
	m.lists[i], m.cur = m.cur, m.lists[i][:0]
}

// triedIn reports whether one of the record's cores moves, all replayed
// while it has not counted as tried, was made on nodes that held the
// node count: then its own try would have reached MayHaveCores, which
// counts as tried (bf_max_job_test).
func (b *backfillState) triedIn(tl int64, minNodes int) bool {
	for _, mv := range b.moves.cur {
		if mv.kind != moveCores {
			continue
		}
		copy(b.avail, b.base)
		if _, ok := b.ns.availOver(b.avail, mv.start, mv.start+tl, minNodes); ok {
			return true
		}
	}
	return false
}
