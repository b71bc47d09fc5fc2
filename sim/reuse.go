package sim

// ChecksLive is a Scheduler that reads no job after the simulator has
// retired it: each job it keeps from one pass to a later one it checks
// with View.Live before reading it again. Under such a scheduler, with
// no policy and no --check (both keep jobs of their own), the records of
// retired jobs may be reused for the jobs read later (ReusesRecords).
type ChecksLive interface {
	Scheduler
	// ChecksLive marks the contract; it does nothing.
	ChecksLive()
}

// ReusesRecords reports whether a run of sched under pol with opt may
// hand each retired job's record, once Options.Retire's consumer is done
// with it and Job.Reusable says so, back to the trace reader to fill with
// a later job (workload.Ahead.Give). The engine forgets a retired job at
// once, so only the scheduler (ChecksLive), a policy and the invariant
// check could still read it.
func ReusesRecords(sched Scheduler, pol Policy, opt *Options) bool {
	_, ok := sched.(ChecksLive)
	return ok && pol == nil && opt.Retire != nil && opt.Check == nil
}
