package workload

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tracePath returns a trace from ../shared/traces, skipping the test with a
// clear message when the shared folder is not beside the project.
func tracePath(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "traces", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared trace %s not found (../shared absent): %v", name, err)
	}
	return p
}

func readAll(t testing.TB, path string, opts SWFOptions) ([]Job, *SWFReader) {
	t.Helper()
	r, err := OpenSWF(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var jobs []Job
	var j Job
	for r.Next(&j) {
		jobs = append(jobs, j)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return jobs, r
}

func TestSWFRealTraces(t *testing.T) {
	tests := []struct {
		file               string
		records, accepted  int
		maxNodes, maxProcs int
		skipped            map[string]int
		reqProcsFromAlloc  int
		startTime          int64
		tz                 string
	}{
		// KTH: 28,476 records; job 27313 has -1 for both requested and allocated processors.
		{"KTH-SP2-1996-2.1-cln.swf.gz", 28476, 28475, 100, 100,
			map[string]int{"processors unknown (-1 requested and allocated)": 1}, 0, 843480031, "Europe/Stockholm"},
		// LLNL-Thunder: 1,190 records are all -1, submit time included.
		// Of the other 1,062 with requested processors -1, 1,058 (zero-length
		// failures) have no allocation either; 4 take the allocated count.
		{"LLNL-Thunder-2007-1.1-cln.swf.gz", 121039, 121039 - 1190 - 1058, 1002, 4008,
			map[string]int{"submit time unknown (-1)": 1190, "processors unknown (-1 requested and allocated)": 1058}, 4, 1170175078, "US/Pacific"},
		// lublin: no MaxProcs line; requested processors all -1.
		{"lublin_256.swf", 10000, 10000, 256, Unset, nil, 10000, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			jobs, r := readAll(t, tracePath(t, tc.file), SWFOptions{})
			st := r.Stats()
			if st.Records != tc.records || st.Accepted != tc.accepted || len(jobs) != tc.accepted {
				t.Errorf("records %d accepted %d jobs %d, want %d %d", st.Records, st.Accepted, len(jobs), tc.records, tc.accepted)
			}
			for k, v := range tc.skipped {
				if st.Skipped[k] != v {
					t.Errorf("skipped[%q] = %d, want %d (all: %v)", k, st.Skipped[k], v, st.Skipped)
				}
			}
			if st.Skipped.Total() != tc.records-tc.accepted {
				t.Errorf("skips %v do not account for %d dropped records", st.Skipped, tc.records-tc.accepted)
			}
			if got := st.Defaulted["requested processors from allocated"]; got != tc.reqProcsFromAlloc {
				t.Errorf("requested processors filled in %d times, want %d", got, tc.reqProcsFromAlloc)
			}
			h := r.Header()
			if h.MaxNodes != tc.maxNodes || h.MaxProcs != tc.maxProcs || h.UnixStartTime != tc.startTime || h.TimeZoneString != tc.tz {
				t.Errorf("header %+v", h)
			}
			for i := 1; i < len(jobs); i++ {
				if jobs[i].Submit < jobs[i-1].Submit {
					t.Fatalf("job %d submitted before its predecessor", jobs[i].ID)
				}
			}
		})
	}
}

func TestSWFFirstKTHRecord(t *testing.T) {
	jobs, r := readAll(t, tracePath(t, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	// "   15   599850 192180   3477    4     -1    -1    4  53940    -1  1  12  12  -1 -1 -1 -1 -1"
	j := jobs[0]
	want := Job{ID: 15, Submit: 599850, Eligible: Unset, Wait: 192180, Runtime: 3477, CPUs: 4, AllocCPUs: 4, Nodes: Unset,
		MemPerCPU: Unset, TimeLimit: 53940, Status: StatusCompleted, User: 0, Group: 0, Account: Unset, Partition: Unset,
		QOS: Unset, Feature: Unset, Queue: Unset, Executable: Unset, UsedCPU: -1, UsedMemKB: -1,
		Preceding: Unset, ThinkTime: 0, Line: j.Line}
	if j != want {
		t.Errorf("first job\n got %+v\nwant %+v", j, want)
	}
	if r.Names().Users.Name(j.User) != "u12" || r.Names().Groups.Name(j.Group) != "g12" {
		t.Errorf("names %q %q", r.Names().Users.Name(j.User), r.Names().Groups.Name(j.Group))
	}
	if j.Line <= len(r.Header().Lines) {
		t.Errorf("line %d is inside the header", j.Line)
	}
}

func TestSWFBadInput(t *testing.T) {
	const good = "1 0 5 100 4 -1 -1 4 200 -1 1 3 4 -1 1 -1 -1 -1\n"
	tests := []struct {
		name, in string
		wantErr  string // substring of the error; empty = no error
		skipped  string // with SkipInvalid: reason counted
	}{
		{"truncated", "; MaxProcs: 8\n" + good + "2 10 5 100 4 -1 -1\n", "t.swf:3: field 8 (requested processors): truncated record: 7 of 18 fields", "invalid: requested processors: truncated record: 7 of 18 fields"},
		{"non-numeric", good + "2 10 5 1x0 4 -1 -1 4 200 -1 1 3 4 -1 1 -1 -1 -1\n", `t.swf:2: field 4 (run time): not a number: "1x0"`, `invalid: run time: not a number: "1x0"`},
		{"extra field", good + good[:len(good)-1] + " 7\n", "t.swf:2: field 19 (field 19): extra field", "invalid: field 19: extra field \"7\": a record has 18 fields"},
		// Two records of job 1: the second is refused, not run twice.
		{"duplicate job number", good + good, "t.swf:2: field 1 (job number): job number 1 appears twice", "invalid: job number: job number 1 appears twice"},
		{"negative", good + "2 10 5 100 -4 -1 -1 4 200 -1 1 3 4 -1 1 -1 -1 -1\n", "t.swf:2: field 5 (allocated processors): negative value -4", "invalid: allocated processors: negative value -4 (only -1 means unknown)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewSWFReader(strings.NewReader(tc.in), "t.swf", SWFOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var j Job
			n := 0
			for r.Next(&j) {
				n++
			}
			err = r.Err()
			var el ErrorList
			if !errors.As(err, &el) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			r, _ = NewSWFReader(strings.NewReader(tc.in), "t.swf", SWFOptions{SkipInvalid: true})
			n = 0
			for r.Next(&j) {
				n++
			}
			if r.Err() != nil || n != 1 || r.Stats().Skipped[tc.skipped] != 1 {
				t.Errorf("skip-invalid: err %v, %d jobs, skipped %v; want 1 job and %q counted", r.Err(), n, r.Stats().Skipped, tc.skipped)
			}
		})
	}
}

func TestSWFImpossibleRuntime(t *testing.T) {
	in := "1 0 5 -100 4 -1 -1 4 200 -1 1 3 4 -1 1 -1 -1 -1\n"
	r, _ := NewSWFReader(strings.NewReader(in), "t.swf", SWFOptions{})
	var j Job
	if r.Next(&j) || r.Err() != nil || r.Stats().Skipped["impossible: negative run time -100"] != 1 {
		t.Fatalf("default should count the impossible record: err %v skipped %v", r.Err(), r.Stats().Skipped)
	}
	r, _ = NewSWFReader(strings.NewReader(in), "t.swf", SWFOptions{FailImpossible: true})
	if r.Next(&j) || r.Err() == nil || !strings.Contains(r.Err().Error(), "t.swf:1: field 4 (run time): negative run time") {
		t.Fatalf("FailImpossible: err %v", r.Err())
	}
}

// TestSWFNoProcessors: a record with no processor count is skipped, and
// the reason tells the archive's unknown (-1) from a count of 0.
func TestSWFNoProcessors(t *testing.T) {
	in := "1 0 5 100 -1 -1 -1 -1 200 -1 1 3 4 -1 1 -1 -1 -1\n2 1 5 100 0 -1 -1 0 200 -1 5 3 4 -1 1 -1 -1 -1\n3 2 5 100 0 -1 -1 -1 200 -1 5 3 4 -1 1 -1 -1 -1\n"
	r, _ := NewSWFReader(strings.NewReader(in), "t.swf", SWFOptions{})
	var j Job
	for r.Next(&j) {
		t.Errorf("job %d read; want none", j.ID)
	}
	want := Tally{"processors unknown (-1 requested and allocated)": 1, "no processors (0 requested or allocated, none known)": 2}
	if r.Err() != nil || !maps.Equal(r.Stats().Skipped, want) {
		t.Errorf("err %v, skipped %v; want %v", r.Err(), r.Stats().Skipped, want)
	}
}

func TestParseNum(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"552.21", 552.21, true}, {"142.00", 142, true}, {"7.", 7, true},
		{"", 0, false}, {"-", 0, false}, {".", 0, false}, {"1e5", 0, false}, {"1.2.3", 0, false}, {"--1", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseNum([]byte(tc.in))
		if ok != tc.ok || (ok && (got-tc.want > 1e-9 || tc.want-got > 1e-9)) {
			t.Errorf("parseNum(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestSWFHeaderNumbers: a header number that runs into other characters is
// an error naming the line and the field, not its leading digits (MaxProcs
// 1e999 once read as 1); text after a space or '(' is a comment, as the
// archive writes "MaxNodes: 338 (batch partition)".
func TestSWFHeaderNumbers(t *testing.T) {
	for _, tc := range []struct {
		in, err string
		nodes   int
	}{
		{"; MaxNodes: 4\n; MaxProcs: 1e999\n", `t.swf:2: header MaxProcs: "1e999" is not a whole number`, 0},
		{"; MaxNodes: 2.5\n", `t.swf:1: header MaxNodes: "2.5" is not a whole number`, 0},
		{"; MaxNodes: 99999999999999999999\n", `t.swf:1: header MaxNodes: "99999999999999999999" is not a whole number`, 0},
		{"; MaxNodes: 338 (batch partition; 512 total)\n", "", 338},
		{"; MaxNodes: unknown\n", "", Unset},
		{"; MaxNodes: 0\n", `t.swf:1: header MaxNodes: "0" is not a size of the machine (a whole number, at least 1)`, 0},
		{"; MaxNodes: -1\n", `t.swf:1: header MaxNodes: "-1" is not a size of the machine (a whole number, at least 1)`, 0},
		{"; MaxProcs: 0\n", `t.swf:1: header MaxProcs: "0" is not a size of the machine (a whole number, at least 1)`, 0},
		{"; MaxNodes: 4\n; MaxNodes: 8\n", `t.swf:2: header MaxNodes: given twice`, 0},
		{"; MaxNodes: 3000000000\n", `t.swf:1: header MaxNodes: "3000000000" is not a size of the machine (a whole number, at least 1)`, 0},
	} {
		r, err := NewSWFReader(strings.NewReader(tc.in), "t.swf", SWFOptions{})
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || r.Header().MaxNodes != tc.nodes {
			t.Errorf("%q: %v, MaxNodes %d, want %d", tc.in, err, r.Header().MaxNodes, tc.nodes)
		}
	}
}
