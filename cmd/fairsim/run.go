package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"fairsim/config"
	"fairsim/report"
	"fairsim/scheduler"
	"fairsim/sim"
	"fairsim/workflow"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "simulate a scenario or replay a trace, writing results/<run>/",
		ArgsUsage: " ",
		Description: `Runs one simulation and writes jobs.csv, summary.csv, utilization.csv, wait.png,
utilization.png and scenario.resolved.yaml (every setting in force, defaults included).

  fairsim run                                   the embedded default scenario
  fairsim run --scenario scenarios/odyssey.yaml
  fairsim run --trace KTH-SP2-1996-2.1-cln.swf.gz --scheduler easy

With --trace and no scenario the cluster is built from the trace header: MaxNodes
nodes sharing MaxProcs cores, of the reference CPU type, in one partition "batch".
Jobs without a time limit get their actual runtime (sim.missing_time_limit).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Usage: "scenario YAML `FILE` (default: the embedded default scenario)"},
			&cli.StringFlag{Name: "trace", Aliases: []string{"t"}, Usage: "workload trace `FILE` (SWF, plain or .gz); overrides the scenario's"},
			&cli.StringFlag{Name: "scheduler", Usage: "scheduling policy: " + strings.Join(scheduler.Names(), ", ")},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR` (default results/<scenario name>)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar, no summary on stdout"},
			&cli.BoolFlag{Name: "skip-invalid", Usage: "count malformed trace records by reason instead of failing"},
			&cli.StringFlag{Name: "format", Usage: "trace format: swf or sacct (sacct --parsable2 output; default: guessed from the name)"},
			&cli.StringFlag{Name: "fields", Usage: "sacct --format `LIST` of a trace printed with --noheader"},
			&cli.StringFlag{Name: "tz", Usage: "time `ZONE` of sacct time stamps (default: local time)"},
			&cli.Float64Flag{Name: "load", Usage: "transform: scale inter-arrival times by 1/`FACTOR` (2 = twice the load)"},
			&cli.StringFlag{Name: "limit-accuracy", Usage: "transform: requested time from the run time: exact, or a `FACTOR`"},
			&cli.StringFlag{Name: "window", Usage: "transform: keep jobs submitted in `FROM..TO` (Slurm times from the epoch, or dates)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "transform: keep the first `N` jobs"},
			&cli.StringFlag{Name: "partition", Usage: "transform: keep jobs of these partitions (`LIST`)"},
			&cli.StringFlag{Name: "queue", Usage: "transform: keep jobs of these SWF queue numbers (`LIST`)"},
			&cli.BoolFlag{Name: "fail-impossible", Usage: "fail on a job that can never run (bigger than its partition, over MaxTime) instead of counting it"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a Go CPU profile of the run to `FILE` (for developers: go tool pprof)"},
			&cli.StringFlag{Name: "memprofile", Usage: "write a Go heap profile at the end of the simulation to `FILE`"},
		},
		Action: func(c *cli.Context) error {
			if p := c.String("cpuprofile"); p != "" {
				f, err := os.Create(p)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			sc, err := loadScenario(c)
			if err != nil {
				return err
			}
			out := c.String("out")
			if out == "" {
				out = filepath.Join("results", sc.Name)
			}
			start := time.Now()
			run, res, err := simulate(sc, c.Bool("quiet"))
			if err != nil {
				return err
			}
			if p := c.String("memprofile"); p != "" {
				f, err := os.Create(p)
				if err != nil {
					return err
				}
				if err := pprof.WriteHeapProfile(f); err != nil {
					f.Close()
					return err
				}
				f.Close()
			}
			if err := writeRun(out, run, res); err != nil {
				return err
			}
			if !c.Bool("quiet") {
				printSummary(c.App.Writer, res, out)
				fmt.Fprintf(c.App.Writer, "wall %.2f s, %.0f jobs/s, peak memory %s\n", time.Since(start).Seconds(),
					float64(len(res.Jobs))/time.Since(start).Seconds(), peakRSS())
			}
			return nil
		},
	}
}

// loadScenario builds the scenario the flags ask for and resolves it.
func loadScenario(c *cli.Context) (*config.Scenario, error) {
	var sc *config.Scenario
	var err error
	switch {
	case c.String("scenario") != "":
		sc, err = config.Load(c.String("scenario"))
	case c.String("trace") != "":
		name := filepath.Base(c.String("trace"))
		for _, ext := range []string{".gz", ".swf", ".txt", ".sacct"} {
			name = strings.TrimSuffix(name, ext)
		}
		sc = &config.Scenario{Name: name, Cluster: config.ClusterSpec{FromTraceHeader: true}}
	default:
		sc, err = config.Default()
	}
	if err != nil {
		return nil, err
	}
	if t := c.String("trace"); t != "" {
		sc.SetTrace(t)
	}
	if s := c.String("scheduler"); s != "" {
		sc.Scheduler = s
	}
	if t := sc.Trace; t != nil {
		t.SkipInvalid = t.SkipInvalid || c.Bool("skip-invalid")
		if f := c.String("format"); f != "" {
			t.Format = f
		}
		if f := c.String("fields"); f != "" {
			t.Fields = f
		}
		if z := c.String("tz"); z != "" {
			t.TimeZone = z
		}
		// Transforms apply in the order convert applies them.
		if c.IsSet("load") {
			t.Transforms = append(t.Transforms, fmt.Sprintf("load=%g", c.Float64("load")))
		}
		for _, name := range []string{"limit-accuracy", "window", "partition", "queue"} {
			if v := c.String(name); v != "" {
				t.Transforms = append(t.Transforms, name+"="+v)
			}
		}
		if c.IsSet("max-jobs") {
			t.Transforms = append(t.Transforms, fmt.Sprintf("max-jobs=%d", c.Int("max-jobs")))
		}
	} else {
		for _, name := range []string{"format", "fields", "tz", "load", "limit-accuracy", "window", "max-jobs", "partition", "queue"} {
			if c.IsSet(name) {
				return nil, fmt.Errorf("--%s applies to a trace, and this scenario generates its workload", name)
			}
		}
	}
	if c.Bool("fail-impossible") {
		sc.Sim.FailImpossible = true
	}
	return sc, sc.Resolve()
}

// simulate builds and runs a scenario, saying on stderr (unless quiet)
// what fairsim chose where the scenario was silent.
func simulate(sc *config.Scenario, quiet bool) (*config.Run, *sim.Result, error) {
	run, err := sc.Build()
	if err != nil {
		return nil, nil, err
	}
	defer run.Close()
	if !quiet {
		for _, n := range run.Notes {
			fmt.Fprintln(os.Stderr, "fairsim:", n)
		}
		for _, w := range run.Warnings {
			fmt.Fprintln(os.Stderr, "fairsim: warning:", w)
		}
	}
	if !quiet && isTerminal(os.Stderr) {
		var done func()
		run.Options.Progress, done = newProgress(run.Source.Header().MaxRecords)
		defer done()
	}
	res, err := run.Simulate()
	if err != nil {
		return nil, nil, err
	}
	if mf := run.Multifactor; mf != nil {
		for _, k := range mf.Unmapped.Keys() {
			res.Defaulted.Add("job without association (fair-share 0): " + k)
		}
	}
	return run, res, nil
}

// writeRun writes a run's outputs (workflow.WriteRunDir: the same files a
// sweep point gets).
func writeRun(out string, run *config.Run, res *sim.Result) error {
	return workflow.WriteRunDir(out, run, res)
}

// isTerminal reports whether f is a character device (a terminal), so the
// progress bar stays out of logs and pipes.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newProgress returns a progress callback that draws a bar on stderr once
// the run has taken more than a second, and a function that ends the line.
func newProgress(total int64) (func(now int64, submitted int), func()) {
	start := time.Now()
	drawn := false
	done := func() {
		if drawn {
			fmt.Fprintln(os.Stderr)
		}
	}
	return func(now int64, submitted int) {
		el := time.Since(start)
		if el < time.Second {
			return
		}
		drawn = true
		if total > 0 {
			frac := min(float64(submitted)/float64(total), 1)
			n := int(frac * 30)
			fmt.Fprintf(os.Stderr, "\r[%s%s] %3.0f%%  %d jobs  day %d  %s ", strings.Repeat("#", n), strings.Repeat(" ", 30-n), frac*100, submitted, now/86400, el.Round(time.Second))
		} else {
			fmt.Fprintf(os.Stderr, "\r%d jobs  day %d  %s ", submitted, now/86400, el.Round(time.Second))
		}
	}, done
}

func printSummary(w interface{ Write([]byte) (int, error) }, r *sim.Result, out string) {
	m := report.Compute(r)
	fmt.Fprintf(w, "\n%s: %d jobs (%d skipped records, %d rejected), %d started (%d by backfill)\n",
		r.Scheduler, m.Jobs, r.Read.Skipped.Total(), m.Rejected, m.Started, m.Backfilled)
	fmt.Fprintf(w, "utilisation %.1f%%, wait mean %s median %s p95 %s, bounded slowdown %.2f\n",
		100*m.Utilization, dur(m.MeanWait), dur(m.MedianWait), dur(m.P95Wait), m.MeanBSLD)
	fmt.Fprintf(w, "results in %s\n", out)
}

func dur(s float64) string {
	return (time.Duration(s) * time.Second).Round(time.Second).String()
}

// peakRSS reads the process's peak resident memory (Linux VmHWM), for the
// figures users compare runs by; "unknown" elsewhere.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) == 2 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return fmt.Sprintf("%d MB", kb/1024)
				}
			}
		}
	}
	return "unknown"
}
