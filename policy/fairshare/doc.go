// Package fairshare reproduces Slurm's fair-share machinery
// (priority/multifactor) for the fairsim discrete-event simulator.
//
// The package mirrors what Slurm's code does, not what its documentation
// says where the two disagree:
//
//   - Tree: the association tree (root, accounts, user associations keyed
//     (account, user, partition) as assoc_mgr keeps them, names matched
//     case-insensitively), Fairshare=parent hoisting, level shares and
//     normalised shares (assoc_mgr.c); LookupJob picks a job's association
//     by its partition as assoc_mgr_fill_in_assoc does.
//   - Engine: per-association usage_raw (billing-seconds), decayed with
//     Slurm's first-order factor 1-0.693/HL per second, charged by the
//     two-phase calc tick of the decay thread, reset by
//     PriorityUsageResetPeriod (priority_multifactor.c).
//   - Algorithms: Fair Tree with the code's tie behaviour (fair_tree.c),
//     classic 2^(-UE/S), depth-oblivious, and the Slurm 2.0 formula as a
//     fairsim extension.
//   - WriteSshare: sshare's table and parsable output (src/sshare).
//   - ReadAssocFile: a sacctmgr dump file (ReadDump) or a
//     `sacctmgr -P show assoc` listing (ReadAssocList), told apart by
//     content; ReadUsageCSV: static usage tables.
//
// Units: RawUsage is decayed billing-seconds (cpu-seconds without billing
// weights), as Slurm's code and the sshare man page count it; one Broadwell
// core for one minute adds 60. GrpTRESRaw and GrpTRESMins are minutes.
//
// Precision: Slurm keeps usage_raw, usage_efctv and level_fs in C's long
// double (the x87's 64-bit mantissa), adding each job's slice rounded to
// a double; fairsim keeps usage_raw and level_fs as double-doubles
// (extended.go), so that sums float64 would round together stay apart as
// in Slurm: two jobs of 4 and 12 CPUs charge 2.8e-14 less than one 16-CPU
// job (differential run part-count-reserve).
//
// Nothing in the package depends on map iteration order, and no input makes
// it panic.
package fairshare
