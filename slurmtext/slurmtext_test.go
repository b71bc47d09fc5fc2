package slurmtext

import (
	"slices"
	"testing"
)

func TestSplitList(t *testing.T) {
	for in, want := range map[string][]string{
		"":              nil,
		" , ,":          nil,
		"a":             {"a"},
		"a, b,,c ,":     {"a", "b", "c"},
		" State,JobID ": {"State", "JobID"},
	} {
		if got := SplitList(in); !slices.Equal(got, want) {
			t.Errorf("SplitList(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		``:          ``,
		`plain`:     `plain`,
		`a\:b`:      `a:b`,
		`a\\b`:      `a\b`,
		`end\`:      `end`,
		`\\\'x\'\\`: `\'x'\`,
	} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}
