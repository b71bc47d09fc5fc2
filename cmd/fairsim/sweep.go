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
		Name:      "sweep",
		Usage:     "simulate a grid of settings in parallel and tabulate the results in sweep.csv",
		ArgsUsage: " ",
		Description: `Runs the scenario once per point of the grid the --set flags span, writing each
point's run directory (DIR/points/<index>_<settings>/: jobs.csv, summary.csv, ... and
point.csv) and DIR/sweep.csv, one row per point: the parameters, then the overall
and per-account figures (see below). Results do not depend on --jobs: each point
is its own simulation, and sweep.csv lists points in grid order.

  fairsim sweep --scenario scenarios/odyssey.yaml \
      --set PriorityWeightAge=1000,10000,100000 --set PriorityDecayHalfLife=7-0,14-0 --out sw

--set KEY=V1,V2,... takes any key 'fairsim run' and scenarios accept: a slurm.conf key
(PriorityWeightFairshare), a SchedulerParameters option (bf_window), partition.NAME.Attr,
qos.NAME.Attr, or a dotted scenario key (generate.jobs, fairshare.algorithm). Values are
split on commas; when a value contains commas, separate the values with '|' instead
(--set 'partition.shared.TRESBillingWeights=CPU=1,Mem=0.25G|CPU=2,Mem=0.5G'); a single
value with commas ends with '|'. The first --set varies slowest; the point index counts
from 0 in that order.

--seeds N repeats each point with generate.seed = s..s+N-1 (s: the scenario's seed).

sweep.csv columns: point, the parameters (and seed), then jobs, jobs_started,
jobs_never_started, jobs_rejected, wait_mean_s, wait_median_s, wait_p95_s, wait_max_s,
bsld_mean (bounded slowdown, 10 s bound), utilization, backfilled_share (started by
backfill / started), preempted_jobs, preempted_lost_core_hours, starved_jobs, jain_fairness
(Jain's index over usage_share/norm_share of the accounts), share_error_max; then per
account, as METRIC[account]: jobs, wait_mean_s, wait_median_s, wait_p95_s, bsld_mean,
usage_share (part of the delivered TRES billing), norm_share (the account's share of the
association tree, renormalised over the accounts that ran jobs; equal shares without a
tree), share_error (usage_share - norm_share), starved_jobs.
A job is starved when it waited longer than --starved-after (default 1-0, 24 hours) or
never started and had been waiting that long when the run ended.

Beyond one machine:
  --shard I/N           run only shard I of N (numbered from 0: the points whose index
                        is I modulo N), e.g. one per SLURM_ARRAY_TASK_ID
  fairsim sweep merge --out DIR SHARDDIR...
                        combine shards into DIR/sweep.csv, byte for byte what one run
                        of the whole grid writes
  --emit-sbatch FILE    write a Slurm job-array script for the sweep (one shard per task,
                        then a merge job with --dependency=afterok); run it with bash.`,
		Flags: []cli.Flag{
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
		},
		Subcommands: []*cli.Command{sweepMergeCommand()},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return fmt.Errorf("sweep: unexpected argument %q (did you mean 'fairsim sweep merge'?)", c.Args().First())
			}
			sw, err := workflow.NewSweep(c.String("scenario"), *c.Generic("set").(*listFlag), c.Int("seeds"), c.String("starved-after"))
			if err != nil {
				return err
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
		Name:      "merge",
		Usage:     "combine the shards of a sweep into one sweep.csv",
		ArgsUsage: "SHARDDIR...",
		Description: `Reads the sweep.yaml and sweep.csv of each shard directory, checks they belong to
one sweep and hold every point once, and writes --out DIR/sweep.csv (the same bytes a
single run of the whole sweep writes) and DIR/sweep.yaml. Point directories stay in the
shards. Without --out, the first argument is the output directory when it is not a shard.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR`"},
		},
		Action: func(c *cli.Context) error {
			dirs := c.Args().Slice()
			out := c.String("out")
			if out == "" && len(dirs) > 1 {
				if _, err := workflow.ReadManifest(dirs[0]); err != nil {
					out, dirs = dirs[0], dirs[1:]
				}
			}
			if out == "" {
				return fmt.Errorf("sweep merge: give --out DIR")
			}
			if err := workflow.Merge(out, dirs); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "sweep merge: %d shards into %s\n", len(dirs), filepath.Join(out, "sweep.csv"))
			return nil
		},
	}
}
