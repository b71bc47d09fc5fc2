package scheduler

import (
	"slices"

	"fairsim/sim"
)

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
	// Moved counts the jobs the trace names nodes for (sacct's NodeList)
	// that started elsewhere: those nodes did not hold them, or are not
	// the cluster's.
	Moved int

	in  []bool     // scratch: the recorded nodes of the job being placed
	due []*sim.Job // scratch: the jobs whose start has come
}

// Name is "recorded".
func (r *Recorded) Name() string { return "recorded" }

// Triggers asks for a pass every second, so that each recorded start
// second has one, and at each release.
func (r *Recorded) Triggers() sim.Triggers {
	return sim.Triggers{SubmitDelay: 0, OnEnd: true, Interval: 1}
}

// Schedule starts the pending jobs whose recorded start has come. sacct
// -X gives a multi-node job's nodes but not its CPUs on each, so the jobs
// of one second are placed most constrained first: those on one node
// (exactly where they ran), then multi-node ones by CPUs, most first, each
// spread over its nodes (sim.Cluster.AllocSpread); a job that does not fit
// its recorded nodes goes wherever it fits. Otherwise arrival order.
func (r *Recorded) Schedule(v *sim.View, kind sim.PassKind) *sim.Plan {
	plan := v.Plan()
	c := v.Cluster()
	now := v.Now()
	r.due = r.due[:0]
	for _, j := range v.Pending() {
		if j.Wait >= 0 && j.Submit+j.Wait <= now && !v.Placed(j) {
			r.due = append(r.due, j)
		}
	}
	nodesOf := func(j *sim.Job) int {
		if r.NodesOf == nil {
			return 0
		}
		return len(r.NodesOf(j))
	}
	slices.SortStableFunc(r.due, func(a, b *sim.Job) int {
		na, nb := nodesOf(a), nodesOf(b)
		if (na > 1) != (nb > 1) {
			if na > 1 {
				return 1
			}
			return -1
		}
		if na > 1 {
			return b.CPUs - a.CPUs
		}
		return 0
	})
	for _, j := range r.due {
		a, fit := r.onRecorded(c, j)
		moved := fit != sim.FitsNow && j.AllocNodeList > 0
		if fit != sim.FitsNow {
			a, fit = c.TryAlloc(&j.Req, j.Part, nil)
		}
		if fit != sim.FitsNow {
			continue
		}
		if moved {
			r.Moved++
		}
		if err := plan.Start(j, j.Part, a, sim.ByMain); err != nil {
			panic("recorded: " + err.Error())
		}
		if now > j.Submit+j.Wait {
			r.Late++
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
	if len(ns) > 1 {
		if a, fit := c.AllocSpread(&j.Req, j.Part, ns, nil); fit == sim.FitsNow {
			return a, fit
		}
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
