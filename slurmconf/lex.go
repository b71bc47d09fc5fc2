package slurmconf

import (
	"strings"

	"fairsim/slurmtext"
)

// This file reproduces the line syntax of Slurm's configuration parser
// (src/common/parse_config.c): how physical lines become logical lines and
// how a logical line splits into Key=Value pairs.

// logicalLine is one line after comments, continuations and escapes have
// been handled.
type logicalLine struct {
	line int    // first physical line, 1-based
	text string // escapes already removed
}

// pair is one Key=Value found on a line.
type pair struct {
	key   string // as written
	op    byte   // 0, or one of + - * / written before '='
	value string // quotes removed
	// openQuote marks an unquoted value that starts with '"' because its
	// closing quote is missing. Slurm keeps such a value verbatim; fairsim
	// rejects it, since the quote is almost surely a typo and the value
	// could not be written back on a line with other quoted values.
	openQuote bool
}

// isSpace matches C isspace in the "C" locale.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// splitLines applies, in Slurm's order, to each physical line: cut at the
// first '#' preceded by an even number of backslashes; join with the next
// line when it ends in an odd number of backslashes (trailing white space
// after them allowed); then, on the joined line, drop each escaping
// backslash so that "\#" is '#' and "\\" is '\'.
func splitLines(src string) []logicalLine {
	var out []logicalLine
	var buf strings.Builder
	first := 0
	phys := strings.Split(src, "\n")
	for i, p := range phys {
		if i == len(phys)-1 && p == "" {
			break // the newline that ends the file
		}
		if buf.Len() == 0 {
			first = i + 1
		}
		p = stripComment(p)
		if cut, cont := continuation(p); cont {
			buf.WriteString(p[:cut])
			if i < len(phys)-1 {
				continue
			}
		} else {
			buf.WriteString(p)
		}
		out = append(out, logicalLine{line: first, text: slurmtext.Unescape(buf.String())})
		buf.Reset()
	}
	return out
}

// stripComment cuts a line at its first unescaped '#'.
func stripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if bs%2 == 0 {
				return s[:i]
			}
			bs = 0
		case '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// continuation reports whether s ends in an odd run of backslashes
// (ignoring white space after the run) and, if so, where to cut it: the
// final backslash and what follows it go.
func continuation(s string) (cut int, ok bool) {
	i := len(s) - 1
	for i >= 0 && isSpace(s[i]) {
		i--
	}
	end := i
	for i >= 0 && s[i] == '\\' {
		i--
	}
	if n := end - i; n%2 == 1 {
		return end, true
	}
	return 0, false
}

// isBlank reports whether s holds only white space.
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// nextPair reads one Key=Value from the start of s (leading white space
// allowed) and returns the rest of s. It follows Slurm's pattern
// `\s*([[:alnum:]_.]+)\s*([-*+/]?)=\s*("([^"]*)"|(\S+))(\s|$)`: spaces may
// surround '=', a value is either "quoted" (and may then hold spaces) or a
// run of non-space characters, and a value is required.
func nextPair(s string) (p pair, rest string, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	k := i
	for i < len(s) && isKeyChar(s[i]) {
		i++
	}
	if i == k {
		return pair{}, s, false
	}
	p.key = s[k:i]
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && strings.IndexByte("-*+/", s[i]) >= 0 {
		p.op = s[i]
		i++
	}
	if i >= len(s) || s[i] != '=' {
		return pair{}, s, false
	}
	i++
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) {
		return pair{}, s, false
	}
	if s[i] == '"' {
		if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
			end := i + 1 + j
			if end+1 == len(s) || isSpace(s[end+1]) {
				p.value = s[i+1 : end]
				return p, s[end+1:], true
			}
		}
	}
	v := i
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	p.value = s[v:i]
	p.openQuote = p.value[0] == '"'
	return p, s[i:], true
}

// quoteValue renders v so that splitLines and nextPair read it back as
// exactly v wherever it stands on a line: backslashes and '#' are escaped,
// and a value that is empty or holds white space is quoted. It reports
// false for the values the syntax cannot express on every line (white space
// together with '"', or a leading '"'); Parse never yields one.
func quoteValue(v string) (string, bool) {
	var b strings.Builder
	hasSpace, hasQuote := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' || c == '#':
			b.WriteByte('\\')
		case isSpace(c):
			hasSpace = true
		case c == '"':
			hasQuote = true
		}
		b.WriteByte(c)
	}
	if v == "" || hasSpace {
		if hasQuote {
			return "", false
		}
		return `"` + b.String() + `"`, true
	}
	if v[0] == '"' {
		return "", false // would pair with a later quote on the line
	}
	return b.String(), true
}
