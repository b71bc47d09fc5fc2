package policy

import "strings"

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
