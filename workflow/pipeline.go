package workflow

import (
	"fmt"
	"io"

	"fairsim/config"
	"fairsim/report"
	"fairsim/scheduler"
	"fairsim/sim"
)

// Pipeline is the one path from a resolved scenario to a finished
// simulation that run, sweep, regress, sprio, sshare and explain all take,
// so that a scenario simulates the same way whichever command asks, and
// what a run reports about itself (notes, warnings, defaulted
// associations) is the same everywhere.
type Pipeline struct {
	// Log receives the notes (what fairsim chose where the scenario was
	// silent) and warnings (what it ignored); nil keeps the run quiet.
	Log io.Writer
	// Warn, when set, receives the warnings even if Log is nil: --quiet
	// drops progress and notes, never a warning.
	Warn io.Writer
	// Progress, when set, is told what is known of the run before it
	// starts and returns the callback the simulation reports to and a
	// function that ends the display.
	Progress func(RunProgress) (update func(now int64, submitted int), done func())
	// Need names a command that needs Slurm's multifactor priority (sprio,
	// sshare): building a scenario without it is then an error.
	Need string
}

// Build makes a resolved scenario ready to simulate and tells Log what
// fairsim chose and ignored.
func (p Pipeline) Build(sc *config.Scenario) (*config.Run, error) {
	run, err := sc.Build()
	if run != nil {
		p.tell(run) // a failed build's warnings often explain the failure
	}
	if err != nil {
		return nil, err
	}
	return run, nil
}

// Open loads, resolves and builds the scenario a command's flags describe
// (a scenario file, or a site's own files) for a command that reads the
// simulation's state (sprio, sshare); with Need set it refuses a scenario
// without Slurm's multifactor priority before anything is simulated.
func (p Pipeline) Open(spec RunSpec) (*config.Run, error) {
	if spec.Scenario == "" && spec.SlurmConf == "" {
		return nil, fmt.Errorf("give --scenario FILE or --slurm-conf FILE")
	}
	sc, err := spec.Resolve()
	if err != nil {
		if spec.Scenario != "" {
			return nil, fmt.Errorf("--scenario: %w", err)
		}
		return nil, err
	}
	run, err := sc.Build()
	if err != nil {
		if run != nil {
			p.tell(run)
		}
		return nil, err
	}
	if p.Need != "" && run.Multifactor == nil {
		run.Close()
		return nil, fmt.Errorf("%s: scenario %s uses scheduler %q, which has no multifactor priority or fair-share; %s needs scheduler: slurm",
			spec.Scenario, sc.Name, sc.Scheduler, p.Need)
	}
	p.tell(run)
	return run, nil
}

// tell writes the run's notes and warnings to Log.
func (p Pipeline) tell(run *config.Run) {
	if p.Log != nil {
		for _, n := range run.Notes {
			fmt.Fprintln(p.Log, "fairsim:", n)
		}
	}
	warn := p.Warn
	if warn == nil {
		warn = p.Log
	}
	if warn != nil {
		for _, w := range run.Warnings {
			fmt.Fprintln(warn, "fairsim: warning:", w)
		}
	}
}

// Simulate runs a built run (to its end, or to run.Options.StopAt) and
// records in the result the jobs whose association the multifactor
// policy could not find, which otherwise only change priorities silently,
// and the jobs a recorded replay started late or off their nodes.
func (p Pipeline) Simulate(run *config.Run) (*sim.Result, error) {
	if p.Progress != nil {
		// Read the first job ahead, so days count from the first
		// submission as everywhere else.
		ps := &peekSource{Source: run.Source}
		rp := RunProgress{Jobs: run.Source.Header().MaxRecords, Input: run.Source.Stats().Input}
		if ps.Source.Next(&ps.first) {
			ps.held, rp.First = true, ps.first.Submit
		}
		run.Source = ps
		var done func()
		run.Options.Progress, done = p.Progress(rp)
		defer done()
	}
	res, err := run.Simulate()
	if err != nil {
		return nil, err
	}
	if mf := run.Multifactor; mf != nil {
		for _, k := range mf.Unmapped.Keys() {
			res.Defaulted.Add("job without association (fair-share 0): " + k)
		}
		for _, k := range mf.UnknownQOS.Keys() {
			res.Defaulted["QOS not in the QOS list: "+k] += mf.UnknownQOS[k]
		}
	}
	if rec, ok := run.Scheduler.(*scheduler.Recorded); ok {
		// Where the replay left the trace's schedule: said, not hidden.
		if rec.Late > 0 {
			res.Defaulted["recorded: started after the recorded start (did not fit then)"] += rec.Late
		}
		if rec.Moved > 0 {
			res.Defaulted["recorded: placed off the nodes the trace names (busy, or not the cluster's)"] += rec.Moved
		}
	}
	res.QOSNames = qosNames(run)
	return res, nil
}

// qosNames are the policy's QOS by sim.Job.QOSIdx, nil without one.
func qosNames(run *config.Run) []string {
	mf := run.Multifactor
	if mf == nil {
		return nil
	}
	qs := mf.QOSSet()
	names := make([]string, 0, qs.Len())
	for i := range qs.Len() {
		names = append(names, qs.QOS(i).Name)
	}
	return names
}

// streamInto has run's retired jobs written by st (run.Options.Retire)
// and, where sim.ReusesRecords allows it (EASY or FIFO, no policy, no
// --check) and a trace reader reads the jobs, their records handed back
// to the reader once written: a replay then reads into a few thousand
// records instead of one new record per job (KTH-SP2 under EASY: 28,000
// records, 21 MB of fresh memory).
func streamInto(run *config.Run, st *report.JobStream) {
	run.Options.Retire = st.Retire
	if g, ok := run.Source.(interface{ Give(*sim.Job) }); ok && sim.ReusesRecords(run.Scheduler, run.Policy, &run.Options) {
		st.ReuseWith(g.Give)
	}
}

// StreamResult is what a report.JobStream needs of a run before it
// starts: the cluster, the names, the trace header, the QOS names and the
// scheduler.
func StreamResult(run *config.Run) *sim.Result {
	return &sim.Result{Cluster: run.Cluster, Names: run.Source.Names(), Header: run.Source.Header(),
		QOSNames: qosNames(run), Scheduler: run.Scheduler.Name()}
}

// Run builds and simulates a resolved scenario and, unless out is "",
// writes the run directory every command writes (WriteRunDir).
func (p Pipeline) Run(sc *config.Scenario, out string) (*config.Run, *sim.Result, error) {
	run, err := p.Build(sc)
	if err != nil {
		return nil, nil, err
	}
	defer run.Close()
	res, err := p.Simulate(run)
	if err != nil {
		return nil, nil, err
	}
	if out != "" {
		if err := WriteRunDir(out, run, res); err != nil {
			return nil, nil, err
		}
	}
	return run, res, nil
}
