package workload

import (
	"sort"

	"fairsim/inputerr"
)

// Error is one problem in an input file, with its position, in the form
// "file:line: field: message" that editors can jump to.
type Error = inputerr.Error

// ErrorList collects the problems of one input so that a user fixes them in
// one go rather than one per run.
type ErrorList = inputerr.List

// Tally counts events by reason; its output is sorted by reason so that
// summaries are deterministic.
type Tally map[string]int

// Add counts one more of reason.
func (t Tally) Add(reason string) { t[reason]++ }

// Total is the sum over all reasons.
func (t Tally) Total() int {
	n := 0
	for _, v := range t {
		n += v
	}
	return n
}

// Keys returns the reasons in sorted order.
func (t Tally) Keys() []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
