package slurmtext

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"node01", []string{"node01"}},
		{"node[1-3]", []string{"node1", "node2", "node3"}},
		{"node[001-003]", []string{"node001", "node002", "node003"}},
		{"n[1-3,7],gpu01", []string{"n1", "n2", "n3", "n7", "gpu01"}},
		{"node[8-10]", []string{"node8", "node9", "node10"}}, // width of "8" is 1
		{"node[098-101]", []string{"node098", "node099", "node100", "node101"}},
		{"n[01-100]", nil}, // checked by count below
		{"r[1-2]n[01-02]", []string{"r1n01", "r1n02", "r2n01", "r2n02"}},
		{"node[1-2]-ib", []string{"node1-ib", "node2-ib"}},
		{"a,b c\tD", []string{"a", "b", "c", "D"}},
		{"a,,b,", []string{"a", "b"}}, // empty entries skipped, as in Slurm
		{"[1-2]", []string{"1", "2"}},
		{"n[5]", []string{"n5"}},
		{"n[3-3]", []string{"n3"}},
		{"n1,n1", []string{"n1", "n1"}}, // duplicates kept
		{"", nil},
	}
	for _, tc := range tests {
		got, err := Expand(tc.in)
		if err != nil {
			t.Errorf("Expand(%q): %v", tc.in, err)
			continue
		}
		if tc.in == "n[01-100]" {
			if len(got) != 100 || got[0] != "n01" || got[98] != "n99" || got[99] != "n100" {
				t.Errorf("Expand(%q) = %d hosts, first %q, last %q", tc.in, len(got), got[0], got[len(got)-1])
			}
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Expand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExpandInvalid(t *testing.T) {
	tests := []struct {
		in, msg string
	}{
		{"node[1-3", "never closed"},
		{"node1-3]", "']' without '['"},
		{"node[[1-2]]", "nested '['"},
		{"node[]", "empty brackets"},
		{"node[3-1]", "runs backwards"},
		{"node[a-c]", `"a" is not a number`},
		{"node[1-]", "bad range"},
		{"node[-2]", "bad range"},
		{"node[1,,2]", "bad range"},
		{"node[1-2-3]", `"2-3" is not a number`},
		{"node[0-65536]", "more than 65536 hosts"},
		{"a[0-255]b[0-256]", "more than 65536 hosts"},
		{"a[1-65536],b", "more than 65536 hosts"},
		{"n[0000000000000000001-2]", "more than 18 digits"},
	}
	for _, tc := range tests {
		got, err := Expand(tc.in)
		if err == nil {
			t.Errorf("Expand(%q) = %d hosts, want error", tc.in, len(got))
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Expand(%q) error %q does not mention %q", tc.in, err, tc.msg)
		}
	}
}

// TestExpandLimit checks that exactly MaxHosts is allowed.
func TestExpandLimit(t *testing.T) {
	got, err := Expand(fmt.Sprintf("n[1-%d]", MaxHosts))
	if err != nil || len(got) != MaxHosts {
		t.Fatalf("Expand of MaxHosts hosts: %d, %v", len(got), err)
	}
}
