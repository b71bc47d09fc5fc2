package sim

import "strings"

// SubmitLimiter is a Policy that enforces the limits Slurm checks when a
// job is submitted (acct_policy_validate, and the submit counts of
// acct_policy_add_job_submit / acct_policy_remove_job_submit).
type SubmitLimiter interface {
	// Refuse is called after Submit: it returns why the job is refused
	// (a reason name such as QOSMaxSubmitJobPerUserLimit), or "" when it
	// is accepted, and then counts it as submitted.
	Refuse(j *Job, now int64) string
	// Left is called once a job reaches a final state (ended, cancelled,
	// rejected): a job counted at submit stops counting.
	Left(j *Job)
}

// LimitTimer is a Policy that ends running jobs at a usage limit, as
// slurmctld's periodic job_time_limit check does through
// acct_policy_job_time_out (GrpTRESMins, GrpWall).
type LimitTimer interface {
	// TimeOuts returns the running jobs to end now, each with why; it is
	// polled after each PriorityCalcPeriod tick, when usage changes.
	TimeOuts(now int64, running []*Job) []LimitTimeOut
}

// LimitTimeOut is a running job a usage limit ends, and the limit.
type LimitTimeOut struct {
	Job    *Job
	Reason string
}

// refusedAtSubmit reports whether the policy refuses j at submit over a
// limit; it is then rejected with the limit's name as its reason and
// counted under "over a limit: NAME".
func (s *Simulator) refusedAtSubmit(j *Job) bool {
	sl, ok := s.pol.(SubmitLimiter)
	if !ok {
		return false
	}
	why := sl.Refuse(j, s.now)
	if why == "" {
		return false
	}
	class := RefusedClass
	if strings.HasPrefix(why, "Invalid") {
		class = InvalidClass // InvalidAccount, InvalidQOS: not a limit
	}
	s.reject(j, class+why, why)
	return true
}

// RefusedClass prefixes the Result.Rejected class of a job refused at
// submit over a limit; InvalidClass that of a job refused for its
// association or QOS (AccountingStorageEnforce=associations, qos).
const (
	RefusedClass = "over a limit: "
	InvalidClass = "invalid account or QOS: "
)

// left tells the policy a job has reached its final state.
func (s *Simulator) left(j *Job) {
	if sl, ok := s.pol.(SubmitLimiter); ok {
		sl.Left(j)
	}
}

// limitTimeOuts ends the running jobs the policy says are at a usage
// limit: TIMEOUT, as job_timeout ends them, their resources freed now.
func (s *Simulator) limitTimeOuts() {
	lt, ok := s.pol.(LimitTimer)
	if !ok || len(s.running) == 0 {
		return
	}
	for _, t := range lt.TimeOuts(s.now, s.running) {
		j := t.Job
		if j.State != Running {
			continue
		}
		s.removeRunning(j, true)
		j.gen++ // its end event is now stale
		j.State = Timeout
		j.End = s.now
		j.Reason = t.Reason
		s.pol.Ended(j, s.now)
		s.version++
		s.churn++
		s.finish(j)
		if s.trig.OnEnd {
			s.wantPass(s.now)
		}
	}
}
