package workflow

import (
	"runtime/debug"
	"strings"
)

// Version is fairsim's version as `fairsim --version` prints it: the
// module version Go recorded at build time (a tag under `go install
// fairsim/cmd/fairsim@vX`), else "devel", followed by the commit and
// whether the tree had uncommitted changes, so a result can be traced to
// the code that made it.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel (no build information)"
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, when string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	var b strings.Builder
	b.WriteString(v)
	if rev != "" {
		b.WriteString(" commit " + rev[:min(12, len(rev))])
		if dirty {
			b.WriteString(" (modified)")
		}
		if when != "" {
			b.WriteString(" of " + when)
		}
	}
	b.WriteString(", " + bi.GoVersion)
	return b.String()
}
