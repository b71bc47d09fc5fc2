package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/slurmtext"
	"fairsim/workflow"
	"fairsim/workload"
)

func genCommand() *cli.Command {
	s := workflow.NewGenSpec()
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
			&cli.Uint64Flag{Name: "seed", Destination: &s.Seed, Value: 1, Usage: "random seed"},
			&cli.IntFlag{Name: "jobs", Destination: &s.Jobs, Value: s.Jobs, Usage: "number of jobs"},
			&cli.Float64Flag{Name: "days", Destination: &s.Days, Value: s.Days, Usage: "span of the arrivals in days (mean rate jobs/days)"},
			&cli.Float64Flag{Name: "daily", Destination: &s.Daily, Value: s.Daily, Usage: "daily cycle amplitude, 0..1 (peak at 14:00)"},
			&cli.Float64Flag{Name: "weekend", Destination: &s.Weekend, Value: s.Weekend, Usage: "weekend arrival rate relative to weekdays"},
			&cli.StringFlag{Name: "start", Destination: &s.Start, Value: s.Start, Usage: "time 0, a UTC `DATE` (YYYY-MM-DD[THH:MM[:SS]])"},
			&cli.IntFlag{Name: "max-cpus", Destination: &s.MaxCPUs, Value: s.MaxCPUs, Usage: "largest job and machine size in CPUs"},
			&cli.IntFlag{Name: "cpus-per-node", Destination: &s.CPUsPerNode, Value: s.CPUsPerNode, Usage: "CPUs per node (MaxNodes header)"},
			&cli.Float64Flag{Name: "pow2", Destination: &s.PowerOfTwo, Value: s.PowerOfTwo, Usage: "share of job sizes that are powers of two"},
			&cli.StringFlag{Name: "runtime", Destination: &s.Runtime, Value: s.Runtime, Usage: "runtime distribution: lognormal or loguniform"},
			&cli.Float64Flag{Name: "runtime-median", Destination: &s.RuntimeMedian, Value: s.RuntimeMedian, Usage: "lognormal median run time, seconds"},
			&cli.Float64Flag{Name: "runtime-sigma", Destination: &s.RuntimeSigma, Value: s.RuntimeSigma, Usage: "lognormal sigma (of the log)"},
			&cli.Float64Flag{Name: "runtime-min", Destination: &s.RuntimeMin, Value: s.RuntimeMin, Usage: "loguniform shortest run time, seconds"},
			&cli.Float64Flag{Name: "runtime-max", Destination: &s.RuntimeMax, Value: s.RuntimeMax, Usage: "loguniform longest run time, seconds"},
			&cli.Float64Flag{Name: "limit-factor", Destination: &s.LimitFactor, Value: s.LimitFactor, Usage: "time limit = run time x this, rounded up to a minute"},
			&cli.StringFlag{Name: "max-limit", Destination: &s.MaxLimit, Value: s.MaxLimit, Usage: "cap on time limits (Slurm `TIME`)"},
			&cli.IntFlag{Name: "users", Destination: &s.Users, Value: s.Users, Usage: "number of users"},
			&cli.Float64Flag{Name: "zipf", Destination: &s.Zipf, Value: s.Zipf, Usage: "Zipf exponent of user activity"},
			&cli.IntFlag{Name: "accounts", Destination: &s.Accounts, Value: s.Accounts, Usage: "number of accounts"},
			&cli.StringFlag{Name: "shares", Destination: &s.Shares, Usage: "account shares, one per account (`LIST`, default all 1)"},
			&cli.StringFlag{Name: "partitions", Destination: &s.Partitions, Value: s.Partitions, Usage: "partition names (`LIST`)"},
			&cli.StringFlag{Name: "features", Destination: &s.Features, Usage: "CPU types jobs may ask for (`LIST`)"},
			&cli.Float64Flag{Name: "feature-share", Destination: &s.FeatureShare, Value: s.FeatureShare, Usage: "share of jobs asking for a feature"},
			&cli.Float64Flag{Name: "mem-share", Destination: &s.MemShare, Value: s.MemShare, Usage: "share of jobs requesting memory"},
			&cli.Int64Flag{Name: "mem-min", Destination: &s.MemMin, Value: s.MemMin, Usage: "smallest memory request, MB per CPU"},
			&cli.Int64Flag{Name: "mem-max", Destination: &s.MemMax, Value: s.MemMax, Usage: "largest memory request, MB per CPU"},
			&cli.Float64Flag{Name: "gpu-share", Destination: &s.GPUShare, Value: s.GPUShare, Usage: "share of jobs asking GPUs"},
			&cli.GenericFlag{Name: "gpus-per-job", Value: &s.GPUsPerJob, Usage: "GPU counts and weights (`DIST`, default 1:0.5,2:0.25,4:0.15,8:0.1)"},
			&cli.GenericFlag{Name: "qos", Value: &s.QOS, Usage: "QOS the jobs ask for, by weight (`MIX`, e.g. normal:0.85,high:0.1,standby:0.05; default none)"},
			&cli.StringFlag{Name: "gpu-partitions", Usage: "partitions of the GPU jobs, added to --partitions (`LIST`; default any)"},
			&cli.StringFlag{Name: "gpu-types", Usage: "GPU types a share of GPU jobs asks for (`LIST`)"},
			&cli.Float64Flag{Name: "gpu-type-share", Destination: &s.GPUTypeShare, Value: s.GPUTypeShare, Usage: "share of GPU jobs asking a GPU type"},
			&cli.IntFlag{Name: "cpus-per-gpu", Destination: &s.CPUsPerGPU, Value: s.CPUsPerGPU, Usage: "CPUs a GPU job asks per GPU"},
			&cli.IntFlag{Name: "gpus-per-node", Destination: &s.GPUsPerNode, Value: s.GPUsPerNode, Usage: "most GPUs a job asks on one node (larger jobs span nodes)"},
			&cli.StringFlag{Name: "cluster", Destination: &s.Cluster, Value: s.Cluster, Usage: "cluster `NAME` in the association dump"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output `FILE` (.swf, or .sacct for sacct -P; .gz compresses; - for stdout)"},
			&cli.StringFlag{Name: "assoc-out", Usage: "association dump `FILE` (sacctmgr dump format)"},
		},
		Action: func(c *cli.Context) error {
			s.GPUPartitions, s.GPUTypes = slurmtext.SplitList(c.String("gpu-partitions")), slurmtext.SplitList(c.String("gpu-types"))
			cfg, err := s.Config()
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
