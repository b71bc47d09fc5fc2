package workload

// idSet remembers job numbers: a bitset over the small numbers traces use
// (a few MB for ten million jobs), a map for the rest.
type idSet struct {
	bits []uint64
	big  map[int64]struct{}
}

// maxBitID bounds the bitset at 32 MB.
const maxBitID = 1 << 28

// add records id and reports whether it was there already.
func (s *idSet) add(id int64) (dup bool) {
	if id >= 0 && id < maxBitID {
		w := int(id / 64)
		if w >= len(s.bits) {
			n := max(2*len(s.bits), w+1)
			s.bits = append(s.bits, make([]uint64, n-len(s.bits))...)
		}
		b := uint64(1) << (id % 64)
		dup = s.bits[w]&b != 0
		s.bits[w] |= b
		return dup
	}
	if s.big == nil {
		s.big = map[int64]struct{}{}
	}
	_, dup = s.big[id]
	s.big[id] = struct{}{}
	return dup
}
