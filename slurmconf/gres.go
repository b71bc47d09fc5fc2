package slurmconf

import (
	"fmt"
	"strconv"
	"strings"

	"fairsim/slurmtext"
)

// GresItem is one item of a node's Gres= value: NAME[:TYPE][:no_consume]:COUNT,
// optionally with a socket binding "(S:0-1)" that fairsim does not model.
type GresItem struct {
	Name, Type string // lower-cased, as Slurm compares GRES names
	Count      uint64
	// NoConsume GRES are never allocated away (gres.conf/slurm.conf
	// no_consume): any number of jobs may use them.
	NoConsume bool
}

// ParseGres reads a node's Gres= value as slurmctld does (gres.c
// _get_gres_cnt, gres_node_config_load): comma-separated items NAME, NAME:COUNT,
// NAME:TYPE:COUNT, with an optional no_consume word before the count, a
// count suffix K, M, G, T or P (powers of 1024) and a "(S:...)" socket
// binding. A bare NAME counts one.
func ParseGres(s string) ([]GresItem, error) {
	var out []GresItem
	if strings.TrimSpace(s) == "" || strings.EqualFold(strings.TrimSpace(s), "(null)") {
		return nil, nil
	}
	for _, raw := range splitGres(s) {
		item := strings.TrimSpace(raw)
		if i := strings.IndexByte(item, '('); i >= 0 {
			if !strings.HasSuffix(item, ")") {
				return nil, fmt.Errorf("Gres item %q: unclosed '('", raw)
			}
			item = item[:i]
		}
		if item == "" {
			return nil, fmt.Errorf("Gres item %q is empty", raw)
		}
		f := strings.Split(item, ":")
		g := GresItem{Name: strings.ToLower(f[0]), Count: 1}
		if !slurmtext.Word(g.Name) {
			return nil, fmt.Errorf("Gres item %q: name %q must be letters, digits, '_', '-' or '.'", raw, f[0])
		}
		rest := f[1:]
		if n := len(rest); n > 0 {
			if c, ok := gresCount(rest[n-1]); ok {
				g.Count = c
				rest = rest[:n-1]
			}
		}
		for _, w := range rest {
			switch lw := strings.ToLower(w); {
			case len(lw) > 1 && (lw[0] == '-' || lw[0] == '+') && lw[1] >= '0' && lw[1] <= '9':
				// A signed count, not a type named "-2".
				return nil, fmt.Errorf("Gres item %q: count %q must be a whole number, at least 0", raw, w)
			case lw == "no_consume":
				g.NoConsume = true
			case g.Type == "" && slurmtext.Word(lw):
				g.Type = lw
			default:
				return nil, fmt.Errorf("Gres item %q: %q is neither a type, no_consume nor a count", raw, w)
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// splitGres splits on commas outside parentheses ("gpu:2(S:0,1)" is one item).
func splitGres(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// gresCount reads a count with an optional binary suffix; false when s is
// not a count (then it is a type name).
func gresCount(s string) (uint64, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	mult := uint64(1)
	switch s[len(s)-1] {
	case 'k', 'K':
		mult = 1 << 10
	case 'm', 'M':
		mult = 1 << 20
	case 'g', 'G':
		mult = 1 << 30
	case 't', 'T':
		mult = 1 << 40
	case 'p', 'P':
		mult = 1 << 50
	}
	num := s
	if mult != 1 {
		num = s[:len(s)-1]
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n > (1<<63)/mult {
		return 0, false
	}
	return n * mult, true
}
