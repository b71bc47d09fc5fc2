package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"fairsim/workflow"
	"fairsim/workload"
)

func convertCommand() *cli.Command {
	s := &workflow.ConvertSpec{}
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert a trace between SWF and sacct -P, optionally transformed",
		ArgsUsage: "IN OUT",
		Description: `Reads IN and writes OUT ("-" for standard input or output; .gz is read and
written compressed). Formats are guessed from the names (.swf, .sacct, .psv) or, for
the input, from its first line; --from and --to override.

  fairsim convert --to sacct KTH-SP2-1996-2.1-cln.swf.gz kth.sacct
  fairsim convert --from sacct --fields State,JobID,Submit,Start,End,NCPUS dump.txt out.swf
  fairsim convert --load 1.5 --limit-accuracy exact --window 7-0..14-0 in.swf out.swf
  fairsim convert --accounts group --shares usage --assoc-out assoc.cfg in.swf out.swf

sacct times are local time unless --tz says otherwise; fairsim's own sacct files
record their zone and epoch in '#' lines, so a round trip through sacct is exact.
SWF has no account field: mapped accounts survive in sacct output, and in SWF only
as the groups (or users) they were named after.
What was skipped or filled in is listed on standard error.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Destination: &s.From, Usage: "input format: swf or sacct (default: guessed)"},
			&cli.StringFlag{Name: "to", Destination: &s.To, Usage: "output format: swf or sacct (default: guessed from OUT)"},
			&cli.StringFlag{Name: "fields", Destination: &s.Fields, Usage: "sacct --format `LIST` of input printed with --noheader"},
			&cli.BoolFlag{Name: "skip-invalid", Destination: &s.SkipInvalid, Usage: "count malformed records by reason instead of failing"},
			&cli.StringFlag{Name: "tz", Destination: &s.TimeZone, Usage: "time `ZONE` of sacct time stamps, e.g. Europe/Stockholm (default: local when reading, UTC when writing)"},
			&cli.BoolFlag{Name: "drop-cancelled-pending", Destination: &s.DropCancelledPending, Usage: "leave out sacct jobs cancelled before they started"},
			&cli.Float64Flag{Name: "load", Destination: &s.Load, Usage: "scale inter-arrival times by 1/`FACTOR` (2 = twice the load)"},
			&cli.StringFlag{Name: "limit-accuracy", Destination: &s.LimitAccuracy, Usage: "requested time from the run time: exact, or a `FACTOR`"},
			&cli.StringFlag{Name: "window", Destination: &s.Window, Usage: "keep jobs submitted in `FROM..TO` (Slurm times counted from the first submission, as --at counts, or dates)"},
			&cli.IntFlag{Name: "max-jobs", Destination: &s.MaxJobs, Usage: "keep the first `N` jobs"},
			&cli.StringFlag{Name: "partition", Destination: &s.Partition, Usage: "keep jobs of these partitions (`LIST`)"},
			&cli.StringFlag{Name: "queue", Destination: &s.Queue, Usage: "keep jobs of these SWF queue numbers (`LIST`)"},
			&cli.StringFlag{Name: "accounts", Destination: &s.Accounts, Usage: "give jobs accounts: group, user, or a CSV `FILE` (user,account or group,account)"},
			&cli.BoolFlag{Name: "accounts-override", Destination: &s.AccountsOverride, Usage: "replace accounts the trace has too"},
			&cli.StringFlag{Name: "assoc-out", Destination: &s.AssocOut, Usage: "write an association dump (sacctmgr dump format) to `FILE`; accounts by group unless --accounts"},
			&cli.StringFlag{Name: "shares", Destination: &s.Shares, Value: "equal", Usage: "account shares in the dump: equal or usage"},
			&cli.StringFlag{Name: "cluster", Destination: &s.Cluster, Value: "cluster", Usage: "cluster `NAME` in the dump"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() != 2 {
				return fmt.Errorf("convert wants IN and OUT, got %d arguments", c.Args().Len())
			}
			s.Given = c.IsSet
			opts, err := s.Options(os.Stdin, c.App.Writer)
			if err != nil {
				return err
			}
			rep, err := workload.Convert(c.Args().Get(0), c.Args().Get(1), opts)
			if rep != nil {
				fmt.Fprint(c.App.ErrWriter, rep.Summary())
			}
			return err
		},
	}
}
