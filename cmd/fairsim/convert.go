package main

import (
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"fairsim/workload"
)

func convertCommand() *cli.Command {
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
			&cli.StringFlag{Name: "from", Usage: "input format: swf or sacct (default: guessed)"},
			&cli.StringFlag{Name: "to", Usage: "output format: swf or sacct (default: guessed from OUT)"},
			&cli.StringFlag{Name: "fields", Usage: "sacct --format `LIST` of input printed with --noheader"},
			&cli.BoolFlag{Name: "skip-invalid", Usage: "count malformed records by reason instead of failing"},
			&cli.StringFlag{Name: "tz", Usage: "time `ZONE` of sacct time stamps, e.g. Europe/Stockholm (default: local when reading, UTC when writing)"},
			&cli.BoolFlag{Name: "drop-cancelled-pending", Usage: "leave out sacct jobs cancelled before they started"},
			&cli.Float64Flag{Name: "load", Usage: "scale inter-arrival times by 1/`FACTOR` (2 = twice the load)"},
			&cli.StringFlag{Name: "limit-accuracy", Usage: "requested time from the run time: exact, or a `FACTOR`"},
			&cli.StringFlag{Name: "window", Usage: "keep jobs submitted in `FROM..TO` (Slurm times from the epoch, or dates)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "keep the first `N` jobs"},
			&cli.StringFlag{Name: "partition", Usage: "keep jobs of these partitions (`LIST`)"},
			&cli.StringFlag{Name: "queue", Usage: "keep jobs of these SWF queue numbers (`LIST`)"},
			&cli.StringFlag{Name: "accounts", Usage: "give jobs accounts: group, user, or a CSV `FILE` (user,account or group,account)"},
			&cli.BoolFlag{Name: "accounts-override", Usage: "replace accounts the trace has too"},
			&cli.StringFlag{Name: "assoc-out", Usage: "write an association dump (sacctmgr dump format) to `FILE`; accounts by group unless --accounts"},
			&cli.StringFlag{Name: "shares", Value: "equal", Usage: "account shares in the dump: equal or usage"},
			&cli.StringFlag{Name: "cluster", Value: "cluster", Usage: "cluster `NAME` in the dump"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() != 2 {
				return fmt.Errorf("convert wants IN and OUT, got %d arguments", c.Args().Len())
			}
			opts, err := convertOptions(c)
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

// convertOptions turns the flags into workload.ConvertOptions; the
// transforms apply in a fixed order: window and filters first, then
// max-jobs, then load and limit accuracy.
func convertOptions(c *cli.Context) (workload.ConvertOptions, error) {
	opts := workload.ConvertOptions{
		From: c.String("from"), To: c.String("to"),
		Fields:               workload.ParseSacctFields(c.String("fields")),
		SkipInvalid:          c.Bool("skip-invalid"),
		DropCancelledPending: c.Bool("drop-cancelled-pending"),
		AssocOut:             c.String("assoc-out"),
		Cluster:              c.String("cluster"),
		Stdin:                os.Stdin,
		Stdout:               c.App.Writer,
	}
	if tz := c.String("tz"); tz != "" {
		loc, err := time.LoadLocation(tz)
		if err != nil {
			return opts, fmt.Errorf("--tz %q: %v", tz, err)
		}
		opts.Location = loc
	}
	var specs []string
	for _, f := range []struct{ flag, name string }{{"window", "window"}, {"partition", "partition"},
		{"queue", "queue"}, {"max-jobs", "max-jobs"}, {"load", "load"}, {"limit-accuracy", "limit-accuracy"}} {
		if c.IsSet(f.flag) {
			specs = append(specs, f.name+"="+fmt.Sprint(c.Value(f.flag)))
		}
	}
	ts, err := workload.ParseTransforms(specs)
	if err != nil {
		return opts, err
	}
	opts.Transforms = ts
	if spec := c.String("accounts"); spec != "" {
		m, err := workload.ParseAccountMap(spec, nil)
		if err != nil {
			return opts, err
		}
		m.Override = c.Bool("accounts-override")
		opts.Accounts = m
	}
	shares, err := workload.ParseShareStrategy(c.String("shares"))
	if err != nil {
		return opts, err
	}
	opts.Shares = shares
	if opts.AssocOut != "" && opts.Accounts == nil {
		opts.Accounts = &workload.AccountMap{By: "group"}
	}
	return opts, nil
}
