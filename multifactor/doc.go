// Package multifactor is Slurm's priority/multifactor plugin as the
// simulator drives it: a sim.Policy that charges usage to the association
// tree, decays it at every PriorityCalcPeriod tick, computes fair-share and
// job priorities, applies accrue limits and QOS GrpTRESMins, and records
// what sprio and sshare show (per-job factor breakdowns, fair-share
// snapshots). With Config.Basic it is priority/basic instead: priorities
// by submission order alone, usage still charged.
//
// It sits between sim and policy: policy knows nothing of jobs in a
// simulation, sim knows nothing of Slurm's priority formulas.
package multifactor
