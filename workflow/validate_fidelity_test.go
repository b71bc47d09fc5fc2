package workflow

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// refSpread reads DIR/spread.csv (scripts/slurm-ref-spread): per job, its
// start in each recorded run, in seconds after that run's first
// submission.
func refSpread(t *testing.T, dir string) map[int64][]int64 {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "spread.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, h := range rows[0] {
		if len(h) > 5 && h[:5] == "start" {
			runs++
		}
	}
	out := map[int64][]int64{}
	for _, r := range rows[1:] {
		id, err := strconv.ParseInt(r[0], 10, 64)
		if err != nil {
			t.Fatalf("spread.csv: %v", err)
		}
		for k := 1; k <= runs; k++ {
			s, err := strconv.ParseInt(r[k], 10, 64)
			if err != nil {
				t.Fatalf("spread.csv job %d: %v", id, err)
			}
			out[id] = append(out[id], s)
		}
	}
	return out
}

// TestReferenceFidelity replays each reference run and holds fairsim to
// the real controller: Kendall's tau-b of start order, and each job's
// simulated start against the band the controller's own runs spanned
// (min..max of the recorded starts over the runs). "excess" is how far a
// simulated start lies outside that band; the floors below are the
// figures reached, so a change that loses fidelity fails here.
//
// The sshare columns are held too: per snapshot the largest difference of
// RawUsage and of the normalised columns.
//
// Main's fixtures run with the controller's true phase (uptime 3 s):
// the pass that the nodes' registration asks for batch_sched_delay after
// slurmctld starts (sim.arm) restarts the batch_sched_delay clock at the
// first submission, so, as on the real controller, no main pass runs
// before the first wave is queued and backfill starts it. Main's
// run-to-run band is itself wide (tau 0.89-0.998 between runs, up to 94 s
// per job).
//
// Gap left (main): 9-10 jobs per run start more than 2 s outside the band
// (worst 21-31 s). The runs part ways where a multi-node job's CPUs are
// split: job 13 (12 CPUs on n3-n4 beside job 14's 2 on n3) took 6 + 6 on
// the controller, fairsim's spread takes 8 + 4 (sim/alloc.go, most free
// first), so job 23 lands on another node and every later placement
// differs. cons_tres _eval_nodes' consecutive-set best fit (nodes in
// index order, each giving all it has) was tried and moved the figures
// by ±1 job, so it is not in; the backfill cycle's start within the first
// seconds (real t0+2..3, fairsim t0+1) is the other open difference.
func TestReferenceFidelity(t *testing.T) {
	cases := []struct {
		workload string
		run      string
		minTau   float64 // tau-b floor
		maxExc   int64   // worst seconds outside the controller's band
		maxOut   int     // jobs outside the band widened by 2 s
		maxDisc  int64   // pairs started in the opposite order
		// Largest |difference| of sshare's columns per snapshot: the
		// raw usage (billing-seconds) and the largest of the
		// normalised columns (NormUsage, EffectvUsage, FairShare,
		// LevelFS).
		waveRaw, waveNorm float64
		endRaw, endNorm   float64
	}{
		// Fairshare (remade with the captured phase): the same start
		// order as the controller (no pair the other way round; tau-b
		// below 1 only by same-second ties), the wave snapshot exact.
		// The end snapshot follows fairsim's schedule, a second or two
		// off per job (TestReferenceSshareModel holds the model itself
		// to 1e-6 on the recorded schedule).
		{"fairshare", "run1", 0.995, 3, 2, 0, 0, 1e-6, 7, 0.065},
		{"fairshare", "run2", 0.995, 4, 2, 0, 0, 1e-6, 14, 0.07},
		{"fairshare", "run3", 0.993, 1, 0, 0, 0, 1e-6, 17, 0.101},
		// Not reached yet: floors at today's figures (see the gap above).
		{"main", "run1", 0.89, 21, 9, 52, 54, 0.282, 138, 0.434},
		{"main", "run2", 0.95, 31, 10, 14, 8, 0.339, 28, 0.042},
		{"main", "run3", 0.87, 27, 9, 61, 65, 0.206, 65, 0.449},
	}
	for _, c := range cases {
		t.Run(c.workload+"/"+c.run, func(t *testing.T) {
			base := filepath.Join("..", "scenarios", "testdata", "slurm-ref", c.workload)
			band := refSpread(t, base)
			v, err := ValidateScenario(filepath.Join(base, c.run), "", ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t0 := v.Jobs[0].Submit
			for _, j := range v.Jobs {
				t0 = min(t0, j.Submit)
			}
			var worst int64
			out := 0
			for _, j := range v.Jobs {
				rs, ok := band[j.ID]
				if !ok {
					t.Fatalf("job %d is not in spread.csv", j.ID)
				}
				lo, hi := rs[0], rs[0]
				for _, s := range rs {
					lo, hi = min(lo, s), max(hi, s)
				}
				s := j.SimStart - t0
				exc := max(lo-s, s-hi, 0)
				worst = max(worst, exc)
				if exc > 2 {
					out++
				}
			}
			t.Logf("tau-b %.4f (%d pairs in the opposite order), MAPE %.2f%%, worst start %d s outside the controller's band, %d jobs over 2 s outside", v.Tau, v.Discordant, v.MAPE, worst, out)
			if v.Discordant > c.maxDisc {
				t.Errorf("%d pairs started in the opposite order (max %d)", v.Discordant, c.maxDisc)
			}
			for _, sc := range v.Shares {
				raw, norm := c.endRaw, c.endNorm
				if strings.HasSuffix(sc.File, "sshare-wave.txt") {
					raw, norm = c.waveRaw, c.waveNorm
				}
				var gotNorm float64
				for i, col := range sshareCompared {
					if col == "NormUsage" || col == "EffectvUsage" || col == "FairShare" || col == "LevelFS" {
						gotNorm = max(gotNorm, sc.MaxDiff[i]) // NaN stays NaN
						if math.IsNaN(sc.MaxDiff[i]) {
							gotNorm = math.NaN()
						}
					}
				}
				gotRaw := sc.MaxDiff[slices.Index(sshareCompared, "RawUsage")]
				t.Logf("%s: RawUsage off by %g, normalised columns by %g", filepath.Base(sc.File), gotRaw, gotNorm)
				if !(gotRaw <= raw) || !(gotNorm <= norm) {
					t.Errorf("%s: RawUsage off by %g (max %g), normalised columns by %g (max %g)", filepath.Base(sc.File), gotRaw, raw, gotNorm, norm)
				}
			}
			if v.Tau < c.minTau {
				t.Errorf("tau-b %.4f < %.2f", v.Tau, c.minTau)
			}
			if worst > c.maxExc || out > c.maxOut {
				t.Errorf("worst excess %d s (max %d), %d jobs over 2 s (max %d)", worst, c.maxExc, out, c.maxOut)
			}
		})
	}
}
