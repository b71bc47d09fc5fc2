// Package scheduler holds the scheduling policies fairsim can simulate,
// each a sim.Scheduler: pure decision logic that reads the cluster and the
// pending queue through a sim.View and returns a sim.Plan. It writes no
// sim.Job field; its own bookkeeping (queue order, per-pass backfill
// plan, fit memo) lives on the scheduler value.
//
// Baselines: fifo (strict arrival order, no backfill) and easy (EASY
// backfilling, Mu'alem & Feitelson 2001). The Slurm main + backfill
// scheduler is "slurm".
package scheduler
