// Package policy reproduces Slurm's priority/multifactor engine, its QOS
// definitions and TRES billing, so that fairsim orders jobs the way a real
// slurmctld would.
//
// The behaviour follows Slurm's code rather than its documentation where the
// two disagree; each
// exported function says which Slurm parameter it models and any place where
// this package knowingly differs.
//
// Conventions shared by the whole package:
//   - Times are Unix seconds (int64); 0 means "not set", as in Slurm.
//   - Time limits are minutes (uint32) with Slurm's NoVal and Infinite.
//   - Memory is counted in MB, Slurm's base unit for the mem TRES.
//   - Users, accounts, QOS and jobs are small dense integers so hot paths
//     index slices instead of hashing.
//   - Nothing here panics on bad input: parsers return errors, arithmetic
//     guards its divisions, and NaN never reaches an integer conversion.
package policy

// NoVal and Infinite are Slurm's sentinel values for 32-bit fields
// (NO_VAL and INFINITE), kept so values read from Slurm output or written
// by code that follows Slurm's need no translation.
const (
	NoVal    uint32 = 0xfffffffe
	Infinite uint32 = 0xffffffff
)
