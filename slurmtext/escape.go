package slurmtext

import "strings"

// Unescape removes every backslash and keeps the character after it (a
// trailing lone backslash is dropped), as Slurm's parse_config.c
// _strip_escapes does for slurm.conf and sacctmgr dump lines.
func Unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
