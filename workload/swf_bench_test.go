package workload

import "testing"

// BenchmarkReadCurie reads the largest trace (CEA-Curie, 312,826 jobs,
// gzip) through SWFReader; the target is at least 1,000,000 records/s, of
// which gunzip alone takes about half.
func BenchmarkReadCurie(b *testing.B) {
	path := tracePath(b, "CEA-Curie-2011-2.1-cln.swf.gz")
	b.ReportAllocs()
	records := 0
	for b.Loop() {
		r, err := OpenSWF(path, SWFOptions{})
		if err != nil {
			b.Fatal(err)
		}
		var j Job
		for r.Next(&j) {
		}
		if err := r.Err(); err != nil {
			b.Fatal(err)
		}
		records += r.Stats().Records
		r.Close()
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}
