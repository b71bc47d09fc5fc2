package scheduler

import "fairsim/sim"

// Recorded starts each job when its trace says it started (Submit plus
// the trace's Wait), wherever it fits then: the schedule a site's
// controller actually made, replayed under fairsim's policy layer. With
// it the fair-share engine, priorities and sshare follow the recorded
// history, so they can be held against the controller's own sshare
// without fairsim's scheduling decisions in between (fairsim validate's
// "on the recorded schedule" check). A job the trace never started
// stays pending; one that does not fit at its recorded start (the
// recorded placement left room where fairsim's does not) starts at the
// first second it fits, and is counted in Late.
type Recorded struct {
	// NodesOf, when set, gives the nodes the trace says a job ran on
	// (nil when it does not say): the job is placed on them when it fits
	// there, else anywhere it fits.
	NodesOf func(j *sim.Job) []int
	// Late counts the jobs started after their recorded start.
	Late int

	in []bool // scratch: the recorded nodes of the job being placed
}

// Name is "recorded".
func (r *Recorded) Name() string { return "recorded" }

// Triggers asks for a pass every second, so that each recorded start
// second has one, and at each release.
func (r *Recorded) Triggers() sim.Triggers {
	return sim.Triggers{SubmitDelay: 0, OnEnd: true, Interval: 1}
}

// Schedule starts the pending jobs whose recorded start has come. Those
// the trace puts on one node go first: sacct -X gives a multi-node job's
// nodes but not its CPUs on each, and placed first it could take the
// CPUs a one-node job of the same second had on a node they shared.
// Otherwise arrival order.
func (r *Recorded) Schedule(v *sim.View, kind sim.PassKind) *sim.Plan {
	plan := v.Plan()
	c := v.Cluster()
	now := v.Now()
	for _, multi := range []bool{false, true} {
		for _, j := range v.Pending() {
			if j.Wait < 0 || j.Submit+j.Wait > now || v.Placed(j) {
				continue
			}
			if r.NodesOf != nil && (len(r.NodesOf(j)) > 1) != multi {
				continue
			}
			if r.NodesOf == nil && multi {
				continue
			}
			a, fit := r.onRecorded(c, j)
			if fit != sim.FitsNow {
				a, fit = c.TryAlloc(&j.Req, j.Part, nil)
			}
			if fit != sim.FitsNow {
				continue
			}
			if err := plan.Start(j, j.Part, a, sim.ByMain); err != nil {
				panic("recorded: " + err.Error())
			}
			if now > j.Submit+j.Wait {
				r.Late++
			}
		}
	}
	return plan
}

// onRecorded places j on the nodes the trace names for it.
func (r *Recorded) onRecorded(c *sim.Cluster, j *sim.Job) (sim.Alloc, sim.Fit) {
	if r.NodesOf == nil {
		return nil, sim.NotNow
	}
	ns := r.NodesOf(j)
	if len(ns) == 0 {
		return nil, sim.NotNow
	}
	if len(r.in) != len(c.Nodes) {
		r.in = make([]bool, len(c.Nodes))
	}
	for _, n := range ns {
		r.in[n] = true
	}
	defer func() {
		for _, n := range ns {
			r.in[n] = false
		}
	}()
	return c.TryAllocFunc(&j.Req, j.Part, func(n int) bool { return !r.in[n] }, nil)
}
