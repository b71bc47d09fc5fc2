package scheduler

import "testing"

// keyTable answers as a Go map does, through growth, probing (with a
// hash that sends every key to one slot) and resets, including a
// generation that wraps.
func TestKeyTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		hash func(*blockKey) uint64
	}{
		{"spread", hashBlockKey},
		{"one slot", func(*blockKey) uint64 { return 7 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kt := keyTable[blockKey, int]{hash: tc.hash}
			for round := range 3 {
				if round == 2 {
					kt.gen = ^uint32(0) // the next reset wraps
				}
				kt.reset()
				want := map[blockKey]int{}
				for i := range 200 {
					k := blockKey{int32(i%3*17 + i%17), int64(i % 5)}
					kt.put(&k, i)
					want[k] = i
				}
				for i := range 400 {
					k := blockKey{int32(i%3*17 + i%17), int64(i % 5)}
					got, ok := kt.get(&k)
					if w, wok := want[k]; ok != wok || got != w {
						t.Fatalf("round %d key %+v: %d %v, want %d %v", round, k, got, ok, w, wok)
					}
				}
				if kt.n != len(want) {
					t.Fatalf("round %d: %d entries, want %d", round, kt.n, len(want))
				}
			}
			kt.reset()
			k := blockKey{1, 0}
			if _, ok := kt.get(&k); ok {
				t.Fatal("an entry outlived reset")
			}
		})
	}
}
