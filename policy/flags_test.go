package policy

import (
	"strings"
	"testing"
)

func TestParsePriorityFlags(t *testing.T) {
	tests := []struct {
		in   string
		want PriorityFlags
	}{
		// Absent option: FAIR_TREE only.
		{"", FlagFairTree},
		{"  ", FlagFairTree},
		{"ACCRUE_ALWAYS", FlagFairTree | FlagAccrueAlways},
		{"accrue_always", FlagFairTree | FlagAccrueAlways},
		{"Calculate_Running", FlagFairTree | FlagCalculateRunning},
		{"INCR_ONLY", FlagFairTree | FlagIncrOnly},
		{"SMALL_RELATIVE_TO_TIME", FlagFairTree | FlagSmallRelativeToTime},
		// NO_FAIR_TREE and DEPTH_OBLIVIOUS both clear FAIR_TREE.
		{"NO_FAIR_TREE", 0},
		{"DEPTH_OBLIVIOUS", FlagDepthOblivious},
		{"DEPTH_OBLIVIOUS,NO_FAIR_TREE", FlagDepthOblivious},
		// FAIR_TREE: Slurm 14.11-18.08 read it as "turn Fair Tree on"
		// (read_config.c: else if (xstrcasestr(temp_str, "FAIR_TREE"))
		// conf->priority_flags |= PRIORITY_FLAGS_FAIR_TREE); since 19.05
		// Fair Tree is the default and only NO_FAIR_TREE is looked for.
		// Either way it means Fair Tree.
		{"FAIR_TREE", FlagFairTree},
		{"fair_tree", FlagFairTree},
		{"FAIR_TREE,MAX_TRES", FlagFairTree | FlagMaxTRES},
		// 19.05+: NO_FAIR_TREE found anywhere in the value wins, in either order.
		{"FAIR_TREE,NO_FAIR_TREE", 0},
		{"NO_FAIR_TREE,FAIR_TREE", 0},
		{"FAIR_TREE,DEPTH_OBLIVIOUS", FlagDepthOblivious},
		{"MAX_TRES", FlagFairTree | FlagMaxTRES},
		{"MAX_TRES_GRES", FlagFairTree | FlagMaxTRESGRES},
		// Slurm tests MAX_TRES_GRES first and sets only one of the two.
		{"MAX_TRES,MAX_TRES_GRES", FlagFairTree | FlagMaxTRESGRES},
		{"MAX_TRES_GRES,MAX_TRES", FlagFairTree | FlagMaxTRESGRES},
		{"NO_NORMAL_ASSOC", FlagFairTree | FlagNoNormalAssoc},
		{"NO_NORMAL_PART", FlagFairTree | FlagNoNormalPart},
		{"NO_NORMAL_QOS", FlagFairTree | FlagNoNormalQOS},
		{"NO_NORMAL_TRES", FlagFairTree | FlagNoNormalTRES},
		{"NO_NORMAL_ALL", FlagFairTree | FlagNoNormalAssoc | FlagNoNormalPart | FlagNoNormalQOS | FlagNoNormalTRES},
		{"NO_NORMAL_ALL,NO_NORMAL_QOS", FlagFairTree | FlagNoNormalAll},
		// Spaces, empty items and repeats are tolerated.
		{" INCR_ONLY , ,ACCRUE_ALWAYS,INCR_ONLY,", FlagFairTree | FlagIncrOnly | FlagAccrueAlways},
		{"ACCRUE_ALWAYS,CALCULATE_RUNNING,DEPTH_OBLIVIOUS,INCR_ONLY,MAX_TRES,NO_NORMAL_ALL,SMALL_RELATIVE_TO_TIME",
			FlagAccrueAlways | FlagCalculateRunning | FlagDepthOblivious | FlagIncrOnly | FlagMaxTRES | FlagNoNormalAll | FlagSmallRelativeToTime},
	}
	for _, tt := range tests {
		got, err := ParsePriorityFlags(tt.in)
		if err != nil {
			t.Errorf("ParsePriorityFlags(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParsePriorityFlags(%q) = %#x (%s), want %#x (%s)", tt.in, uint32(got), got, uint32(tt.want), tt.want)
		}
		// Round trip through String.
		back, err := ParsePriorityFlags(got.String())
		if err != nil || back != got {
			t.Errorf("round trip %q -> %q -> %#x, %v", tt.in, got.String(), uint32(back), err)
		}
	}
}

func TestParsePriorityFlagsInvalid(t *testing.T) {
	tests := []struct{ in, bad string }{
		{"FOO", "FOO"},
		{"INCR_ONLY,MAX_TRESS", "MAX_TRESS"},
		// Near misses of FAIR_TREE are still typos.
		{"FAIR_TREES", "FAIR_TREES"},
		{"FAIRTREE", "FAIRTREE"},
		{"ACCRUE ALWAYS", "ACCRUE ALWAYS"},
		{"INCR_ONLY;MAX_TRES", "INCR_ONLY;MAX_TRES"},
	}
	for _, tt := range tests {
		_, err := ParsePriorityFlags(tt.in)
		if err == nil {
			t.Errorf("ParsePriorityFlags(%q): no error", tt.in)
			continue
		}
		if !strings.Contains(err.Error(), `"`+tt.bad+`"`) {
			t.Errorf("ParsePriorityFlags(%q) error %q does not name %q", tt.in, err, tt.bad)
		}
	}
}

func TestPriorityFlagsString(t *testing.T) {
	tests := []struct {
		f    PriorityFlags
		want string
	}{
		{DefaultPriorityFlags, ""},
		{0, "NO_FAIR_TREE"},
		{FlagDepthOblivious, "DEPTH_OBLIVIOUS"},
		{FlagFairTree | FlagNoNormalAll, "NO_NORMAL_ALL"},
		// Slurm's own printer would say NO_NORMAL_ALL here.
		{FlagFairTree | FlagNoNormalQOS, "NO_NORMAL_QOS"},
		{FlagFairTree | FlagMaxTRESGRES | FlagIncrOnly, "INCR_ONLY,MAX_TRES_GRES"},
	}
	for _, tt := range tests {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("%#x.String() = %q, want %q", uint32(tt.f), got, tt.want)
		}
	}
	if !(FlagFairTree | FlagIncrOnly).Has(FlagIncrOnly) || FlagFairTree.Has(FlagIncrOnly) {
		t.Error("Has is wrong")
	}
}
