package workload

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"
	"time"
)

// swfToSacctToSWF converts SWF text through sacct and back, returning the
// sacct text, the SWF text and the sacct reader.
func swfToSacctToSWF(t *testing.T, swf []byte) ([]byte, []byte, *SacctReader) {
	t.Helper()
	r, err := NewSWFReader(bytes.NewReader(swf), "in.swf", SWFOptions{KeepIncomplete: true})
	if err != nil {
		t.Fatal(err)
	}
	var sacct bytes.Buffer
	if _, err := WriteSacct(&sacct, r, SacctWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := NewSacctReader(bytes.NewReader(sacct.Bytes()), "mid.sacct", SacctOptions{KeepIncomplete: true})
	if err != nil {
		t.Fatal(err)
	}
	var back bytes.Buffer
	if _, err := WriteSWF(&back, s, SWFWriteOptions{Notes: []string{"round trip"}}); err != nil {
		t.Fatal(err)
	}
	return sacct.Bytes(), back.Bytes(), s
}

// swfRecords splits SWF text into header lines and records of fields.
func swfRecords(b []byte) (header []string, records [][]string) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "":
		case l[0] == ';':
			header = append(header, l)
		default:
			records = append(records, strings.Fields(l))
		}
	}
	return header, records
}

// TestRoundTripKTH converts the whole KTH trace SWF -> sacct -> SWF and
// expects every field of every record back as written (KTH has -1 in the
// fields sacct cannot carry), the header lines first and a note after.
func TestRoundTripKTH(t *testing.T) {
	f, err := os.Open(tracePath(t, "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var orig bytes.Buffer
	if _, err := orig.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	_, back, s := swfToSacctToSWF(t, orig.Bytes())
	h0, r0 := swfRecords(orig.Bytes())
	h1, r1 := swfRecords(back)
	if len(r0) != 28476 || len(r1) != len(r0) {
		t.Fatalf("%d records back, %d in KTH", len(r1), len(r0))
	}
	for i := range r0 {
		if strings.Join(r0[i], " ") != strings.Join(r1[i], " ") {
			t.Fatalf("record %d changed:\n was %v\n now %v", i, r0[i], r1[i])
		}
	}
	if len(h1) != len(h0)+1 || h1[len(h1)-1] != "; Note: round trip" {
		t.Fatalf("header: %d lines back, %d in KTH; last %q", len(h1), len(h0), h1[len(h1)-1])
	}
	for i := range h0 {
		if h0[i] != h1[i] {
			t.Errorf("header line %d: %q, was %q", i, h1[i], h0[i])
		}
	}
	if s.Epoch() != 843480031 {
		t.Errorf("epoch %d, want KTH's UnixStartTime 843480031", s.Epoch())
	}
}

// TestRoundTripSWFFields checks, field by field, what survives SWF ->
// sacct -> SWF when every field is filled in.
func TestRoundTripSWFFields(t *testing.T) {
	in := "; UnixStartTime: 1000000000\n" +
		// job submit wait run alloc avgcpu usedmem req reqtime reqmem status user group exe queue part prec think
		"1 0 10 100 4 55.25 2048 4 600 4096 1 7 3 12 2 5 -1 -1\n" +
		"2 5 20 0 8 -1 -1 8 60 -1 5 8 3 -1 -1 -1 -1 -1\n" + // cancelled before start
		"3 5 30 40 6 1.5 100.5 -1 120 1024 0 7 -1 -1 1 5 1 30\n" + // requested procs -1; a dependency
		"4 9 -1 50 2 -1 -1 2 -1 -1 1 9 3 -1 -1 -1 -1 -1\n" // wait and limit unknown
	want := []string{
		"1 0 10 100 4 55.25 2048 4 600 4096 1 7 3 -1 2 5 -1 -1", // executable number not carried
		"2 5 20 0 8 -1 -1 8 60 -1 5 8 3 -1 -1 -1 -1 -1",         // exact
		"3 5 30 40 6 1.5 100.5 6 120 1024 0 7 -1 -1 1 5 -1 -1",  // req procs from alloc; dependency lost
		"4 9 -1 50 2 -1 -1 2 -1 -1 1 9 3 -1 -1 -1 -1 -1",        // exact
	}
	sacct, back, s := swfToSacctToSWF(t, []byte(in))
	_, recs := swfRecords(back)
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d\n%s", len(recs), len(want), back)
	}
	for i := range want {
		if got := strings.Join(recs[i], " "); got != want[i] {
			t.Errorf("record %d\n got %s\nwant %s", i, got, want[i])
		}
	}
	// The sacct in between, as sacct itself would show these jobs.
	lines := strings.Split(strings.TrimSpace(string(sacct)), "\n")
	wantSacct := []string{
		"#fairsim epoch=1000000000 tz=UTC",
		"#; UnixStartTime: 1000000000",
		strings.Join(SacctColumns, "|"),
		"1|u7|g3||p5|q2|2001-09-09T01:46:40|2001-09-09T01:46:40|2001-09-09T01:46:50|2001-09-09T01:48:30|00:01:40|00:10:00|4|4||4Mc|COMPLETED||00:03:41|2048K",
		"2|u8|g3||||2001-09-09T01:46:45|2001-09-09T01:46:45|2001-09-09T01:47:05|2001-09-09T01:47:05|00:00:00|00:01:00|8|8|||CANCELLED|||",
		"3|u7|||p5|q1|2001-09-09T01:46:45|2001-09-09T01:46:45|2001-09-09T01:47:15|2001-09-09T01:47:55|00:00:40|00:02:00|6|6||1Mc|FAILED||00:00:09|100.5K",
		"4|u9|g3||||2001-09-09T01:46:49|2001-09-09T01:46:49|Unknown|Unknown|00:00:50|Partition_Limit|2|2|||COMPLETED|||",
	}
	if strings.Join(lines, "\n") != strings.Join(wantSacct, "\n") {
		t.Errorf("sacct text\n got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(wantSacct, "\n"))
	}
	if s.Stats().Defaulted["cancelled before start: kept, leaves the queue at End"] != 1 {
		t.Errorf("job 2 not read back as cancelled before start: %v", s.Stats().Defaulted)
	}
}

// TestRoundTripFixture converts the sacct fixture to SWF and back to sacct
// and compares every field SWF carries.
func TestRoundTripFixture(t *testing.T) {
	data, err := os.ReadFile(tracePath(t, "sacct/sacct-output-v2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	opts := SacctOptions{Fields: ParseSacctFields(fixtureFields), Location: time.UTC}
	orig, r0, err := readSacct(t, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := NewSacctReader(bytes.NewReader(data), "fix", opts)
	var swf bytes.Buffer
	if _, err := WriteSWF(&swf, src, SWFWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sr, err := NewSWFReader(bytes.NewReader(swf.Bytes()), "fix.swf", SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sacct bytes.Buffer
	if _, err := WriteSacct(&sacct, sr, SacctWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, r1, err := readSacct(t, sacct.Bytes(), SacctOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(orig) || r1.Epoch() != r0.Epoch() {
		t.Fatalf("%d jobs back of %d; epoch %d, was %d", len(back), len(orig), r1.Epoch(), r0.Epoch())
	}
	type carried struct {
		ID, Submit, Wait, Runtime, MemPerCPU, TimeLimit int64
		CPUs, AllocCPUs, Status                         int
		Pending, HasPartition                           bool
		UsedCPU, UsedMemKB                              float64
	}
	c := func(j Job) carried {
		return carried{j.ID, j.Submit, j.Wait, j.Runtime, j.MemPerCPU, j.TimeLimit, j.CPUs, j.AllocCPUs, j.Status,
			j.CancelledPending, j.Partition != Unset, j.UsedCPU, j.UsedMemKB}
	}
	for i := range orig {
		if c(back[i]) != c(orig[i]) {
			t.Errorf("job %d\n got %+v\nwant %+v", i, c(back[i]), c(orig[i]))
		}
	}
	// SWF numbers names: the fixture's partition comes back as p1; it has no users.
	if n := r1.Names(); back[0].User != Unset || n.Partitions.Name(back[0].Partition) != "p1" {
		t.Errorf("names %q %q", n.Users.Name(back[0].User), n.Partitions.Name(back[0].Partition))
	}
}
