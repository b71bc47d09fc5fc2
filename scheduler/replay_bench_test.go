package scheduler

import (
	"os"
	"path/filepath"
	"testing"

	"fairsim/internal/shared"
	"fairsim/sim"
	"fairsim/workload"
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

// BenchmarkReplayCurieSlurm replays the first 20,000 jobs of CEA Curie
// (5,544 nodes, gzip parse included) under the slurm scheduler with
// Slurm's default parameters: the node-level backfill's cost on a large
// cluster. Reports jobs/s. The whole trace is make bench's CLI figure.
func BenchmarkReplayCurieSlurm(b *testing.B) {
	d := shared.Dir()
	trace := filepath.Join(d, "traces", "CEA-Curie-2011-2.1-cln.swf.gz")
	if _, err := os.Stat(trace); d == "" || err != nil {
		b.Skip("no ../shared/traces/CEA-Curie-2011-2.1-cln.swf.gz beside the repository")
	}
	const jobs = 20000
	var r *sim.Result
	for b.Loop() {
		src, err := workload.OpenSWF(trace, workload.SWFOptions{})
		if err != nil {
			b.Fatal(err)
		}
		h := src.Header()
		c, err := sim.HeaderCluster(h.MaxNodes, h.MaxProcs, sim.ReferenceCPU, 1024)
		if err != nil {
			b.Fatal(err)
		}
		s, err := New("slurm")
		if err != nil {
			b.Fatal(err)
		}
		r, err = sim.New(c, s, nil, &prefix{Source: src, left: jobs}, sim.Options{File: trace}).Run()
		if err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
	b.ReportMetric(float64(len(r.Jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// prefix is a source's first left jobs; it stops reading there.
type prefix struct {
	workload.Source
	left int
}

func (p *prefix) Next(j *workload.Job) bool {
	if p.left <= 0 {
		return false
	}
	p.left--
	return p.Source.Next(j)
}
