package workflow

import (
	"fmt"
	"io"
	"os"

	"fairsim/config"
	"fairsim/policy"
	"fairsim/policy/fairshare"
)

// StaticSshare computes sshare's rows without a simulation, from an
// association dump and a usage table (usagePath "" for none), by the
// algorithm PriorityFlags flags selects or, when given, the one named
// alg: how a site checks fairsim's fair-share against its own sshare.
func StaticSshare(dumpPath, usagePath, flags, alg string, warn io.Writer) ([]fairshare.Row, fairshare.Algorithm, error) {
	a, err := sshareAlgorithm(flags, alg)
	if err != nil {
		return nil, 0, err
	}
	eng, err := staticEngine(dumpPath, usagePath, a, warn)
	if err != nil {
		return nil, 0, err
	}
	return eng.Rows(), a, nil
}

// sshareAlgorithm picks the algorithm as slurmctld does from PriorityFlags;
// --algorithm, when given, overrides it.
func sshareAlgorithm(flags, name string) (fairshare.Algorithm, error) {
	f, err := policy.ParsePriorityFlags(flags)
	if err != nil {
		return 0, fmt.Errorf("--flags: %w", err)
	}
	alg := fairshare.FromPriorityFlags(!f.Has(policy.FlagFairTree), f.Has(policy.FlagDepthOblivious))
	if name != "" {
		if alg, err = fairshare.ParseAlgorithm(name); err != nil {
			return 0, fmt.Errorf("--algorithm: %w (want fairtree, classic, depth-oblivious or slurm20)", err)
		}
	}
	return alg, nil
}

// staticEngine loads a dump and a usage table into an engine and computes
// every factor once, as slurmctld does after loading usage.
func staticEngine(dumpPath, usagePath string, alg fairshare.Algorithm, warn io.Writer) (*fairshare.Engine, error) {
	f, err := os.Open(dumpPath)
	if err != nil {
		return nil, fmt.Errorf("--assoc: %w", err)
	}
	tree, warns, err := fairshare.ReadAssocFile(dumpPath, f)
	f.Close()
	for _, w := range warns {
		fmt.Fprintln(warn, "fairsim: warning:", w)
	}
	if err != nil {
		return nil, err
	}
	eng, err := fairshare.NewEngine(tree, fairshare.Config{Algorithm: alg})
	if err != nil {
		return nil, err
	}
	var entries []fairshare.UsageEntry
	if usagePath != "" {
		u, err := os.Open(usagePath)
		if err != nil {
			return nil, fmt.Errorf("--usage: %w", err)
		}
		entries, err = fairshare.ReadUsageCSV(usagePath, u, tree)
		u.Close()
		if err != nil {
			return nil, err
		}
	}
	if err := eng.LoadUsage(entries); err != nil {
		return nil, err
	}
	return eng, nil
}

// SimulatedSshare gives sshare's rows of a simulated run's fair-share
// engine and sets what the options take from the run: the algorithm, the
// cluster name, and gres/gpu in the TRES columns when accounting tracks it
// (sshare prints it after the fixed TRES, as Slurm orders TRES by id).
func SimulatedSshare(run *config.Run, opt *fairshare.SshareOptions) []fairshare.Row {
	eng := run.Multifactor.Engine()
	opt.Algorithm = eng.Config().Algorithm
	opt.Cluster = run.Multifactor.Tree().Cluster()
	for _, t := range run.Cluster.TRESGres {
		if t.Name == "gres/gpu" {
			opt.TRESCount = fairshare.NumTRES
		}
	}
	return eng.Rows()
}
