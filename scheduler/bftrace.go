package scheduler

import "fairsim/sim"

// BackfillEventKind says what a BackfillEvent reports.
type BackfillEventKind uint8

// The backfill events, as slurmctld's backfill log names them.
const (
	CycleBegins BackfillEventKind = iota // _attempt_backfill: beginning
	Started                              // _start_job: Started JobId=N in P on NODES
	Reserved                             // _dump_job_sched: JobId=N to start at T, end at E on nodes NODES
)

// BackfillEvent is one line of a backfill cycle's log (Slurm.Trace): at
// Now, the cycle's beginning, a start of Job on Alloc in partition Part,
// or a reservation of Alloc's nodes for Job from its expected Start to
// End (the end rounded down to bf_resolution, as backfill.c logs it).
type BackfillEvent struct {
	Kind       BackfillEventKind
	Now        int64
	Job        *sim.Job
	Part       int
	Start, End int64
	Alloc      sim.Alloc
}
