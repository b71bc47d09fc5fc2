package scheduler

// keyTable maps keys to values by open addressing with a hash the caller
// gives, and forgets everything at once by a generation. A backfill
// cycle asks its shape memos (failed records, settled shapes) once or
// more per record; Go's map hashed each key of a dozen fields field by
// field and was 2 % of a CEA-Curie run, with a clear of its whole room
// at every cycle.
type keyTable[K comparable, V any] struct {
	hash  func(*K) uint64
	slots []ktSlot[K, V]
	gen   uint32 // a slot is in use when its gen is this one
	n     int    // slots in use
}

type ktSlot[K comparable, V any] struct {
	gen uint32
	key K
	val V
}

// reset forgets every entry.
func (t *keyTable[K, V]) reset() {
	t.n = 0
	if t.gen++; t.gen == 0 { // wrapped: old generations could match again
		clear(t.slots)
		t.gen = 1
	}
}

// get returns the value of k, if it has one.
func (t *keyTable[K, V]) get(k *K) (V, bool) {
	if t.n == 0 {
		var zero V
		return zero, false
	}
	return t.getHashed(k, t.hash(k))
}

// getHashed is get for a caller that has k's hash h already (one
// record's key is asked of several tables).
func (t *keyTable[K, V]) getHashed(k *K, h uint64) (V, bool) {
	if t.n > 0 {
		mask := uint64(len(t.slots) - 1)
		for i := h & mask; ; i = (i + 1) & mask {
			s := &t.slots[i]
			if s.gen != t.gen {
				break
			}
			if s.key == *k {
				return s.val, true
			}
		}
	}
	var zero V
	return zero, false
}

// put sets the value of k.
func (t *keyTable[K, V]) put(k *K, v V) { t.putHashed(k, t.hash(k), v) }

// putHashed is put for a caller that has k's hash h already.
func (t *keyTable[K, V]) putHashed(k *K, h uint64, v V) {
	if (t.n+1)*2 > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			s.gen, s.key, s.val = t.gen, *k, v
			t.n++
			return
		}
		if s.key == *k {
			s.val = v
			return
		}
	}
}

// grow doubles the room (at least 16 slots), keeping the entries.
func (t *keyTable[K, V]) grow() {
	old, gen := t.slots, t.gen
	t.slots = make([]ktSlot[K, V], max(16, 2*len(old)))
	t.gen, t.n = 1, 0
	for i := range old {
		if old[i].gen == gen {
			t.put(&old[i].key, old[i].val)
		}
	}
}

// hashWords mixes words into a well-spread hash (FNV-style steps, then
// splitmix64's finaliser).
func hashWords(words ...uint64) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, w := range words {
		h = (h ^ w) * 0x100000001b3
	}
	return mix(h)
}

func hashPlanKey(k *planKey) uint64 {
	b := uint64(0)
	if k.nowOnly {
		b = 1
	}
	return hashWords(uint64(uint32(k.shape))<<32^uint64(k.tl), uint64(k.hor), uint64(k.preempt)<<1|b)
}

func hashBlockKey(k *blockKey) uint64 {
	return mix(uint64(uint32(k.shape))<<32 ^ uint64(k.tl))
}
