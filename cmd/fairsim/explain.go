package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/config"
	"fairsim/workflow"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:        "explain",
		Usage:       "tell why a job waited: priority by factor, queue rank, backfill reservation, jobs ahead",
		ArgsUsage:   " ",
		Description: workflow.ExplainHelp,
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
