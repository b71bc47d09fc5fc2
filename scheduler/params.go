package scheduler

import "fairsim/policy"

// Params are the SchedulerParameters and preemption settings the slurm
// scheduler honours, in seconds where Slurm uses other units. Zero values
// are not Slurm's defaults: start from DefaultParams.
type Params struct {
	SchedInterval     int64 // sched_interval: full-queue main pass period; <0 disables
	BatchSchedDelay   int64 // batch_sched_delay: submit to triggered pass
	DefaultQueueDepth int   // default_queue_depth: records of an event-triggered pass
	PartitionJobDepth int   // partition_job_depth: records per partition per pass; 0 = no limit
	SchedMaxJobStart  int   // sched_max_job_start: starts per main pass; 0 = no limit
	AssocLimitStop    bool  // assoc_limit_stop: a limit-held job blocks its partition
	SchedMinInterval  int64 // sched_min_interval, MICROseconds: end of one main pass to the next
	Defer             bool  // defer (or defer_batch): a job's release queues a pass instead of running one

	BackfillEnabled   bool  // SchedulerType=sched/backfill
	BfInterval        int64 // bf_interval
	BfWindow          int64 // bf_window (seconds here; minutes in slurm.conf)
	BfResolution      int64 // bf_resolution
	BfMaxJobTest      int   // bf_max_job_test
	BfMaxJobStart     int   // bf_max_job_start; 0 = no limit
	BfMaxJobUser      int   // bf_max_job_user; 0 = no limit
	BfMaxJobAssoc     int   // bf_max_job_assoc; 0 = no limit (overrides _user)
	BfMaxJobPart      int   // bf_max_job_part; 0 = no limit
	BfMaxJobUserPart  int   // bf_max_job_user_part; 0 = no limit
	BfMinAgeReserve   int64 // bf_min_age_reserve
	BfMinPrioReserve  uint32
	BfMaxJobArrayResv int // bf_max_job_array_resv: reservations per job array a pass
	BfNodeSpaceSize   int // bf_node_space_size: records of a cycle's map; 0 = BfMaxJobTest
	// BfJobPartCountReserve is bf_job_part_count_reserve: reservations a
	// cycle makes per partition, later records test now only; 0 = no limit.
	BfJobPartCountReserve int
	// BfOneResvPerJob is bf_one_resv_per_job: a job of several partitions
	// reserves in the first that gives it a start; its later records test
	// now only.
	BfOneResvPerJob bool
	// BfRunningJobReserve is bf_running_job_reserve (bf_licenses implies
	// it): each cycle's map begins with the nodes of running whole-node
	// jobs held until their expected ends.
	BfRunningJobReserve bool

	// The backfill cycle's cost model (backfill.c _attempt_backfill),
	// off while BfTestsPerSec is 0: see BackfillBudget.
	BfMaxTime       int64   // bf_max_time, seconds of wall time per cycle, yields included
	BfYieldInterval int64   // bf_yield_interval, MICROseconds of testing between lock yields
	BfYieldSleep    int64   // bf_yield_sleep, MICROseconds per yield
	BfContinue      bool    // bf_continue: a yield does not end the cycle
	BfTestsPerSec   float64 // fairsim's sim.backfill_tests_per_second: jobs a cycle tests per second; 0 = instant

	// PreemptType is "", "preempt/none", "preempt/partition_prio" or
	// "preempt/qos"; PreemptMode the cluster-wide mode (OFF, CANCEL,
	// REQUEUE, SUSPEND under GANG).
	PreemptType string
	PreemptMode policy.PreemptMode
	// PreemptExemptTime is slurm.conf's PreemptExemptTime in seconds, -1
	// unset; PreemptYoungestFirst orders candidates youngest first.
	PreemptExemptTime    int64
	PreemptYoungestFirst bool
}

// DefaultParams are Slurm's code defaults (job_scheduler.c, backfill.c).
func DefaultParams() Params {
	return Params{
		SchedInterval: 60, BatchSchedDelay: 3, DefaultQueueDepth: 100,
		BackfillEnabled: true, BfInterval: 30, BfWindow: 1440 * 60, BfResolution: 60,
		BfMaxJobTest: 500, BfMaxJobArrayResv: 20, BfNodeSpaceSize: 500,
		SchedMinInterval: 2, BfMaxTime: 30, BfYieldInterval: 2000000, BfYieldSleep: 500000,
		PreemptType: "preempt/none", PreemptMode: policy.PreemptOff, PreemptExemptTime: -1,
	}
}
