// Package scheduler holds the scheduling policies fairsim can simulate,
// each a sim.Scheduler: pure decision logic that sees the cluster and the
// pending queue through a sim.Context and acts only through it.
//
// Baselines: fifo (strict arrival order, no backfill) and easy (EASY
// backfilling, Mu'alem & Feitelson 2001). The Slurm main + backfill
// scheduler is "slurm".
package scheduler
