package workflow

import (
	"fmt"
	"slices"

	"fairsim/config"
	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/scheduler"
	"fairsim/sim"
)

// Tick is the target job's state at one PriorityCalcPeriod tick while it
// was pending.
type Tick struct {
	T        int64
	Priority uint32
	Factors  policy.Factors
	// Rank is its place in its partition's queue (1 = next to start), by
	// the scheduler's own order (scheduler.SlurmOrder: PriorityTier,
	// priority in that partition, submit time, job id).
	Rank, Pending int
	// FairShare is the factor of its association (user in account);
	// AcctUsage and AcctShares are its account's EffectvUsage and
	// NormShares, as sshare shows them.
	FairShare, AcctUsage, AcctShares float64
}

// Pass is a scheduler pass after which the job's reservation or reason
// changed, or that started it.
type Pass struct {
	T      int64
	Kind   sim.PassKind
	Expect int64 // backfill's expected start, -1 for none
	Reason string
	Start  bool
}

// Ahead is a job that started on the target's partition's nodes while the
// target was eligible and pending.
type Ahead struct {
	Job          *sim.Job
	SamePart     bool
	Higher       bool // higher priority (or PriorityTier) than the target then
	TargetPrio   uint32
	TargetExpect int64
}

// Story is what explain found out about one job.
type Story struct {
	ID      int64
	Job     *sim.Job
	Res     *sim.Result
	Run     *config.Run
	Ticks   []Tick
	Passes  []Pass
	Ahead   []Ahead
	Mf      *multifactor.Policy
	until   int64 // when it started, or the run's end
	account int   // account association, -1 when none
}

// Explain re-runs a resolved scenario, following job id: its priority and
// rank at every calc tick, its backfill reservation after every pass, and
// the jobs that started on its nodes while it waited.
func Explain(sc *config.Scenario, id int64) (*Story, error) {
	var p Pipeline
	run, err := p.Build(sc)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	st := &Story{ID: id, Run: run, Mf: run.Multifactor, account: -1}
	if run.Policy != nil {
		run.Policy = &tracePolicy{Policy: run.Policy, st: st, cluster: run.Cluster}
	}
	if s, ok := run.Scheduler.(*scheduler.Slurm); ok {
		s.Estimates = true // the target's reservation after every cycle
	}
	run.Scheduler = &traceSched{Scheduler: run.Scheduler, st: st}
	res, err := p.Simulate(run)
	if err != nil {
		return nil, err
	}
	st.Res = res
	if st.Job == nil {
		for _, j := range res.Jobs {
			if j.ID == id {
				st.Job = j // rejected at submit, or no policy to see it
				break
			}
		}
	}
	if st.Job == nil {
		return nil, fmt.Errorf("job %d is not in the scenario's workload (%d jobs, ids %d..%d)", id, len(res.Jobs), res.Jobs[0].ID, res.Jobs[len(res.Jobs)-1].ID)
	}
	st.collectAhead()
	return st, nil
}

// tracePolicy records the target's priority at every calc tick.
type tracePolicy struct {
	sim.Policy
	st      *Story
	cluster *sim.Cluster
}

// The optional policy interfaces the simulator looks for are passed
// through, so the followed run is the run `fairsim run` makes: without
// them explain's replay dropped the policy's limits (MaxJobsPerUser,
// GrpTRESMins, ...) and told another story.

// Refuse implements sim.SubmitLimiter when the policy does.
func (p *tracePolicy) Refuse(j *sim.Job, now int64) string {
	if sl, ok := p.Policy.(sim.SubmitLimiter); ok {
		return sl.Refuse(j, now)
	}
	return ""
}

// Left implements sim.SubmitLimiter when the policy does.
func (p *tracePolicy) Left(j *sim.Job) {
	if sl, ok := p.Policy.(sim.SubmitLimiter); ok {
		sl.Left(j)
	}
}

// TimeOuts implements sim.LimitTimer when the policy does.
func (p *tracePolicy) TimeOuts(now int64, running []*sim.Job) []sim.LimitTimeOut {
	if lt, ok := p.Policy.(sim.LimitTimer); ok {
		return lt.TimeOuts(now, running)
	}
	return nil
}

// HoldPlaced implements sim.PlacedHolder, falling back to Hold as the
// simulator does for a policy without it (which checks requests only).
func (p *tracePolicy) HoldPlaced(j *sim.Job, part int, now int64, placed []sim.PlacedJob, alloc sim.Alloc) string {
	if ph, ok := p.Policy.(sim.PlacedHolder); ok {
		return ph.HoldPlaced(j, part, now, placed, alloc)
	}
	if alloc != nil {
		return ""
	}
	return p.Policy.Hold(j, now)
}

// EnforcesLimits implements sim.LimitEnforcer when the policy does.
func (p *tracePolicy) EnforcesLimits() bool {
	le, ok := p.Policy.(sim.LimitEnforcer)
	return ok && le.EnforcesLimits()
}

// Requeued implements sim.Requeuer when the policy does.
func (p *tracePolicy) Requeued(j *sim.Job, now int64, nodeFail bool) {
	if r, ok := p.Policy.(sim.Requeuer); ok {
		r.Requeued(j, now, nodeFail)
	}
}

func (p *tracePolicy) Submit(j *sim.Job, now int64) {
	p.Policy.Submit(j, now)
	if j.ID == p.st.ID && p.st.Job == nil {
		p.st.Job = j
	}
}

func (p *tracePolicy) Tick(now int64, running, pending []*sim.Job) {
	p.Policy.Tick(now, running, pending)
	t := p.st.Job
	if t == nil || t.State != sim.Pending {
		return
	}
	rec := Tick{T: now, Priority: t.Priority}
	// The target's record is the one of the partition it is in now; every
	// pending job's record in that partition, with its priority there,
	// counts (build_job_queue makes one per partition of a
	// multi-partition job).
	self := scheduler.Record{Job: t, K: max(slices.Index(t.Parts, t.Part), 0)}
	before := scheduler.SlurmOrder(p.cluster)
	found := false
	for _, q := range pending {
		if q == t {
			found = true
		}
		for k := range max(len(q.Parts), 1) {
			r := scheduler.Record{Job: q, K: k}
			if r.Part() != t.Part {
				continue
			}
			rec.Pending++
			if q != t && before(r, self) < 0 {
				rec.Rank++
			}
		}
	}
	if !found {
		return // not eligible yet
	}
	rec.Rank++
	if mf := p.st.Mf; mf != nil {
		rec.Factors = mf.Factors(t)
		eng := mf.Engine()
		if t.Assoc >= 0 {
			rec.FairShare = eng.FairShare(t.Assoc)
			acct := eng.Tree().Parent(t.Assoc)
			if eng.Tree().IsUser(t.Assoc) && acct >= 0 {
				p.st.account = acct
				rec.AcctUsage, rec.AcctShares = eng.EffectiveUsage(acct), eng.NormShares(acct)
			}
		}
	}
	p.st.Ticks = append(p.st.Ticks, rec)
}

// traceSched records the target's reservation and reason after passes.
type traceSched struct {
	sim.Scheduler
	st *Story
}

func (s *traceSched) Schedule(v *sim.View, kind sim.PassKind) *sim.Plan {
	p := s.Scheduler.Schedule(v, kind)
	t := s.st.Job
	if t == nil {
		for _, a := range p.Actions { // no policy: find it when it starts
			if a.Kind == sim.ActStart && a.Job.ID == s.st.ID {
				s.st.Job, t = a.Job, a.Job
			}
		}
		if t == nil {
			return p
		}
	}
	var last Pass
	if n := len(s.st.Passes); n > 0 {
		last = s.st.Passes[n-1]
	} else {
		last.Expect = -1
	}
	started, reason, expect := p.Outcome(t)
	switch {
	case t.State == sim.Pending && !started && (expect != last.Expect || reason != last.Reason):
		s.st.Passes = append(s.st.Passes, Pass{T: v.Now(), Kind: kind, Expect: expect, Reason: reason})
	case started && (!last.Start || last.T < t.EligibleTime): // a requeued job's next start too
		s.st.Passes = append(s.st.Passes, Pass{T: v.Now(), Kind: kind, Expect: -1, Start: true})
	}
	return p
}

// collectAhead finds the jobs that started on the target's partition's
// nodes between its eligibility and its start.
func (st *Story) collectAhead() {
	t, c := st.Job, st.Res.Cluster
	st.until = st.Res.Now
	if t.Start >= 0 {
		st.until = t.Start
	}
	if t.State == sim.Rejected {
		return
	}
	for _, j := range st.Res.Jobs {
		if j == t || j.Start < 0 || j.Start < t.EligibleTime || j.Start > st.until || (j.Start == st.until && t.Start >= 0 && !startedBefore(j, t)) {
			continue
		}
		onNodes := false
		for _, sl := range j.Alloc {
			if c.InPartition(t.Part, sl.Node) {
				onNodes = true
				break
			}
		}
		if !onNodes {
			continue
		}
		a := Ahead{Job: j, SamePart: j.Part == t.Part, TargetPrio: st.prioAt(j.Start), TargetExpect: st.expectAt(j.Start)}
		tj, tt := c.Parts[j.Part].PriorityTier, c.Parts[t.Part].PriorityTier
		a.Higher = tj > tt || (tj == tt && j.Priority > a.TargetPrio) ||
			(tj == tt && j.Priority == a.TargetPrio && (j.Submit < t.Submit || j.Submit == t.Submit && j.ID < t.ID))
		st.Ahead = append(st.Ahead, a)
	}
	slices.SortStableFunc(st.Ahead, func(a, b Ahead) int {
		if a.Job.Start != b.Job.Start {
			return int(a.Job.Start - b.Job.Start)
		}
		return a.Job.Idx - b.Job.Idx
	})
}

// startedBefore orders two jobs started at one instant: main before
// backfill, then queue order.
func startedBefore(a, b *sim.Job) bool {
	if a.StartedBy != b.StartedBy {
		return a.StartedBy < b.StartedBy
	}
	return a.Idx < b.Idx
}

// prioAt is the target's priority as of time t (the latest tick at or
// before t; its submit priority before the first).
func (st *Story) prioAt(t int64) uint32 {
	p := uint32(0)
	if len(st.Ticks) > 0 {
		p = st.Ticks[0].Priority
	}
	for _, k := range st.Ticks {
		if k.T > t {
			break
		}
		p = k.Priority
	}
	if len(st.Ticks) == 0 {
		p = st.Job.Priority
	}
	return p
}

// expectAt is backfill's expected start for the target as of time t.
func (st *Story) expectAt(t int64) int64 {
	e := int64(-1)
	for _, p := range st.Passes {
		if p.T > t {
			break
		}
		e = p.Expect
	}
	return e
}
