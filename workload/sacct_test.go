package workload

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// fixtureFields is the --format list the sacct fixture was printed with
// (traces/README.md).
const fixtureFields = "State,JobID,ReqCPUS,ReqMem,ReqNodes,Constraints,Submit,Eligible,Start,Elapsed,Suspended,End," +
	"ExitCode,DerivedExitCode,AllocNodes,NCPUS,MaxDiskRead,MaxDiskWrite,MaxPages,MaxRSS,MaxVMSize,CPUTime,UserCPU," +
	"SystemCPU,TotalCPU,Partition"

func readSacct(t testing.TB, in []byte, opts SacctOptions) ([]Job, *SacctReader, error) {
	t.Helper()
	r, err := NewSacctReader(bytes.NewReader(in), "t.sacct", opts)
	if err != nil {
		return nil, nil, err
	}
	var jobs []Job
	var j Job
	for r.Next(&j) {
		jobs = append(jobs, j)
	}
	return jobs, r, r.Err()
}

func TestSacctFixture(t *testing.T) {
	data, err := os.ReadFile(tracePath(t, "sacct/sacct-output-v2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	header := []byte(strings.ReplaceAll(fixtureFields, ",", "|") + "\n")
	parsable := bytes.ReplaceAll(append(append([]byte(nil), header...), data...), []byte("\n"), []byte("|\n"))
	variants := []struct {
		name string
		in   []byte
		opts SacctOptions
	}{
		{"field list", data, SacctOptions{Fields: ParseSacctFields(fixtureFields)}},
		{"header line", append(header, data...), SacctOptions{}},
		{"header and field list", append(header, data...), SacctOptions{Fields: ParseSacctFields(fixtureFields)}},
		{"sacct -p trailing delimiter", parsable, SacctOptions{}},
		{"sacct -p --noheader", bytes.ReplaceAll(data, []byte("\n"), []byte("|\n")), SacctOptions{Fields: ParseSacctFields(fixtureFields)}},
	}
	var want []Job
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			v.opts.Location = time.UTC
			jobs, r, err := readSacct(t, v.in, v.opts)
			if err != nil {
				t.Fatal(err)
			}
			st := r.Stats()
			// 483 job lines, 395 .batch steps; 86 "CANCELLED by" jobs with
			// Start == End and Elapsed 0 never ran.
			if st.Records != 483 || st.Accepted != 483 || len(jobs) != 483 || st.Skipped.Total() != 0 || r.Steps() != 395 {
				t.Fatalf("records %d accepted %d jobs %d skipped %v steps %d", st.Records, st.Accepted, len(jobs), st.Skipped, r.Steps())
			}
			status := map[int]int{}
			pending := 0
			for i, j := range jobs {
				status[j.Status]++
				if j.CancelledPending {
					pending++
					if j.Runtime != 0 || j.Status != StatusCancelled {
						t.Errorf("cancelled-pending job %d: %+v", j.ID, j)
					}
				}
				if i > 0 && (j.Submit < jobs[i-1].Submit || j.Submit == jobs[i-1].Submit && j.ID < jobs[i-1].ID) {
					t.Fatalf("job %d out of (submit, id) order after %d", j.ID, jobs[i-1].ID)
				}
			}
			// 2 COMPLETED; 261 OUT_OF_MEMORY + 129 FAILED; 91 CANCELLED.
			if status[1] != 2 || status[0] != 390 || status[5] != 91 || pending != 86 {
				t.Errorf("status counts %v, %d cancelled pending", status, pending)
			}
			for k, n := range map[string]int{"User column missing: no user": 483, "Timelimit column missing: no time limit": 483,
				"cancelled before start: kept, leaves the queue at End": 86} {
				if st.Defaulted[k] != n {
					t.Errorf("defaulted[%q] = %d, want %d (all: %v)", k, st.Defaulted[k], n, st.Defaulted)
				}
			}
			// 467 job lines end before Partition (with -p and no header,
			// the closing '|' makes it present but empty).
			if n := st.Defaulted["Partition missing on a short line: no partition"] + st.Defaulted["Partition unknown: no partition"]; n != 467 {
				t.Errorf("%d jobs without a partition, want 467 (all: %v)", n, st.Defaulted)
			}
			epoch := time.Date(2022, 2, 18, 17, 32, 41, 0, time.UTC).Unix()
			if r.Epoch() != epoch || r.Header().UnixStartTime != epoch {
				t.Errorf("epoch %d, header %d, want %d", r.Epoch(), r.Header().UnixStartTime, epoch)
			}
			// OUT_OF_MEMORY|67108865|1|100M|1||2022-02-18T17:32:41|2022-02-18T17:34:42|2022-02-18T17:36:39|00:05:16|...
			//   |2022-02-18T17:41:55|...|NCPUS 1|...|TotalCPU 02:10.584|partition1; its .batch step has MaxRSS 114944K.
			first := Job{ID: 67108865, Submit: 0, Eligible: 121, Wait: 238, Runtime: 316, CPUs: 1, AllocCPUs: 1, Nodes: 1, MaxNodes: Unset, AllocNodes: 1,
				MemPerCPU: 100, TimeLimit: Unset, Status: StatusFailed, User: Unset, Group: Unset, Account: Unset, Partition: 0, QOS: Unset,
				Feature: Unset, Queue: Unset, Executable: Unset, UsedCPU: 130.58, UsedMemKB: 114944, Preceding: Unset, Line: jobs[0].Line}
			if jobs[0] != first {
				t.Errorf("first job\n got %+v\nwant %+v", jobs[0], first)
			}
			nm := r.Names()
			if nm.Users.Len() != 0 || nm.Partitions.All()[0] != "partition1" || nm.Features.Len() != 2 {
				t.Errorf("names %+v", nm)
			}
			if want == nil {
				want = jobs
				return
			}
			for i := range jobs {
				j := jobs[i]
				j.Line = want[i].Line
				if j != want[i] {
					t.Fatalf("job %d differs from the field-list reading:\n got %+v\nwant %+v", i, j, want[i])
				}
			}
		})
	}
}

// sacctTestHeader and sacctBase describe one job that every case below
// starts from and changes a few columns of.
const sacctTestHeader = "JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Eligible|Start|End|Elapsed|Timelimit|ReqCPUS|NCPUS|ReqNodes|NNodes|ReqMem|State|MaxRSS"

var sacctBase = map[string]string{
	"JobID": "100", "JobIDRaw": "100", "User": "alice", "Account": "physics", "Partition": "batch", "QOS": "normal",
	"Submit": "2022-01-01T00:00:00", "Eligible": "2022-01-01T00:00:00", "Start": "2022-01-01T00:10:00",
	"End": "2022-01-01T01:10:00", "Elapsed": "01:00:00", "Timelimit": "02:00:00", "ReqCPUS": "4", "NCPUS": "4",
	"ReqNodes": "1", "NNodes": "1", "ReqMem": "4000Mc", "State": "COMPLETED", "MaxRSS": "",
}

// sacctRow renders the base job with changes, in header order; "-"
// removes a column from the header as well (give it for every row).
func sacctRow(header string, changes map[string]string) string {
	var out []string
	for _, f := range strings.Split(header, "|") {
		v, ok := changes[f]
		if !ok {
			v = sacctBase[f]
		}
		out = append(out, v)
	}
	return strings.Join(out, "|")
}

func sacctInput(header string, rows ...map[string]string) []byte {
	var b strings.Builder
	b.WriteString(header + "\n")
	for _, r := range rows {
		b.WriteString(sacctRow(header, r) + "\n")
	}
	return []byte(b.String())
}

// baseJob is what sacctBase reads as.
func baseJob() Job {
	return Job{ID: 100, Submit: 0, Eligible: Unset, Wait: 600, Runtime: 3600, CPUs: 4, AllocCPUs: 4, Nodes: 1, MaxNodes: Unset, AllocNodes: 1,
		MemPerCPU: 4000, TimeLimit: 7200, Status: StatusCompleted, User: 0, Group: Unset, Account: 0, Partition: 0, QOS: 0,
		Feature: Unset, Queue: Unset, Executable: Unset, UsedCPU: Unset, UsedMemKB: Unset, Preceding: Unset, Line: 2}
}

func TestSacctForms(t *testing.T) {
	type row = map[string]string
	tests := []struct {
		name      string
		header    string
		rows      []row
		opts      SacctOptions
		want      func(j []Job) []Job // expected jobs, from the base job
		skipped   map[string]int
		defaulted map[string]int
	}{
		{"base job", "", []row{{}}, SacctOptions{}, func(j []Job) []Job { return j }, nil, nil},
		{"steps folded, orphan counted", "", []row{{}, {"JobID": "100.batch", "JobIDRaw": "100.batch", "MaxRSS": "2G"},
			{"JobID": "100.extern", "JobIDRaw": "100.extern", "MaxRSS": "100M"}, {"JobID": "100.0", "JobIDRaw": "100.0", "MaxRSS": "512K"},
			{"JobID": "99.batch", "JobIDRaw": "99.batch"}}, SacctOptions{},
			func(j []Job) []Job { j[0].UsedMemKB = 2 * 1024 * 1024; return j }, map[string]int{"step without its job line": 1}, nil},
		{"old ReqMem per node", "", []row{{"ReqMem": "8Gn", "ReqNodes": "2", "NNodes": "2"}}, SacctOptions{},
			func(j []Job) []Job { j[0].MemPerCPU = 8192 * 2 / 4; j[0].Nodes, j[0].AllocNodes = 2, 2; return j }, nil, nil},
		{"ReqMem per node, nodes from allocation", "", []row{{"ReqMem": "1.50Gn", "ReqNodes": "", "NNodes": "1", "ReqCPUS": "3", "NCPUS": "3"}}, SacctOptions{},
			func(j []Job) []Job {
				j[0].MemPerCPU = 512
				j[0].Nodes = Unset
				j[0].CPUs, j[0].AllocCPUs = 3, 3
				return j
			}, nil, nil},
		{"modern ReqMem is the job total", "", []row{{"ReqMem": "100M"}}, SacctOptions{},
			func(j []Job) []Job { j[0].MemPerCPU = 25; return j }, nil, nil},
		{"ReqMem in K rounds up to 1 MB", "", []row{{"ReqMem": "512K", "ReqCPUS": "1"}}, SacctOptions{},
			func(j []Job) []Job { j[0].MemPerCPU = 1; j[0].CPUs = 1; return j }, nil, nil},
		{"ReqMem 0 is no request", "", []row{{"ReqMem": "0n"}}, SacctOptions{},
			func(j []Job) []Job { j[0].MemPerCPU = Unset; return j }, nil, map[string]int{"ReqMem 0: no memory request": 1}},
		{"Timelimit UNLIMITED", "", []row{{"Timelimit": "UNLIMITED"}}, SacctOptions{},
			func(j []Job) []Job { j[0].TimeLimit = Unset; return j }, nil, map[string]int{"Timelimit UNLIMITED: no time limit": 1}},
		{"Timelimit 00:00:00 is sbatch --time=0, no limit", "", []row{{"Timelimit": "00:00:00"}}, SacctOptions{},
			func(j []Job) []Job { j[0].TimeLimit = Unset; return j }, nil, map[string]int{"Timelimit 0: no time limit": 1}},
		{"Timelimit 0 is no limit", "", []row{{"Timelimit": "0"}}, SacctOptions{},
			func(j []Job) []Job { j[0].TimeLimit = Unset; return j }, nil, map[string]int{"Timelimit 0: no time limit": 1}},
		{"Timelimit Partition_Limit", "", []row{{"Timelimit": "Partition_Limit"}}, SacctOptions{},
			func(j []Job) []Job { j[0].TimeLimit = Unset; return j }, nil, map[string]int{"Timelimit Partition_Limit: no time limit": 1}},
		{"Timelimit with days", "", []row{{"Timelimit": "1-12:00:00", "Elapsed": "1-00:00:00", "End": "2022-01-02T00:10:00"}}, SacctOptions{},
			func(j []Job) []Job { j[0].TimeLimit = 36 * 3600; j[0].Runtime = 86400; return j }, nil, nil},
		{"CANCELLED by uid after it ran", "", []row{{"State": "CANCELLED by 1234"}}, SacctOptions{},
			func(j []Job) []Job { j[0].Status = 5; return j }, nil, nil},
		{"cancelled with Start None", "", []row{{"State": "CANCELLED by 0", "Start": "None", "End": "2022-01-01T00:05:00", "Elapsed": "00:00:00", "NCPUS": "0"}}, SacctOptions{},
			func(j []Job) []Job {
				j[0].Status, j[0].CancelledPending, j[0].Wait, j[0].Runtime, j[0].AllocCPUs = 5, true, 300, 0, 0
				return j
			}, nil, map[string]int{"cancelled before start: kept, leaves the queue at End": 1}},
		{"cancelled pending dropped on request", "", []row{{"State": "CANCELLED", "Start": "Unknown", "End": "2022-01-01T00:05:00", "Elapsed": "00:00:00"}, {"JobID": "101", "JobIDRaw": "101"}},
			SacctOptions{DropCancelledPending: true},
			func(j []Job) []Job { j[0].ID = 101; j[0].Line = 3; return j }, map[string]int{"cancelled before start": 1}, nil},
		{"states", "", []row{{"State": "TIMEOUT"}, {"JobIDRaw": "101", "State": "NODE_FAIL"}, {"JobIDRaw": "102", "State": "OUT_OF_MEMORY"},
			{"JobIDRaw": "103", "State": "PREEMPTED"}, {"JobIDRaw": "104", "State": "RUNNING", "End": "Unknown"}, {"JobIDRaw": "105", "State": "PENDING", "Start": "Unknown", "End": "Unknown", "Elapsed": "00:00:00"}},
			SacctOptions{},
			func(j []Job) []Job {
				out := []Job{}
				for i, s := range []int{0, 0, 0, 0, Unset} {
					k := j[0]
					k.ID, k.Status, k.Line = 100+int64(i), s, 2+i
					out = append(out, k)
				}
				return out
			}, map[string]int{"never started (PENDING)": 1}, map[string]int{"End unknown (still running?): run time so far": 1}},
		{"array tasks with JobIDRaw", "", []row{{"JobID": "100_7", "JobIDRaw": "107"}, {"JobID": "100_7.batch", "JobIDRaw": "107.batch", "MaxRSS": "10K"}},
			SacctOptions{}, func(j []Job) []Job {
				j[0].ID, j[0].ArrayJobID, j[0].ArrayTaskID = 107, 100, 7
				j[0].UsedMemKB = 10
				return j
			}, nil, nil},
		{"array tasks, heterogeneous components without JobIDRaw", strings.Replace(sacctTestHeader, "JobIDRaw|", "", 1),
			[]row{{"JobID": "300+1"}, {"JobID": "300+0"}, {"JobID": "100_2"}, {"JobID": "100_1"}, {"JobID": "250"}},
			SacctOptions{},
			func(j []Job) []Job {
				// 300+0 is job 300 itself, the largest id; then (100,1)=301,
				// (100,2)=302, (300,1)=303.
				var out []Job
				// 100_1 and 100_2 are tasks of array 100; a
				// heterogeneous component is no array task.
				for _, x := range []struct {
					id, arr    int64
					task, line int
				}{{250, 0, 0, 6}, {300, 0, 0, 3}, {301, 100, 1, 5}, {302, 100, 2, 4}, {303, 0, 0, 2}} {
					k := j[0]
					k.ID, k.ArrayJobID, k.ArrayTaskID, k.Line = x.id, x.arr, int32(x.task), x.line
					out = append(out, k)
				}
				return out
			}, nil, map[string]int{"job id: array task or het component without JobIDRaw, numbered after the largest id": 3}},
		{"pending array range", "", []row{{"JobID": "400_[1-3,5%2]", "JobIDRaw": "400", "State": "PENDING", "Start": "Unknown", "End": "Unknown", "Elapsed": "00:00:00"}},
			SacctOptions{}, func([]Job) []Job { return nil }, map[string]int{"never started (PENDING)": 4}, nil},
		{"cancelled array range", "", []row{{"JobID": "400_[1-2]", "JobIDRaw": "400", "State": "CANCELLED by 5", "Start": "None", "End": "2022-01-01T00:01:00", "Elapsed": "00:00:00"}},
			SacctOptions{}, func(j []Job) []Job {
				var out []Job
				for _, id := range []int64{0, 1} {
					k := j[0]
					k.ID, k.ArrayJobID, k.Status, k.CancelledPending, k.Wait, k.Runtime = id, 400, 5, true, 60, 0
					k.ArrayTaskID = int32(id + 1) // tasks 1 and 2
					out = append(out, k)
				}
				return out
			}, nil, map[string]int{"job id: array task or het component without JobIDRaw, numbered after the largest id": 2}},
		// A job submitted to two partitions keeps the first as Partition and
		// the whole list (the first list interned: 1 + index 0).
		{"partition list", "", []row{{"Partition": "short,long"}}, SacctOptions{},
			func(j []Job) []Job { j[0].PartitionList = 1; return j }, nil, map[string]int{"Partition list: several partitions": 1}},
		{"eligible after submit, unknown account", "", []row{{"Eligible": "2022-01-01T00:02:00", "Account": ""}}, SacctOptions{},
			func(j []Job) []Job { j[0].Eligible = 120; j[0].Account = Unset; return j }, nil, map[string]int{"Account unknown: no account": 1}},
		{"TRES instead of counts", "JobIDRaw|User|Submit|Start|End|Elapsed|ReqTRES|AllocTRES|State",
			[]row{{"ReqTRES": "billing=8,cpu=8,mem=16G,node=2", "AllocTRES": "cpu=8,mem=16G,node=2"}}, SacctOptions{},
			func(j []Job) []Job {
				j[0].CPUs, j[0].AllocCPUs, j[0].Nodes, j[0].AllocNodes, j[0].MemPerCPU, j[0].TimeLimit = 8, 8, 2, 2, 2048, Unset
				j[0].Account, j[0].Partition, j[0].QOS = Unset, Unset, Unset
				return j
			}, nil, map[string]int{"Account column missing: no account": 1, "Timelimit column missing: no time limit": 1}},
		{"submit order, ties by id", "", []row{{"JobIDRaw": "102", "Submit": "2022-01-01T00:00:05", "Eligible": "2022-01-01T00:00:05"},
			{"JobIDRaw": "101", "Submit": "2022-01-01T00:00:05", "Eligible": "2022-01-01T00:00:05"}, {}}, SacctOptions{},
			func(j []Job) []Job {
				a, b := j[0], j[0]
				a.ID, a.Submit, a.Wait, a.Line = 101, 5, 595, 3
				b.ID, b.Submit, b.Wait, b.Line = 102, 5, 595, 2
				j[0].Line = 4
				return []Job{j[0], a, b}
			}, nil, nil},
		{"explicit epoch", "", []row{{}}, SacctOptions{Epoch: time.Date(2021, 12, 31, 23, 0, 0, 0, time.UTC).Unix()},
			func(j []Job) []Job { j[0].Submit = 3600; return j }, nil, nil},
		{"UID instead of User", "JobIDRaw|UID|Submit|Start|End|Elapsed|NCPUS|State", []row{{"UID": "1001"}}, SacctOptions{},
			func(j []Job) []Job {
				j[0].CPUs, j[0].MemPerCPU, j[0].TimeLimit, j[0].Nodes, j[0].AllocNodes = 4, Unset, Unset, Unset, Unset
				j[0].Account, j[0].Partition, j[0].QOS = Unset, Unset, Unset
				return j
			}, nil, map[string]int{"requested CPUs from allocated": 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header := tc.header
			if header == "" {
				header = sacctTestHeader
			}
			tc.opts.Location = time.UTC
			jobs, r, err := readSacct(t, sacctInput(header, tc.rows...), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want([]Job{baseJob()})
			if len(jobs) != len(want) {
				t.Fatalf("%d jobs, want %d: %+v (stats %+v)", len(jobs), len(want), jobs, r.Stats())
			}
			for i := range want {
				if jobs[i] != want[i] {
					t.Errorf("job %d\n got %+v\nwant %+v", i, jobs[i], want[i])
				}
			}
			st := r.Stats()
			for k, n := range tc.skipped {
				if st.Skipped[k] != n {
					t.Errorf("skipped[%q] = %d, want %d (all %v)", k, st.Skipped[k], n, st.Skipped)
				}
			}
			if st.Skipped.Total() != st.Records-st.Accepted {
				t.Errorf("skips %v do not account for %d records, %d accepted", st.Skipped, st.Records, st.Accepted)
			}
			for k, n := range tc.defaulted {
				if st.Defaulted[k] != n {
					t.Errorf("defaulted[%q] = %d, want %d (all %v)", k, st.Defaulted[k], n, st.Defaulted)
				}
			}
		})
	}
}

func TestSacctNames(t *testing.T) {
	in := sacctInput(sacctTestHeader, map[string]string{}, map[string]string{"JobIDRaw": "101", "User": "bob", "Partition": "gpu", "QOS": "high"})
	jobs, r, err := readSacct(t, in, SacctOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	n := r.Names()
	got := []string{n.Users.Name(jobs[1].User), n.Accounts.Name(jobs[1].Account), n.Partitions.Name(jobs[1].Partition), n.QOS.Name(jobs[1].QOS)}
	if strings.Join(got, ",") != "bob,physics,gpu,high" {
		t.Errorf("names %v", got)
	}
}

func TestSacctTimeZone(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	in := sacctInput(sacctTestHeader, map[string]string{"Submit": "2022-07-01T12:00:00", "Eligible": "2022-07-01T12:00:00",
		"Start": "2022-07-01T12:10:00", "End": "2022-07-01T13:10:00"})
	_, r, err := readSacct(t, in, SacctOptions{Location: stockholm})
	if err != nil {
		t.Fatal(err)
	}
	// 12:00 CEST is 10:00 UTC.
	if want := time.Date(2022, 7, 1, 10, 0, 0, 0, time.UTC).Unix(); r.Epoch() != want {
		t.Errorf("epoch %d, want %d", r.Epoch(), want)
	}
	// A fairsim preamble names its zone; an explicit option wins over it.
	pre := append([]byte("#fairsim epoch=0 tz=Europe/Stockholm\n"), in...)
	if _, r, _ = readSacct(t, pre, SacctOptions{}); r.Location().String() != "Europe/Stockholm" {
		t.Errorf("preamble zone not used: %v", r.Location())
	}
	if _, r, _ = readSacct(t, pre, SacctOptions{Location: time.UTC}); r.Location() != time.UTC {
		t.Errorf("option did not override the preamble: %v", r.Location())
	}
}

func TestSacctBadInput(t *testing.T) {
	good := sacctRow(sacctTestHeader, nil)
	tests := []struct {
		name    string
		lines   []string
		wantErr string // the whole first error
		skipped string // with SkipInvalid: the reason counted
	}{
		{"truncated line", []string{good, "101|101|alice|physics|batch|normal|2022-01-01T00:00:00|2022-01-01T00:00:00"},
			"t.sacct:3: field Start: truncated line: 8 of 19 fields", "invalid: Start: truncated line"},
		{"non-numeric count", []string{good, sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": "101", "NCPUS": "four"})},
			`t.sacct:3: field NCPUS: not a number: "four"`, "invalid: NCPUS: not a number"},
		{"non-numeric time", []string{good, sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": "101", "Submit": "yesterday"})},
			`t.sacct:3: field Submit: not a time: "yesterday" (want YYYY-MM-DDTHH:MM:SS, Unknown or None)`, "invalid: Submit: not a time"},
		{"end before start", []string{good, sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": "101", "End": "2022-01-01T00:09:00"})},
			"t.sacct:3: field End: end before start: end 2022-01-01T00:09:00 is 60 s before start 2022-01-01T00:10:00", "invalid: End: end before start"},
		{"duplicate job id", []string{good, good},
			"t.sacct:3: field JobIDRaw: duplicate job id: 100 also on line 2", "invalid: JobIDRaw: duplicate job id"},
		{"extra field", []string{good, good[:len(good)-0] + "|x"},
			"t.sacct:3: field 20: extra fields: 20 fields, the header has 19, and no free-text column (JobName, SubmitLine, Comment, ...) could hold a '|'", "invalid: extra fields"},
		// 99 minutes and 99 seconds is no time sacct prints (it was read
		// as 100:40:39 once).
		{"elapsed fields out of range", []string{good, sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": "101", "Elapsed": "99:99:99"})},
			`t.sacct:3: field Elapsed: not a duration: "99:99:99" (want [D-]HH:MM:SS)`, "invalid: Elapsed: not a duration"},
		// The writer would print End - Start as Elapsed 1837170-00:00:00,
		// which the reader refuses: End is refused at once (FuzzSacct).
		{"run of five millennia", []string{good, sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": "101", "End": "7000-01-01T00:00:00", "Elapsed": ""})},
			"t.sacct:3: field End: run time out of range: end 7000-01-01T00:00:00 is 157090492200 s after start 2022-01-01T00:10:00, more than the 10000000000 s (317 years) any Elapsed may be", "invalid: End: run time out of range"},
		{"bad job id", []string{good, sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": "101", "JobID": "101_[3-1]"})},
			`t.sacct:3: field JobID: bad job id: "101_[3-1]": array task list item "3-1" is not N or N-M`, "invalid: JobID: bad job id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(sacctTestHeader + "\n" + strings.Join(tc.lines, "\n") + "\n")
			_, _, err := readSacct(t, in, SacctOptions{Location: time.UTC})
			var el ErrorList
			if !errors.As(err, &el) || el[0].Error() != tc.wantErr {
				t.Fatalf("error\n got %v\nwant %s", err, tc.wantErr)
			}
			jobs, r, err := readSacct(t, in, SacctOptions{Location: time.UTC, SkipInvalid: true})
			st := r.Stats()
			if err != nil || len(jobs) != 1 || st.Skipped[tc.skipped] != 1 || st.Records != 2 {
				t.Errorf("skip-invalid: err %v, %d jobs, %d records, skipped %v; want 1 job, 2 records and %q counted",
					err, len(jobs), st.Records, st.Skipped, tc.skipped)
			}
		})
	}
}

// TestSacctNodeListHostlist: NodeList, where the recorded scheduler
// places a job, must be a hostlist (slurmdbd stores what slurmctld
// printed); a malformed one is an error at its line, not a job placed
// elsewhere without a word.
func TestSacctNodeListHostlist(t *testing.T) {
	head := sacctTestHeader + "|NodeList"
	row := func(id, nodes string) string {
		return sacctRow(sacctTestHeader, map[string]string{"JobIDRaw": id, "JobID": id}) + "|" + nodes
	}
	in := []byte(head + "\n" + row("100", "n[001-002]") + "\n" + row("101", "None assigned") + "\n" +
		row("102", "b[009-001]") + "\n" + row("103", "n[001") + "\n" + row("104", "b[009-001]") + "\n")
	_, _, err := readSacct(t, in, SacctOptions{Location: time.UTC})
	var el ErrorList
	want := []string{
		`t.sacct:4: field NodeList: not a hostlist: hostlist "b[009-001]": range "009-001" runs backwards`,
		`t.sacct:5: field NodeList: not a hostlist: hostlist "n[001": '[' is never closed`,
		`t.sacct:6: field NodeList: not a hostlist: hostlist "b[009-001]": range "009-001" runs backwards`,
	}
	if !errors.As(err, &el) || len(el) != len(want) {
		t.Fatalf("error %v; want %d errors", err, len(want))
	}
	for i, w := range want {
		if el[i].Error() != w {
			t.Errorf("error %d: %s; want %s", i, el[i].Error(), w)
		}
	}
	jobs, r, err := readSacct(t, in, SacctOptions{Location: time.UTC, SkipInvalid: true})
	if err != nil || len(jobs) != 2 || r.Stats().Skipped["invalid: NodeList: not a hostlist"] != 3 {
		t.Fatalf("skip-invalid: err %v, %d jobs, skipped %v; want 2 jobs and 3 counted", err, len(jobs), r.Stats().Skipped)
	}
	if got := r.Names().NodeLists.Name(jobs[0].AllocNodeList - 1); got != "n[001-002]" || jobs[1].AllocNodeList != 0 {
		t.Errorf("node lists %q, %d; want n[001-002] and none", got, jobs[1].AllocNodeList)
	}
}

// TestSacctPendingArraysNotCapped: the tasks of pending array records
// (never started: skipped, only counted) do not count towards the cap on
// the tasks one input expands into jobs; those of records that become
// jobs (here arrays cancelled before they started, kept as submissions)
// do.
func TestSacctPendingArraysNotCapped(t *testing.T) {
	oldTask, oldTotal := maxArrayTasks, maxArrayTasksTotal
	maxArrayTasks, maxArrayTasksTotal = 10, 25
	t.Cleanup(func() { maxArrayTasks, maxArrayTasksTotal = oldTask, oldTotal })
	arr := func(id, state string) map[string]string {
		return map[string]string{"JobID": id + "_[1-10]", "JobIDRaw": id, "State": state, "Start": "Unknown", "End": "Unknown", "Elapsed": "00:00:00"}
	}
	in := sacctInput(sacctTestHeader, arr("203", "CANCELLED by 0"), arr("200", "PENDING"), arr("204", "CANCELLED by 0"),
		arr("201", "PENDING"), arr("202", "PENDING"))
	jobs, r, err := readSacct(t, in, SacctOptions{Location: time.UTC})
	if err != nil || len(jobs) != 20 || r.Stats().Skipped["never started (PENDING)"] != 30 {
		t.Fatalf("err %v, %d jobs, skipped %v; want 20 jobs (two cancelled arrays) and 30 pending tasks counted", err, len(jobs), r.Stats().Skipped)
	}
	in = sacctInput(sacctTestHeader, arr("203", "CANCELLED by 0"), arr("204", "CANCELLED by 0"), arr("205", "CANCELLED by 0"))
	_, _, err = readSacct(t, in, SacctOptions{Location: time.UTC})
	const want = `t.sacct:4: field JobID: bad job id: "205_[1-10]": more pending array tasks than the 25 one input may expand to`
	var el ErrorList
	if !errors.As(err, &el) || el[0].Error() != want {
		t.Errorf("a third cancelled array past the cap: %v; want %s", err, want)
	}
}

func TestSacctHeaderErrors(t *testing.T) {
	tests := []struct {
		name, in string
		opts     SacctOptions
		want     string
	}{
		{"no header, no field list", "COMPLETED|1|2022-01-01T00:00:00\n", SacctOptions{},
			"t.sacct:1: no sacct header line (sacct -P prints one); for --noheader output give the field list it was printed with (--fields, or trace.fields: sacct's --format list)"},
		{"no submit column", "JobID|State|Elapsed\n1|COMPLETED|00:01:00\n", SacctOptions{},
			"t.sacct:1: header: no Submit column: jobs cannot be placed in time"},
		{"no run time", "State,JobID,Submit", SacctOptions{Fields: ParseSacctFields("State,JobID,Submit")},
			"t.sacct: field list: no run time: need Elapsed, ElapsedRaw, or Start and End"},
		{"no job id", "", SacctOptions{Fields: []string{"State", "Submit", "Elapsed"}},
			"t.sacct: field list: no JobID or JobIDRaw column"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readSacct(t, []byte(tc.in), tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
	// An empty input is an empty trace, not an error.
	if jobs, _, err := readSacct(t, nil, SacctOptions{}); err != nil || len(jobs) != 0 {
		t.Errorf("empty input: %v, %d jobs", err, len(jobs))
	}
}

// TestSacctSubmitLinePartitions: a job submitted to several partitions
// (sbatch -p a,b) that started shows in sacct under the one it ran in;
// its SubmitLine gives the list back, first partition first, when it
// names that partition. A single -p, or a list without the partition sacct
// names, leaves the job as sacct has it.
func TestSacctSubmitLinePartitions(t *testing.T) {
	h := sacctTestHeader + "|SubmitLine"
	in := sacctInput(h,
		map[string]string{"JobID": "1", "JobIDRaw": "1", "Partition": "p2", "SubmitLine": "sbatch -p p1,p2 -n 4 --wrap x"},
		map[string]string{"JobID": "2", "JobIDRaw": "2", "Partition": "p1", "SubmitLine": "sbatch --partition=p1 -n 4 --wrap x"},
		map[string]string{"JobID": "3", "JobIDRaw": "3", "Partition": "p3", "SubmitLine": "sbatch -p p1,p2 -n 4 --wrap x"},
		map[string]string{"JobID": "4", "JobIDRaw": "4", "Partition": "p1,p2", "SubmitLine": "sbatch -p p2,p1 -n 4 --wrap x"},
		// An empty entry is passed over, as slurmctld's strtok does.
		map[string]string{"JobID": "5", "JobIDRaw": "5", "Partition": "p2", "SubmitLine": "sbatch -p p1,,p2 -n 4 --wrap x"})
	jobs, r, err := readSacct(t, in, SacctOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	nm := r.Names()
	got := map[int64]string{}
	for _, j := range jobs {
		l := ""
		if j.PartitionList != 0 {
			l = nm.PartitionLists.Name(j.PartitionList - 1)
		}
		got[j.ID] = nm.Partitions.Name(j.Partition) + " [" + l + "]"
	}
	want := map[int64]string{1: "p1 [p1,p2]", 2: "p1 []", 3: "p3 []", 4: "p1 [p1,p2]", 5: "p1 [p1,p2]"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %d: %s, want %s", id, got[id], w)
		}
	}
	if n := r.Stats().Defaulted["Partition list from SubmitLine -p (sacct names the one the job ran in)"]; n != 2 {
		t.Errorf("%d jobs counted with their list from SubmitLine, want 2", n)
	}
	if n := r.Stats().Defaulted[submitListIgnored]; n != 1 {
		t.Errorf("%d lists counted as not taken, want 1 (job 3's)", n)
	}
}
