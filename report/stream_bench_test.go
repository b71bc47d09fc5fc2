package report

import (
	"os"
	"path/filepath"
	"testing"

	"fairsim/internal/shared"
	"fairsim/scheduler"
	"fairsim/sim"
	"fairsim/workload"
)

// BenchmarkJobStreamKTH writes jobs.csv and schedule.swf for KTH-SP2's
// 28,475 jobs replayed under EASY: the writer goroutine's whole work in a
// CLI run (rows, schedule records and the tally), which on a 2-core
// machine competes with the simulation for the second core. Reports
// ns/job.
func BenchmarkJobStreamKTH(b *testing.B) {
	d := shared.Dir()
	trace := filepath.Join(d, "traces", "KTH-SP2-1996-2.1-cln.swf.gz")
	if _, err := os.Stat(trace); d == "" || err != nil {
		b.Skip("no ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz beside the repository")
	}
	r := replayKTH(b, trace)
	dir := b.TempDir()
	empty := *r
	empty.Jobs = nil
	for b.Loop() {
		js, err := NewJobStream(dir, &empty)
		if err != nil {
			b.Fatal(err)
		}
		for _, j := range r.Jobs {
			js.Retire(j)
		}
		if _, err := js.Close(&empty); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(r.Jobs)), "ns/job")
}

// replayKTH replays the KTH-SP2 trace at path under EASY on the cluster
// its header describes, every job kept.
func replayKTH(t testing.TB, path string) *sim.Result {
	t.Helper()
	src, err := workload.OpenSWF(path, workload.SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := src.Header()
	c, err := sim.HeaderCluster(h.MaxNodes, h.MaxProcs, sim.ReferenceCPU, 1024)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scheduler.New("easy")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.New(c, s, nil, src, sim.Options{File: path}).Run()
	if err != nil {
		t.Fatal(err)
	}
	return r
}
