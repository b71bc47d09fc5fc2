package slurmconf

import (
	"fmt"
)

// Pos is where a setting came from, so that validation elsewhere in fairsim
// can cite "file:line" instead of a bare key name.
type Pos struct {
	File string
	Line int // 1-based; 0 means the value is Slurm's built-in default
}

// errFile is the file an inputerr.List cites for p: a built-in default
// has no line and is cited as "default", as Pos.String does.
func (p Pos) errFile() string {
	if !p.IsValid() {
		return "default"
	}
	return p.File
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

// Warning is something Slurm accepts (or fairsim tolerates) that a user
// probably did not mean, or that the simulation ignores.
type Warning struct {
	Pos Pos
	Key string
	Msg string
}

// String renders "file:line: Key: message", like Error.
// A warning about a whole file (no line) names the file.
func (w Warning) String() string {
	where := w.Pos.String()
	if !w.Pos.IsValid() && w.Pos.File != "" {
		where = w.Pos.File
	}
	if w.Key == "" {
		return fmt.Sprintf("%s: %s", where, w.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", where, w.Key, w.Msg)
}
