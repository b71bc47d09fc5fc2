package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/config"
	"fairsim/workflow"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "tell why a job waited: priority by factor, queue rank, backfill reservation, jobs ahead",
		ArgsUsage: " ",
		Description: `Simulates the run again, following one job, and prints its story: submit, eligible
and start times; the Reason squeue would have shown and for how long; its priority
broken down by factor (as sprio shows it) and its rank among the pending jobs of its
partition at every PriorityCalcPeriod tick; the reservation backfill gave it and how it
moved; the jobs that started on its partition's nodes while it waited, and by which
pass; and its association's fair-share factor against its account's usage and share.

  fairsim explain --run results/odyssey --job 1234
  fairsim explain --scenario scenarios/odyssey.yaml --job 1234

With --run, the scenario comes from DIR/scenario.resolved.yaml; its relative file
names (slurm_conf, assoc, ...) are looked up under --scenario-dir, the working
directory, scenarios/ and DIR.`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "run", Aliases: []string{"r"}, Usage: "run `DIR` (re-runs its scenario.resolved.yaml)"},
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Usage: "scenario YAML `FILE` (instead of --run)"},
			&cli.Int64Flag{Name: "job", Aliases: []string{"j"}, Required: true, Usage: "the job's `ID` (JobID in jobs.csv)"},
			&cli.StringFlag{Name: "scenario-dir", Usage: "with --run: the `DIR` the run's scenario file was in"},
			&cli.IntFlag{Name: "rows", Value: 24, Usage: "at most `N` rows per table"},
		}, siteFlags(true)...),
		Action: func(c *cli.Context) error {
			var sc *config.Scenario
			var err error
			dir := c.String("run")
			switch {
			case dir != "" && (c.String("scenario") != "" || c.String("slurm-conf") != ""):
				return fmt.Errorf("explain: give --run, or --scenario or --slurm-conf, not both")
			case dir != "":
				sc, err = workflow.LoadRunDir(dir, c.String("scenario-dir"))
			default:
				spec := siteSpec(c)
				sc, err = spec.Resolve()
			}
			if err != nil {
				return err
			}
			st, err := workflow.Explain(sc, c.Int64("job"))
			if err != nil {
				return err
			}
			if dir != "" {
				if w := workflow.CheckReplay(dir, st); w != "" {
					fmt.Fprintln(c.App.ErrWriter, "fairsim: warning:", w)
				}
			}
			st.Write(c.App.Writer, c.Int("rows"))
			return nil
		},
	}
}
