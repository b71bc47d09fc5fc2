package scenarios

import (
	"math"
	"testing"

	"fairsim/config"
	"fairsim/sim"
)

// TestSlurmPolicyLedgerOverRealTraces replays whole real traces under the
// slurm scheduler with the multifactor policy, decay off, and checks the
// invariants of issue 5 beyond the engine's: the billing charged to the
// tree equals the sum over jobs of billing rate × run time (root's usage
// holds every charge, PriorityDecayHalfLife=0 keeps it undecayed, and
// UsageFactor is 1), and no association's usage is negative.
func TestSlurmPolicyLedgerOverRealTraces(t *testing.T) {
	for _, trace := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "LLNL-Thunder-2007-1.1-cln.swf.gz"} {
		t.Run(trace, func(t *testing.T) {
			if testing.Short() && trace != "KTH-SP2-1996-2.1-cln.swf.gz" {
				t.Skip("long trace skipped in -short mode")
			}
			path := sharedTrace(t, trace)
			sc := &config.Scenario{Name: "ledger", Scheduler: "slurm", Trace: &config.TraceSpec{File: path},
				Slurm: map[string]string{"PriorityDecayHalfLife": "0", "PriorityUsageResetPeriod": "NONE",
					"PriorityWeightFairshare": "100000", "PriorityWeightAge": "1000"}}
			if err := sc.Resolve(); err != nil {
				t.Fatal(err)
			}
			run, err := sc.Build()
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			res, err := run.Simulate()
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.CheckInvariants(res); err != nil {
				t.Fatal(err)
			}
			var want float64
			ran := 0
			for _, j := range res.Jobs {
				if j.Start >= 0 {
					want += j.Billing * float64(j.End-j.Start)
					ran++
				}
				if j.State == sim.Pending || j.State == sim.Running {
					t.Fatalf("job %d left %s", j.ID, j.State)
				}
			}
			eng := run.Multifactor.Engine()
			got := eng.Usage(0) // root: every charge goes up the tree
			if ran == 0 || math.Abs(got-want) > 1e-9*want {
				t.Errorf("root usage %.6g, sum over %d jobs of billing × elapsed %.6g", got, ran, want)
			}
			for i := 0; i < eng.Tree().Len(); i++ {
				if u := eng.Usage(i); u < 0 || math.IsNaN(u) {
					t.Fatalf("association %d (%s/%s) has usage %g", i, eng.Tree().Account(i), eng.Tree().User(i), u)
				}
			}
		})
	}
}
