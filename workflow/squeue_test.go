package workflow

import (
	"bytes"
	"strings"
	"testing"
)

// squeue at 0:20 and 0:31 of tiny.swf (explain_test.go works its schedule
// out): job 1 runs from second 3 on n1; job 2 (all 8 cores) pends on
// Resources from the pass at 13; job 3, submitted at 20, has had no pass
// yet at 20 (None) and is backfilled at 30 (running 0:01 at 31). Sorted as
// squeue's "P,t,-p": pending before running, then priority down.
func TestSqueue(t *testing.T) {
	run := func(at string, o SqueueOptions) string {
		t.Helper()
		var b bytes.Buffer
		if err := Squeue(&b, nil, false, RunSpec{Scenario: "testdata/tiny.yaml"}, at, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	head := "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n"
	tests := []struct {
		at   string
		o    SqueueOptions
		want string
	}{
		{"0:20", SqueueOptions{}, head +
			"                 2     batch   sbatch       u2 PD       0:00      1 (Resources)\n" +
			"                 3     batch   sbatch       u3 PD       0:00      1 (None)\n" +
			"                 1     batch   sbatch       u1  R       0:17      1 n1\n"},
		{"0:31", SqueueOptions{}, head +
			"                 2     batch   sbatch       u2 PD       0:00      1 (Resources)\n" +
			"                 1     batch   sbatch       u1  R       0:28      1 n1\n" +
			"                 3     batch   sbatch       u3  R       0:01      1 n1\n"},
		{"0:31", SqueueOptions{States: "R", Users: "u1,u3", Format: "%i|%a|%t|%M|%l|%.4D|%-5r|%N"},
			// Headers are cut to the width too (NODE, REASO).
			"JOBID|ACCOUNT|ST|TIME|TIME_LIMIT|NODE|REASO|NODELIST\n" +
				"1|g1|R|0:28|1:00:00|   1|None |n1\n" +
				"3|g3|R|0:01|30:00|   1|None |n1\n"},
		{"0:31", SqueueOptions{States: "pending", Accounts: "g2", Parts: "batch", NoHeader: true, Format: "%.3i %T %r"},
			"  2 PENDING Resources\n"},
		{"0:31", SqueueOptions{Parts: "other"}, head},
	}
	for _, tc := range tests {
		if got := run(tc.at, tc.o); got != tc.want {
			t.Errorf("--at %s %+v:\n%s\nwant\n%s", tc.at, tc.o, got, tc.want)
		}
	}
}

func TestSqueueErrors(t *testing.T) {
	for _, tc := range []struct {
		at   string
		o    SqueueOptions
		want string
	}{
		{"", SqueueOptions{}, "--at TIME is required"},
		{"0:31", SqueueOptions{States: "CD"}, `-t "CD": state "CD"`},
		{"0:31", SqueueOptions{Format: "%i %Z"}, "%Z is not a field"},
		{"0:31", SqueueOptions{Format: "%i %"}, "names no field"},
		{"0:31", SqueueOptions{Format: "%99999i"}, "want a number up to 1000"},
	} {
		err := Squeue(&bytes.Buffer{}, nil, false, RunSpec{Scenario: "testdata/tiny.yaml"}, tc.at, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %+v: %v, want %q", tc.at, tc.o, err, tc.want)
		}
	}
}
