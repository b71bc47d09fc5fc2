// Package inputerr is the error type every fairsim reader reports with:
// a problem's file, line and field, collected into a list so that a reader
// fails once with all of them (in the manner of go/scanner's ErrorList)
// and a user fixes them in one editing pass. It imports only the standard
// library, so the lowest packages can use it.
package inputerr

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is one problem in an input file.
type Error struct {
	File  string
	Line  int    // 0 when the problem is not tied to a line
	Field string // the field or column at fault, as the reader names it; "" for the whole line
	Msg   string
}

// Error formats the problem as "file:line: field: message", leaving out
// the parts that are not set, so editors can jump to it ("line N" when
// the input has no file name).
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.File == "" && e.Line > 0:
		fmt.Fprintf(&b, "line %d", e.Line)
	case e.Line > 0:
		fmt.Fprintf(&b, "%s:%d", Quote(e.File), e.Line)
	default:
		b.WriteString(Quote(e.File))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(Quote(e.Field))
		b.WriteString(": ")
	}
	b.WriteString(escapeControls(e.Msg))
	return b.String()
}

// Quote returns s as it is when every rune prints, else Go-quoted (%q):
// a field name read from a hostile header must not send raw ESC or other
// control bytes to the user's terminal.
func Quote(s string) string {
	if printable(s, false) {
		return s
	}
	return strconv.Quote(s)
}

// printable reports whether s is valid UTF-8 of printable runes (and, when
// multiline, newlines and tabs).
func printable(s string, multiline bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) && !(multiline && (r == '\n' || r == '\t')) {
			return false
		}
	}
	return true
}

// escapeControls writes the unprintable runes of a message as Go escapes
// (\x1b, \a), leaving its text, newlines and tabs as they are: readers
// quote the values they echo, and this catches any that slip through.
func escapeControls(s string) string {
	if printable(s, true) {
		return s
	}
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, n := utf8.DecodeRuneInString(s[i:])
		w = n
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n' || r == '\t' || unicode.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// MaxErrors bounds a List, so a hostile input cannot make a reader hold
// millions of messages; past it a single "too many errors" is recorded.
const MaxErrors = 200

// MaxListed is how many problems List.Error spells out.
const MaxListed = 10

// List collects the problems of one input.
type List []*Error

// Add appends a problem.
func (l *List) Add(file string, line int, field, msg string) {
	switch {
	case len(*l) < MaxErrors:
		*l = append(*l, &Error{File: file, Line: line, Field: field, Msg: msg})
	case len(*l) == MaxErrors:
		*l = append(*l, &Error{File: file, Line: line, Msg: "too many errors"})
	}
}

// Addf appends a problem with a formatted message.
func (l *List) Addf(file string, line int, field, format string, args ...any) {
	l.Add(file, line, field, fmt.Sprintf(format, args...))
}

// Sort orders the problems by file, line, field and message, for readers
// that find them out of order (slurm.conf checks keys after reading every
// line) yet must report deterministically. A "too many errors" marker
// stays last.
func (l List) Sort() {
	slices.SortStableFunc(l[:min(len(l), MaxErrors)], func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Field, b.Field), cmp.Compare(a.Msg, b.Msg))
	})
}

// Len is the number of problems collected.
func (l List) Len() int { return len(l) }

// Error lists the first problems one per line, then how many more there
// are.
func (l List) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == MaxListed {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-MaxListed)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list, so callers can `return list.Err()`
// without holding a non-nil error that wraps nothing.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
