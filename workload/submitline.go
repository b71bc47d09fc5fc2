package workload

// SubmitRequest is what a job's submit command line (sacct's SubmitLine)
// asked for, where sacct's own columns do not carry it.
type SubmitRequest struct {
	Command     string // the command word: "sbatch", "salloc" or "srun" (a path to it is reduced to its base name)
	MinNodes    int    // -N/--nodes min; Unset when not given
	MaxNodes    int    // -N/--nodes ...-max; Unset when not given as a range
	Exclusive   bool   // --exclusive (any form but --exclusive=no... is not a Slurm spelling; see ParseSubmitLine)
	Dependency  string // -d/--dependency value as given; "" when none
	Begin       string // -b/--begin value as given; "" when none
	Reservation string // --reservation value; "" when none
	NodeList    string // -w/--nodelist value; "" when none
	Exclude     string // -x/--exclude value; "" when none
	Script      string // the first word after the options (script or command); "" when none
}

// DependencyKind is one of the --dependency types sbatch accepts.
type DependencyKind string

// Dependency is one term of a --dependency list: a type and the jobs it
// refers to (none for singleton).
type Dependency struct {
	Kind DependencyKind
	Jobs []int64
}
