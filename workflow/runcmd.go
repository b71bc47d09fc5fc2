package workflow

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"fairsim/config"
	"fairsim/report"
	"fairsim/sim"
)

// RunHelp is `fairsim run --help`'s description.
const RunHelp = `Runs one simulation and writes jobs.csv, summary.csv, utilization.csv, wait.png,
utilization.png and scenario.resolved.yaml (every setting in force, defaults included);
with the slurm scheduler fairshare.csv and its plots; on a cluster with GPUs
gpu_utilization.png and wait_gpu.png. --check verifies the schedule as jobs end.

The outputs are written into a hidden folder beside --out and replace it whole at
the end, so no file of an earlier run survives; a run stopped by an error, SIGINT
or SIGTERM leaves the previous folder as it was (exit 130 or 143). A folder that
holds files but no earlier run is refused unless --force; a second run into the
same --out while one is writing is refused.

  fairsim run                                   the embedded default scenario
  fairsim run --scenario scenarios/odyssey.yaml
  fairsim run --trace KTH-SP2-1996-2.1-cln.swf.gz --scheduler easy
  fairsim run --slurm-conf /etc/slurm/slurm.conf        a site as it is, generated jobs
  fairsim run --slurm-conf slurm.conf --assoc dump.cfg --qos qos.txt --trace sacct.psv

With --slurm-conf the cluster, partitions, scheduler and priority come from the
site's slurm.conf: nodes' CPU types from their Feature words (else generic; name
them with --cpu-type HOSTLIST=TYPE), and without --trace a generated workload sized
to the partitions that accept jobs.

With --trace and no scenario the cluster is built from the trace header: MaxNodes
nodes sharing MaxProcs cores, of the reference CPU type, in one partition "batch".
Jobs without a time limit get DefaultTime, else MaxTime, else none, as slurmctld
does (sim.missing_time_limit: runtime gives them their actual run time instead).`

// RunOnce says how `fairsim run` runs a resolved scenario: where the
// outputs go, what it tells the user, and the developer's profiles.
type RunOnce struct {
	Out        string // output folder; "" is results/<scenario name>
	Force      bool   // replace an --out folder that holds something other than a run
	Quiet      bool   // no progress bar, notes or summary
	Check      bool   // verify the schedule (sim.InvariantStream) as jobs retire
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
	// Lock and check the folder before simulating: a run that cannot be
	// written should fail in a second, not after an hour.
	rd, err := OpenRunDir(out, o.Force)
	if err != nil {
		return err
	}
	defer rd.Close()
	defer rd.AbortOnSignal(os.Exit)()
	p := Pipeline{Warn: o.Stderr}
	if !o.Quiet {
		p = Pipeline{Log: o.Stderr, Progress: TerminalProgress(os.Stderr)}
	}
	start := time.Now()
	run, err := p.Build(sc)
	if err != nil {
		return err
	}
	defer run.Close()
	// Jobs are written into the run folder as they end and then forgotten,
	// so memory follows the running and pending jobs, not the trace;
	// --check checks each as it goes.
	st, err := report.NewJobStream(rd.Tmp, StreamResult(run))
	if err != nil {
		return err
	}
	var check *sim.InvariantStream
	if o.Check {
		check = sim.NewInvariantStream(run.Cluster)
		run.Options.Check = check
	}
	streamInto(run, st)
	report.PrepareImages(report.SummaryPlots(run.Cluster))
	res, err := p.Simulate(run)
	if err != nil {
		st.Close(&sim.Result{})
		return err
	}
	tally, err := st.Close(res)
	if err != nil {
		return fmt.Errorf("%w (%s left as it was)", err, out)
	}
	if msg := allRejected(tally); msg != "" {
		fmt.Fprintln(o.Stderr, "fairsim: warning:", msg)
	}
	if check != nil {
		if err := check.Close(res); err != nil {
			return fmt.Errorf("check: %w", err)
		}
		fmt.Fprintf(o.Stderr, "check: %d jobs, no node over its cores, memory or GRES at any instant\n", check.Jobs())
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
	if err := writeRunSummaries(rd.Tmp, run, res, tally); err != nil {
		return fmt.Errorf("%w (%s left as it was)", err, out)
	}
	if err := rd.Commit(); err != nil {
		return err
	}
	if !o.Quiet {
		WriteRunSummary(o.Stdout, res, tally.Metrics(res), out, time.Since(start))
	}
	return nil
}

// allRejected says why nothing ran when every job was refused at submit
// (a trace that fits no partition, a MaxTime below every limit): the
// outputs are complete but empty, which the summary's zeros alone do not
// explain. "" when some job was not rejected.
func allRejected(t *report.JobTally) string {
	id, why, all := t.AllRejected()
	if !all {
		return ""
	}
	return fmt.Sprintf("every one of the %d jobs was rejected at submit, so nothing ran; the first (job %d): %s (jobs.csv's Reason column has each job's)",
		t.Jobs(), id, why)
}
