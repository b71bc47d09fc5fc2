package slurmconf

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is where a setting came from, so that validation elsewhere in fairsim
// can cite "file:line" instead of a bare key name.
type Pos struct {
	File string
	Line int // 1-based; 0 means the value is Slurm's built-in default
}

// IsValid reports whether p names a line (as opposed to a default).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders "file:line", or "default" for a built-in default.
func (p Pos) String() string {
	if !p.IsValid() {
		return "default"
	}
	if p.File == "" {
		return fmt.Sprintf("line %d", p.Line)
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Error is one problem that makes a configuration unusable: Slurm itself
// would refuse to start with it, or fairsim cannot simulate it.
type Error struct {
	Pos Pos
	Key string // the slurm.conf key concerned, "" for syntax errors
	Msg string
}

// Error renders "file:line: Key: message", the form editors can jump to.
func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.Pos, e.Key, e.Msg)
}

// ErrorList collects every error of a file so a user can fix them in one
// pass, in the manner of go/scanner.ErrorList.
type ErrorList []*Error

// Len, Swap and Less make ErrorList a sort.Interface ordered by position.
func (l ErrorList) Len() int { return len(l) }

// Swap exchanges two errors (sort.Interface).
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

// Less orders errors by file, line, key and message (sort.Interface).
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if l[i].Key != l[j].Key {
		return l[i].Key < l[j].Key
	}
	return l[i].Msg < l[j].Msg
}

// Sort orders the list by file and line (stable for equal positions), so
// that reports are deterministic.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error lists every error, one per line, so that a failing run shows all
// of them rather than the first alone.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d errors:", len(l))
	for _, e := range l {
		b.WriteString("\n\t")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list and the list otherwise, to avoid the
// non-nil-interface-holding-nil-slice trap.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Warning is something Slurm accepts (or fairsim tolerates) that a user
// probably did not mean, or that the simulation ignores.
type Warning struct {
	Pos Pos
	Key string
	Msg string
}

// String renders "file:line: Key: message", like Error.
func (w Warning) String() string {
	if w.Key == "" {
		return fmt.Sprintf("%s: %s", w.Pos, w.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", w.Pos, w.Key, w.Msg)
}
