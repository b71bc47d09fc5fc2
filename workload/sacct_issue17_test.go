package workload

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSacctFormatAll(t *testing.T) {
	jobs, r := readSacctFile(t, filepath.Join("testdata", "sacct-format-all.psv"), SacctOptions{})
	if len(jobs) != 4 {
		t.Fatalf("%d jobs, want 4 (stats %+v)", len(jobs), r.Stats())
	}
	nm := r.Names()
	byID := map[int64]Job{}
	for _, j := range jobs {
		byID[j.ID] = j
	}
	// ReqNodes 1 is the minimum of a 64-CPU job that got 2 nodes.
	if j := byID[101]; j.Nodes != 1 || j.MaxNodes != Unset || j.AllocNodes != 2 || j.CPUs != 64 || j.Exclusive {
		t.Errorf("job 101: %+v", j)
	}
	j := byID[102]
	if j.Nodes != 2 || j.MaxNodes != 4 || !j.Exclusive || j.Preceding != 101 ||
		nm.Dependencies.Name(j.Dependency-1) != "afterok:101" || nm.Reservations.Name(j.Reservation-1) != "maint" ||
		nm.NodeLists.Name(j.ReqNodeList-1) != "cn[01-04]" || nm.NodeLists.Name(j.ExcNodeList-1) != "cn05" ||
		nm.Features.Name(j.Feature) != "intel" {
		t.Errorf("job 102: %+v", j)
	}
	// Held, given an expected start at +124 s, cancelled at +30 min: it
	// never ran (SchedNotSet, None assigned) and leaves the queue at End.
	if j := byID[103]; !j.CancelledPending || j.Runtime != 0 || j.Wait != 1800 || j.Status != StatusCancelled {
		t.Errorf("job 103: %+v", j)
	}
	if r.Stats().CancelledPending != 1 {
		t.Errorf("CancelledPending count %d, want 1", r.Stats().CancelledPending)
	}
	// --begin=now+600 with Eligible Unknown; the '|' of --wrap=env | grep.
	if j := byID[104]; j.Eligible != j.Submit+600 || j.Runtime != 60 {
		t.Errorf("job 104: %+v", j)
	}
	if n := nm.Users.Len(); n != 1 {
		t.Errorf("users %v", nm.Users.All())
	}
	if id, ok := nm.Users.LookupFold("alice"); !ok || nm.Users.Name(id) != "Alice" {
		t.Errorf("LookupFold(alice) = %d, %v", id, ok)
	}
	if _, ok := nm.Users.LookupFold("bob"); ok {
		t.Error("LookupFold(bob) found a user")
	}
}

func TestSacctRealign(t *testing.T) {
	tests := []struct {
		name, header, line string
		want               map[sacctField]string
		err                string
	}{
		{"one free column", "JobIDRaw|JobName|Submit|Start|End|Elapsed|NCPUS|State",
			"1|a|b|c|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|00:00:01|1|COMPLETED", nil, ""},
		{"two free columns apart, each resolved by the columns between", "JobIDRaw|JobName|Submit|Start|End|Elapsed|NCPUS|State|SubmitLine",
			"1|a|b|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|00:00:01|1|COMPLETED|sbatch --wrap=env | grep X", nil, ""},
		{"two adjacent free columns: ambiguous", "JobIDRaw|JobName|Comment|Submit|Start|End|Elapsed|NCPUS|State",
			"1|a|b|c|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|00:00:01|1|COMPLETED", nil,
			"t.sacct:2: field JobName/Comment: ambiguous '|'"},
		{"no free column", "JobIDRaw|Submit|Start|End|Elapsed|NCPUS|State",
			"1|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|00:00:01|1|COMPLETED|x", nil,
			"t.sacct:2: field 8: extra fields"},
		{"no split validates", "JobIDRaw|JobName|Submit|Start|End|Elapsed|NCPUS|State",
			"1|a|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|00:00:01|1|COMPLETED|x", nil,
			"t.sacct:2: field JobName: extra fields"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, r, err := readSacct(t, []byte(tc.header+"\n"+tc.line+"\n"), SacctOptions{Location: time.UTC})
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q...", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Stats().Accepted != 1 {
				t.Errorf("stats %+v", r.Stats())
			}
		})
	}
}

func TestParseSubmitLine(t *testing.T) {
	tests := []struct {
		line string
		want SubmitRequest
		err  string
	}{
		{"sbatch job.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "job.sh"}, ""},
		{"sbatch --wrap=env | grep SLURM", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "|"}, ""},
		{"/usr/bin/sbatch -N2 -n 64 --exclusive run.sh -N 9", SubmitRequest{Command: "sbatch", MinNodes: 2, MaxNodes: 2, Exclusive: true, Script: "run.sh", NTasks: 64}, ""},
		{"sbatch --nodes 2-4 --dependency afterok:12:13 --begin=now+1hour --reservation=maint --nodelist=cn[1-4] -x cn5 a.sh",
			SubmitRequest{Command: "sbatch", MinNodes: 2, MaxNodes: 4, Dependency: "afterok:12:13", Begin: "now+1hour",
				Reservation: "maint", NodeList: "cn[1-4]", Exclude: "cn5", Script: "a.sh"}, ""},
		{"salloc -HN1 -d singleton --exclusive=user", SubmitRequest{Command: "salloc", MinNodes: 1, MaxNodes: 1, Dependency: "singleton"}, ""},
		{"sbatch --exclusi --oversubscribe -J 'my job' x.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "x.sh"}, ""},
		{"srun -W 30 -N 1-2 hostname", SubmitRequest{Command: "srun", MinNodes: 1, MaxNodes: 2, Script: "hostname"}, ""},
		{"sbatch -W -N 3 x.sh", SubmitRequest{Command: "sbatch", MinNodes: 3, MaxNodes: 3, Script: "x.sh"}, ""},
		{"sbatch -- -N 3", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "-N"}, ""},
		{"sbatch --wrap=\"echo it's\" -N 2", SubmitRequest{Command: "sbatch", MinNodes: 2, MaxNodes: 2}, ""},
		{"sbatch --mem=4G a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, MemPerNode: 4096, Script: "a.sh"}, ""},
		{"sbatch --mem 500 --mem-per-cpu=9 a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, MemPerNode: 500, Script: "a.sh"}, ""},
		{"sbatch --mem=1536K a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, MemPerNode: 2, Script: "a.sh"}, ""},
		{"sbatch --mem=0 a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "a.sh"}, ""},
		{"sbatch --array=0-7%2 a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, ArrayThrottle: 2, Script: "a.sh"}, ""},
		{"sbatch -a 1,3,5-9:2%10 a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, ArrayThrottle: 10, Script: "a.sh"}, ""},
		{"sbatch --array=0-7%2 --array=0-3 a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "a.sh"}, ""},
		{"sbatch --array=0-3 --array=0-7%0 a.sh", SubmitRequest{Command: "sbatch", MinNodes: Unset, MaxNodes: Unset, Script: "a.sh"}, ""},
		{"sbatch --array=0-7%many a.sh", SubmitRequest{}, "--array \"0-7%many\": the throttle after % is not a count"},
		{"sbatch --mem=lots a.sh", SubmitRequest{}, "--mem \"lots\": not a memory size"},
		{"bash job.sh", SubmitRequest{}, "is not sbatch"},
		{"sbatch --res=x a.sh", SubmitRequest{}, "ambiguous option --res"},
		{"sbatch --frobnicate a.sh", SubmitRequest{}, "unknown option --frobnicate"},
		{"sbatch -N", SubmitRequest{}, "needs a value"},
		{"sbatch -N x a.sh", SubmitRequest{}, "--nodes \"x\""},
		{"", SubmitRequest{}, "empty"},
	}
	for _, tc := range tests {
		got, err := ParseSubmitLine(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		// Counts the line does not give are Unset.
		for _, v := range []*int{&tc.want.NTasks, &tc.want.NTasksPerNode, &tc.want.CPUsPerTask} {
			if *v == 0 {
				*v = Unset
			}
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v, %v\nwant %+v", tc.line, got, err, tc.want)
		}
	}
}

func TestParseDependency(t *testing.T) {
	tests := []struct {
		in   string
		pre  int64 // SinglePreceding, 0 for none
		n    int
		any  bool
		fail bool
	}{
		{"afterok:12", 12, 1, false, false},
		{"afterany:12_3", 12, 1, false, false},
		{"12", 12, 1, false, false},
		{"after:12+5", 0, 1, false, false},
		{"afterok:1:2", 0, 1, false, false},
		{"afterok:1,singleton", 0, 2, false, false},
		{"afterok:1?afternotok:2", 0, 2, true, false},
		{"singleton", 0, 1, false, false},
		{"afterok", 0, 0, false, true},
		{"sometime:1", 0, 0, false, true},
		{"afterok:x", 0, 0, false, true},
		{"a:1,b:2?c", 0, 0, false, true},
	}
	for _, tc := range tests {
		deps, anyOf, err := ParseDependency(tc.in)
		if tc.fail != (err != nil) {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if err != nil {
			continue
		}
		pre, ok := SinglePreceding(deps)
		if len(deps) != tc.n || anyOf != tc.any || (ok && pre != tc.pre) || (!ok && tc.pre != 0) {
			t.Errorf("%q: %+v any=%v preceding %d %v", tc.in, deps, anyOf, pre, ok)
		}
	}
}

func TestDetectFormat(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content, want, err string
	}{
		{"header.txt", "JobID|State\n1|COMPLETED\n", FormatSacct, ""},
		{"raw.dat", "\n\nJobIDRaw%20|Submit\n", FormatSacct, ""},
		{"noheader.log", "1|1|hpc|compute\n", FormatSacct, ""},
		{"pre.x", "#fairsim epoch=0 tz=UTC\nJobID|Submit\n", FormatSacct, ""},
		{"swf.psv", "; Version: 2.2\n1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", FormatSWF, ""},
		{"jobs.sacct", "1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", FormatSWF, ""},
		{"words", "hello world\n", "", "words:1: cannot tell the trace format from line \"hello world\""},
		{"empty", "", "", "empty:"},
		{"seventeen", "1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1\n", "", "seventeen:1: cannot tell"},
	}
	for _, tc := range tests {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := DetectFormat(p)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	// gzip is looked through, whatever the name.
	kth := tracePath(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	if f, err := DetectFormat(kth); err != nil || f != FormatSWF {
		t.Errorf("KTH: %q, %v", f, err)
	}
	if _, err := DetectFormat("-"); err == nil {
		t.Error("DetectFormat(-) gave no error")
	}
}

// TestDetectFormatReadsAsThePeek: DetectFormat, which reads the first
// 4 KB and goes on to 64 KB only when no whole line there decides, names
// the format of a file, plain and gzipped, as DetectFormatBytes does on
// its first 64 KB: a sacct header after 5 KB of '#' comments, an SWF job
// line and an unreadable line that each straddle the 4 KB mark, a file
// of comments only (longer and shorter than 64 KB), and a file ending
// within the first read without a newline.
func TestDetectFormatReadsAsThePeek(t *testing.T) {
	comments := func(n int) string { // exactly n bytes of '#' lines
		line := "# a comment line of the kind sacct dumps carry\n"
		k := n/len(line) - 1
		return strings.Repeat(line, k) + "#" + strings.Repeat("x", n-k*len(line)-2) + "\n"
	}
	swf := "1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	cases := map[string]string{
		"sacct after comments": comments(5000) + "JobID|State\n1|COMPLETED\n",
		"swf across 4 KB":      comments(4070) + swf, // bytes 4070-4116
		"words across 4 KB":    comments(4080) + "hello world and more words\n",
		"comments only":        comments(70000),
		"few comments":         comments(3000),
		"no newline":           "; Version: 2.2",
		"pipe line at the end": comments(4090) + "1|2",
	}
	dir := t.TempDir()
	// A gzip stream cut off before any data: the reader's own error.
	var whole bytes.Buffer
	zw := gzip.NewWriter(&whole)
	zw.Write([]byte(swf))
	zw.Close()
	cut := filepath.Join(dir, "cut.gz")
	if err := os.WriteFile(cut, whole.Bytes()[:11], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := DetectFormat(cut); err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("cut-off gzip: %v, want the reader's unexpected EOF", err)
	}
	for name, content := range cases {
		want, wantErr := DetectFormatBytes("f", []byte(content)[:min(len(content), detectPeek)])
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(content))
		zw.Close()
		for _, v := range []struct {
			suffix string
			data   []byte
		}{{"", []byte(content)}, {".gz", gz.Bytes()}} {
			p := filepath.Join(dir, "f"+v.suffix)
			if err := os.WriteFile(p, v.data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := DetectFormat(p)
			if got != want || (err == nil) != (wantErr == nil) ||
				err != nil && strings.TrimPrefix(err.Error(), p) != strings.TrimPrefix(wantErr.Error(), "f") {
				t.Errorf("%s%s: %q, %v; want %q, %v", name, v.suffix, got, err, want, wantErr)
			}
		}
	}
}
