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
// Main's fixtures (remade this stop) carry each run's timer phases from
// slurmctld's log. In every run the backfill agent started the first wave
// less than a second after its first submission, having seen only part
// of it; which part is decided below the second (sacct's Submit is whole
// seconds). Run 1's cycle came in the wave's own second, as fairsim's
// does (the agent's idle first cycle 3 s after its start, the next at
// t0), and with the background loop's phase (sim.background_loop_delay:
// its registration pass came a second after the start plus
// batch_sched_delay, so no main pass ran before that cycle) fairsim
// reproduces it: no pair in opposite order, every start within 2 s of the
// controller's band, wait MAPE 0.4 %. Runs 2 and
// 3 came in the next second, 0.9 and 0.1 s into it, where fairsim sees
// every job of that second: run 2 ends 24 pairs off, run 3, whose cycle
// saw least, 192.
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
		// The same on the recorded schedule (scheduler.Recorded).
		recWave, recWaveNorm float64
		recEnd, recEndNorm   float64
	}{
		// Fairshare (remade with the captured phase): the same start
		// order as the controller (no pair the other way round; tau-b
		// below 1 only by same-second ties), the wave snapshot exact.
		// The end snapshot on fairsim's schedule follows it, a second
		// or two off per job (the decay thread's phase a second later,
		// sim.decay_thread_delay, moved these floors); on the recorded
		// schedule every column matches (as TestReferenceSshareModel
		// and TestReferenceSshareRecorded hold it).
		{"fairshare", "run1", 0.995, 3, 2, 0, 0, 1e-6, 3, 0.092, 1e-6, 1e-6, 1e-6, 1e-6},
		{"fairshare", "run2", 0.995, 4, 2, 0, 0, 1e-6, 19, 0.053, 1e-6, 1e-6, 1e-6, 1e-6},
		{"fairshare", "run3", 0.993, 1, 0, 0, 0, 1e-6, 80, 0.037, 1e-6, 1e-6, 1e-6, 1e-6},
		// Not reached yet: floors at today's figures (see the gap above).
		// On the recorded schedule: sacct -X does not say how a
		// multi-node job's CPUs were spread, and in run 3 eight jobs do
		// not fit where the controller put them and start late; main's
		// captures also predate capture's BOOT_TIME (phase set by hand).
		{"main", "run1", 0.99, 2, 0, 0, 12, 0.086, 38, 0.017, 1e-6, 1e-6, 1e-6, 1e-6},
		// Since every reservation within bf_window is made (no cut at the
		// limits of the records that could still start, which left some
		// out and so moved others), run 2 has 24 pairs the other way
		// round (26 before) and a wait MAPE of 4.2 % (5.5 %), steady's
		// run 3 67 (56).
		{"main", "run2", 0.93, 58, 16, 24, 70, 2.25, 25, 0.039, 1e-6, 1e-6, 1e-6, 1e-6},
		// Run 3's wave snapshot on fairsim's schedule has a cell that is
		// inf on one side only (NaN accepts it).
		{"main", "run3", 0.61, 162, 37, 192, 153, math.NaN(), 96, 0.06, 1e-6, 1e-6, 1e-6, 1e-6},
		// Steady (jobs whose ends race nothing, phases from slurmctld's
		// log): on the recorded schedule sshare matches but for run 3's
		// end snapshot; fairsim's own schedule is the gap.
		{"steady", "run1", 0.87, 250, 17, 48, 286, 0.39, 333, 0.2, 1e-6, 1e-6, 1e-6, 1e-6},
		{"steady", "run2", 0.83, 295, 16, 65, 87, 0.221, 112, 0.077, 1e-6, 1e-6, 1e-6, 1e-6},
		{"steady", "run3", 0.83, 386, 15, 67, 70, 0.213, 253, 0.07, 1e-6, 1e-6, 14, 0.009},
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
				wave := strings.HasSuffix(sc.File, "sshare-wave.txt")
				switch {
				case wave && sc.Recorded:
					raw, norm = c.recWave, c.recWaveNorm
				case wave:
					raw, norm = c.waveRaw, c.waveNorm
				case sc.Recorded:
					raw, norm = c.recEnd, c.recEndNorm
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
				t.Logf("%s (recorded schedule %v): RawUsage off by %g, normalised columns by %g", filepath.Base(sc.File), sc.Recorded, gotRaw, gotNorm)
				if !(gotRaw <= raw) || !(gotNorm <= norm || math.IsNaN(norm) && math.IsNaN(gotNorm)) {
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

// TestReferenceTimingLog replays the reference runs recorded with
// slurmctld's log (main-log and fairshare-log: the main and fairshare
// workloads at SlurmctldDebug=debug2 with DebugFlags=Backfill) with the
// controller's own timing (validate --timing log): its passes at their
// instants, submissions, completions, epilog completions and the decay
// thread's ticks in the order of their milliseconds. fairsim's timer
// model cannot know those phases (each run's spread.md shows how far the
// controller's own runs part on them); with them replayed, fairsim must
// decide as the controller did: every job started in the controller's
// second, every backfill cycle with jobs planned alike (the same starts,
// each reservation at the same time on the same nodes), and sshare's
// columns equal at both snapshots on fairsim's own schedule (the check on
// the recorded schedule keeps fairsim's timer model: its whole seconds
// cannot say which pass of a second started a job).
func TestReferenceTimingLog(t *testing.T) {
	runs, _ := filepath.Glob(filepath.Join("..", "scenarios", "testdata", "slurm-ref", "*-log", "run*"))
	if len(runs) < 6 {
		t.Fatalf("%d runs under slurm-ref/*-log, want main-log's and fairshare-log's three each", len(runs))
	}
	for _, dir := range runs {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			v, err := ValidateScenario(dir, "", ValidateOptions{Timing: "log"})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d pairs in the opposite order, max |wait error| %d s, MAPE %.2f%%, %d of %d backfill cycles alike",
				v.Discordant, v.MaxAbsErr, v.MAPE, v.Plans.Same, v.Plans.Cycles)
			if v.Discordant != 0 || v.TiedOne != 0 || v.MaxAbsErr != 0 || v.MAPE != 0 {
				t.Errorf("%d pairs in the opposite order, %d tied in one schedule only, max |wait error| %d s, MAPE %.2f%%: want every job in the controller's second",
					v.Discordant, v.TiedOne, v.MaxAbsErr, v.MAPE)
			}
			if v.Plans == nil || v.Plans.Cycles == 0 || v.Plans.Same != v.Plans.Cycles {
				t.Errorf("backfill plans %+v: want every cycle planned alike", v.Plans)
			}
			if len(v.Shares) != 4 {
				t.Fatalf("sshare checks %+v, want four", v.Shares)
			}
			for _, sc := range v.Shares {
				if sc.Recorded {
					t.Logf("%s on the recorded schedule (timer model): RawUsage off by %g", filepath.Base(sc.File), sc.MaxDiff[slices.Index(sshareCompared, "RawUsage")])
					continue
				}
				for i, col := range sshareCompared {
					if d := sc.MaxDiff[i]; !(d <= 1e-6) {
						t.Errorf("%s (recorded schedule %v): %s off by %g", filepath.Base(sc.File), sc.Recorded, col, d)
					}
				}
			}
		})
	}
}
