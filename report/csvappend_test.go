package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"
)

// TestAppendJobRowAsGocsv: a started job's row is byte for byte what
// gocsv writes for the same JobRow (floats in shortest 'f' form, fields
// with commas, quotes or a leading space quoted); a job that never
// started has empty Start, Wait and Elapsed (and End while it pends),
// where gocsv would write -1.
func TestAppendJobRowAsGocsv(t *testing.T) {
	ran := JobRow{JobID: 7, User: "u 1", Account: `a"b`, Partition: "batch", NCPUS: 4, Submit: 10, Eligible: 10,
		Start: 20, End: 80, Wait: 10, Elapsed: 60, TraceRuntime: 60, Timelimit: 120, State: "COMPLETED",
		Billing: 0.1 + 0.2, LostCoreSecs: 1e21, Reason: " lead", AllocTRES: "cpu=4,node=1", NodeList: "n[1-2]"}
	var want bytes.Buffer
	if err := gocsv.Marshal([]JobRow{ran}, &want); err != nil {
		t.Fatal(err)
	}
	got := string(jobsHeader) + string(appendJobRow(nil, &ran))
	if got != want.String() {
		t.Errorf("streamed\n%s\ngocsv\n%s", got, want.String())
	}
	for _, tc := range []struct {
		name       string
		start, end int64
		want       string // Start,End,Wait,Elapsed
	}{
		{"pending", -1, -1, ",,,"},
		{"cancelled while pending at 50", -1, 50, ",50,,"},
	} {
		r := JobRow{JobID: 1, Start: tc.start, End: tc.end, Wait: -1, Elapsed: -1, Eligible: -1}
		row := string(appendJobRow(nil, &r))
		if !strings.Contains(row, ",0,-1,"+tc.want+",0,0,") {
			t.Errorf("%s: row %q, want Submit 0, Eligible -1, then %q", tc.name, row, tc.want)
		}
	}
}

// TestAppendFairshareRowAsGocsv: fairshare.csv's rows are byte for byte
// what gocsv writes for the same FairshareRow, blank cells, quoting,
// uint64 usage above 2^63 and shortest-form floats included.
func TestAppendFairshareRowAsGocsv(t *testing.T) {
	rows := []FairshareRow{
		{Time: 300, Account: "physics", RawShares: "10", NormShares: 0.333333, RawUsage: 12345, EffectvUsage: 0.1 + 0.2, FairShare: "", LevelFS: "inf"},
		{Time: -5, Account: `a,"b"`, User: " lead", RawShares: "parent", NormShares: 1e-7, RawUsage: 1<<64 - 1, EffectvUsage: 1e21, FairShare: "0.500000", LevelFS: "1.250000"},
	}
	var want bytes.Buffer
	if err := gocsv.Marshal(rows, &want); err != nil {
		t.Fatal(err)
	}
	got := csvHeader[FairshareRow]()
	for i := range rows {
		got = appendFairshareRow(got, &rows[i])
	}
	if string(got) != want.String() {
		t.Errorf("appended\n%s\ngocsv\n%s", got, want.String())
	}
}
