package slurmconf

import (
	"fmt"
	"slices"
	"strings"
)

// ignoredWarningKey is the Key of the one warning that lists
// Config.Ignored.
const ignoredWarningKey = "not simulated"

// maxIgnoredListed is how many ignored keys the warning names; a file of
// thousands of them made one warning line of megabytes.
const maxIgnoredListed = 20

// listIgnored fills Config.Ignored from what the parser met and adds the
// one warning that lists it, so a reader sees at a glance what the
// simulation leaves out without a warning per line.
func (p *parser) listIgnored() {
	if len(p.ignored) == 0 {
		return
	}
	out := make([]string, 0, len(p.ignored))
	for k, pos := range p.ignored {
		out = append(out, k+" ("+pos.String()+")")
	}
	// Case-insensitive order reads naturally (SlurmctldPort before
	// SlurmUser); the byte order breaks ties so the result is total.
	slices.SortFunc(out, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	p.cfg.Ignored = out
	shown := out
	more := ""
	if len(out) > maxIgnoredListed {
		// Config.Ignored (scenario.resolved.yaml's ignored) keeps them all.
		shown = out[:maxIgnoredListed]
		more = fmt.Sprintf(", … and %d more", len(out)-maxIgnoredListed)
	}
	p.cfg.Warnings = append(p.cfg.Warnings, Warning{
		Pos: Pos{File: p.cfg.Source.File},
		Key: ignoredWarningKey,
		Msg: "fairsim ignores " + strings.Join(shown, ", ") + more,
	})
}
