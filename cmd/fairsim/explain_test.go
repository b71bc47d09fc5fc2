package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// explain --run re-runs a run directory's scenario (finding its relative
// trace under --scenario-dir) and tells the backfilled job's story.
func TestExplainRunDir(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", "--quiet", "--scenario", "../../workflow/testdata/tiny.yaml", "--out", run)
	out, errs, err := runApp(t, "explain", "--run", run, "--job", "3", "--scenario-dir", "../../workflow/testdata")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if errs != "" {
		t.Errorf("warnings: %s", errs)
	}
	for _, want := range []string{"Job 3: user u3, account g3", "started    0-00:00:30  by the backfill scheduler", "It was started by backfill"} {
		if !strings.Contains(out, want) {
			t.Errorf("story lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runApp(t, "explain", "--run", run, "--job", "3"); err == nil || !strings.Contains(err.Error(), "--scenario-dir") {
		t.Errorf("without the scenario folder: %v", err)
	}
	if _, _, err := runApp(t, "explain", "--scenario", "../../workflow/testdata/tiny.yaml", "--job", "7"); err == nil {
		t.Error("a job not in the workload was explained")
	}
}

// On odyssey, the longest-waiting job and the longest-waiting backfilled
// job get stories whose times and passes agree with jobs.csv.
func TestExplainOdyssey(t *testing.T) {
	needFile(t, odyssey)
	run := filepath.Join(t.TempDir(), "odyssey")
	mustRun(t, "run", "--quiet", "--scenario", odyssey, "--out", run)
	f, err := os.Open(filepath.Join(run, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(f).ReadAll()
	f.Close()
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var long, bf []string
	wait := func(r []string) int64 { w, _ := strconv.ParseInt(r[col["Wait"]], 10, 64); return w }
	for _, r := range rows[1:] {
		if long == nil || wait(r) > wait(long) {
			long = r
		}
		if r[col["StartedBy"]] == "backfill" && (bf == nil || wait(r) > wait(bf)) {
			bf = r
		}
	}
	for _, tc := range []struct {
		row []string
		by  string
	}{{long, long[col["StartedBy"]]}, {bf, "backfill"}} {
		id := tc.row[col["JobID"]]
		out := mustRun(t, "explain", "--run", run, "--scenario-dir", "../../scenarios", "--job", id)
		start, _ := strconv.ParseInt(tc.row[col["Start"]], 10, 64)
		clock := fmt.Sprintf("%d-%02d:%02d:%02d", start/86400, start/3600%24, start/60%60, start%60)
		for _, want := range []string{"Job " + id + ":", "started    " + clock + "  by the " + tc.by + " scheduler",
			"Why it waited", "squeue would have shown Reason=", "Priority at each PriorityCalcPeriod tick",
			"Jobs that started on its partition's nodes while it waited", "Fair share of its association"} {
			if !strings.Contains(out, want) {
				t.Errorf("job %s: story lacks %q:\n%s", id, want, out)
			}
		}
	}
}
