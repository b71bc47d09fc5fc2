package workload

import (
	"bytes"
	"testing"
)

// BenchmarkReadSacct reads CEA-Curie (312,826 jobs) as fairsim's sacct
// export, in memory: parse, sort by submit and hand out every job.
func BenchmarkReadSacct(b *testing.B) {
	r, err := OpenSWF(tracePath(b, "CEA-Curie-2011-2.1-cln.swf.gz"), SWFOptions{KeepIncomplete: true})
	if err != nil {
		b.Fatal(err)
	}
	var data bytes.Buffer
	if _, err := WriteSacct(&data, r, SacctWriteOptions{}); err != nil {
		b.Fatal(err)
	}
	r.Close()
	b.SetBytes(int64(data.Len()))
	b.ReportAllocs()
	records := 0
	for b.Loop() {
		s, err := NewSacctReader(bytes.NewReader(data.Bytes()), "curie.sacct", SacctOptions{KeepIncomplete: true})
		if err != nil {
			b.Fatal(err)
		}
		var j Job
		for s.Next(&j) {
		}
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
		records += s.Stats().Records
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}
