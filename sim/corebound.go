package sim

import (
	"math"
	"math/bits"
	"slices"
)

// MayHaveCores reports whether the nodes of set (a bitmap by node index,
// within partition p) could have need free cores once the holders of rel
// ending at or before t have given theirs back: false proves that a
// will-run test on set (WillRun with set as avail) finds no start at or
// before t, as every test it makes asks that many free cores on nodes of
// set (fewer nodes in play, types and memory only lower the count).
//
// Half the questions of a CEA-Curie backfill cycle ask of the same set
// as the question before (records of one limit, later tries), so the
// set's free cores and its running sums of the holders' cores are kept
// (sums) until the set, the holders or the cluster change, and extended
// only as far as a question needs.
func (r *Releases) MayHaveCores(c *Cluster, p int, set []uint64, t int64, need int) bool {
	end := r.endingBy(t)
	if c.Parts[p].FreeCores+r.coresBefore(end) < need {
		return false // even every holder's cores would not do
	}
	m := r.sumsOf(c, set)
	if m.free >= need {
		return true
	}
	return m.reach(r, min(end, len(r.h)), need-m.free) >= need-m.free
}

// coreSums are the free cores of a set of nodes and the running sums of
// the holders' cores on it: k[i] is the cores of holders 0 to i-1 there.
type coreSums struct {
	gen  uint64 // the holders' (Releases.gen)
	hash uint64 // the cluster's NodeHash
	set  []uint64
	free int
	k    []int
	ok   bool
	// scratch for shift: the words that differ, and the holders' changes
	diff   []int
	deltas []holderDelta
}

type holderDelta struct{ holder, d int }

// shiftWords is how many words a new set may differ in from the sums' for
// shift to move the sums rather than sumsOf make them again.
const shiftWords = 8

// sumsOf is the running sums of set, kept when they are of the same set,
// holders and cluster, and moved (shift) when only a few words of the set
// differ: of the sets a CEA-Curie cycle asks of, three in four differ
// from the one before, and half of those in at most three words (the
// nodes of the reservation just made), while summing the holders again
// read 49 holders' words each time.
func (r *Releases) sumsOf(c *Cluster, set []uint64) *coreSums {
	m := &r.sums
	h := c.NodeHash()
	if m.ok && m.gen == r.gen && m.hash == h && (slices.Equal(m.set, set) || r.shift(c, m, set)) {
		return m
	}
	m.ok, m.gen, m.hash = true, r.gen, h
	m.set = append(m.set[:0], set...)
	m.free = c.freeCoresByIndex(set)
	m.k = append(m.k[:0], 0)
	return m
}

// shift makes m, sums of the same holders and cluster, those of set, when
// set differs from m.set in at most shiftWords words: the free cores and
// each summed holder's cores change only in those words.
func (r *Releases) shift(c *Cluster, m *coreSums, set []uint64) bool {
	if len(set) != len(m.set) {
		return false
	}
	diff := m.diff[:0]
	for w, x := range set {
		if x != m.set[w] {
			if len(diff) == shiftWords {
				m.diff = diff
				return false
			}
			diff = append(diff, w)
		}
	}
	m.diff = diff
	r.indexWords()
	summed := len(m.k) - 1 // holders 0 to summed-1 are in the sums
	deltas := m.deltas[:0]
	for _, w := range diff {
		was, now := m.set[w], set[w]
		m.free += c.freeCoresOfIndexWord(w, now) - c.freeCoresOfIndexWord(w, was)
		if w+1 < len(r.wordStart) {
			for _, e := range r.byWord[r.wordStart[w]:r.wordStart[w+1]] {
				if int(e.holder) >= summed {
					break // by holder: the rest are not summed yet
				}
				nw := &r.words[e.word]
				if d := r.wordCores(int(e.holder), nw, now) - r.wordCores(int(e.holder), nw, was); d != 0 {
					deltas = append(deltas, holderDelta{int(e.holder), d})
				}
			}
		}
		m.set[w] = now
	}
	m.deltas = deltas
	if len(deltas) > 0 {
		slices.SortFunc(deltas, func(a, b holderDelta) int { return a.holder - b.holder })
		acc, di := 0, 0
		for i := deltas[0].holder; i < summed; i++ {
			for di < len(deltas) && deltas[di].holder == i {
				acc += deltas[di].d
				di++
			}
			m.k[i+1] += acc
		}
	}
	return true
}

// wordEntry is one word of a holder: the holder and the word's place in
// Releases.words.
type wordEntry struct{ holder, word int32 }

// indexWords lists, for every bitmap word, the holders' words on it (by
// holder), once per change of the holders.
func (r *Releases) indexWords() {
	if r.wordsGen == r.gen && r.wordStart != nil {
		return
	}
	r.wordsGen = r.gen
	n := 0
	for _, nw := range r.words {
		n = max(n, int(nw.w)+1)
	}
	start := slices.Grow(r.wordStart[:0], n+1)[:n+1]
	clear(start)
	for _, sp := range r.spans {
		for _, nw := range r.words[sp.lo:sp.hi] {
			start[nw.w+1]++
		}
	}
	for w := 1; w <= n; w++ {
		start[w] += start[w-1]
	}
	by := slices.Grow(r.byWord[:0], int(start[n]))[:start[n]]
	fill := append(r.wordFill[:0], start[:n]...)
	for i, sp := range r.spans {
		for k := sp.lo; k < sp.hi; k++ {
			w := r.words[k].w
			by[fill[w]] = wordEntry{int32(i), k}
			fill[w]++
		}
	}
	r.wordStart, r.byWord, r.wordFill = start, by, fill
}

// wordCores is holder i's cores on the nodes of x within its word nw, as
// coresOn counts them.
func (r *Releases) wordCores(i int, nw *nodeWord, x uint64) int {
	m := x & nw.mask
	switch {
	case m == nw.mask:
		return int(nw.cores)
	case m == 0:
		return 0
	case nw.per > 0:
		return bits.OnesCount64(m) * int(nw.per)
	}
	return r.sliceCores(i, nw, m)
}

// sliceCores is holder i's cores on the nodes of m within its word nw,
// read from the allocation's slices of that word: for a word whose nodes
// hold different numbers of cores.
func (r *Releases) sliceCores(i int, nw *nodeWord, m uint64) int {
	k := 0
	for _, s := range r.h[i].Alloc[nw.s0:][:bits.OnesCount64(nw.mask)] {
		if m&(1<<(s.Node&63)) != 0 {
			k += s.Cores
		}
	}
	return k
}

// freeCoresOfIndexWord is the free cores of the nodes of word wi (by node
// index) in x.
func (c *Cluster) freeCoresOfIndexWord(wi int, x uint64) int {
	if c.rankIsIndex {
		return c.coresOfRanks(wi, x&c.freeBits[wi]) // as freeCoresIn counts them
	}
	k := 0
	for ; x != 0; x &= x - 1 {
		k += c.Nodes[wi*64+bits.TrailingZeros64(x)].FreeCores
	}
	return k
}

// reach extends the sums until holder end or until they reach want,
// and returns the sum of holders 0 to end-1, or one that reaches want.
func (m *coreSums) reach(r *Releases, end, want int) int {
	v := len(m.k) - 1
	k := m.k[v]
	for ; v < end && k < want; v++ {
		// r.coresOn(v, m.set), a one-word holder's inline
		if o := &r.one[v]; o.w < 0 {
			k += r.coresOn(v, m.set)
		} else if x := m.set[o.w] & o.mask; x == o.mask {
			k += int(o.cores)
		} else if x != 0 {
			k += r.coresOn(v, m.set)
		}
		m.k = append(m.k, k)
	}
	return m.k[min(end, len(m.k)-1)]
}

// at is holder i's cores on the set, the sums extended to it.
func (m *coreSums) at(r *Releases, i int) int {
	if len(m.k) <= i+1 {
		m.reach(r, i+1, math.MaxInt)
	}
	return m.k[i+1] - m.k[i]
}

// coresBefore is the cores of the first n holders.
func (r *Releases) coresBefore(n int) int {
	if len(r.prefix) != len(r.cores)+1 {
		r.prefix = append(r.prefix[:0], 0)
		for _, k := range r.cores {
			r.prefix = append(r.prefix, r.prefix[len(r.prefix)-1]+k)
		}
	}
	return r.prefix[n]
}

// freeCoresByIndex is the free cores of the nodes of set, a bitmap by
// node index.
func (c *Cluster) freeCoresByIndex(set []uint64) int {
	if c.rankIsIndex {
		return c.freeCoresIn(set)
	}
	k := 0
	for wi, w := range set {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			k += c.Nodes[wi*64+b].FreeCores
		}
	}
	return k
}

// endingBy is how many holders end at or before t: a binary search over
// their ends by index, as slices.BinarySearchFunc copied each 56-byte
// Holding into its comparison.
func (r *Releases) endingBy(t int64) int {
	lo, hi := 0, len(r.h)
	for lo < hi {
		if mid := int(uint(lo+hi) >> 1); r.h[mid].End <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
