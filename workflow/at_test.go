package workflow

import (
	"slices"
	"strings"
	"testing"
)

// --at takes a date only where a Slurm time string cannot have a '-'.
func TestLooksLikeDate(t *testing.T) {
	for s, want := range map[string]bool{"2024-03-01": true, "2024-03-01T09:00": true, "1-0": false,
		"12:00:00": false, "10-00:00:00": false, "2024-3-1": false} {
		if got := looksLikeDate(s); got != want {
			t.Errorf("looksLikeDate(%q) = %v, want %v", s, got, want)
		}
	}
}

// The state at 1-0 is the state one day after the first submission: the
// run stops there, and no job starts after it.
func TestSimulateAtStopsAtOffset(t *testing.T) {
	p := Pipeline{Need: "sprio"}
	run, err := p.Open(RunSpec{Scenario: sprioScenario})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	at, err := p.SimulateAt(run, "1-0", nil)
	if err != nil {
		t.Fatal(err)
	}
	if at.Stop != at.First+86400 || at.Res.Now != at.Stop {
		t.Errorf("first %d, stop %d, now %d: want stop = now = first + 86400", at.First, at.Stop, at.Res.Now)
	}
	for _, j := range at.Res.Jobs {
		if j.Start > at.Stop {
			t.Fatalf("job %d started at %d, after the view at %d", j.ID, j.Start, at.Stop)
		}
	}
	if at.Res.Jobs[0].Submit != at.First {
		t.Errorf("first job submitted at %d, First %d: the peeked job was lost", at.Res.Jobs[0].Submit, at.First)
	}
}

func TestParseJobIDs(t *testing.T) {
	ids, err := ParseJobIDs(" 12, 7,,3 ")
	if err != nil || !slices.Equal(ids, []int64{12, 7, 3}) {
		t.Errorf("ParseJobIDs = %v, %v; want [12 7 3]", ids, err)
	}
	for _, bad := range []string{"12x", "0", "-3"} {
		if _, err := ParseJobIDs(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseJobIDs(%q): %v, want an error naming it", bad, err)
		}
	}
}

// --at and --window count from the same origin, the first submission
// (second 1000 of late.swf), not the trace epoch: --window 0..0:00:15
// keeps the jobs submitted at 1000 and 1010 (first + [0, 15)), not none
// (epoch + [0, 15)); --at 0:00:15 stops at 1000 + 15 = 1015.
func TestAtAndWindowCountFromFirstSubmission(t *testing.T) {
	p := Pipeline{Need: "sprio"}
	run, err := p.Open(RunSpec{Scenario: "testdata/late.yaml", Window: "0..0:00:15"})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	at, err := p.SimulateAt(run, "0:00:15", nil)
	if err != nil {
		t.Fatal(err)
	}
	if at.First != 1000 || at.Stop != 1015 {
		t.Errorf("first %d, stop %d; want 1000 and 1015", at.First, at.Stop)
	}
	var ids []int64
	for _, j := range at.Res.Jobs {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []int64{1, 2}) {
		t.Errorf("jobs in the window %v, want [1 2]", ids)
	}
}
