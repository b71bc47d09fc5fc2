package workflow

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"fairsim/config"
	"fairsim/sim"
)

// RunOnce says how `fairsim run` runs a resolved scenario: where the
// outputs go, what it tells the user, and the developer's profiles.
type RunOnce struct {
	Out        string // output folder; "" is results/<scenario name>
	Quiet      bool   // no progress bar, notes or summary
	Check      bool   // verify the schedule (sim.CheckInvariants) before writing
	CPUProfile string // Go CPU profile of the run, "" for none
	MemProfile string // Go heap profile after the simulation, "" for none
	Stdout     io.Writer
	Stderr     io.Writer
}

// Run simulates sc and writes its run folder, as `fairsim run` does.
func (o RunOnce) Run(sc *config.Scenario) (err error) {
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	out := o.Out
	if out == "" {
		out = filepath.Join("results", sc.Name)
	}
	p := Pipeline{Warn: o.Stderr}
	if !o.Quiet {
		p = Pipeline{Log: o.Stderr, Progress: TerminalProgress(os.Stderr)}
	}
	start := time.Now()
	run, res, err := p.Run(sc, "")
	if err != nil {
		return err
	}
	if o.Check {
		if err := sim.CheckInvariants(res); err != nil {
			return fmt.Errorf("check: %w", err)
		}
		fmt.Fprintf(o.Stderr, "check: %d jobs, no node over its cores, memory or GRES at any instant\n", len(res.Jobs))
	}
	if o.MemProfile != "" {
		f, err := os.Create(o.MemProfile)
		if err != nil {
			return err
		}
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if err := WriteRunDir(out, run, res); err != nil {
		return err
	}
	if !o.Quiet {
		WriteRunSummary(o.Stdout, res, out, time.Since(start))
	}
	return nil
}
