package workflow

import (
	"errors"
	"fmt"
	"io"
	"time"

	"fairsim/config"
	"fairsim/multifactor"
	"fairsim/sim"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// AtHelp documents --at once for the commands that show the state of a
// run at a simulated time (sprio, sshare).
const AtHelp = `TIME is a point in the simulation, either
  - a Slurm time string counted from the first job's submission (the start of
    the trace, and of the simulation): 1-0 is one day after it, 12:00:00 twelve
    hours, 90 ninety minutes (--window FROM..TO counts from the same origin); or
  - a date YYYY-MM-DD[THH:MM[:SS]] on the trace's own clock, in its time zone
    (fairshare.time_zone, else the SWF TimeZoneString, else UTC); this needs
    the trace header's UnixStartTime.
The run stops after the last event at or before TIME, so the view is the state
slurmctld would show then: priorities and fair-share as of the latest
PriorityCalcPeriod tick (or a job's submission, if later). A TIME before the
first submission or after the run's last event is an error.`

// At is a scenario simulated up to a point in time, the state sprio and
// sshare show as slurmctld would at that moment.
type At struct {
	Run *config.Run
	Mf  *multifactor.Policy
	Res *sim.Result
	// First is the simulated time of the first submission, the epoch of
	// an offset; Stop is the moment shown (First + offset).
	First, Stop int64
	loc         *time.Location
}

// peekSource hands out one job read ahead of time before the rest of its
// source, so the first submission is known before the simulation starts.
type peekSource struct {
	workload.Source
	first workload.Job
	held  bool
}

func (p *peekSource) Next(j *workload.Job) bool {
	if p.held {
		*j, p.held = p.first, false
		return true
	}
	return p.Source.Next(j)
}

// Take implements sim.JobTaker, so that a source read ahead stays so.
func (p *peekSource) Take() (*sim.Job, bool) {
	if p.held {
		p.held = false
		return &sim.Job{Job: p.first}, true
	}
	if t, ok := p.Source.(sim.JobTaker); ok {
		return t.Take()
	}
	j := new(sim.Job)
	return j, p.Source.Next(&j.Job)
}

// looksLikeDate tells a date (YYYY-MM-DD...) from a Slurm time string,
// which never has a '-' in those places.
func looksLikeDate(s string) bool {
	return len(s) >= 10 && s[4] == '-' && s[7] == '-'
}

// SimulateAt runs a run of Slurm's multifactor policy up to at (see
// AtHelp). wrap, when set, wraps the workload source first (tests use it
// to give jobs a QOS).
func (p Pipeline) SimulateAt(run *config.Run, at string, wrap func(workload.Source) workload.Source) (*At, error) {
	sim.ReadDirect(run.Source) // the run stops at --at: read as far as it goes
	ps := &peekSource{Source: run.Source}
	if !ps.Source.Next(&ps.first) {
		if err := ps.Source.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("the scenario's workload has no jobs")
	}
	ps.held = true
	ar := &At{Run: run, Mf: run.Multifactor, First: ps.first.Submit, loc: run.Multifactor.Engine().Config().Loc}
	if ar.loc == nil {
		ar.loc = time.UTC
	}
	h := ps.Header()
	if looksLikeDate(at) && h.UnixStartTime == 0 {
		return nil, fmt.Errorf("--at %s: a date needs the trace's UnixStartTime, and its header has none; give an offset from the first submission such as 1-0", at)
	}
	off, err := slurmtime.ParseDateOrDuration(at, h.UnixStartTime+ar.First, ar.loc)
	if err != nil {
		return nil, fmt.Errorf("--at: %w", err)
	}
	if off < 0 {
		return nil, fmt.Errorf("--at %s is before the first submission (%s)", at, ar.clock(ar.First))
	}
	ar.Stop = ar.First + off
	if ar.Stop <= 0 {
		// sim.Options.StopAt 0 means "run to the end".
		return nil, fmt.Errorf("--at %s is the very first instant of the trace (simulated time 0), which fairsim cannot stop at; use a later time such as 0:1", at)
	}
	var src workload.Source = ps
	if wrap != nil {
		src = wrap(src)
	}
	run.Source = src
	run.Options.StopAt = ar.Stop
	res, err := p.Simulate(run)
	if err != nil {
		return nil, err
	}
	if res.Now < ar.Stop {
		return nil, fmt.Errorf("--at %s (%s) is after the end of the run: its last event is at %s, %s after the first submission",
			at, ar.clock(ar.Stop), ar.clock(res.Now), slurmtime.Format(res.Now-ar.First))
	}
	ar.Res = res
	return ar, nil
}

// clock names a simulated time as a date on the trace's clock when the
// trace has a UnixStartTime, else as seconds of simulated time.
func (ar *At) clock(t int64) string {
	if u := ar.Run.Source.Header().UnixStartTime; u != 0 {
		return time.Unix(u+t, 0).In(ar.loc).Format("2006-01-02T15:04:05 MST")
	}
	return fmt.Sprintf("simulated second %d", t)
}

// Describe says which moment the view shows, so a user can check it is
// the one they meant.
func (ar *At) Describe(w io.Writer) {
	fmt.Fprintf(w, "fairsim: state at %s after the first submission: %s (simulated second %d); %d pending, last calc tick at %s\n",
		slurmtime.Format(ar.Stop-ar.First), ar.clock(ar.Stop), ar.Stop, len(ar.Res.Pending), ar.clock(ar.Mf.LastTick()))
}
