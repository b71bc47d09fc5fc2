package sim

import (
	"fmt"
	"strings"
	"testing"

	"fairsim/workload"
)

// The sim tests build clusters of a few nodes and workloads of a few jobs
// by hand, so that every placement, start and end can be worked out on
// paper; each test writes that arithmetic in its comments.

// nodeGroup is NodeSpec shorthand: names, CPU type, cores, MB, Weight.
func nodeGroup(typ string, cores int, mem int64, weight int, names ...string) NodeSpec {
	return NodeSpec{Names: names, Type: typ, Cores: cores, MemMB: mem, Weight: weight}
}

// numbered is k 8-core, 8000 MB Broadwell nodes named n0 to n(k-1),
// one group each.
func numbered(k int) []NodeSpec {
	var specs []NodeSpec
	for i := range k {
		specs = append(specs, nodeGroup("broadwell", 8, 8000, 1, fmt.Sprintf("n%d", i)))
	}
	return specs
}

// partSpec is a partition over the named nodes (none: all nodes) with no
// time limits.
func partSpec(name string, nodes ...string) PartitionSpec {
	ps := PartitionSpec{Partition: Partition{Name: name, MaxTime: Unlimited, DefaultTime: Unlimited}}
	if len(nodes) > 0 {
		ps.NodeNames = nodes
	}
	return ps
}

// newTestCluster builds a cluster whose CPU types are those its nodes use,
// slowest first, with runtimes measured on ref.
func newTestCluster(t testing.TB, ref string, scale bool, nodes []NodeSpec, parts ...PartitionSpec) *Cluster {
	t.Helper()
	if len(parts) == 0 {
		parts = []PartitionSpec{partSpec("p")}
	}
	used := map[string]bool{}
	for _, ns := range nodes {
		ct, err := LookupCPUType(ns.Type)
		if err != nil {
			t.Fatal(err)
		}
		used[ct.Name] = true
	}
	var types []CPUType
	for _, name := range CPUTypeNames() {
		if used[name] {
			ct, _ := LookupCPUType(name)
			types = append(types, ct)
		}
	}
	c, err := NewCluster(types, nodes, parts, ref, scale)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// node returns the index of the named node.
func node(t testing.TB, c *Cluster, name string) int {
	t.Helper()
	for i := range c.Nodes {
		if c.Nodes[i].Name == name {
			return i
		}
	}
	t.Fatalf("no node %s", name)
	return -1
}

// typeIdx returns the index of a CPU type in the cluster.
func typeIdx(t testing.TB, c *Cluster, name string) int {
	t.Helper()
	for i := range c.Types {
		if c.Types[i].Name == name {
			return i
		}
	}
	t.Fatalf("no CPU type %s in the cluster", name)
	return -1
}

// use takes cores and memory on a node, as a running job would.
func use(t testing.TB, c *Cluster, name string, cores int, mem int64) {
	t.Helper()
	c.take(node(t, c, name), -1, cores, mem, 0)
}

// allocString renders an allocation as "n1:4/4000 n2:2/2000" (node:cores/MB).
func allocString(c *Cluster, a Alloc) string {
	var parts []string
	for _, s := range a {
		parts = append(parts, fmt.Sprintf("%s:%d/%d", c.Nodes[s.Node].Name, s.Cores, s.MemMB))
	}
	return strings.Join(parts, " ")
}

// tj is a job of a test workload. Zero fields take defaults: partition
// none (the default partition), runtime 0, no time limit given (limit 0
// means Unset), status completed, no memory request, no constraint, no
// dependency.
type tj struct {
	id       int64
	submit   int64
	cpus     int
	nodes    int    // 0: Unset
	run      int64  // runtime on the reference CPU
	limit    int64  // 0: Unset
	status   string // "", "failed", "cancelled", "unknown"
	part     string // "": Unset
	feature  string // "": Unset
	mem      int64  // MB per CPU; 0: Unset
	pre      int64  // preceding job id; 0: Unset
	think    int64
	eligible int64 // begin time; 0: Unset
	// cancelAfter > 0 makes the job cancelled while pending: it leaves
	// the queue at submit + cancelAfter.
	cancelAfter int64
	line        int
	user        string // "": "u"
	resv        string // the reservation asked (--reservation); "": none
}

// workloadOf turns test jobs into trace records and their names.
func workloadOf(jobs []tj) ([]workload.Job, *workload.Names) {
	names := &workload.Names{}
	out := make([]workload.Job, 0, len(jobs))
	for _, t := range jobs {
		u := int64(workload.Unset)
		j := workload.Job{ID: t.id, Submit: t.submit, Eligible: u, Wait: u, Runtime: t.run, CPUs: t.cpus,
			AllocCPUs: t.cpus, Nodes: workload.Unset, MemPerCPU: u, TimeLimit: u, Status: 1,
			Group: workload.Unset, Account: workload.Unset, Partition: workload.Unset, QOS: workload.Unset,
			Feature: workload.Unset, Queue: workload.Unset, Executable: workload.Unset,
			UsedCPU: workload.Unset, UsedMemKB: workload.Unset, Preceding: u, ThinkTime: t.think, Line: t.line}
		j.User = names.Users.ID("u")
		if t.user != "" {
			j.User = names.Users.ID(t.user)
		}
		if t.resv != "" {
			j.Reservation = 1 + names.Reservations.ID(t.resv)
		}
		if t.nodes != 0 {
			j.Nodes = t.nodes
		}
		if t.limit != 0 {
			j.TimeLimit = t.limit
		}
		switch t.status {
		case "failed":
			j.Status = 0
		case "cancelled":
			j.Status = 5
		case "unknown":
			j.Status = workload.Unset
		}
		if t.part != "" {
			j.Partition = names.Partitions.ID(t.part)
		}
		if t.feature != "" {
			j.Feature = names.Features.ID(t.feature)
		}
		if t.mem != 0 {
			j.MemPerCPU = t.mem
		}
		if t.pre != 0 {
			j.Preceding = t.pre
		}
		if t.eligible != 0 {
			j.Eligible = t.eligible
		}
		if t.cancelAfter > 0 {
			j.CancelledPending = true
			j.Wait = t.cancelAfter
		}
		if j.Line == 0 {
			j.Line = len(out) + 1
		}
		out = append(out, j)
	}
	return out, names
}

// testSched is a tiny scheduler: each pass starts pending jobs in arrival
// order with TryAlloc, stopping at the first that does not fit (FIFO), or
// skipping it when greedy. pass, when set, replaces that logic. It runs a
// pass at every submit and, with onEnd, at every end.
type testSched struct {
	greedy bool
	onEnd  bool
	pass   func(v *View, p *Plan, kind PassKind)
	err    error // the first Start error
	passes []int64
	kinds  []PassKind
	// trig, when set, replaces the triggers above; bfDuration is what
	// each backfill pass reports as its Plan.Duration.
	trig       *Triggers
	bfDuration int64
}

func (*testSched) Name() string { return "test" }

func (s *testSched) Triggers() Triggers {
	if s.trig != nil {
		return *s.trig
	}
	return Triggers{SubmitDelay: 0, OnEnd: s.onEnd}
}

func (s *testSched) Schedule(v *View, kind PassKind) *Plan {
	s.passes = append(s.passes, v.Now())
	s.kinds = append(s.kinds, kind)
	p := v.Plan()
	if kind == PassBackfill {
		p.Duration = s.bfDuration
	}
	if s.pass != nil {
		s.pass(v, p, kind)
		return p
	}
	for _, j := range v.Pending() {
		if !s.tryStart(v, p, j) && !s.greedy {
			break
		}
	}
	return p
}

// tryStart plans j where TryAlloc puts it, reporting whether it fitted.
func (s *testSched) tryStart(v *View, p *Plan, j *Job) bool {
	a, fit := v.Cluster().TryAlloc(&j.Req, j.Part, nil)
	if fit != FitsNow {
		return false
	}
	if err := p.Start(j, j.Part, a, ByMain); err != nil {
		if s.err == nil {
			s.err = err
		}
		return false
	}
	return true
}

// simulate runs the jobs on c and returns the result and the jobs by id;
// it fails the test on an error from the run or from a scheduler start.
func simulate(t testing.TB, c *Cluster, s *testSched, pol Policy, jobs []tj, opt Options) (*Result, map[int64]*Job) {
	t.Helper()
	r, err := simulateErr(c, s, pol, jobs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.err != nil {
		t.Fatalf("scheduler: %v", s.err)
	}
	if err := CheckInvariants(r); err != nil {
		t.Fatalf("invariants: %v", err)
	}
	by := map[int64]*Job{}
	for _, j := range r.Jobs {
		by[j.ID] = j
	}
	return r, by
}

func simulateErr(c *Cluster, s *testSched, pol Policy, jobs []tj, opt Options) (*Result, error) {
	w, names := workloadOf(jobs)
	src := workload.NewSliceSource(w, names, workload.Header{})
	return New(c, s, pol, src, opt).Run()
}

// recPolicy is a Policy that only logs what the simulator tells it, with
// the cluster's free cores at that moment, so tests can see the order of
// simultaneous events.
type recPolicy struct {
	period int64
	c      *Cluster
	log    []string
}

func (p *recPolicy) CalcPeriod() int64 { return p.period }
func (p *recPolicy) Submit(j *Job, now int64) {
	p.log = append(p.log, fmt.Sprintf("%d submit %d free=%d", now, j.ID, p.c.FreeCores))
}
func (p *recPolicy) Started(j *Job, now int64) {
	p.log = append(p.log, fmt.Sprintf("%d start %d", now, j.ID))
}
func (p *recPolicy) Ended(j *Job, now int64) {
	p.log = append(p.log, fmt.Sprintf("%d end %d", now, j.ID))
}
func (p *recPolicy) Tick(now int64, running, pending []*Job) {
	p.log = append(p.log, fmt.Sprintf("%d tick free=%d", now, p.c.FreeCores))
}
func (p *recPolicy) LastCalc(t int64)        { p.log = append(p.log, fmt.Sprintf("%d lastcalc", t)) }
func (p *recPolicy) Queue(int64, []*Job)     {}
func (p *recPolicy) Hold(*Job, int64) string { return "" }
func (p *recPolicy) Epoch() uint64           { return 0 }
