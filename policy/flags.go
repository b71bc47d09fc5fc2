package policy

import (
	"fmt"
	"strings"

	"fairsim/slurmtext"
)

// PriorityFlags is slurm.conf's PriorityFlags as a bit set. The bit values
// follow Slurm's PRIORITY_FLAGS_* so logs can be compared side by side.
type PriorityFlags uint32

// PriorityFlags bits. FlagFairTree has no keyword of its own: it is set
// unless NO_FAIR_TREE or DEPTH_OBLIVIOUS is given.
const (
	FlagAccrueAlways        PriorityFlags = 1 << 0  // ACCRUE_ALWAYS
	FlagMaxTRES             PriorityFlags = 1 << 1  // MAX_TRES
	FlagSmallRelativeToTime PriorityFlags = 1 << 2  // SMALL_RELATIVE_TO_TIME
	FlagDepthOblivious      PriorityFlags = 1 << 3  // DEPTH_OBLIVIOUS
	FlagCalculateRunning    PriorityFlags = 1 << 4  // CALCULATE_RUNNING
	FlagFairTree            PriorityFlags = 1 << 5  // default; cleared by NO_FAIR_TREE / DEPTH_OBLIVIOUS
	FlagIncrOnly            PriorityFlags = 1 << 6  // INCR_ONLY
	FlagNoNormalAssoc       PriorityFlags = 1 << 7  // NO_NORMAL_ASSOC
	FlagNoNormalPart        PriorityFlags = 1 << 8  // NO_NORMAL_PART
	FlagNoNormalQOS         PriorityFlags = 1 << 9  // NO_NORMAL_QOS
	FlagNoNormalTRES        PriorityFlags = 1 << 10 // NO_NORMAL_TRES
	FlagMaxTRESGRES         PriorityFlags = 1 << 11 // MAX_TRES_GRES
)

// FlagNoNormalAll is what the NO_NORMAL_ALL keyword sets.
const FlagNoNormalAll = FlagNoNormalAssoc | FlagNoNormalPart | FlagNoNormalQOS | FlagNoNormalTRES

// DefaultPriorityFlags is the value when PriorityFlags is absent.
const DefaultPriorityFlags = FlagFairTree

const (
	flagKnown           = FlagAccrueAlways | FlagMaxTRES | FlagSmallRelativeToTime | FlagDepthOblivious | FlagCalculateRunning | FlagFairTree | FlagIncrOnly | FlagNoNormalAll | FlagMaxTRESGRES
	flagClearsFairTree  = FlagDepthOblivious
	noFairTreeKeyword   = "NO_FAIR_TREE"
	fairTreeKeyword     = "FAIR_TREE"
	priorityFlagsOption = "PriorityFlags"
)

// flagKeywords lists the keywords in the order String prints them. The
// order also puts MAX_TRES_GRES before MAX_TRES, as Slurm's parser tests it.
var flagKeywords = []keyword[PriorityFlags]{
	{"ACCRUE_ALWAYS", FlagAccrueAlways},
	{"SMALL_RELATIVE_TO_TIME", FlagSmallRelativeToTime},
	{"CALCULATE_RUNNING", FlagCalculateRunning},
	{"DEPTH_OBLIVIOUS", FlagDepthOblivious},
	{"INCR_ONLY", FlagIncrOnly},
	{"MAX_TRES_GRES", FlagMaxTRESGRES},
	{"MAX_TRES", FlagMaxTRES},
	{"NO_NORMAL_ALL", FlagNoNormalAll},
	{"NO_NORMAL_ASSOC", FlagNoNormalAssoc},
	{"NO_NORMAL_PART", FlagNoNormalPart},
	{"NO_NORMAL_QOS", FlagNoNormalQOS},
	{"NO_NORMAL_TRES", FlagNoNormalTRES},
}

// ParsePriorityFlags parses a PriorityFlags value: a comma-separated,
// case-insensitive keyword list. Like Slurm it starts from FAIR_TREE, which
// NO_FAIR_TREE and DEPTH_OBLIVIOUS clear, so "" (option absent) yields
// DefaultPriorityFlags. MAX_TRES_GRES wins over MAX_TRES when both are given,
// because Slurm tests for it first and sets only one of the two.
//
// FAIR_TREE is accepted and means Fair Tree in every Slurm version that
// could have written it: 14.11 to 18.08 needed it to turn Fair Tree on
// (read_config.c, commit d0e9659491), and from 19.05 (commit 2194edf389)
// Fair Tree is the default and the keyword has no effect, since the parser
// only looks for NO_FAIR_TREE. So it sets nothing here, and NO_FAIR_TREE
// or DEPTH_OBLIVIOUS anywhere in the list still clears Fair Tree, as in
// 19.05 and later.
//
// Slurm matches keywords as substrings and silently ignores anything else;
// fairsim rejects unknown keywords instead, so a typo cannot go unnoticed.
// Empty items (doubled or trailing commas) are skipped.
func ParsePriorityFlags(s string) (PriorityFlags, error) {
	f := DefaultPriorityFlags
	noFairTree := false
	for _, item := range slurmtext.SplitList(s) {
		if strings.EqualFold(item, noFairTreeKeyword) {
			noFairTree = true
			continue
		}
		if strings.EqualFold(item, fairTreeKeyword) {
			continue
		}
		bits, found := lookupKeyword(flagKeywords, item)
		f |= bits
		if !found {
			return 0, fmt.Errorf("%s: unknown flag %q", priorityFlagsOption, item)
		}
	}
	if noFairTree || f&flagClearsFairTree != 0 {
		f &^= FlagFairTree
	}
	if f&FlagMaxTRESGRES != 0 {
		f &^= FlagMaxTRES
	}
	return f, nil
}

// String renders f as a PriorityFlags value that ParsePriorityFlags maps
// back to f (for every value the parser can produce). FAIR_TREE is implied,
// so DefaultPriorityFlags prints as "". Unlike Slurm's own printer, which
// prints NO_NORMAL_ALL when any one NO_NORMAL_* bit is set, this prints
// NO_NORMAL_ALL only when all four are set.
func (f PriorityFlags) String() string {
	var parts []string
	for _, k := range flagKeywords {
		if k.bit == FlagNoNormalAll {
			if f&FlagNoNormalAll == FlagNoNormalAll {
				parts = append(parts, k.name)
			}
			continue
		}
		if k.bit&FlagNoNormalAll != 0 && f&FlagNoNormalAll == FlagNoNormalAll {
			continue
		}
		if f&k.bit != 0 {
			parts = append(parts, k.name)
		}
	}
	if f&FlagFairTree == 0 && f&FlagDepthOblivious == 0 {
		parts = append(parts, noFairTreeKeyword)
	}
	if u := f &^ flagKnown; u != 0 {
		parts = append(parts, fmt.Sprintf("0x%x", uint32(u)))
	}
	return strings.Join(parts, ",")
}

// Has reports whether every bit of g is set in f.
func (f PriorityFlags) Has(g PriorityFlags) bool { return f&g == g }
