package slurmtext

import "strings"

// SplitList splits a comma list such as "a, b,,c" into its items, trimmed
// of white space, with empty items (doubled or trailing commas) dropped,
// as users type lists on the command line and in QOS and flag columns.
func SplitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
