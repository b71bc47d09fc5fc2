package workflow

import (
	"fairsim/slurmtext"
	"fmt"
	"strconv"
)

// ParseJobIDs reads sprio's -j list; an id that is not a positive number
// is an error rather than a filter that silently matches nothing.
func ParseJobIDs(s string) ([]int64, error) {
	var ids []int64
	for _, f := range slurmtext.SplitList(s) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("-j: invalid job id %q", f)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
