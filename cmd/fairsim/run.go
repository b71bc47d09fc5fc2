package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"fairsim/scheduler"
	"fairsim/workflow"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:        "run",
		Usage:       "simulate a scenario or replay a trace, writing results/<run>/",
		ArgsUsage:   " ",
		Description: workflow.RunHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Usage: "scenario YAML `FILE` (default: the embedded default scenario)"},
			&cli.StringFlag{Name: "scheduler", Usage: "scheduling policy: " + strings.Join(scheduler.Names(), ", ")},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR` (default results/<scenario name>)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar, notes or summary (warnings are still printed)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an --out folder even if it holds files and no earlier run"},
			&cli.BoolFlag{Name: "skip-invalid", Usage: "count malformed trace records by reason instead of failing"},
			&cli.StringFlag{Name: "format", Usage: "trace format: swf or sacct (sacct --parsable2 output; default: guessed from the name)"},
			&cli.StringFlag{Name: "fields", Usage: "sacct --format `LIST` of a trace printed with --noheader"},
			&cli.Float64Flag{Name: "load", Usage: "transform: scale inter-arrival times by 1/`FACTOR` (2 = twice the load)"},
			&cli.StringFlag{Name: "limit-accuracy", Usage: "transform: requested time from the run time: exact, or a `FACTOR`"},
			&cli.StringFlag{Name: "window", Usage: "transform: keep jobs submitted in `FROM..TO` (Slurm times counted from the first submission, as --at counts, or dates)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "transform: keep the first `N` jobs"},
			&cli.StringFlag{Name: "partition", Usage: "transform: keep jobs of these partitions (`LIST`)"},
			&cli.StringFlag{Name: "queue", Usage: "transform: keep jobs of these SWF queue numbers (`LIST`)"},
			&cli.BoolFlag{Name: "fail-impossible", Usage: "fail on a job that can never run (bigger than its partition, over MaxTime) instead of counting it"},
			&cli.BoolFlag{Name: "check", Usage: "verify the schedule from its records, job by job as they end (no node over its cores, memory or GRES at any instant, GRES of the types asked, starts after eligibility, ends within limits); exit 1 on a violation"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a Go CPU profile of the run to `FILE` (for developers: go tool pprof)"},
			&cli.StringFlag{Name: "memprofile", Usage: "write a Go heap profile at the end of the simulation to `FILE`"},
		}, siteFlags(true)...),
		Action: func(c *cli.Context) error {
			spec := siteSpec(c)
			spec.Given = c.IsSet // the trace transforms are run's own flags
			spec.Scheduler, spec.SkipInvalid, spec.FailImpossible = c.String("scheduler"), c.Bool("skip-invalid"), c.Bool("fail-impossible")
			spec.Format, spec.Fields = c.String("format"), c.String("fields")
			spec.Load, spec.LimitAccuracy, spec.Window = c.Float64("load"), c.String("limit-accuracy"), c.String("window")
			spec.Partition, spec.Queue, spec.MaxJobs = c.String("partition"), c.String("queue"), c.Int("max-jobs")
			sc, err := spec.Resolve()
			if err != nil {
				return err
			}
			return workflow.RunOnce{Out: c.String("out"), Force: c.Bool("force"), Quiet: c.Bool("quiet"), Check: c.Bool("check"),
				CPUProfile: c.String("cpuprofile"), MemProfile: c.String("memprofile"),
				Stdout: c.App.Writer, Stderr: c.App.ErrWriter}.Run(sc)
		},
	}
}
