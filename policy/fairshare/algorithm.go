package fairshare

import "fmt"

// Algorithm selects how fair-share factors are computed from the tree and
// its usage.
type Algorithm int

// The algorithms. FairTree is Slurm's default since 19.05; Classic and
// DepthOblivious are selected by PriorityFlags; Slurm20 is fairsim's
// reconstruction of the Slurm 2.0 formula (from that release's
// priority_multifactor documentation).
const (
	FairTree Algorithm = iota
	Classic
	DepthOblivious
	Slurm20
)

// algorithmNames is the one table of algorithm names: ParseAlgorithm reads
// it and String uses it in reverse.
var algorithmNames = map[string]Algorithm{
	"fairtree":        FairTree,
	"classic":         Classic,
	"depth-oblivious": DepthOblivious,
	"slurm20":         Slurm20,
}

// ParseAlgorithm maps a configuration name to an Algorithm.
func ParseAlgorithm(name string) (Algorithm, error) {
	if a, ok := algorithmNames[name]; ok {
		return a, nil
	}
	return 0, fmt.Errorf("unknown fair-share algorithm %q", name)
}

// String returns the name ParseAlgorithm accepts, read back from the same
// table.
func (a Algorithm) String() string {
	for name, v := range algorithmNames {
		if v == a {
			return name
		}
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Valid reports whether a is one of the defined algorithms.
func (a Algorithm) Valid() bool { return a >= FairTree && a <= Slurm20 }

// FromPriorityFlags maps slurm.conf PriorityFlags to an algorithm the way
// read_config.c does: DEPTH_OBLIVIOUS wins and clears FAIR_TREE,
// NO_FAIR_TREE selects classic, and Fair Tree is the default.
func FromPriorityFlags(noFairTree, depthOblivious bool) Algorithm {
	switch {
	case depthOblivious:
		return DepthOblivious
	case noFairTree:
		return Classic
	}
	return FairTree
}
