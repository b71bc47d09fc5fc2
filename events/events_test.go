package events

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadSiteFile(t *testing.T) {
	evs, err := ReadFile(filepath.Join("testdata", "site.events"), nil)
	if err != nil {
		t.Fatal(err)
	}
	date := func(s string) int64 {
		tm, _ := time.Parse("2006-01-02T15:04:05", s)
		return tm.Unix()
	}
	want := []Event{
		{Line: 3, At: 86400 + 6*3600 + 1800, Nodes: "c07", Action: NodeFail, Reason: "ECC errors"},
		{Line: 4, At: 2*86400 + 12*3600, Nodes: "c[01-04]", Action: NodeDrain, Reason: "fan replacement"},
		{Line: 5, At: 3 * 86400, Nodes: "c[01-04]", Action: NodeResume},
		{Line: 6, At: date("2024-01-03T08:00:00"), Date: true, Partition: "gpu", Action: PartDown, Reason: "maintenance"},
		{Line: 7, At: date("2024-01-03T20:00:00"), Date: true, Partition: "gpu", Action: PartUp},
		{Line: 8, At: 4 * 86400, Nodes: "c07", Action: NodeResume},
		{Line: 9, At: 5 * 86400, Partition: "debug", Action: PartInactive},
		{Line: 10, At: 5*86400 + 12*3600, Partition: "debug", Action: PartDrain},
		{Line: 11, At: 6 * 86400, Nodes: "c[05-06],c08", Action: NodeDown, Reason: "power #2"},
	}
	if len(evs) != len(want) {
		t.Fatalf("got %d events, want %d: %+v", len(evs), len(want), evs)
	}
	for i := range want {
		if evs[i] != want[i] {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, evs[i], want[i])
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1-0 NodeName=c1 State=DRAIN", `x.events:1: Reason: State=DRAIN needs a reason`},
		{"1-0 NodeName=c1 State=IDLE", `x.events:1: State: "IDLE" is not a node state`},
		{"1-0 PartitionName=p State=RESUME", `x.events:1: State: "RESUME" is not a partition state`},
		{"soon NodeName=c1 State=RESUME", `x.events:1: time: `},
		{"UNLIMITED NodeName=c1 State=RESUME", `x.events:1: time: `},
		{"2024-02-30 NodeName=c1 State=RESUME", `x.events:1: time: `},
		{"1-0 State=RESUME", `x.events:1: no target`},
		{"1-0 NodeName=c1", `x.events:1: State: missing`},
		{"1-0 NodeName=c1 PartitionName=p State=UP", `x.events:1: PartitionName: a second target`},
		{"1-0 NodeName=c1 State=DOWN Reason=\"x", `x.events:1: unterminated quote`},
		{"1-0 NodeName=c1 State=DOWN Weight=3 Reason=x", `x.events:1: Weight: unknown key`},
		{"1-0 NodeName=c1 DOWN", `x.events:1: "DOWN" is not KEY=VALUE`},
		{"1-0 NodeName= State=DOWN Reason=x", `x.events:1: NodeName: empty`},
		{"# ok\n\n1-0 NodeName=c1 State=RESUME State=DOWN", `x.events:3: State: given twice`},
	} {
		_, err := Read(strings.NewReader(tc.in), "x.events", nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestReadAllErrorsAtOnce(t *testing.T) {
	_, err := Read(strings.NewReader("x NodeName=a State=RESUME\n1-0 NodeName=a State=RESUME\n1-0 PartitionName=p State=OFF\n"), "f", nil)
	if err == nil || !strings.Contains(err.Error(), "f:1: time") || !strings.Contains(err.Error(), "f:3: State") {
		t.Fatalf("got %v, want both bad lines", err)
	}
}

func FuzzRead(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "site.events"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	for _, line := range strings.Split(string(data), "\n") {
		f.Add(line)
	}
	f.Add("1-0 NodeName=\"a b\" State=DOWN Reason=\"#\"")
	f.Add("0 ReservationName=psu StartTime=2-0 Duration=12:00:00 Nodes=n[01-16] Flags=MAINT,IGNORE_JOBS")
	f.Add("0 ReservationName=chem StartTime=1-0 Duration=2:00:00 NodeCnt=2 Users=ann,bob Accounts=chem")
	f.Fuzz(func(t *testing.T, s string) {
		evs, err := Read(strings.NewReader(s), "fuzz", nil)
		if err != nil {
			return
		}
		for _, e := range evs {
			byCount := e.Resv != nil && e.Resv.NodeCnt > 0
			if byCount == (e.Nodes != "") && e.Resv != nil {
				t.Fatalf("reservation %+v %+v: want exactly one of Nodes and NodeCnt", e, e.Resv)
			}
			if !byCount && e.Action.OnNode() == (e.Nodes == "") || !e.Action.OnNode() == (e.Partition == "") {
				t.Fatalf("event %+v has the wrong target for %s", e, e.Action)
			}
			if !e.Date && e.At < 0 {
				t.Fatalf("negative offset %+v", e)
			}
		}
	})
}

// TestReadReservation: a maintenance reservation as scontrol create
// reservation takes it, with Duration= or EndTime=, and the refusals.
func TestReadReservation(t *testing.T) {
	evs, err := Read(strings.NewReader(
		"0 ReservationName=psu StartTime=2-00:00:00 Duration=12:00:00 Nodes=n[01-16] Flags=MAINT,IGNORE_JOBS Users=root\n"+
			"1-0 ReservationName=m2 StartTime=3-0 EndTime=3-06:00:00 Nodes=n17 Flags=maint\n"+
			"0 ReservationName=chem StartTime=1-0 Duration=2:00:00 NodeCnt=2 Users=ann,bob Accounts=chem\n"+
			"0 ReservationName=forever StartTime=1-0 Duration=UNLIMITED Nodes=n18 Flags=MAINT\n"), "x.events", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Reservation{
		{Name: "psu", Start: 2 * 86400, End: 2*86400 + 12*3600, Maint: true, IgnoreJobs: true, Users: "root"},
		{Name: "m2", Start: 3 * 86400, End: 3*86400 + 6*3600, Maint: true},
		{Name: "chem", Start: 86400, End: 86400 + 7200, Users: "ann,bob", Accounts: "chem", NodeCnt: 2},
		// reservation.c: Duration=UNLIMITED ends YEAR_SECONDS after start.
		{Name: "forever", Start: 86400, End: 86400 + 365*86400, Maint: true},
	}
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d", len(evs), len(want))
	}
	for i, e := range evs {
		if e.Action != Reserve || e.Resv == nil || *e.Resv != want[i] {
			t.Errorf("line %d: %+v %+v, want %+v", e.Line, e, e.Resv, want[i])
		}
	}
	if evs[0].Nodes != "n[01-16]" || evs[1].At != 86400 {
		t.Errorf("nodes %q, creation %d", evs[0].Nodes, evs[1].At)
	}
	for _, tc := range []struct{ in, want string }{
		{"0 ReservationName=r StartTime=1-0 Duration=1:00:00 Nodes=n1", "x.events:1: Users: a reservation without Flags=MAINT needs Users= or Accounts="},
		{"0 ReservationName=r StartTime=1-0 Duration=1:00:00 Nodes=n1 NodeCnt=1 Users=a", "x.events:1: NodeCnt: give one of Nodes= and NodeCnt="},
		{"0 ReservationName=r StartTime=1-0 Duration=1:00:00 NodeCnt=2 Flags=MAINT", "x.events:1: NodeCnt: not simulated with Flags=MAINT"},
		{"0 ReservationName=r StartTime=1-0 Duration=1:00:00 NodeCnt=0 Users=a", `x.events:1: NodeCnt: "0" is not a positive count`},
		{"0 ReservationName=r StartTime=1-0 Duration=1:00:00 Nodes=n1 Users=-a", `x.events:1: Users: a denied list ("-a") is not simulated`},
		{"0 ReservationName=r StartTime=1-0 Nodes=n1 Flags=MAINT", "x.events:1: EndTime: give one of EndTime= and Duration="},
		{"0 ReservationName=r StartTime=1-0 EndTime=0-12 Nodes=n1 Flags=MAINT", "x.events:1: EndTime: not after StartTime"},
		{"0 ReservationName=r StartTime=1-0 Duration=1:00:00 Nodes=n1 Flags=MAINT,DAILY", `x.events:1: Flags: flag "DAILY" not simulated`},
		{"0 ReservationName=r Duration=1:00:00 Nodes=n1 Flags=MAINT", "x.events:1: StartTime: missing"},
	} {
		if _, err := Read(strings.NewReader(tc.in), "x.events", nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}
