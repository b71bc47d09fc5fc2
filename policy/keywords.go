package policy

import (
	"fmt"
	"strings"

	"fairsim/slurmtext"
)

// keyword names one bit (or set of bits) of a flag word, as Slurm spells
// it in slurm.conf or sacctmgr.
type keyword[T ~uint16 | ~uint32] struct {
	name string
	bit  T
}

// lookupKeyword finds item in table, case-insensitively, as Slurm reads
// its flag lists.
func lookupKeyword[T ~uint16 | ~uint32](table []keyword[T], item string) (T, bool) {
	for _, k := range table {
		if strings.EqualFold(item, k.name) {
			return k.bit, true
		}
	}
	return 0, false
}

// parseKeywords ORs together the bits of a comma list of table's names,
// so every flag column reads the same way; what names the kind of item in
// the error for an unknown one.
func parseKeywords[T ~uint16 | ~uint32](table []keyword[T], s, what string) (T, error) {
	var bits T
	for _, item := range slurmtext.SplitList(s) {
		bit, found := lookupKeyword(table, item)
		if !found {
			return 0, fmt.Errorf("unknown %s %q", what, item)
		}
		bits |= bit
	}
	return bits, nil
}

// joinKeywords names the bits set in bits, comma-separated in table
// order, as sacctmgr prints flag columns.
func joinKeywords[T ~uint16 | ~uint32](table []keyword[T], bits T) string {
	var parts []string
	for _, k := range table {
		if bits&k.bit != 0 {
			parts = append(parts, k.name)
		}
	}
	return strings.Join(parts, ",")
}
