package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/policy/fairshare"
	"fairsim/slurmtext"
	"fairsim/workflow"
)

func sshareCommand() *cli.Command {
	return &cli.Command{
		Name:                   "sshare",
		Usage:                  "show fair-share per association, like sshare: from a dump and usage, or at a simulated time",
		ArgsUsage:              " ",
		Description:            workflow.SshareHelp,
		UseShortOptionHandling: true,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "usage", Usage: "usage `CSV` (account,user[,partition],rawusage in billing-seconds); default no usage"},
			&cli.BoolFlag{Name: "partition", Aliases: []string{"m"}, Usage: "a Partition column (per-partition associations)"},
			&cli.StringFlag{Name: "flags", Usage: "slurm.conf PriorityFlags `LIST` selecting the algorithm (NO_FAIR_TREE, DEPTH_OBLIVIOUS)"},
			&cli.StringFlag{Name: "algorithm", Usage: "fair-share `ALG` overriding --flags: fairtree, classic, depth-oblivious or slurm20"},
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Usage: "scenario YAML `FILE` (scheduler: slurm); needs --at"},
			&cli.StringFlag{Name: "at", Usage: "simulated `TIME` with --scenario (see below)"},
			&cli.BoolFlag{Name: "long", Aliases: []string{"l"}, Usage: "long listing: NormUsage, LevelFS (Fair Tree), GrpTRESMins, TRESRunMins"},
			&cli.BoolFlag{Name: "all", Aliases: []string{"a"}, Usage: "every user row"},
			&cli.StringFlag{Name: "users", Aliases: []string{"u"}, Usage: "user rows of these users (comma-separated `LIST`)"},
			&cli.StringFlag{Name: "accounts", Aliases: []string{"A"}, Usage: "only rows of these accounts (comma-separated `LIST`)"},
			&cli.BoolFlag{Name: "Users", Aliases: []string{"U"}, Usage: "only user rows"},
			&cli.BoolFlag{Name: "parsable", Aliases: []string{"p"}, Usage: "'|' after every field"},
			&cli.BoolFlag{Name: "parsable2", Aliases: []string{"P"}, Usage: "'|' between fields"},
			&cli.BoolFlag{Name: "noheader", Aliases: []string{"n"}, Usage: "no header lines"},
			&cli.StringFlag{Name: "format", Aliases: []string{"o"}, Usage: "fields to print, as sshare -o `LIST` (Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins,GrpTRESRaw,TRESRunMins,Partition,Cluster; %WIDTH after a name sets its width)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say on stderr what was simulated"},
		}, siteFlags(true)...),
		Action: func(c *cli.Context) error {
			opt := fairshare.SshareOptions{Long: c.Bool("long"), All: c.Bool("all"), Users: slurmtext.SplitList(c.String("users")),
				Accounts: slurmtext.SplitList(c.String("accounts")), UsersOnly: c.Bool("Users"),
				Parsable: c.Bool("parsable"), Parsable2: c.Bool("parsable2"), NoHeader: c.Bool("noheader"), Partitions: c.Bool("partition"),
				Format: c.String("format"), SlurmTRES: true}
			var rows []fairshare.Row
			switch {
			case c.IsSet("scenario") || c.IsSet("slurm-conf"):
				for _, f := range []string{"usage", "flags", "algorithm"} {
					if c.IsSet(f) {
						return fmt.Errorf("sshare: --%s is for static views; with --scenario or --slurm-conf the usage and algorithm come from the simulation", f)
					}
				}
				if !c.IsSet("at") {
					return errors.New("sshare: --scenario or --slurm-conf needs --at TIME")
				}
				p := workflow.Pipeline{Need: "sshare"}
				if c.Bool("verbose") {
					p.Log = c.App.ErrWriter
				}
				run, err := p.Open(siteSpec(c))
				if err != nil {
					return err
				}
				defer run.Close()
				at, err := p.SimulateAt(run, c.String("at"), nil)
				if err != nil {
					return err
				}
				if c.Bool("verbose") {
					at.Describe(c.App.ErrWriter)
				}
				rows = workflow.SimulatedSshare(run, &opt)
			case c.IsSet("at"):
				return errors.New("sshare: --at needs --scenario or --slurm-conf")
			case !c.IsSet("assoc"):
				return errors.New("sshare: give --assoc DUMP [--usage CSV], or --scenario FILE --at TIME")
			default:
				var err error
				if rows, opt.Algorithm, err = workflow.StaticSshare(c.String("assoc"), c.String("usage"), c.String("flags"), c.String("algorithm"), c.App.ErrWriter); err != nil {
					return err
				}
			}
			return fairshare.WriteSshare(c.App.Writer, rows, opt)
		},
	}
}
