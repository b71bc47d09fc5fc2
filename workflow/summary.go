package workflow

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"fairsim/report"
	"fairsim/sim"
	"fairsim/slurmtime"
)

// WriteRunSummary prints the few figures users compare runs by (jobs,
// utilisation, waits, wall time, throughput and peak memory; GPU
// utilisation and GPU-hours on a cluster with GPUs) after a run that took
// wall and wrote its results to out.
func WriteRunSummary(w io.Writer, r *sim.Result, m report.Metrics, out string, wall time.Duration) {
	fmt.Fprintf(w, "\n%s: %d jobs (%d skipped records, %d rejected), %d started (%d by backfill)\n",
		r.Scheduler, m.Jobs, r.Read.Skipped.Total(), m.Rejected, m.Started, m.Backfilled)
	fmt.Fprintf(w, "utilisation %.1f%%, wait mean %s median %s p95 %s, bounded slowdown %.2f\n",
		100*m.Utilization, roundDur(m.MeanWait), roundDur(m.MedianWait), roundDur(m.P95Wait), m.MeanBSLD)
	if r.Cluster.GPUs > 0 {
		fmt.Fprintf(w, "GPU utilisation %.1f%% of %d GPUs, %.1f GPU-hours delivered\n", 100*m.GPUUtilization, m.GPUs, m.DeliveredGPUHr)
	}
	if r.Stalled {
		fmt.Fprintf(w, "%d jobs never started: from %s on they were all that was left (stalled_from in summary.csv)\n",
			m.NeverStarted, roundDur(float64(r.StalledFrom-r.First)))
	}
	fmt.Fprintf(w, "results in %s\n", out)
	fmt.Fprintf(w, "wall %.2f s, %.0f jobs/s, peak memory %s\n", wall.Seconds(), float64(m.Jobs)/wall.Seconds(), peakRSS())
}

// roundDur prints seconds as Slurm prints durations, D-HH:MM:SS to the
// second, as everywhere else in fairsim's outputs.
func roundDur(s float64) string {
	return slurmtime.Format(int64(math.Round(max(s, 0))))
}

// peakRSS reads the process's peak resident memory (Linux VmHWM);
// "unknown" elsewhere.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) == 2 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return fmt.Sprintf("%d MB", kb/1024)
				}
			}
		}
	}
	return "unknown"
}
