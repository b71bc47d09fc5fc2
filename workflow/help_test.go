package workflow

import (
	"regexp"
	"testing"

	"fairsim/slurmtime"
)

// TestHelpNamesWhatTheCodeWrites checks the command descriptions kept here
// against the code beside them: every column sweep.csv gets is listed, in
// the order it is written, and the files and keys regress reads are the
// ones named.
func TestHelpNamesWhatTheCodeWrites(t *testing.T) {
	for _, tc := range []struct {
		name, help string
		after      string   // where the listing starts
		words      []string // whole words expected after it, in this order
	}{
		{"sweep overall columns", SweepHelp, "sweep.csv columns:", OverallNames},
		{"sweep account columns", SweepHelp, "as METRIC[account]:", AccountNames},
		{"regress golden files", RegressHelp, "results/golden/NAME/",
			[]string{GoldenMetrics, GoldenHash}},
		{"regress hash tolerance", RegressHelp, "Tolerances", []string{HashKey + ": 1"}},
		{"merge files", MergeHelp, "Reads", []string{"sweep.yaml", "sweep.csv", "sweep.csv", "sweep.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := regexp.MustCompile(regexp.QuoteMeta(tc.after)).FindStringIndex(tc.help)
			if start == nil {
				t.Fatalf("help does not contain %q", tc.after)
			}
			rest := tc.help[start[1]:]
			for _, w := range tc.words {
				loc := regexp.MustCompile(`(^|\W)` + regexp.QuoteMeta(w) + `(\W|$)`).FindStringIndex(rest)
				if loc == nil {
					t.Fatalf("after %q: %q missing or out of order", tc.after, w)
				}
				rest = rest[loc[1]:]
			}
		})
	}
}

// TestSweepHelpStarvedDefault checks the starvation threshold the sweep
// help states is the one the metrics use by default.
func TestSweepHelpStarvedDefault(t *testing.T) {
	m := regexp.MustCompile(`--starved-after \(default (\S+), 24 hours\)`).FindStringSubmatch(SweepHelp)
	if m == nil {
		t.Fatal("sweep help does not state --starved-after's default")
	}
	if got, err := slurmtime.ParseSeconds(m[1]); err != nil || got != DefaultStarvedAfter {
		t.Errorf("help's default %q is %d s (%v), want DefaultStarvedAfter = %d s", m[1], got, err, DefaultStarvedAfter)
	}
}
