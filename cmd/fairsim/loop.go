package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

// capture and validate put a real Slurm in the loop: record a site, replay it.
func captureCommand() *cli.Command {
	return &cli.Command{Name: "capture", Description: workflow.CaptureHelp,
		Usage: "write a scenario folder from the Slurm this machine talks to (run it on a login node)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "scenario `DIR` to write"},
			&cli.StringFlag{Name: "since", Usage: "window start `DATE` (YYYY-MM-DD[THH:MM[:SS]], local time; default: sacct's, midnight today)"},
			&cli.StringFlag{Name: "until", Usage: "window end `DATE` (default: now)"},
		},
		Action: func(c *cli.Context) error {
			res, err := workflow.Capture(workflow.CaptureOptions{Out: c.String("out"), Since: c.String("since"), Until: c.String("until"), Warn: c.App.ErrWriter})
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "captured cluster %s: %d jobs, %d files in %s\n", res.Cluster, res.Jobs, len(res.Files), c.String("out"))
			return nil
		},
	}
}

func validateCommand() *cli.Command {
	return &cli.Command{Name: "validate", Description: workflow.ValidateHelp,
		Usage: "replay a captured scenario and compare with what the controller did: start order, waits, MAPE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Required: true, Usage: "scenario `DIR` (fairsim capture) or YAML file"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write validate.csv and waits.png into `DIR`"},
			&cli.StringFlag{Name: "window", Usage: "moving window `WIDTH` of submit time, a Slurm time (default: a fifth of the submission span)"},
			&cli.IntFlag{Name: "top", Value: 5, Usage: "explain the `N` jobs whose wait differs most"},
			&cli.StringFlag{Name: "slurmctld-log", Usage: "compare fairsim's backfill cycles with those of slurmctld's log `FILE` (DebugFlags=Backfill; default: DIR/slurmctld.log when there)"},
			&cli.StringFlag{Name: "timing", Value: "model", Usage: "`model`: fairsim's model of the controller's timers; log: replay the controller's timing from its log (SlurmctldDebug=debug)"},
		},
		Action: func(c *cli.Context) error {
			return workflow.ValidateTo(c.App.Writer, c.String("scenario"), c.String("window"),
				workflow.ValidateOptions{Top: c.Int("top"), Out: c.String("out"), SlurmctldLog: c.String("slurmctld-log"), Timing: c.String("timing")})
		},
	}
}
