package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fairsim/internal/shared"
	"fairsim/sim"
	"fairsim/workload"

	"github.com/gocarina/gocsv"
)

// TestAppendJobRowAsGocsv: a started job's row is byte for byte what
// gocsv writes for the same JobRow (floats in shortest 'f' form, fields
// with commas, quotes or a leading space quoted); a job that never
// started has empty Start, Wait and Elapsed (and End while it pends),
// where gocsv would write -1.
func TestAppendJobRowAsGocsv(t *testing.T) {
	ran := JobRow{JobID: 7, User: "u 1", Group: "\u00a0g", Account: `a"b`, Partition: "batch", NCPUS: 4, Submit: 10, Eligible: 10,
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

// TestAppendJobAsJobRow: the stream's row of a job, made without a
// JobRow, is byte for byte appendJobRow of jobRow: started jobs with GPU
// TRES and multi-node lists, a pending one, rejected, cancelled while
// pending, names that must be quoted (a leading no-break space too), a
// QOS by index and by name, a user the names do not hold yet and then
// do, fractional, whole, huge and negative-zero billing; then every job
// of KTH-SP2 replayed under EASY.
func TestAppendJobAsJobRow(t *testing.T) {
	var cc csvCells
	check := func(r *sim.Result, jobs []*sim.Job) {
		t.Helper()
		x := newHostIndex(r.Cluster)
		var scratch []byte
		for _, j := range jobs {
			row := jobRow(r, x, j)
			want := string(appendJobRow(nil, &row))
			if got := string(appendJob(nil, r, x, &cc, &scratch, j)); got != want {
				t.Fatalf("job %d:\n got %q\nwant %q", j.ID, got, want)
			}
		}
	}
	r := gpuResult(t)
	nm := r.Names
	r.QOSNames = []string{"normal", "hi,gh"}
	jobs := append([]*sim.Job(nil), r.Jobs...)
	jobs[0].QOSIdx, jobs[1].QOSIdx = 1, -1
	jobs[1].Job.QOS = nm.QOS.ID(`q"uoted`)
	jobs[2].User, jobs[2].Group = nm.Users.ID(" lead"), nm.Groups.ID("g,1")
	jobs[3].Account = nm.Accounts.ID("\u00a0nbsp")
	jobs[2].Reason, jobs[2].WaitReason = "Resources", "a\nb"
	jobs[1].Billing, jobs[1].LostCoreSecs, jobs[1].LostBilling = math.Copysign(0, -1), 1e21, -1e-9
	jobs[2].LostCoreSecs, jobs[2].Preemptions, jobs[2].Priority = 3600.5, 2, 1<<31
	rejected := *jobs[3]
	rejected.ID, rejected.State, rejected.Reason, rejected.End = 5, sim.Rejected, "bigger than its partition", 0
	cancelled := *jobs[3]
	cancelled.ID, cancelled.State, cancelled.End = 6, sim.Cancelled, 50
	unknown := *jobs[3]
	unknown.ID, unknown.User, unknown.Account = 7, 99, workload.Unset
	check(r, append(jobs, &rejected, &cancelled, &unknown))
	for nm.Users.Len() <= 99 {
		nm.Users.ID(fmt.Sprint("late", nm.Users.Len()))
	}
	check(r, []*sim.Job{&unknown}) // user 99 now has a name
	cc = csvCells{}

	d := shared.Dir()
	trace := filepath.Join(d, "traces", "KTH-SP2-1996-2.1-cln.swf.gz")
	if _, err := os.Stat(trace); d == "" || err != nil {
		t.Skip("no ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz beside the repository: the KTH half is not checked")
	}
	kth := replayKTH(t, trace)
	check(kth, kth.Jobs)
}

// TestWriteUtilCSVAsEncodingCSV: utilization.csv written with appends is
// byte for byte UtilTable through encoding/csv, for a cluster with typed
// GPUs (its per-kind columns), one with every GPU down, and KTH-SP2's
// 8,000 samples (several buffers' worth); a failing writer's error is
// returned.
func TestWriteUtilCSVAsEncodingCSV(t *testing.T) {
	check := func(name string, r *sim.Result) {
		t.Helper()
		head, recs := UtilTable(r)
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Write(head)
		w.WriteAll(recs)
		var got bytes.Buffer
		if err := writeUtilCSV(&got, r); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: appended\n%.300s\nencoding/csv\n%.300s", name, got.String(), want.String())
		}
	}
	r := gpuResult(t)
	r.Samples = append(r.Samples, sim.Sample{T: 7300, BusyCores: 3, Running: 1, BusyGPUs: 3, ByGres: []int{3}})
	check("typed GPUs", r)
	r.Cluster.DownGPUs = r.Cluster.GPUs // none usable: gpu_utilization 0
	check("every GPU down", r)
	if err := writeUtilCSV(failWriter{}, r); err == nil {
		t.Error("a writer's error was not returned")
	}
	d := shared.Dir()
	trace := filepath.Join(d, "traces", "KTH-SP2-1996-2.1-cln.swf.gz")
	if _, err := os.Stat(trace); d == "" || err != nil {
		t.Skip("no ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz beside the repository: the KTH half is not checked")
	}
	kth := replayKTH(t, trace)
	if len(kth.Samples) < 5000 {
		t.Fatalf("KTH-SP2 has %d samples, want more than a buffer's worth", len(kth.Samples))
	}
	check("KTH-SP2", kth)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }
