// Package slurmtime parses and formats Slurm time strings the way Slurm's
// own code does (src/common/parse_time.c: time_str2secs, time_str2mins,
// secs2time_str), so that limits read from slurm.conf, job traces and the
// command line mean in fairsim exactly what they mean to slurmctld.
//
// Accepted forms (words case-insensitive):
//
//	M          minutes
//	M:S        minutes:seconds
//	H:M:S      hours:minutes:seconds
//	D-H        days-hours
//	D-H:M      days-hours:minutes
//	D-H:M:S    days-hours:minutes:seconds
//	INFINITE, UNLIMITED, -1   no limit (Infinite)
//
// Fields are not range-checked, as in Slurm: "1:99:99" is 1 h + 99 min + 99 s.
package slurmtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Infinite is the value returned for INFINITE, UNLIMITED and -1. It is
// negative so it can never be mistaken for a real duration.
const Infinite int64 = -1

// MaxSeconds is the largest duration accepted (about 68 years). Slurm
// computes time strings in a C int and rounds them up to minutes in that
// int too; anything larger overflows there, so it is rejected here instead
// of being given a meaning Slurm never had. It is a whole number of minutes,
// so every accepted value also formats and re-parses as minutes.
const MaxSeconds int64 = math.MaxInt32 / 60 * 60

// Error describes a time string that Slurm would reject (time_str2secs
// returns NO_VAL for it). It says what is wrong rather than just "invalid".
type Error struct {
	Input  string // the string as given
	Reason string // what is wrong with it
}

// Error names the input and what is wrong with it.
func (e *Error) Error() string {
	return fmt.Sprintf("invalid Slurm time %q: %s", e.Input, e.Reason)
}

func bad(s, format string, args ...any) error {
	return &Error{Input: s, Reason: fmt.Sprintf(format, args...)}
}

// isInfinite reports whether s is one of Slurm's spellings of "no limit".
func isInfinite(s string) bool {
	return s == "-1" || strings.EqualFold(s, "INFINITE") || strings.EqualFold(s, "UNLIMITED")
}

// ParseSeconds converts a Slurm time string to seconds, or Infinite.
//
// Validation follows Slurm's _is_valid_timespec: only digits, '-' and ':';
// at most one '-' and two ':'; no '-' after a ':'; every field of the form
// present. Slurm's checker lets two strings through that this function
// rejects on purpose: "D-" (Slurm reads "1-" as one day) and "-D" (Slurm's
// sscanf reads "-5" as minus five days). Both are almost certainly typos, and
// a negative limit has no meaning.
func ParseSeconds(s string) (int64, error) {
	if s == "" {
		return 0, bad(s, "empty string")
	}
	if isInfinite(s) {
		return Infinite, nil
	}
	dashes, colons := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '-':
			if colons > 0 {
				return 0, bad(s, "'-' after ':' (days must come first, as in D-HH:MM:SS)")
			}
			dashes++
			if dashes > 1 {
				return 0, bad(s, "more than one '-'")
			}
		case c == ':':
			colons++
			if colons > 2 {
				return 0, bad(s, "more than two ':'")
			}
		default:
			return 0, bad(s, "unexpected character %q at offset %d (only digits, '-' and ':' are allowed)", c, i)
		}
	}

	var days string
	rest := s
	if i := strings.IndexByte(s, '-'); i >= 0 {
		days, rest = s[:i], s[i+1:]
		if days == "" {
			return 0, bad(s, "missing days before '-'")
		}
	}
	fields := strings.Split(rest, ":")
	for i, f := range fields {
		if f == "" {
			return 0, bad(s, "empty field %d of %q", i+1, formName(dashes > 0, len(fields)))
		}
	}

	var d, h, m, sec int64
	var err error
	num := func(f string) int64 {
		if err != nil {
			return 0
		}
		// More than 10 digits cannot fit Slurm's int; stop before
		// overflowing int64 too.
		if len(strings.TrimLeft(f, "0")) > 10 {
			err = bad(s, "field %q is too large", f)
			return 0
		}
		v, e := strconv.ParseInt(f, 10, 64)
		if e != nil {
			err = bad(s, "field %q is not a number", f)
		}
		return v
	}
	if dashes > 0 {
		d = num(days)
		h = num(fields[0])
		if len(fields) > 1 {
			m = num(fields[1])
		}
		if len(fields) > 2 {
			sec = num(fields[2])
		}
	} else {
		switch len(fields) {
		case 1: // M
			m = num(fields[0])
		case 2: // M:S
			m, sec = num(fields[0]), num(fields[1])
		case 3: // H:M:S
			h, m, sec = num(fields[0]), num(fields[1]), num(fields[2])
		}
	}
	if err != nil {
		return 0, err
	}
	total := d*86400 + h*3600 + m*60 + sec
	if total > MaxSeconds {
		return 0, bad(s, "%d seconds exceeds Slurm's limit of %d (about 68 years)", total, MaxSeconds)
	}
	return total, nil
}

// formName names the form a string was read as, for error messages.
func formName(hasDays bool, fields int) string {
	switch {
	case hasDays && fields == 1:
		return "D-H"
	case hasDays && fields == 2:
		return "D-H:M"
	case hasDays:
		return "D-H:M:S"
	case fields == 1:
		return "M"
	case fields == 2:
		return "M:S"
	default:
		return "H:M:S"
	}
}

// ParseMinutes converts a Slurm time string to whole minutes, rounding any
// leftover seconds up as time_str2mins does ("1:30" is 2 minutes).
// Infinite passes through. slurm.conf limits (MaxTime, DefaultTime, the
// Priority* periods) are all read this way.
func ParseMinutes(s string) (int64, error) {
	secs, err := ParseSeconds(s)
	if err != nil || secs == Infinite {
		return secs, err
	}
	return (secs + 59) / 60, nil
}

// Format renders seconds as Slurm displays them (secs2time_str):
// "D-HH:MM:SS", "HH:MM:SS" when there are no whole days, "UNLIMITED" for
// Infinite, and "INVALID" for any other negative value. Every output other
// than INVALID parses back to the same number of seconds.
func Format(secs int64) string {
	if secs == Infinite {
		return "UNLIMITED"
	}
	if secs < 0 {
		return "INVALID"
	}
	days := secs / 86400
	h := secs / 3600 % 24
	m := secs / 60 % 60
	s := secs % 60
	if days > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, s)
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}

// FormatMinutes renders a minute count like Slurm's mins2time_str, so
// partition limits print as "D-HH:MM:00" or "UNLIMITED".
func FormatMinutes(mins int64) string {
	if mins == Infinite {
		return "UNLIMITED"
	}
	if mins < 0 || mins > math.MaxInt64/60 {
		return "INVALID"
	}
	return Format(mins * 60)
}

// ParseDateOrDuration reads a CLI point in simulated time (for example
// --at). A Slurm time string is an offset from the trace epoch ("2-0" is two
// days after it); a date YYYY-MM-DD[THH:MM[:SS]] is a wall-clock time in loc
// (UTC if loc is nil). Both are returned as seconds since epoch, which is a
// Unix time. A date before the epoch gives a negative result; whether that
// is acceptable is the caller's decision.
func ParseDateOrDuration(s string, epoch int64, loc *time.Location) (int64, error) {
	if loc == nil {
		loc = time.UTC
	}
	if looksLikeDate(s) {
		t, err := parseDate(s, loc)
		if err != nil {
			return 0, err
		}
		return t.Unix() - epoch, nil
	}
	secs, err := ParseSeconds(s)
	if err != nil {
		return 0, err
	}
	if secs == Infinite {
		return 0, bad(s, "UNLIMITED is not a point in time")
	}
	return secs, nil
}

// looksLikeDate reports whether s starts like YYYY-MM-DD. A Slurm time string
// never has two '-', so the forms cannot be confused.
func looksLikeDate(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseDate accepts exactly YYYY-MM-DD, YYYY-MM-DDTHH:MM and
// YYYY-MM-DDTHH:MM:SS (Slurm's own date syntax for --begin) and rejects
// impossible calendar dates instead of normalising them.
func parseDate(s string, loc *time.Location) (time.Time, error) {
	var layout string
	switch len(s) {
	case len("2006-01-02"):
		layout = "2006-01-02"
	case len("2006-01-02T15:04"):
		layout = "2006-01-02T15:04"
	case len("2006-01-02T15:04:05"):
		layout = "2006-01-02T15:04:05"
	default:
		return time.Time{}, bad(s, "a date must be YYYY-MM-DD, YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS")
	}
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return time.Time{}, bad(s, "not a valid date: %v", err)
	}
	return t, nil
}
