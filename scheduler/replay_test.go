package scheduler

import (
	"os"
	"path/filepath"
	"testing"

	"fairsim/sim"
	"fairsim/workload"
)

func sharedTrace(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "traces", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared trace %s not found (../shared absent): %v", name, err)
	}
	return p
}

// replay runs a whole SWF trace on the cluster its header describes.
func replay(t testing.TB, trace, sched string) *sim.Result {
	s, err := New(sched)
	if err != nil {
		t.Fatal(err)
	}
	return replayWith(t, trace, s)
}

// replayWith runs a whole SWF trace with a given scheduler.
func replayWith(t testing.TB, trace string, s sim.Scheduler) *sim.Result {
	t.Helper()
	return replayFirst(t, trace, s, 0)
}

// replayFirst runs the first jobs of an SWF trace (all of them when jobs
// is 0) with a given scheduler, on the cluster its header describes.
func replayFirst(t testing.TB, trace string, s sim.Scheduler, jobs int) *sim.Result {
	t.Helper()
	src, err := workload.OpenSWF(sharedTrace(t, trace), workload.SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := src.Header()
	c, err := sim.HeaderCluster(h.MaxNodes, h.MaxProcs, sim.ReferenceCPU, 1024)
	if err != nil {
		t.Fatal(err)
	}
	var in workload.Source = src
	if jobs > 0 {
		in = &prefix{Source: src, left: jobs}
	}
	r, err := sim.New(c, s, nil, in, sim.Options{File: trace}).Run()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func meanWait(r *sim.Result) float64 {
	var sum float64
	n := 0
	for _, j := range r.Jobs {
		if w := j.QueueWait(); w >= 0 {
			sum += float64(w)
			n++
		}
	}
	return sum / float64(n)
}

func TestKTHReplay(t *testing.T) {
	waits := map[string]float64{}
	for _, name := range []string{"fifo", "easy"} {
		r := replay(t, "KTH-SP2-1996-2.1-cln.swf.gz", name)
		if err := sim.CheckInvariants(r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Every accepted record appears exactly once and ends.
		if len(r.Jobs) != r.Read.Accepted {
			t.Fatalf("%s: %d jobs for %d accepted records", name, len(r.Jobs), r.Read.Accepted)
		}
		ended, backfilled := 0, 0
		for _, j := range r.Jobs {
			if j.State.Final() && j.State != sim.Rejected {
				ended++
			}
			if j.StartedBy == sim.ByBackfill {
				backfilled++
			}
		}
		if ended+r.Rejected.Total() != len(r.Jobs) {
			t.Errorf("%s: %d ended + %d rejected != %d jobs", name, ended, r.Rejected.Total(), len(r.Jobs))
		}
		if name == "fifo" && backfilled != 0 {
			t.Errorf("fifo backfilled %d jobs", backfilled)
		}
		if name == "easy" && backfilled == 0 {
			t.Errorf("easy backfilled nothing")
		}
		waits[name] = meanWait(r)
	}
	if waits["easy"] > waits["fifo"] {
		t.Errorf("EASY mean wait %.0f s above FIFO's %.0f s", waits["easy"], waits["fifo"])
	}
	t.Logf("mean wait: fifo %.0f s, easy %.0f s", waits["fifo"], waits["easy"])
}

// TestSlurmReplayInvariants replays whole real traces under the slurm
// scheduler (Slurm's default parameters, no priority policy) and checks the
// engine's invariants on the result.
func TestSlurmReplayInvariants(t *testing.T) {
	for _, trace := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "LLNL-Thunder-2007-1.1-cln.swf.gz"} {
		t.Run(trace, func(t *testing.T) {
			if testing.Short() && trace != "KTH-SP2-1996-2.1-cln.swf.gz" {
				t.Skip("long trace skipped in -short mode")
			}
			r := replay(t, trace, "slurm")
			if err := sim.CheckInvariants(r); err != nil {
				t.Fatal(err)
			}
			bf := 0
			for _, j := range r.Jobs {
				if j.State == sim.Pending || j.State == sim.Running {
					t.Fatalf("job %d left %s", j.ID, j.State)
				}
				if j.StartedBy == sim.ByBackfill {
					bf++
				}
			}
			if bf == 0 {
				t.Error("backfill started no job over a whole trace")
			}
		})
	}
}
