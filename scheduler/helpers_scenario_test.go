package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// The unit scenarios (*_scenario_test.go) run the slurm scheduler on a
// handful of jobs and nodes built by hand, so that every start time can be
// worked out on paper; each test writes that arithmetic in its comments.
//
// The clock they rely on (sim.Simulator with the slurm scheduler's
// triggers, Slurm's defaults): time 0 is the first submit and the
// controller's start; a submit queues a main pass that runs once
// batch_sched_delay = 3 s have passed since the previous queued or full
// pass (controller.c _slurmctld_background): at 3 for the first submits,
// at once for a later submit after a quiet spell (these tests used to
// expect every submit's pass 3 s after it); a job end triggers one at
// once; full passes run every sched_interval = 60 s from t0+60; backfill
// first at t0+30, then bf_interval = 30 s after the previous cycle ended,
// or at the poll (one second) after the next change when nothing changed
// (backfill.c backfill_agent, _more_work); calc ticks (with a policy)
// every PriorityCalcPeriod from t0.
// At one instant, ends come before ticks, ticks before submits, submits
// before main passes, main passes before backfill.

// tjob is a job of a unit scenario. Zero fields take the defaults of
// newJobs: partition "p", account "a", user "u", no QOS, no memory request.
type tjob struct {
	id      int64
	submit  int64
	part    string
	cpus    int
	run     int64 // actual runtime, seconds (on Broadwell, speed 1)
	limit   int64 // time limit, seconds
	acct    string
	user    string
	qos     string
	memPerC int64  // MB per CPU; 0 = a core's share of its node
	feature string // a CPU type the job is constrained to; "" for any
	begin   int64  // eligible from (sbatch --begin); 0 for at submit
	array   int64  // the job array it is a task of (ArrayJobID); 0 for none
	task    int32  // its task index in the array
	maxRun  int32  // the array's throttle (--array=...%N); 0 for none
	nodes   int    // sbatch -N: exact node count; 0 for none
	minOnly bool   // nodes is a trace's ReqNodes: the minimum alone, no -N max
	plist   string // sbatch -p a,b: the partitions it may run in; "" for part alone
	failed  bool   // the trace says it ended abnormally (SWF status 0), not completed
}

// newJobs interns the jobs' names and returns them as trace records.
func newJobs(tjs []tjob) ([]workload.Job, *workload.Names) {
	names := &workload.Names{}
	var out []workload.Job
	for _, t := range tjs {
		def := func(s, d string) string {
			if s == "" {
				return d
			}
			return s
		}
		j := workload.Job{ID: t.id, Submit: t.submit, Eligible: workload.Unset, Wait: workload.Unset,
			Runtime: t.run, CPUs: t.cpus, AllocCPUs: t.cpus, Nodes: workload.Unset, MemPerCPU: workload.Unset,
			TimeLimit: t.limit, Status: status(t.failed), Feature: workload.Unset, QOS: workload.Unset, Queue: workload.Unset,
			Executable: workload.Unset, UsedCPU: workload.Unset, UsedMemKB: workload.Unset, Preceding: workload.Unset}
		if t.memPerC > 0 {
			j.MemPerCPU = t.memPerC
		}
		if t.begin > 0 {
			j.Eligible = t.begin
		}
		j.ArrayJobID, j.ArrayTaskID, j.ArrayMaxRun = t.array, t.task, t.maxRun
		if t.nodes > 0 {
			j.Nodes, j.MaxNodes = t.nodes, t.nodes
			if t.minOnly {
				j.MaxNodes = workload.Unset
			}
		}
		if t.plist != "" {
			j.PartitionList = 1 + names.PartitionLists.ID(t.plist)
			for _, p := range strings.Split(t.plist, ",") {
				names.Partitions.ID(p)
			}
		}
		j.Partition = names.Partitions.ID(def(t.part, "p"))
		j.User = names.Users.ID(def(t.user, "u"))
		j.Account = names.Accounts.ID(def(t.acct, "a"))
		j.Group = names.Groups.ID(def(t.acct, "a"))
		if t.qos != "" {
			j.QOS = names.QOS.ID(t.qos)
		}
		if t.feature != "" {
			j.Feature = names.Features.ID(t.feature)
		}
		out = append(out, j)
	}
	return out, names
}

// nodes is a NodeSpec of n Broadwell nodes named prefix1..prefixN.
func nodes(prefix string, n, cores int, memMB int64) sim.NodeSpec {
	ns := sim.NodeSpec{Type: "broadwell", Cores: cores, MemMB: memMB, Weight: 1}
	for i := 1; i <= n; i++ {
		ns.Names = append(ns.Names, prefix+string(rune('0'+i)))
	}
	return ns
}

// part is a partition over the named nodes (nil: all), with Slurm's
// defaults (PriorityTier 1, unlimited MaxTime).
func part(name string, nodeNames ...string) sim.PartitionSpec {
	return sim.PartitionSpec{Partition: sim.Partition{Name: name, PriorityTier: 1, PriorityJobFactor: 1,
		MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: nodeNames}
}

// cluster builds a cluster of the node specs' CPU types (Broadwell by
// default) without runtime scaling.
func cluster(t *testing.T, ns []sim.NodeSpec, ps []sim.PartitionSpec) *sim.Cluster {
	t.Helper()
	var types []sim.CPUType
	for _, name := range sim.CPUTypeNames() {
		for _, n := range ns {
			if n.Type == name {
				ct, _ := sim.LookupCPUType(name)
				types = append(types, ct)
				break
			}
		}
	}
	c, err := sim.NewCluster(types, ns, ps, "broadwell", false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// run simulates the jobs (until stopAt when positive) and returns the
// result and the jobs by id. mkPolicy, when not nil, builds the policy on
// the cluster and the jobs' names.
func run(t *testing.T, c *sim.Cluster, s sim.Scheduler, tjs []tjob, stopAt int64,
	mkPolicy func(*sim.Cluster, *workload.Names) sim.Policy) (*sim.Result, map[int64]*sim.Job) {
	t.Helper()
	return runWith(t, c, s, tjs, sim.Options{StopAt: stopAt}, mkPolicy)
}

// runWith is run with the simulator's options given whole (site events,
// for one).
func runWith(t *testing.T, c *sim.Cluster, s sim.Scheduler, tjs []tjob, opts sim.Options,
	mkPolicy func(*sim.Cluster, *workload.Names) sim.Policy) (*sim.Result, map[int64]*sim.Job) {
	t.Helper()
	stopAt := opts.StopAt
	jobs, names := newJobs(tjs)
	var pol sim.Policy
	if mkPolicy != nil {
		pol = mkPolicy(c, names)
	}
	src := workload.NewSliceSource(jobs, names, workload.Header{MaxNodes: workload.Unset, MaxProcs: workload.Unset})
	// The run retires its jobs, as fairsim run does, and checks each as
	// it retires (sim.InvariantStream); the test then reads every job.
	var retired []*sim.Job
	check := sim.NewInvariantStream(c)
	check.Every = 1 // a watermark at every retirement: the tightest order
	if opts.Retire == nil && stopAt <= 0 {
		opts.Retire = func(j *sim.Job) { retired = append(retired, j) }
		opts.Check = check
	}
	var r *sim.Result
	var err error
	func() {
		defer func() { // a scheduler panic fails this test, not the whole binary
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		r, err = sim.New(c, s, pol, src, opts).Run()
	}()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Check != nil {
		if err := check.Close(r); err != nil {
			t.Fatalf("invariants, checked as jobs retired: %v", err)
		}
		r.Jobs = append(retired, r.Jobs...)
		slices.SortFunc(r.Jobs, func(a, b *sim.Job) int { return a.Idx - b.Idx })
		if check.Jobs() != len(r.Jobs) {
			t.Fatalf("checked %d jobs of %d", check.Jobs(), len(r.Jobs))
		}
	}
	if stopAt <= 0 { // a stopped run has jobs still running, by design
		if err := sim.CheckInvariants(r); err != nil {
			t.Fatalf("invariants: %v", err)
		}
	}
	by := map[int64]*sim.Job{}
	for _, j := range r.Jobs {
		by[j.ID] = j
	}
	return r, by
}

// mfPolicy builds a Multifactor policy from an association dump and a
// QOS file (sacctmgr show qos -P), with AccountingStorageEnforce=limits
// (so GrpTRESMins is enforced) and a calc period of 60 s.
func mfPolicy(t *testing.T, dump, qos string, fs fairshare.Config) func(*sim.Cluster, *workload.Names) sim.Policy {
	return func(c *sim.Cluster, names *workload.Names) sim.Policy {
		t.Helper()
		tree, err := fairshare.ReadDump("test.cfg", strings.NewReader(dump))
		if err != nil {
			t.Fatal(err)
		}
		cfg := multifactor.Config{Priority: policy.DefaultParams(), FairShare: fs, CalcPeriod: 60,
			Tree: tree, EnforceLimits: true}
		if qos != "" {
			qs, _, err := policy.ParseQOSFile(strings.NewReader(qos), "qos.txt")
			if err != nil {
				t.Fatal(err)
			}
			cfg.QOS = qs
		}
		for _, p := range c.Parts {
			var w policy.TRESWeights
			if p.BillingWeights != "" {
				if w, err = policy.ParseTRESWeights(p.BillingWeights); err != nil {
					t.Fatal(err)
				}
			}
			cfg.PartitionBilling = append(cfg.PartitionBilling, w)
		}
		m, err := multifactor.New(cfg, c, names)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// want is the expected outcome of one job; a negative start means "still
// pending", an empty by means "do not check".
type want struct {
	id    int64
	start int64
	by    sim.StartKind
}

func checkStarts(t *testing.T, by map[int64]*sim.Job, ws []want) {
	t.Helper()
	for _, w := range ws {
		j := by[w.id]
		if j == nil {
			t.Errorf("job %d: missing", w.id)
			continue
		}
		if j.Start != w.start {
			t.Errorf("job %d: start %d, want %d (state %s, reason %q)", w.id, j.Start, w.start, j.State, j.Reason)
		}
		if w.start >= 0 && w.by != sim.NotStarted && j.StartedBy != w.by {
			t.Errorf("job %d: started by %q, want %q", w.id, j.StartedBy, w.by)
		}
	}
}

// randomJobs is n jobs on partitions p (two thirds) and q, arriving up
// to gap seconds apart, running minRun to minRun+2999 s, 1 to 40 cores,
// with limits over-estimated by up to 6,000 s, or one in five under
// (killed at its limit), and at least 60 s; account "a", user "ua".
func randomJobs(rng *rand.Rand, n, gap int, minRun int64) []tjob {
	var tjs []tjob
	at := int64(0)
	for i := range n {
		at += int64(rng.IntN(gap))
		run := minRun + int64(rng.IntN(3000))
		limit := run + int64(rng.IntN(6000))
		if rng.IntN(5) == 0 {
			limit = max(run/2, 1) // killed at its limit
		}
		p := "p"
		if rng.IntN(3) == 0 {
			p = "q"
		}
		tjs = append(tjs, tjob{id: int64(i + 1), submit: at, part: p, cpus: []int{1, 2, 4, 8, 16, 24, 40}[rng.IntN(7)], run: run,
			limit: max(limit, 60), acct: "a", user: "ua"})
	}
	return tjs
}

// planner is the slurm scheduler with Estimates on, for the hand-worked
// tests that read every record's reservation: by default a cycle ends
// once no record left can start, before the reservations after that.
func planner(p Params) *Slurm {
	s := NewSlurm(p)
	s.Estimates = true
	return s
}

// startOn is a job's expected start and CPUs by node ("n1:6 n2:2").
type startOn struct {
	id    int64
	start int64
	alloc string
}

// wantStarts checks each job's start and allocation.
func wantStarts(t *testing.T, c *sim.Cluster, by map[int64]*sim.Job, want []startOn) {
	t.Helper()
	for _, w := range want {
		j := by[w.id]
		var got []string
		for _, sl := range j.Alloc {
			got = append(got, fmt.Sprintf("%s:%d", c.Nodes[sl.Node].Name, sl.Cores))
		}
		if a := strings.Join(got, " "); j.Start != w.start || a != w.alloc {
			t.Errorf("job %d started at %d on %s, want %d on %s", w.id, j.Start, a, w.start, w.alloc)
		}
	}
}

// status is a tjob's SWF status: completed, or failed.
func status(failed bool) int {
	if failed {
		return workload.StatusFailed
	}
	return workload.StatusCompleted
}
