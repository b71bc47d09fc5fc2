package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

func captureCommand() *cli.Command {
	return &cli.Command{
		Name:        "capture",
		Usage:       "write a scenario folder from the Slurm this machine talks to (run it on a login node)",
		Description: workflow.CaptureHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "scenario `DIR` to write"},
			&cli.StringFlag{Name: "since", Usage: "window start `DATE` (YYYY-MM-DD[THH:MM[:SS]], local time; default: sacct's, midnight today)"},
			&cli.StringFlag{Name: "until", Usage: "window end `DATE` (default: now)"},
		},
		Action: func(c *cli.Context) error {
			res, err := workflow.Capture(workflow.CaptureOptions{Out: c.String("out"), Since: c.String("since"), Until: c.String("until")})
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				fmt.Fprintln(c.App.ErrWriter, "fairsim: warning:", w)
			}
			fmt.Fprintf(c.App.Writer, "captured cluster %s: %d jobs, %d files in %s\n", res.Cluster, res.Jobs, len(res.Files), c.String("out"))
			return nil
		},
	}
}
