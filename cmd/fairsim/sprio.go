package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/policy"
	"fairsim/slurmtext"
	"fairsim/workflow"
)

func sprioCommand() *cli.Command {
	return &cli.Command{
		Name:                   "sprio",
		Usage:                  "show the multifactor priority of pending jobs at a simulated time, like sprio",
		ArgsUsage:              " ",
		Description:            workflow.SprioHelp,
		UseShortOptionHandling: true,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Usage: "scenario YAML `FILE` (scheduler: slurm), or the site's files (--slurm-conf ...)"},
			&cli.StringFlag{Name: "at", Usage: "simulated `TIME`: offset from the first submit (1-0) or a date (see below)"},
			&cli.StringFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "only these job ids (comma-separated `LIST`)"},
			&cli.StringFlag{Name: "user", Aliases: []string{"u"}, Usage: "only jobs of these users (comma-separated `LIST`); adds USER to the short format"},
			&cli.StringFlag{Name: "partition", Aliases: []string{"p"}, Usage: "only jobs in these partitions (comma-separated `LIST`)"},
			&cli.BoolFlag{Name: "long", Aliases: []string{"l"}, Usage: "long report: every column"},
			&cli.BoolFlag{Name: "norm", Aliases: []string{"n"}, Usage: "normalised (unweighted) factors"},
			&cli.BoolFlag{Name: "weights", Aliases: []string{"w"}, Usage: "print the configured weights"},
			&cli.BoolFlag{Name: "noheader", Usage: "no header line"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say on stderr what was simulated (notes, warnings, times)"},
		}, siteFlags(true)...),
		Action: func(c *cli.Context) error {
			opt := policy.SprioOptions{Long: c.Bool("long"), Norm: c.Bool("norm"), Weights: c.Bool("weights"),
				NoHeader: c.Bool("noheader"), UserColumn: c.IsSet("user")}
			ids, err := workflow.ParseJobIDs(c.String("jobs"))
			if err != nil {
				return err
			}
			filt := workflow.SprioFilter{IDs: ids, Users: slurmtext.SplitList(c.String("user")), Parts: slurmtext.SplitList(c.String("partition"))}
			p := workflow.Pipeline{Need: "sprio"}
			if c.Bool("verbose") {
				p.Log = c.App.ErrWriter
			}
			run, err := p.Open(siteSpec(c))
			if err != nil {
				return err
			}
			defer run.Close()
			if opt.Weights {
				return policy.WriteSprio(c.App.Writer, nil, workflow.SprioWeights(run), opt)
			}
			if !c.IsSet("at") {
				return errors.New("sprio: --at TIME is required (or -w for the weights)")
			}
			at, err := p.SimulateAt(run, c.String("at"), nil)
			if err != nil {
				return err
			}
			if c.Bool("verbose") {
				at.Describe(c.App.ErrWriter)
			}
			rows, missing, err := workflow.SprioSelect(at, filt)
			if err != nil {
				return err
			}
			for _, m := range missing {
				fmt.Fprintln(c.App.ErrWriter, "fairsim:", m)
			}
			if len(filt.IDs) > 0 && len(rows) == 0 {
				// sprio's own answer when -j matches nothing.
				_, err := fmt.Fprintln(c.App.Writer, "Unable to find jobs matching user/id(s) specified")
				return err
			}
			return policy.WriteSprio(c.App.Writer, rows, workflow.SprioWeights(run), opt)
		},
	}
}
