package workload

import (
	"os"
	"testing"
	"time"
)

// TestSacctThrottledArrayEligible: a task its array's throttle held
// (--array=0-7%2) shows in sacct as eligible when the throttle let it go;
// the reader gives every task of the array its array's eligible time, the
// earliest of its tasks'. Rows of array 5 recorded on the 22.05 harness
// (scenarios/testdata/slurm-diff/array-throttle): submitted 10:57:19,
// tasks 0 and 1 eligible 10:57:20, tasks 2-7 from 11:05:23 to 11:07:26;
// task 7 (JobIDRaw 5) sorts first, as the reader orders by submit, then id.
func TestSacctThrottledArrayEligible(t *testing.T) {
	data, err := os.ReadFile("../scenarios/testdata/slurm-diff/array-throttle/sacct.txt")
	if err != nil {
		t.Fatal(err)
	}
	jobs, r, err := readSacct(t, data, SacctOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	epoch := r.Header().UnixStartTime
	want := time.Date(2026, 11, 29, 10, 57, 20, 0, time.UTC).Unix() - epoch
	n := 0
	for _, j := range jobs {
		if j.ArrayJobID != 5 {
			continue
		}
		n++
		if j.ArrayMaxRun != 2 || j.Eligible != want {
			t.Errorf("task 5_%d: throttle %d, eligible %d; want 2, %d", j.ArrayTaskID, j.ArrayMaxRun, j.Eligible, want)
		}
	}
	if n != 8 {
		t.Errorf("%d tasks of array 5, want 8", n)
	}
	if got := r.Stats().Defaulted["eligible of a throttled array's task: its array's (sacct's is its release by the throttle)"]; got == 0 {
		t.Errorf("no rewritten eligible time counted in Defaulted: %v", r.Stats().Defaulted)
	}
}
