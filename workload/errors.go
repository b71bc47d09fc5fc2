package workload

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in an input file, with its position, in the form
// "file:line: field N (name): message" that editors can jump to.
type Error struct {
	File  string
	Line  int
	Field string // e.g. "field 4 (run time)"; empty when the whole line is at fault
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList collects the problems of one input so that a user fixes them in
// one go rather than one per run.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(file string, line int, field, msg string) {
	*l = append(*l, &Error{File: file, Line: line, Field: field, Msg: msg})
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list, so callers can `return list.Err()`.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

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
