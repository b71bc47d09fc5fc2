package workflow

import (
	"path/filepath"
	"testing"
)

// TestExplainKeepsPolicyLimits: explain follows a job through the same
// run `fairsim run` makes. Main's reference run holds QOS lim jobs under
// MaxJobsPerUser=2, a limit of the policy's optional interfaces
// (sim.PlacedHolder); explain's wrapper once hid them, and its replay then
// started job 41 at 125 s instead of the run's 104 s. Every job's start
// must agree.
func TestExplainKeepsPolicyLimits(t *testing.T) {
	sc, err := (&RunSpec{Scenario: filepath.Join("..", "scenarios", "testdata", "slurm-ref", "main", "run1")}).Resolve()
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := Pipeline{}.Run(sc, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{1, 4, 7, 12, 40, 41} {
		st, err := Explain(sc, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range res.Jobs {
			if j.ID == id && j.Start != st.Job.Start {
				t.Errorf("job %d: explain starts it at %d, the run at %d", id, st.Job.Start, j.Start)
			}
		}
	}
}
