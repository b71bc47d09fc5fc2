package slurmtext

// Word reports whether s is a name as slurm.conf writes partition and
// GRES names: letters, digits, '_', '-' and '.', at least one. Readers use
// it to tell a name from free text (a submit line's -p value, a Gres=
// word) before taking it as one.
func Word(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
