package slurmtext

import "testing"

func TestWord(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{{"p1", true}, {"gpu_a100-80g.x", true}, {"", false}, {"a,b", false}, {"|", false}, {"a b", false}, {"é", false}} {
		if got := Word(tc.s); got != tc.want {
			t.Errorf("Word(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
