package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

// listFlag collects a repeatable flag's values verbatim: urfave's
// StringSliceFlag would split them on commas, which --set gives its own
// meaning.
type listFlag []string

func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
func (l *listFlag) String() string     { return fmt.Sprint([]string(*l)) }

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:        "sweep",
		Usage:       "simulate a grid of settings in parallel and tabulate the results in sweep.csv",
		ArgsUsage:   " ",
		Description: workflow.SweepHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Usage: "scenario YAML `FILE` (default: the embedded default scenario)"},
			&cli.GenericFlag{Name: "set", Value: &listFlag{}, Usage: "swept setting `KEY=V1,V2,...` (repeatable; '|' separates values that contain commas)"},
			&cli.IntFlag{Name: "seeds", Usage: "repeat each point with `N` workload seeds"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "points simulated at once"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "sweep `DIR` (default results/sweep-<scenario>)"},
			&cli.StringFlag{Name: "shard", Usage: "run only shard `I/N` (0 <= I < N)"},
			&cli.StringFlag{Name: "starved-after", Value: "1-0", Usage: "a job waiting longer than this Slurm `TIME` is starved"},
			&cli.StringFlag{Name: "emit-sbatch", Usage: "write a Slurm job-array batch script to `FILE` instead of running"},
			&cli.IntFlag{Name: "shards", Usage: "with --emit-sbatch: array tasks (default: one per point, at most 1000)"},
			&cli.IntFlag{Name: "cpus-per-task", Value: 1, Usage: "with --emit-sbatch: each task's CPUs (points it runs at once)"},
			&cli.StringFlag{Name: "time", Usage: "with --emit-sbatch: each task's time limit (Slurm time string)"},
			&cli.GenericFlag{Name: "sbatch-option", Value: &listFlag{}, Usage: "with --emit-sbatch: an extra #SBATCH `OPTION` (repeatable), e.g. --partition=serial"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress lines"},
		}, siteFlags(true)...),
		Subcommands: []*cli.Command{sweepMergeCommand()},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return fmt.Errorf("sweep: unexpected argument %q (did you mean 'fairsim sweep merge'?)", c.Args().First())
			}
			sw, err := workflow.NewSweep(c.String("scenario"), *c.Generic("set").(*listFlag), c.Int("seeds"), c.String("starved-after"))
			if err != nil {
				return err
			}
			if spec := siteSpec(c); spec.SlurmConf != "" || spec.Trace != "" {
				sw.Site = &spec
			}
			out := c.String("out")
			if out == "" {
				out = sw.DefaultOut()
			}
			if f := c.String("emit-sbatch"); f != "" {
				bin, err := os.Executable()
				if err != nil {
					return err
				}
				err = sw.WriteSbatch(f, workflow.SbatchOptions{Fairsim: bin, Out: out, Shards: c.Int("shards"),
					CPUsPerTask: c.Int("cpus-per-task"), Time: c.String("time"), Extra: *c.Generic("sbatch-option").(*listFlag)})
				if err == nil {
					fmt.Fprintf(c.App.Writer, "sweep: wrote %s; submit it on the cluster with: bash %s\n", f, f)
				}
				return err
			}
			shard := workflow.All
			if s := c.String("shard"); s != "" {
				if shard, err = workflow.ParseShard(s); err != nil {
					return err
				}
			}
			workflow.SweepGC()
			o := workflow.RunOptions{Out: out, Shard: shard, Jobs: c.Int("jobs")}
			if !c.Bool("quiet") {
				o.Log = c.App.ErrWriter
			}
			if err := sw.Run(o); err != nil {
				return err
			}
			if !c.Bool("quiet") {
				fmt.Fprintf(c.App.Writer, "sweep: %s written\n", filepath.Join(out, "sweep.csv"))
			}
			return nil
		},
	}
}

func sweepMergeCommand() *cli.Command {
	return &cli.Command{
		Name:        "merge",
		Usage:       "combine the shards of a sweep into one sweep.csv",
		ArgsUsage:   "SHARDDIR...",
		Description: workflow.MergeHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR`"},
		},
		Action: func(c *cli.Context) error {
			dirs, out := c.Args().Slice(), c.String("out")
			if out == "" && len(dirs) > 1 {
				if _, err := workflow.ReadManifest(dirs[0]); err != nil {
					out, dirs = dirs[0], dirs[1:]
				}
			}
			if err := workflow.Merge(out, dirs); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "sweep merge: %d shards into %s\n", len(dirs), filepath.Join(out, "sweep.csv"))
			return nil
		},
	}
}
