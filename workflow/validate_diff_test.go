package workflow

import "testing"

// TestValidateDifferentialTier replays a run recorded on the real 22.05
// harness in a differential session (scenarios/testdata/slurm-diff/tier:
// 6 nodes, a PriorityTier partition, two job arrays, jobs.txt and setup
// as submitted by a copy of scripts/slurm-refrun that passes extra sbatch
// options) with the controller's own timing: the log's pending-array
// records (JobId=N_*) read, and every job started in the order the
// controller started them. Array tasks queue by their array's id and task
// index; by raw id (5_3 is job 5) the first cycle differed.
func TestValidateDifferentialTier(t *testing.T) {
	v, err := ValidateScenario("../scenarios/testdata/slurm-diff/tier", "", ValidateOptions{Timing: "log"})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Jobs) != 52 || v.NotStarted != 0 || v.Discordant != 0 || v.Tau != 1 {
		t.Errorf("%d jobs, %d not started, %d pairs in the opposite order, tau-b %v; want 52, 0, 0, 1", len(v.Jobs), v.NotStarted, v.Discordant, v.Tau)
	}
}
