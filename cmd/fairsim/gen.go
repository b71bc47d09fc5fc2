package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"fairsim/slurmtime"
	"fairsim/workflow"
	"fairsim/workload"
)

func genCommand() *cli.Command {
	d := workload.DefaultGenConfig()
	return &cli.Command{
		Name:      "gen",
		Usage:     "generate a synthetic workload (SWF or sacct -P) and its association dump",
		ArgsUsage: " ",
		Description: `Draws a workload from a seeded generator: the same flags give the same file,
byte for byte. Arrivals follow a Poisson process with daily and weekly cycles; sizes
favour powers of two; runtimes are lognormal or log-uniform; limits overestimate
runtimes by a factor; users have Zipf-like activity and are spread over accounts
g1..gA (the SWF group field), whose shares go to the association dump.
The SWF header records every parameter.

  fairsim gen --seed 7 --jobs 5000 --out gen.swf --assoc-out assoc.cfg
  fairsim gen --seed 1 --jobs 20000 --days 60 --max-cpus 1024 --runtime loguniform --out gen.sacct`,
		Flags: []cli.Flag{
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.IntFlag{Name: "jobs", Value: d.Jobs, Usage: "number of jobs"},
			&cli.Float64Flag{Name: "days", Value: d.Days, Usage: "span of the arrivals in days (mean rate jobs/days)"},
			&cli.Float64Flag{Name: "daily", Value: d.Daily, Usage: "daily cycle amplitude, 0..1 (peak at 14:00)"},
			&cli.Float64Flag{Name: "weekend", Value: d.Weekend, Usage: "weekend arrival rate relative to weekdays"},
			&cli.StringFlag{Name: "start", Value: time.Unix(d.StartTime, 0).UTC().Format("2006-01-02"), Usage: "time 0, a UTC `DATE` (YYYY-MM-DD[THH:MM[:SS]])"},
			&cli.IntFlag{Name: "max-cpus", Value: d.MaxCPUs, Usage: "largest job and machine size in CPUs"},
			&cli.IntFlag{Name: "cpus-per-node", Value: d.CPUsPerNode, Usage: "CPUs per node (MaxNodes header)"},
			&cli.Float64Flag{Name: "pow2", Value: d.PowerOfTwo, Usage: "share of job sizes that are powers of two"},
			&cli.StringFlag{Name: "runtime", Value: d.Runtime, Usage: "runtime distribution: lognormal or loguniform"},
			&cli.Float64Flag{Name: "runtime-median", Value: d.RuntimeMedian, Usage: "lognormal median run time, seconds"},
			&cli.Float64Flag{Name: "runtime-sigma", Value: d.RuntimeSigma, Usage: "lognormal sigma (of the log)"},
			&cli.Float64Flag{Name: "runtime-min", Value: d.RuntimeMin, Usage: "loguniform shortest run time, seconds"},
			&cli.Float64Flag{Name: "runtime-max", Value: d.RuntimeMax, Usage: "loguniform longest run time, seconds"},
			&cli.Float64Flag{Name: "limit-factor", Value: d.LimitFactor, Usage: "time limit = run time x this, rounded up to a minute"},
			&cli.StringFlag{Name: "max-limit", Value: slurmtime.Format(d.MaxLimit), Usage: "cap on time limits (Slurm `TIME`)"},
			&cli.IntFlag{Name: "users", Value: d.Users, Usage: "number of users"},
			&cli.Float64Flag{Name: "zipf", Value: d.Zipf, Usage: "Zipf exponent of user activity"},
			&cli.IntFlag{Name: "accounts", Value: d.Accounts, Usage: "number of accounts"},
			&cli.StringFlag{Name: "shares", Usage: "account shares, one per account (`LIST`, default all 1)"},
			&cli.StringFlag{Name: "partitions", Value: "batch", Usage: "partition names (`LIST`)"},
			&cli.StringFlag{Name: "features", Usage: "CPU types jobs may ask for (`LIST`)"},
			&cli.Float64Flag{Name: "feature-share", Value: d.FeatureShare, Usage: "share of jobs asking for a feature"},
			&cli.Float64Flag{Name: "mem-share", Value: d.MemShare, Usage: "share of jobs requesting memory"},
			&cli.Int64Flag{Name: "mem-min", Value: d.MemMin, Usage: "smallest memory request, MB per CPU"},
			&cli.Int64Flag{Name: "mem-max", Value: d.MemMax, Usage: "largest memory request, MB per CPU"},
			&cli.StringFlag{Name: "cluster", Value: d.Cluster, Usage: "cluster `NAME` in the association dump"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output `FILE` (.swf, or .sacct for sacct -P; .gz compresses; - for stdout)"},
			&cli.StringFlag{Name: "assoc-out", Usage: "association dump `FILE` (sacctmgr dump format)"},
		},
		Action: func(c *cli.Context) error {
			cfg, err := genConfig(c)
			if err != nil {
				return err
			}
			g, err := workload.Generate(cfg)
			if err != nil {
				return err
			}
			if err := g.Save(c.String("out"), c.String("assoc-out"), c.App.Writer); err != nil {
				return err
			}
			if c.String("out") != "-" {
				fmt.Fprintf(c.App.ErrWriter, "generated %d jobs: %s\n", len(g.Jobs), g.Config)
			}
			return nil
		},
	}
}

// genConfig reads the flags into a GenConfig.
func genConfig(c *cli.Context) (workload.GenConfig, error) {
	cfg := workload.DefaultGenConfig()
	cfg.Seed = c.Uint64("seed")
	cfg.Jobs = c.Int("jobs")
	cfg.Days = c.Float64("days")
	cfg.Daily = c.Float64("daily")
	cfg.Weekend = c.Float64("weekend")
	start, err := slurmtime.ParseDateOrDuration(c.String("start"), 0, time.UTC)
	if err != nil {
		return cfg, fmt.Errorf("--start: %v", err)
	}
	cfg.StartTime = start
	cfg.MaxCPUs = c.Int("max-cpus")
	cfg.CPUsPerNode = c.Int("cpus-per-node")
	cfg.PowerOfTwo = c.Float64("pow2")
	cfg.Runtime = c.String("runtime")
	cfg.RuntimeMedian = c.Float64("runtime-median")
	cfg.RuntimeSigma = c.Float64("runtime-sigma")
	cfg.RuntimeMin = c.Float64("runtime-min")
	cfg.RuntimeMax = c.Float64("runtime-max")
	cfg.LimitFactor = c.Float64("limit-factor")
	if cfg.MaxLimit, err = slurmtime.ParseSeconds(c.String("max-limit")); err != nil {
		return cfg, fmt.Errorf("--max-limit: %v", err)
	}
	cfg.Users = c.Int("users")
	cfg.Zipf = c.Float64("zipf")
	cfg.Accounts = c.Int("accounts")
	for _, s := range workflow.SplitList(c.String("shares")) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return cfg, fmt.Errorf("--shares: %q is not a number", s)
		}
		cfg.Shares = append(cfg.Shares, v)
	}
	cfg.Partitions = workflow.SplitList(c.String("partitions"))
	cfg.Features = workflow.SplitList(c.String("features"))
	cfg.FeatureShare = c.Float64("feature-share")
	cfg.MemShare = c.Float64("mem-share")
	cfg.MemMin = c.Int64("mem-min")
	cfg.MemMax = c.Int64("mem-max")
	cfg.Cluster = c.String("cluster")
	return cfg, cfg.Validate()
}
