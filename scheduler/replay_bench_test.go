package scheduler

import (
	"testing"

	"fairsim/sim"
)

// BenchmarkReplayKTHEasy replays the whole KTH SP2 trace (28,475 jobs,
// gzip parse included) under EASY; the CLI figure of make bench adds the
// outputs. Reports jobs/s.
func BenchmarkReplayKTHEasy(b *testing.B) {
	benchReplay(b, "KTH-SP2-1996-2.1-cln.swf.gz", "easy")
}

// BenchmarkReplayKTHSlurm is the same under the slurm scheduler (Slurm's
// default parameters, no priority policy).
func BenchmarkReplayKTHSlurm(b *testing.B) {
	benchReplay(b, "KTH-SP2-1996-2.1-cln.swf.gz", "slurm")
}

func benchReplay(b *testing.B, trace, sched string) {
	sharedTrace(b, trace)
	var r *sim.Result
	for b.Loop() {
		r = replay(b, trace, sched)
	}
	b.ReportMetric(float64(len(r.Jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}
