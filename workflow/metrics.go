package workflow

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"fairsim/config"
	"fairsim/policy/fairshare"
	"fairsim/report"
	"fairsim/sim"
)

// DefaultStarvedAfter is the wait beyond which a job counts as starved
// (24 hours) unless a sweep says otherwise.
const DefaultStarvedAfter = 86400

// Field is one named figure, formatted for CSV.
type Field struct {
	Name, Value string
}

// OverallNames are the run-wide columns of sweep.csv, in order; the
// names are summary.csv's where the statistic is the same.
var OverallNames = []string{
	report.MetricJobs, report.MetricStarted, report.MetricNeverStarted, report.MetricRejected,
	report.MetricWaitMean, report.MetricWaitMedian, report.MetricWaitP95, report.MetricWaitMax,
	report.MetricBSLDMean, report.MetricUtilization, report.MetricBackfilledShare,
	report.MetricPreempted, report.MetricLostCoreHours,
	report.MetricStarved, report.MetricJain, report.MetricShareErrorMax,
}

// AccountNames are the per-account columns of sweep.csv, each written
// NAME[account], grouped by metric so that one metric's accounts sit side
// by side.
var AccountNames = []string{
	report.MetricJobs, report.MetricWaitMean, report.MetricWaitMedian, report.MetricWaitP95, report.MetricBSLDMean,
	report.MetricUsageShare, report.MetricNormShare, report.MetricShareError, report.MetricStarved,
}

// SweepHelp is `fairsim sweep --help`'s description. It lists the
// columns of sweep.csv, so it lives beside OverallNames and AccountNames.
const SweepHelp = `Runs the scenario once per point of the grid the --set flags span, writing each
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
bounded_slowdown_mean_10s (bounded slowdown, 10 s bound), utilization, backfilled_share (started by
backfill / started), jobs_preempted, preempted_lost_core_hours, starved_jobs, jain_fairness
(Jain's index over usage_share/norm_share of the accounts), share_error_max; then per
account, as METRIC[account]: jobs, wait_mean_s, wait_median_s, wait_p95_s, bounded_slowdown_mean_10s,
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
                        then a merge job with --dependency=afterok); run it with bash.`

// Metrics are what a sweep records of one run.
type Metrics struct {
	Overall  []Field            // OverallNames, in order
	Accounts map[string][]Field // per account: AccountNames, in order
}

// AccountColumn names a per-account column.
func AccountColumn(metric, account string) string { return metric + "[" + account + "]" }

// SplitAccountColumn undoes AccountColumn; ok is false for an overall
// column.
func SplitAccountColumn(col string) (metric, account string, ok bool) {
	i := strings.IndexByte(col, '[')
	if i <= 0 || !strings.HasSuffix(col, "]") {
		return col, "", false
	}
	return col[:i], col[i+1 : len(col)-1], true
}

// Fields flattens m: overall figures, then each account's (accounts in
// name order), as point.csv stores them.
func (m Metrics) Fields() []Field {
	out := slices.Clone(m.Overall)
	accts := make([]string, 0, len(m.Accounts))
	for a := range m.Accounts {
		accts = append(accts, a)
	}
	slices.SortFunc(accts, report.NaturalCompare) // g2 before g10
	for _, a := range accts {
		for _, f := range m.Accounts[a] {
			out = append(out, Field{AccountColumn(f.Name, a), f.Value})
		}
	}
	return out
}

func f6(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	s := strconv.FormatFloat(v, 'f', 6, 64)
	if s == "-0.000000" {
		s = "0.000000"
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// accountStats are what Compute gathers of one account's jobs.
type accountStats struct {
	n        int // jobs not rejected
	waits    report.WaitStats
	starved  int
	usage    float64 // billing-seconds (core-seconds without billing)
	coreSecs float64
}

// Starved reports whether a job starved: it waited longer than after
// seconds, or never started and had been eligible for longer than that
// when the run ended (a job cancelled while pending counts up to its
// cancellation). Rejected jobs never starve: they were refused at submit.
func Starved(j *sim.Job, now, after int64) bool {
	switch {
	case j.State == sim.Rejected:
		return false
	case j.Start >= 0:
		return j.Start-j.EligibleTime > after
	case j.State == sim.Cancelled && j.End >= 0:
		return j.End-j.EligibleTime > after
	default:
		return now-j.EligibleTime > after
	}
}

// Compute derives a run's sweep metrics from a result that kept every
// job (PointTally gathers them as jobs retire).
//
//   - Waits (start - submit) and bounded slowdown are over started jobs,
//     as in summary.csv.
//   - usage_share is an account's part of the delivered TRES billing
//     (billing × elapsed; core-seconds when the scheduler has no billing,
//     i.e. fifo and easy).
//   - norm_share is the account's share of the association tree (Slurm's
//     classic NormShares, the product of share fractions down the tree),
//     renormalised over the accounts that submitted jobs; without a tree
//     (fifo, easy) every such account has an equal share.
//   - share_error = usage_share - norm_share; share_error_max is the
//     largest |share_error|.
//   - jain_fairness is Jain's index over x = usage_share / norm_share of
//     accounts with a share: (Σx)² / (n Σx²), 1 when every account got
//     exactly its share, 1/n when one got everything.
//   - starved_jobs: see Starved (counted from eligibility, so a begin
//     time or a dependency is not starvation); after is the threshold
//     in seconds.
//   - backfilled_share is jobs started by backfill over jobs started.
func Compute(run *config.Run, r *sim.Result, after int64) Metrics {
	t := NewPointTally(after)
	for _, j := range r.Jobs {
		t.Add(r, j)
	}
	return t.Metrics(run, r, report.Compute(r))
}

// PointTally gathers a run's per-account sweep metrics one job at a time,
// in arrival order, as report.JobTally gathers summary.csv's, so that a
// sweep point need not keep its jobs: a CEA-Curie point took 830 MB
// with every job kept, 80 MB streamed.
type PointTally struct {
	after   int64
	byAcct  map[string]*accountStats
	starved int
	// waiting are the jobs that never started and were still waiting
	// when added: whether they starved depends on when the run ended.
	waiting                 []waitingJob
	totalBilling, totalCore float64
}

type waitingJob struct {
	eligible int64
	as       *accountStats
}

// NewPointTally is an empty tally counting a job as starved past after
// seconds (Starved).
func NewPointTally(after int64) *PointTally {
	return &PointTally{after: after, byAcct: map[string]*accountStats{}}
}

// Add tallies job j, in its final state, of run r.
func (t *PointTally) Add(r *sim.Result, j *sim.Job) {
	a := r.Names.Accounts.Name(j.Account)
	as := t.byAcct[a]
	if as == nil {
		as = &accountStats{}
		t.byAcct[a] = as
	}
	if j.State == sim.Rejected {
		return
	}
	as.n++
	if j.Start < 0 && !(j.State == sim.Cancelled && j.End >= 0) {
		t.waiting = append(t.waiting, waitingJob{j.EligibleTime, as})
	} else if Starved(j, 0, t.after) { // now is not read: it started or was cancelled
		t.starved++
		as.starved++
	}
	if j.Start < 0 {
		return
	}
	run := float64(j.End - j.Start)
	as.waits.Add(j)
	as.usage += j.Billing * run
	as.coreSecs += run * float64(j.Alloc.Cores())
	t.totalBilling += j.Billing * run
	t.totalCore += run * float64(j.Alloc.Cores())
}

// Metrics are the sweep metrics of the jobs added, for run (its
// association tree) ended as r (r.Now), with m the run's summary figures.
func (t *PointTally) Metrics(run *config.Run, r *sim.Result, m report.Metrics) Metrics {
	starved := t.starved
	late := map[*accountStats]int{} // of the waiting, those starved by r.Now
	for _, w := range t.waiting {
		if Starved(&sim.Job{State: sim.Pending, Start: -1, EligibleTime: w.eligible}, r.Now, t.after) {
			starved++
			late[w.as]++
		}
	}
	byAcct, totalBilling, totalCore := t.byAcct, t.totalBilling, t.totalCore
	useCore := totalBilling <= 0
	accts := make([]string, 0, len(byAcct))
	for a, as := range byAcct {
		if as.n > 0 {
			accts = append(accts, a)
		}
	}
	slices.Sort(accts)

	shares := accountShares(run, accts)
	out := Metrics{Accounts: map[string][]Field{}}
	var xs []float64
	maxErr := 0.0
	for _, a := range accts {
		as := byAcct[a]
		u := 0.0
		switch {
		case useCore && totalCore > 0:
			u = as.coreSecs / totalCore
		case !useCore:
			u = as.usage / totalBilling
		}
		s := shares[a]
		errV := u - s
		maxErr = math.Max(maxErr, math.Abs(errV))
		if s > 0 {
			xs = append(xs, u/s)
		}
		w := as.waits.Waits()
		out.Accounts[a] = []Field{
			{report.MetricJobs, itoa(as.n)}, {report.MetricWaitMean, f6(w.Mean)}, {report.MetricWaitMedian, f6(w.Median)},
			{report.MetricWaitP95, f6(w.P95)}, {report.MetricBSLDMean, f6(w.BSLDMean)}, {report.MetricUsageShare, f6(u)},
			{report.MetricNormShare, f6(s)}, {report.MetricShareError, f6(errV)}, {report.MetricStarved, itoa(as.starved + late[as])},
		}
	}
	bfShare := math.NaN()
	if m.Started > 0 {
		bfShare = float64(m.Backfilled) / float64(m.Started)
	}
	nanIfNone := func(v float64) float64 {
		if m.Started == 0 {
			return math.NaN()
		}
		return v
	}
	out.Overall = []Field{
		{report.MetricJobs, itoa(m.Jobs)}, {report.MetricStarted, itoa(m.Started)},
		{report.MetricNeverStarted, itoa(m.NeverStarted)}, {report.MetricRejected, itoa(m.Rejected)},
		{report.MetricWaitMean, f6(nanIfNone(m.MeanWait))}, {report.MetricWaitMedian, f6(nanIfNone(m.MedianWait))},
		{report.MetricWaitP95, f6(nanIfNone(m.P95Wait))}, {report.MetricWaitMax, f6(nanIfNone(m.MaxWait))},
		{report.MetricBSLDMean, f6(nanIfNone(m.MeanBSLD))}, {report.MetricUtilization, f6(m.Utilization)},
		{report.MetricBackfilledShare, f6(bfShare)}, {report.MetricPreempted, itoa(m.Preempted)},
		{report.MetricLostCoreHours, f6(m.LostCoreHours)}, {report.MetricStarved, itoa(starved)},
		{report.MetricJain, f6(Jain(xs))}, {report.MetricShareErrorMax, f6(maxErr)},
	}
	return out
}

// Jain is Jain's fairness index (Σx)² / (n Σx²) of non-negative values;
// NaN for none, 1 when all are equal (all zero included).
func Jain(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 1
	}
	return s * s / (float64(len(xs)) * s2)
}

// accountShares gives each account its share of the tree, renormalised
// over accts; equal shares without a tree.
func accountShares(run *config.Run, accts []string) map[string]float64 {
	out := map[string]float64{}
	if len(accts) == 0 {
		return out
	}
	var tree *fairshare.Tree
	if run != nil && run.Multifactor != nil {
		tree = run.Multifactor.Engine().Tree()
	}
	if tree == nil {
		for _, a := range accts {
			out[a] = 1 / float64(len(accts))
		}
		return out
	}
	total := 0.0
	for _, a := range accts {
		if i, ok := tree.Lookup(strings.ToLower(a), ""); ok {
			out[a] = tree.NormShares(i, fairshare.Classic)
			total += out[a]
		}
	}
	for _, a := range accts {
		if total > 0 {
			out[a] /= total
		}
	}
	return out
}
