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

	// PreemptType is "", "preempt/none", "preempt/partition_prio" or
	// "preempt/qos"; PreemptMode the cluster-wide mode (OFF, CANCEL,
	// REQUEUE; SUSPEND and GANG are not simulated).
	PreemptType string
	PreemptMode policy.PreemptMode
}

// DefaultParams are Slurm's code defaults (job_scheduler.c, backfill.c).
func DefaultParams() Params {
	return Params{
		SchedInterval: 60, BatchSchedDelay: 3, DefaultQueueDepth: 100,
		BackfillEnabled: true, BfInterval: 30, BfWindow: 1440 * 60, BfResolution: 60,
		BfMaxJobTest: 500, BfMaxJobArrayResv: 20,
		PreemptType: "preempt/none", PreemptMode: policy.PreemptOff,
	}
}
