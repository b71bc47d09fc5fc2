package sim

import (
	"fmt"
	"slices"
)

// Reservation is an advance reservation that is not MAINT, as scontrol
// create reservation takes it: from its start to its end its nodes run
// only the jobs that ask for it (sbatch --reservation), and those jobs run
// only there (reservation.c job_test_resv).
type Reservation struct {
	Name string
	// Users and Accounts may use it: a job whose user or account is
	// listed (reservation.c _valid_job_access_resv).
	Users, Accounts []string
	// NodeCnt, when the event names no nodes, is how many nodes the
	// simulator picks at creation: the first usable nodes in cluster
	// order that no other reservation holds, idle ones before busy ones.
	// (slurmctld's _select_nodes weighs more; this is the documented
	// simplification.)
	NodeCnt int
}

// resvWindow is one reservation's hold on a node over [start, end).
type resvWindow struct {
	id         int32
	start, end int64
}

// resvDef is a reservation of the events file as the run knows it; its id
// is 1 + its index in Cluster.resvs (Request.Resv).
type resvDef struct {
	spec       *Reservation
	id         int32
	created    bool
	start, end int64
}

// resvBars reports whether node n is closed, over [now, end), to a
// placement that asked for reservation resv (0: none): a job in a
// reservation may use only that reservation's nodes while it is active;
// any other job avoids a node whose reservation overlaps its run
// (reservation.c job_test_resv).
func (c *Cluster) resvBars(n int, resv int32, now, end int64) bool {
	var ws []resvWindow
	if c.resvWin != nil {
		ws = c.resvWin[n]
	}
	if resv != 0 {
		for _, w := range ws {
			if w.id == resv && w.start <= now && now < w.end {
				return false
			}
		}
		return true
	}
	for _, w := range ws {
		if w.start < end && now < w.end {
			return true
		}
	}
	return false
}

// resvWait is why a job asking reservation id cannot start at now: the
// reservation is not created yet, has not started, or has ended. Slurm
// names all of these WAIT_RESERVATION, "Reservation"; one that ended
// stays pending (job_test_resv holds it).
func (c *Cluster) resvWait(id int32, now int64) string {
	for i := range c.resvs {
		if d := &c.resvs[i]; d.id == id && d.created && d.start <= now && now < d.end {
			return ""
		}
	}
	return "Reservation"
}

// defineReservations learns the events file's reservations before the
// first submission, so a job asking for one can be checked at submit.
func (s *Simulator) defineReservations() {
	for i := range s.opt.Events {
		if e := &s.opt.Events[i]; e.Resv != nil && e.ResvStart > 0 {
			s.c.resvs = append(s.c.resvs, resvDef{spec: e.Resv, id: int32(len(s.c.resvs) + 1)})
		}
	}
}

// resvRefusal checks the reservation job j asks for, as slurmctld does at
// submit (validate_job_resv, _valid_job_access_resv): a name the events
// file lacks is "Requested reservation is invalid", a user and account
// not listed "Access denied to requested reservation". A MAINT
// reservation is not one a job runs in here: the job runs outside it, as
// before. On success the job's request carries the reservation.
func (s *Simulator) resvRefusal(j *Job) string {
	if j.Reservation <= 0 {
		return ""
	}
	names := s.src.Names()
	name := names.Reservations.Name(j.Reservation - 1)
	for i := range s.c.resvs {
		d := &s.c.resvs[i]
		if d.spec.Name != name {
			continue
		}
		if !slices.Contains(d.spec.Users, names.Users.Name(j.User)) &&
			!slices.Contains(d.spec.Accounts, names.Accounts.Name(j.Account)) {
			return "Access denied to requested reservation"
		}
		j.Req.Resv = d.id
		return ""
	}
	for i := range s.opt.Events {
		if e := &s.opt.Events[i]; e.ResvStart > 0 && e.Resv == nil && e.Reason == "reservation "+name {
			s.defaulted.Add("reservation asked is a MAINT one: not simulated, run outside it")
			return ""
		}
	}
	s.defaulted.Add("reservation asked is not in the events file: rejected")
	return "Requested reservation is invalid"
}

// reserveFor creates a reservation that is not MAINT: its nodes (picked
// now when the event gives a count) are held for it from its start to its
// end; passes run at both instants, when the jobs waiting for it may
// start and when its nodes open to all.
func (s *Simulator) reserveFor(e *SiteEvent) {
	c := s.c
	nodes := e.Nodes
	if len(nodes) == 0 {
		nodes = s.pickResvNodes(e)
		if len(nodes) < e.Resv.NodeCnt {
			if s.err == nil {
				s.err = fmt.Errorf("events line %d: reservation %s: NodeCnt=%d, only %d nodes free of other reservations", e.Line, e.Resv.Name, e.Resv.NodeCnt, len(nodes))
			}
			return
		}
	}
	var d *resvDef
	for i := range c.resvs {
		if c.resvs[i].spec == e.Resv {
			d = &c.resvs[i]
		}
	}
	if d == nil {
		return // not defined before the run: cannot happen through Run
	}
	d.created, d.start, d.end = true, e.ResvStart, e.ResvEnd
	if c.resvWin == nil {
		c.resvWin = make([][]resvWindow, len(c.Nodes))
	}
	for _, n := range nodes {
		c.resvWin[n] = append(c.resvWin[n], resvWindow{d.id, e.ResvStart, e.ResvEnd})
	}
	for _, t := range []int64{e.ResvStart, e.ResvEnd} {
		s.sites = append(s.sites, SiteEvent{At: t, Part: -1, Line: e.Line, wake: true})
		s.heap.push(Event{T: t, Kind: EvSite, Job: int32(len(s.sites) - 1)})
		s.sitesLeft++
	}
	s.wantPass(s.now)
}

// maintWindow is a MAINT reservation's nodes and span.
type maintWindow struct {
	nodes      []int
	start, end int64
}

// pickResvNodes picks e.Resv.NodeCnt nodes for a reservation given by
// count: usable nodes no other reservation holds over its span, idle
// ones first, each group in cluster order. A node in a maintenance
// window that ends before the span is usable: maintenance is a
// reservation, not a node state, to slurmctld (only the node's per-node
// start of maintenance, resvFrom, was looked at, so a window over
// before the span still excluded its nodes).
func (s *Simulator) pickResvNodes(e *SiteEvent) []int {
	c := s.c
	var idle, busy []int
	for n := range c.Nodes {
		nd := &c.Nodes[n]
		if !nd.State.Usable() && nd.State != NodeMaint {
			continue
		}
		if slices.ContainsFunc(s.maint, func(w maintWindow) bool {
			return w.start < e.ResvEnd && e.ResvStart < w.end && slices.Contains(w.nodes, n)
		}) {
			continue
		}
		if c.resvWin != nil && slices.ContainsFunc(c.resvWin[n], func(w resvWindow) bool { return w.start < e.ResvEnd && e.ResvStart < w.end }) {
			continue
		}
		if nd.FreeCores+nd.held.cores == nd.Cores { // no job on it (maintenance holds a node's cores)
			idle = append(idle, n)
		} else {
			busy = append(busy, n)
		}
	}
	all := append(idle, busy...)
	return all[:min(len(all), e.Resv.NodeCnt)]
}
