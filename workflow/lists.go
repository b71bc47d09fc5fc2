package workflow

import (
	"fmt"
	"strconv"
	"strings"
)

// SplitList splits a comma-separated command-line list as Slurm's tools
// do, dropping blanks, so "a, b," is [a b].
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// ParseJobIDs reads sprio's -j list; an id that is not a positive number
// is an error rather than a filter that silently matches nothing.
func ParseJobIDs(s string) ([]int64, error) {
	var ids []int64
	for _, f := range SplitList(s) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("-j: invalid job id %q", f)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
