// Command fairsim simulates a Slurm-scheduled HPC cluster: it replays
// workload traces through Slurm's scheduling and fair-share policies and
// writes CSV results and plots.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "fairsim:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:    "fairsim",
		Version: workflow.Version(),
		Usage:   "discrete-event simulator of a Slurm-scheduled cluster: priorities, fair-share, backfill",
		Description: `fairsim replays workload traces (Standard Workload Format, Slurm sacct -P dumps)
or synthetic workloads on a simulated cluster of mixed CPU types, scheduled the way
slurmctld schedules (main + backfill passes, priority/multifactor, Fair Tree), and
writes per-job CSV, a summary and plots under results/<run>/.

'fairsim run' with no flags simulates the embedded default scenario.`,
		Commands: workflow.AdviseHeap(commands()),
		Suggest:  true, // "Did you mean --trace?" on a mistyped flag
		// Bare fairsim shows the help; a mistyped command never starts a run.
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return workflow.UnknownCommand(c.App.Commands, c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
}
