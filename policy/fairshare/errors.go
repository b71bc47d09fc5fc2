package fairshare

import (
	"fmt"
	"strings"
)

// Error is one problem found in an input file. It names the file, the line
// and the field so that a user can fix every problem in one editing pass.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error formats the problem as "file:line: field: message".
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

// maxErrors bounds an ErrorList so that a hostile input cannot make the
// reader hold millions of messages.
const maxErrors = 200

// ErrorList collects every problem of an input (like go/scanner) so that a
// reader fails once with all of them instead of stopping at the first.
type ErrorList []*Error

// Add appends a problem; beyond maxErrors it records a single marker.
func (l *ErrorList) Add(file string, line int, field, msg string) {
	switch {
	case len(*l) < maxErrors:
		*l = append(*l, &Error{File: file, Line: line, Field: field, Msg: msg})
	case len(*l) == maxErrors:
		*l = append(*l, &Error{File: file, Line: line, Msg: "too many errors"})
	}
}

// Len reports the number of collected problems.
func (l ErrorList) Len() int { return len(l) }

// Error lists every problem, one per line.
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

// Err returns nil for an empty list so callers can write `return errs.Err()`.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
