package main

import (
	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

func squeueCommand() *cli.Command {
	s := func(n, a, u string) cli.Flag { return &cli.StringFlag{Name: n, Aliases: []string{a}, Usage: u} }
	return &cli.Command{Name: "squeue", Usage: "list the pending and running jobs at a simulated time, like squeue", ArgsUsage: " ", Description: workflow.SqueueHelp, UseShortOptionHandling: true,
		Flags: append([]cli.Flag{s("scenario", "s", "scenario YAML `FILE` (scheduler: slurm), or the site's files (--slurm-conf ...)"), &cli.StringFlag{Name: "at", Usage: "simulated `TIME`: offset from the first submit (1-0) or a date (see below)"}, s("states", "t", "job states (`LIST`: PD, R, all)"), s("user", "u", "only these users (`LIST`)"), s("account", "A", "only these accounts (`LIST`)"), s("partition", "p", "only these partitions (`LIST`)"), s("format", "o", "squeue's `FORMAT` (default \""+workflow.SqueueDefaultFormat+"\")"), &cli.BoolFlag{Name: "noheader", Usage: "no header line"}, &cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say on stderr what was simulated"}, &cli.StringFlag{Name: "trace", Usage: "workload trace `FILE` (no -t: squeue's -t is --states)"}, &cli.StringFlag{Name: "tz", Usage: "time `ZONE` of sacct time stamps"}}, siteFlags(false)...),
		Action: func(c *cli.Context) error {
			return workflow.Squeue(c.App.Writer, c.App.ErrWriter, c.Bool("verbose"), siteSpec(c), c.String("at"), workflow.SqueueOptions{States: c.String("states"), Users: c.String("user"), Accounts: c.String("account"), Parts: c.String("partition"), Format: c.String("format"), NoHeader: c.Bool("noheader")})
		}}
}
