package scheduler

import (
	"math"
	"testing"

	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/workload"
)

// The charge invariant of worked-examples.md §3: with runtimes scaled by
// CPU speed, a job costs the same on every CPU type, because a type of
// billing weight w runs at speed s = w relative to Broadwell: Elapsed =
// runtime/w and Billing = cores × w, so Billing × Elapsed = cores ×
// runtime whatever the type.
//
// The cluster has one node of each type, memory chosen per node (3 to
// 5.33 GB a core); the per-CPU-type default (no TRESBillingWeights) makes
// a node's memory cost what its cores cost, Mem = CPUs × w / RealMemory
// per GB:
//
//	type         w     CPUs  RealMemory  Mem weight per GB
//	abudhabi     0.25  64    256 GB      64 × 0.25 / 256 = 0.0625 (seed 001)
//	nehalem      0.25   8     24 GB       8 × 0.25 / 24  = 0.083333
//	sandybridge  0.5   16     64 GB      16 × 0.5  / 64  = 0.125
//	broadwell    1.0   32    128 GB      32 × 1.0 / 128  = 0.25    (seed 001)
//	skylake      1.2   48    256 GB      48 × 1.2 / 256  = 0.225
//
// A 4-core job without a memory request gets a core's share of its node's
// memory (4 × RealMemory/CPUs), whose charge is 4 × RealMemory/CPUs ×
// CPUs × w / RealMemory = 4w, the same as its cores'. Billing is the MAX of
// the two, 4w: that is the rule in force (a node's CPU and memory charges
// combine as MAX(cpu, mem), commit 1d03f7b). Under a SUM the billing would
// be 8w and every charge below twice as large, still the same on every
// type; the figures here are written for MAX.
type chargeNode struct {
	typ   string
	cores int
	memGB int64
}

var chargeNodes = []chargeNode{
	{"abudhabi", 64, 256},
	{"nehalem", 8, 24},
	{"sandybridge", 16, 64},
	{"broadwell", 32, 128},
	{"skylake", 48, 256},
}

// chargeCluster builds the five-node cluster with runtimes (and time
// limits) scaled by speed relative to Broadwell.
func chargeCluster(t *testing.T) *sim.Cluster {
	t.Helper()
	var types []sim.CPUType
	var ns []sim.NodeSpec
	for _, n := range chargeNodes {
		ct, err := sim.LookupCPUType(n.typ)
		if err != nil {
			t.Fatal(err)
		}
		if ct.Speed != ct.Weight {
			t.Fatalf("%s: speed %g, weight %g: the invariant needs speed = weight", n.typ, ct.Speed, ct.Weight)
		}
		types = append(types, ct)
		ns = append(ns, sim.NodeSpec{Names: []string{n.typ}, Type: n.typ, Cores: n.cores, MemMB: n.memGB * 1024, Weight: 1})
	}
	c, err := sim.NewCluster(types, ns, []sim.PartitionSpec{part("p")}, "broadwell", true)
	if err != nil {
		t.Fatal(err)
	}
	c.ScaleLimit = true
	return c
}

// chargePolicy is a Multifactor policy over a one-account tree (account
// "a", user "u", the names newJobs gives) with PriorityDecayHalfLife=0,
// so RawUsage is the plain sum of billing × seconds. No partition has
// TRESBillingWeights: the per-CPU-type default applies. mf receives the
// policy so the test can read its ledger.
func chargePolicy(t *testing.T, mf **multifactor.Policy) func(*sim.Cluster, *workload.Names) sim.Policy {
	return func(c *sim.Cluster, names *workload.Names) sim.Policy {
		t.Helper()
		tree := fairshare.NewTree()
		if err := tree.AddAccount("a", fairshare.RootName, fairshare.Shares{Raw: 1}, nil); err != nil {
			t.Fatal(err)
		}
		if err := tree.AddUser("u", "a", fairshare.Shares{Raw: 1}, nil); err != nil {
			t.Fatal(err)
		}
		if err := tree.Finalize(); err != nil {
			t.Fatal(err)
		}
		pp := policy.DefaultParams()
		pp.Weights.Fairshare = 10000
		cfg := multifactor.Config{Priority: pp, FairShare: fairshare.Config{HalfLife: 0}, CalcPeriod: 300, CPUTypeBilling: true,
			Tree: tree, PartitionBilling: make([]policy.TRESWeights, len(c.Parts))}
		m, err := multifactor.New(cfg, c, names)
		if err != nil {
			t.Fatal(err)
		}
		*mf = m
		return m
	}
}

// assocUsage returns the RawUsage of user u's association and of root.
func assocUsage(t *testing.T, m *multifactor.Policy) (user, root float64) {
	t.Helper()
	e := m.Engine()
	a, ok := e.Tree().Lookup("a", "u")
	if !ok {
		t.Fatal("association a/u missing")
	}
	return e.Usage(a), e.Usage(0)
}

// TestChargeSameOnEveryCPUType runs one 4-core job, its runtime measured
// on Broadwell, pinned to each CPU type in its own simulation, and checks
// Elapsed, Billing and the association's RawUsage:
//
//	type         w     Elapsed (3600 s)  Billing  Billing × Elapsed
//	abudhabi     0.25  3600/0.25 = 14400  1.0      14400
//	nehalem      0.25  14400              1.0      14400
//	sandybridge  0.5    7200              2.0      14400
//	broadwell    1.0    3600              4.0      14400
//	skylake      1.2    3000              4.8      14400
//
// = cores × runtime = 4 × 3600. The job starts at 3 (batch_sched_delay)
// and is charged at the 300 s calc ticks and at its end; with no decay
// the slices add up to Billing × Elapsed exactly, on the user's
// association and on root.
//
// A runtime that does not divide by the speed is rounded up to a whole
// second (Slurm's clock): 1000 s is 1000/1.2 = 833.3 → 834 s on Skylake,
// 834 × 4.8 = 4003.2, so the charge is cores × runtime plus less than one
// second of the job's billing (< 4w) on such types.
func TestChargeSameOnEveryCPUType(t *testing.T) {
	const cores = 4
	for _, runtime := range []int64{3600, 1000} {
		for _, n := range chargeNodes {
			ct, _ := sim.LookupCPUType(n.typ)
			w := ct.Weight
			var mf *multifactor.Policy
			c := chargeCluster(t)
			_, by := run(t, c, NewSlurm(DefaultParams()),
				[]tjob{{id: 1, submit: 0, cpus: cores, run: runtime, limit: 2 * runtime, feature: n.typ}}, 0, chargePolicy(t, &mf))
			j := by[1]
			if j.State != sim.Completed || c.Nodes[j.Alloc[0].Node].Name != n.typ || c.Types[j.NodeType].Name != n.typ {
				t.Fatalf("%s: job %s on node %s, want COMPLETED on the %s node", n.typ, j.State, c.Nodes[j.Alloc[0].Node].Name, n.typ)
			}
			if mem, want := j.Alloc.MemMB(), int64(cores)*n.memGB*1024/int64(n.cores); mem != want {
				t.Errorf("%s: job got %d MB, want a core's share × %d = %d", n.typ, mem, cores, want)
			}
			elapsed := j.End - j.Start
			wantElapsed := int64(math.Ceil(float64(runtime) / w))
			if elapsed != wantElapsed {
				t.Errorf("%s, runtime %d: Elapsed %d, want ⌈%d/%g⌉ = %d", n.typ, runtime, elapsed, runtime, w, wantElapsed)
			}
			if want := cores * w; math.Abs(j.Billing-want) > 1e-12 {
				t.Errorf("%s: Billing %.15g, want cores × w = %g (MAX of CPU %g and a core's share of memory %g)",
					n.typ, j.Billing, want, want, want)
			}
			charge := j.Billing * float64(elapsed)
			user, root := assocUsage(t, mf)
			// The invariant: cores × runtime, up to one second's billing
			// when runtime/w is not whole.
			lo, hi := float64(cores*runtime), float64(cores*runtime)
			if q := float64(runtime) / w; q != math.Floor(q) {
				hi += cores * w
			}
			if charge < lo-1e-9 || charge > hi+1e-9 {
				t.Errorf("%s, runtime %d: Billing × Elapsed = %g × %d = %.6f, want %g..%g", n.typ, runtime, j.Billing, elapsed, charge, lo, hi)
			}
			t.Logf("%-11s runtime %4d: Elapsed %5d  Billing %.15g  Billing × Elapsed %.9g  RawUsage user %.9g root %.9g",
				n.typ, runtime, elapsed, j.Billing, charge, user, root)
			if math.Abs(user-charge) > 1e-9*charge || math.Abs(root-charge) > 1e-9*charge {
				t.Errorf("%s, runtime %d: RawUsage user %.9f root %.9f, want Billing × Elapsed = %.9f (no decay)", n.typ, runtime, user, root, charge)
			}
		}
	}
}

// TestChargeSameOnEveryCPUTypeTogether runs the five pinned jobs at once,
// one per node, in one simulation: each still costs 4 × 3600 = 14,400, and
// the association's RawUsage is 5 × 14,400 = 72,000 although the jobs end
// at different times (3000 to 14,400 s after they start).
func TestChargeSameOnEveryCPUTypeTogether(t *testing.T) {
	var tjs []tjob
	for i, n := range chargeNodes {
		tjs = append(tjs, tjob{id: int64(i + 1), submit: 0, cpus: 4, run: 3600, limit: 7200, feature: n.typ})
	}
	var mf *multifactor.Policy
	c := chargeCluster(t)
	r, _ := run(t, c, NewSlurm(DefaultParams()), tjs, 0, chargePolicy(t, &mf))
	for _, j := range r.Jobs {
		if got := j.Billing * float64(j.End-j.Start); math.Abs(got-14400) > 1e-9 {
			t.Errorf("job %d on %s: Billing × Elapsed = %g × %d = %g, want 14400", j.ID, c.Types[j.NodeType].Name, j.Billing, j.End-j.Start, got)
		}
		if j.Start != 3 {
			t.Errorf("job %d started at %d, want 3 (each has a node of its own)", j.ID, j.Start)
		}
	}
	if user, root := assocUsage(t, mf); math.Abs(user-72000) > 1e-6 || math.Abs(root-72000) > 1e-6 {
		t.Errorf("RawUsage user %.9f root %.9f, want 5 × 14400 = 72000", user, root)
	}
}
