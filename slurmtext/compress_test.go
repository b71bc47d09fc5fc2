package slurmtext

import (
	"slices"
	"testing"
)

func TestCompress(t *testing.T) {
	for _, tc := range []struct {
		hosts []string
		want  string
	}{
		{[]string{"c01", "c02", "c03", "c07"}, "c[01-03,07]"},
		{[]string{"n1"}, "n1"},
		{[]string{"a00551", "a00553", "a00554"}, "a[00551,00553-00554]"},
		{[]string{"login", "c10", "c9"}, "login,c10,c9"}, // widths differ: two groups
		{[]string{"s02n11", "s02n12", "s01n31"}, "s02n[11-12],s01n31"},
		{[]string{"x", "x"}, "x,x"},
		{[]string{"c3", "c1", "c2", "c2"}, "c[1-3]"},
	} {
		got := Compress(tc.hosts)
		if got != tc.want {
			t.Errorf("Compress(%q) = %q, want %q", tc.hosts, got, tc.want)
		}
		back, err := Expand(got)
		if err != nil {
			t.Errorf("Expand(%q): %v", got, err)
			continue
		}
		for _, h := range tc.hosts {
			if !slices.Contains(back, h) {
				t.Errorf("Expand(Compress(%q)) = %q lost %s", tc.hosts, back, h)
			}
		}
	}
}
