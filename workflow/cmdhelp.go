package workflow

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// The descriptions of commands whose help outgrew cmd/fairsim's line budget.

// SprioHelp is fairsim sprio's description.
const SprioHelp = `Simulates a scenario (scheduler: slurm) up to --at and prints the priority of
every pending, eligible job as Slurm's sprio prints it, sorted by job id:

  fairsim sprio --scenario s.yaml --at 1-0 -l
  fairsim sprio --scenario s.yaml --at 2024-03-01T09:00 -u alice,bob
  fairsim sprio --scenario s.yaml -w             the weights (no simulation)

Each factor column is the weighted term (PriorityWeight* x factor), rounded
to an integer (%.0f); PRIORITY is their sum (site + age + assoc + fairshare +
jobsize + partition + qos + TRES - nice, at least 1, truncated), which is the
job's priority unless PriorityFlags=INCR_ONLY kept an older, larger one
(sprio shows the sum then too). With PriorityFlags=CALCULATE_RUNNING running
jobs are listed as well. -n divides each term by its weight (a weight of 0
shows 0) and shows PRIORITY / (2^32-1); TRES shows name=factor. -w prints the
configured weights ("Weights" line; SITE is always 1). Without -l, columns of
zero weights are left out, and USER appears only with -u.

` + AtHelp

// SshareHelp is fairsim sshare's description.
const SshareHelp = `Prints the association tree's shares, usage and fair-share factors exactly as
Slurm's sshare prints them (columns, widths, indentation, -p/-P, "parent", "inf"
and blank cells), two ways:

  static, no simulation: an association tree (sacctmgr dump file) and a usage
  table (CSV with header account,user,rawusage: one row per user association,
  raw usage in billing-seconds, i.e. decayed TRES-billing x seconds; accounts
  add up their users):
    fairsim sshare --assoc assoc.cfg --usage usage.csv -a -l
    fairsim sshare --assoc assoc.cfg --usage usage.csv --flags NO_FAIR_TREE -a -l -P

  at a simulated time (scheduler: slurm), the run's fair-share engine:
    fairsim sshare --scenario s.yaml --at 7-0 -a -l

The algorithm is the one PriorityFlags selects (--flags: Fair Tree by default,
NO_FAIR_TREE classic 2^(-UE/S), DEPTH_OBLIVIOUS); --algorithm overrides it and
also offers slurm20, Slurm 2.0's F = (S - UE + 1)/2 (a fairsim extension).
With a scenario both come from the scenario (PriorityFlags, fairshare.algorithm).
Under Fair Tree -l adds LevelFS and accounts have no FairShare.

Without -a (or -u) only account rows are printed: sshare adds the invoking
user's rows, and fairsim has no invoking user.

` + AtHelp

// ExplainHelp is fairsim explain's description.
const ExplainHelp = `Simulates the run again, following one job, and prints its story: submit, eligible
and start times; the Reason squeue would have shown and for how long; its priority
broken down by factor (as sprio shows it) and its rank among the pending jobs of its
partition at every PriorityCalcPeriod tick; the reservation backfill gave it and how it
moved; the jobs that started on its partition's nodes while it waited, and by which
pass; and its association's fair-share factor against its account's usage and share.

  fairsim explain --run results/odyssey --job 1234
  fairsim explain --scenario scenarios/odyssey.yaml --job 1234

With --run, the scenario comes from DIR/scenario.resolved.yaml; its relative file
names (slurm_conf, assoc, ...) are looked up under --scenario-dir, the working
directory, scenarios/ and DIR.`

// SqueueHelp is fairsim squeue's description.
const SqueueHelp = `Simulates a scenario (scheduler: slurm) up to --at and lists the jobs pending
and running then, as squeue does: default columns JOBID PARTITION NAME USER ST TIME
NODES NODELIST(REASON), sorted by partition, state and priority (squeue's "P,t,-p").
A pending job's reason is the one the last pass gave it (Resources, Priority, a
limit such as QOSMaxJobsPerUserLimit, BeginTime, ...; None before any pass). Traces
record no job names: NAME is "sbatch", what Slurm shows for a script from stdin.

  fairsim squeue --scenario scenarios/odyssey.yaml --at 1-0
  fairsim squeue --scenario s.yaml --at 2-12:00:00 -t PD -u alice,bob -p batch
  fairsim squeue --scenario s.yaml --at 1-0 -o "%.18i %.9q %.8a %.2t %.10l %.8Q %r"

-o takes squeue's %[.][width]X specifiers ('.' right-justifies; values are cut to
the width) for X in i (job id), P (partition), j (name), u (user), a (account),
q (QOS), t (state code), T (state), M (time used), l (time limit), D (nodes),
Q (priority), r (reason), N (node list) and R (node list, or the reason in
parentheses). -t takes PD/PENDING, R/RUNNING or all.

` + AtHelp

// UnknownCommand is the error for a command name fairsim does not have,
// naming the nearest one (urfave/cli's Jaro-Winkler suggestion) so a typo
// such as "fairsim sweeep" is one step from the right command.
func UnknownCommand(cmds []*cli.Command, name string) error {
	if cli.SuggestCommand != nil {
		if s := cli.SuggestCommand(cmds, name); s != "" {
			return fmt.Errorf("unknown command %q. %s (see fairsim --help)", name, s)
		}
	}
	return fmt.Errorf("unknown command %q (see fairsim --help)", name)
}
