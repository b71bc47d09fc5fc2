package slurmtext

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxHosts bounds the expansion of one hostlist, like Slurm's own range cap
// (64K hosts): six times the largest cluster in existence, and it keeps a
// typo such as node[1-99999999] from exhausting memory.
const MaxHosts = 1 << 16

// maxDigits bounds the digits of one range bound (and so the zero padding),
// far beyond any real host name.
const maxDigits = 18

// Expand turns a Slurm hostlist expression into host names, in order, as
// src/common/hostlist.c does:
//
//	node[001-128]      node001 … node128 (the width of the low bound is kept)
//	n[1-3,7],gpu01     n1 n2 n3 n7 gpu01
//	r[1-2]n[01-02]     r1n01 r1n02 r2n01 r2n02 (several brackets multiply)
//	node[8-10]         node8 node9 node10
//
// Entries are separated by commas or white space outside brackets; empty
// entries are skipped, as Slurm does. Duplicates are kept: whether they are
// an error depends on where the list is used.
func Expand(expr string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	flush := func(end int) error {
		item := expr[start:end]
		start = end + 1
		if item == "" {
			return nil
		}
		hosts, err := expandOne(item, MaxHosts-len(out))
		if err != nil {
			return err
		}
		out = append(out, hosts...)
		return nil
	}
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; c {
		case '[':
			if depth > 0 {
				return nil, fmt.Errorf("hostlist %q: nested '[' at offset %d", expr, i)
			}
			depth++
		case ']':
			if depth == 0 {
				return nil, fmt.Errorf("hostlist %q: ']' without '[' at offset %d", expr, i)
			}
			depth--
		case ',', ' ', '\t', '\n', '\v', '\f', '\r':
			if depth == 0 {
				if err := flush(i); err != nil {
					return nil, err
				}
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("hostlist %q: '[' is never closed", expr)
	}
	if err := flush(len(expr)); err != nil {
		return nil, err
	}
	return out, nil
}

// expandOne expands a single entry (no top-level commas) into at most limit
// names.
func expandOne(item string, limit int) ([]string, error) {
	open := strings.IndexByte(item, '[')
	if open < 0 {
		if limit < 1 {
			return nil, fmt.Errorf("hostlist expands to more than %d hosts", MaxHosts)
		}
		return []string{item}, nil
	}
	close := strings.IndexByte(item[open:], ']') + open // brackets are balanced here
	prefix, body, rest := item[:open], item[open+1:close], item[close+1:]
	nums, err := expandRanges(item, body)
	if err != nil {
		return nil, err
	}
	tails, err := expandOne(rest, limit) // rest may hold further brackets
	if err != nil {
		return nil, err
	}
	if len(nums) > limit/len(tails) {
		return nil, fmt.Errorf("hostlist %q expands to more than %d hosts", item, MaxHosts)
	}
	out := make([]string, 0, len(nums)*len(tails))
	for _, n := range nums {
		for _, t := range tails {
			out = append(out, prefix+n+t)
		}
	}
	return out, nil
}

// expandRanges expands the inside of one bracket, "001-004,7", keeping the
// zero padding of each low bound.
func expandRanges(item, body string) ([]string, error) {
	if body == "" {
		return nil, fmt.Errorf("hostlist %q: empty brackets", item)
	}
	var out []string
	for _, r := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if lo == "" || (isRange && hi == "") {
			return nil, fmt.Errorf("hostlist %q: bad range %q", item, r)
		}
		width := len(lo)
		if width > maxDigits || len(hi) > maxDigits {
			return nil, fmt.Errorf("hostlist %q: number in %q has more than %d digits", item, r, maxDigits)
		}
		l, err := rangeNum(item, lo)
		if err != nil {
			return nil, err
		}
		h := l
		if isRange {
			if h, err = rangeNum(item, hi); err != nil {
				return nil, err
			}
		}
		if h < l {
			return nil, fmt.Errorf("hostlist %q: range %q runs backwards", item, r)
		}
		if h-l >= uint64(MaxHosts-len(out)) {
			return nil, fmt.Errorf("hostlist %q expands to more than %d hosts", item, MaxHosts)
		}
		for n := l; n <= h; n++ {
			out = append(out, fmt.Sprintf("%0*d", width, n))
		}
	}
	return out, nil
}

func rangeNum(item, s string) (uint64, error) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("hostlist %q: %q is not a number", item, s)
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("hostlist %q: %q is too large", item, s)
	}
	return n, nil
}
