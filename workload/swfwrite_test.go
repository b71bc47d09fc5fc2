package workload

import (
	"strings"
	"testing"
)

func TestSWFWriterHeaderAndNumbers(t *testing.T) {
	n := &Names{}
	alice, u12 := n.Users.ID("alice"), n.Users.ID("u12")
	grp := n.Groups.ID("staff")
	part := n.Partitions.ID("p3")
	qos := n.QOS.ID("normal")
	jobs := []Job{
		{ID: 1, Submit: 0, Wait: 5, Runtime: 60, AllocCPUs: 2, CPUs: 2, TimeLimit: 120, MemPerCPU: 2, Status: StatusCompleted,
			User: alice, Group: grp, Partition: part, QOS: qos, Queue: Unset, Executable: 4, UsedCPU: 12.5, UsedMemKB: 300,
			Preceding: Unset, ThinkTime: 0},
		{ID: 2, Submit: 7, Wait: Unset, Runtime: Unset, AllocCPUs: Unset, CPUs: Unset, TimeLimit: Unset, MemPerCPU: Unset,
			Status: Unset, User: u12, Group: Unset, Partition: Unset, QOS: Unset, Queue: 3, Executable: Unset, UsedCPU: Unset,
			UsedMemKB: Unset, Preceding: 1, ThinkTime: 30},
	}
	src := NewSliceSource(jobs, n, Header{UnixStartTime: 1000, TimeZoneString: "UTC", MaxNodes: 4, MaxProcs: Unset})
	var b strings.Builder
	if _, err := WriteSWF(&b, src, SWFWriteOptions{Notes: []string{"made by a test"}}); err != nil {
		t.Fatal(err)
	}
	// Names not spelled like SWF numbers are numbered in interning order:
	// alice 1, staff 1, QOS normal queue 1; u12 and p3 keep their numbers.
	want := "; Version: 2.2\n; UnixStartTime: 1000\n; TimeZoneString: UTC\n; MaxNodes: 4\n; Note: made by a test\n" +
		"1 0 5 60 2 12.5 300 2 120 2048 1 1 1 4 1 3 -1 -1\n" +
		"2 7 -1 -1 -1 -1 -1 -1 -1 -1 -1 12 -1 -1 3 -1 1 30\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestSWFNumber(t *testing.T) {
	tests := []struct {
		name string
		id   int32
		want int64
	}{{"u12", 0, 12}, {"u0", 3, 0}, {"u012", 3, 4}, {"u", 1, 2}, {"ux1", 5, 6}, {"alice", 9, 10}}
	for _, tc := range tests {
		if got := swfNumber(tc.name, "u", tc.id); got != tc.want {
			t.Errorf("swfNumber(%q, %d) = %d, want %d", tc.name, tc.id, got, tc.want)
		}
	}
}

func TestWriteScheduleSWF(t *testing.T) {
	n := &Names{}
	u := n.Users.ID("u5")
	req := func(id, submit int64) Job {
		return Job{ID: id, Submit: submit, Wait: 999, Runtime: 999, CPUs: 4, TimeLimit: 600, MemPerCPU: Unset, User: u,
			Group: Unset, Partition: Unset, QOS: Unset, Queue: Unset, Executable: Unset, UsedCPU: Unset, UsedMemKB: Unset, Preceding: Unset}
	}
	// Given in completion order; written in submit order, ties by id.
	sched := []ScheduledJob{
		{Job: req(3, 20), Start: 30, End: 630, Procs: 4, Status: StatusFailed},    // killed at its limit
		{Job: req(2, 10), Start: 10, End: 110, Procs: 4, Status: StatusCompleted}, // started at once
		{Job: req(1, 10), Start: Unset, End: 50, Procs: 0, Status: 5},             // cancelled while queued
		{Job: req(4, 40), Start: 45, End: Unset, Procs: 4, Status: Unset},
	}
	var b strings.Builder
	err := WriteScheduleSWF(&b, sched, n, &Header{UnixStartTime: 5, MaxNodes: Unset, MaxProcs: 8}, SWFWriteOptions{Notes: []string{"fairsim run easy"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "; Version: 2.2\n; UnixStartTime: 5\n; MaxProcs: 8\n; Note: fairsim run easy\n" +
		"1 10 40 0 0 -1 -1 4 600 -1 5 5 -1 -1 -1 -1 -1 -1\n" +
		"2 10 0 100 4 -1 -1 4 600 -1 1 5 -1 -1 -1 -1 -1 -1\n" +
		"3 20 10 600 4 -1 -1 4 600 -1 0 5 -1 -1 -1 -1 -1 -1\n" +
		"4 40 5 -1 4 -1 -1 4 600 -1 -1 5 -1 -1 -1 -1 -1 -1\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestSWFCommentsAmidRecords: a comment amid the records is not a header
// line; WriteSWF puts it after the records (where a reader takes it as a
// comment again), or, with no record to follow, as a "Comment:" header
// line, so that text such as "MaxRecords: 0A0" is never read as a
// malformed header field.
func TestSWFCommentsAmidRecords(t *testing.T) {
	const rec = "1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 1 -1 -1 -1\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"after a record", "; MaxNodes: 4\n" + rec + "; MaxRecords: 0A0\n",
			"; MaxNodes: 4\n" + rec + "; MaxRecords: 0A0\n"},
		{"after a skipped record only", "; MaxNodes: 4\nbad\n; MaxRecords: 0A0\n",
			"; MaxNodes: 4\n; Comment:  MaxRecords: 0A0\n"},
	} {
		r, err := NewSWFReader(strings.NewReader(tc.in), "c.swf", SWFOptions{SkipInvalid: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		jobs := drain(r)
		if h := r.Header(); len(h.Lines) != 1 || len(h.Comments) != 1 || h.Comments[0] != " MaxRecords: 0A0" || h.MaxRecords != 0 {
			t.Errorf("%s: header lines %q, comments %q, MaxRecords %d", tc.name, h.Lines, h.Comments, h.MaxRecords)
		}
		var b strings.Builder
		if _, err := WriteSWF(&b, NewSliceSource(jobs, r.Names(), *r.Header()), SWFWriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: wrote\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
		back, err := NewSWFReader(strings.NewReader(b.String()), "back.swf", SWFOptions{})
		if err != nil {
			t.Fatalf("%s: read back: %v", tc.name, err)
		}
		if got := drain(back); back.Err() != nil || len(got) != len(jobs) {
			t.Errorf("%s: read back %d jobs of %d: %v", tc.name, len(got), len(jobs), back.Err())
		}
	}
}
