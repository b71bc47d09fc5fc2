package workflow

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func kvs(pairs ...string) []metricKV {
	var out []metricKV
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, metricKV{pairs[i], pairs[i+1]})
	}
	return out
}

func TestCompare(t *testing.T) {
	want := kvs("scheduler", "slurm", "jobs", "100", "wait_mean_s", "60.000000", "utilization", "0.500000", "gone", "1")
	got := kvs("scheduler", "slurm", "jobs", "100", "wait_mean_s", "90.000000", "utilization", "0.500900", "new", "2")
	for _, tc := range []struct {
		tol  map[string]float64
		want []string
	}{
		// Exact by default: every numeric difference drifts.
		{nil, []string{"wait_mean_s", "utilization", "gone", "new"}},
		// Absolute tolerances by metric.
		{map[string]float64{"wait_mean_s": 30, "utilization": 0.001}, []string{"gone", "new"}},
		{map[string]float64{"wait_mean_s": 29.9}, []string{"wait_mean_s", "utilization", "gone", "new"}},
		// "*" for the rest.
		{map[string]float64{"*": 0.001}, []string{"wait_mean_s", "gone", "new"}},
	} {
		d, n := Compare(want, got, tc.tol)
		var names []string
		for _, x := range d {
			names = append(names, x.Metric)
		}
		if strings.Join(names, " ") != strings.Join(tc.want, " ") || n != 6 {
			t.Errorf("tol %v: drifts %v over %d metrics, want %v over 6", tc.tol, names, n, tc.want)
		}
	}
	// Text compares as text.
	if d, _ := Compare(kvs("scheduler", "slurm"), kvs("scheduler", "easy"), map[string]float64{"*": 1e9}); len(d) != 1 {
		t.Errorf("scheduler slurm -> easy: %v", d)
	}
}

func TestChange(t *testing.T) {
	for _, tc := range []struct {
		d    Drift
		want string
	}{
		{Drift{Golden: "7415.307500", Got: "6488.925500"}, "-926.382000 (-12.49%)"},
		{Drift{Golden: "21", Got: "19"}, "-2 (-9.52%)"},
		{Drift{Golden: "0", Got: "3"}, "+3"},
		{Drift{Golden: "", Got: "3"}, "new metric"},
		{Drift{Golden: "3", Got: ""}, "gone"},
		{Drift{Golden: "easy", Got: "slurm"}, "changed"},
	} {
		if got := change(tc.d); got != tc.want {
			t.Errorf("change(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestRegress writes golden results for a scenario, passes against them,
// and drifts, naming the metrics, once the scenario's age weight changes.
func TestRegress(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "small.yaml")
	os.WriteFile(scen, []byte(small), 0o644)
	golden := filepath.Join(dir, "golden")
	res, err := Regress(RegressOptions{Scenarios: []string{scen}, Golden: golden, Update: true, Jobs: 1})
	if err != nil || len(res) != 1 || !res[0].Updated {
		t.Fatalf("update: %v %+v", err, res)
	}
	for _, f := range []string{GoldenMetrics, GoldenHash} {
		if _, err := os.Stat(filepath.Join(golden, "small", f)); err != nil {
			t.Errorf("golden %s not written: %v", f, err)
		}
	}
	res, err = Regress(RegressOptions{Scenarios: []string{scen}, Golden: golden, Jobs: 1})
	if err != nil || res[0].Drifted() || res[0].Metrics < 20 {
		t.Fatalf("against its own golden: %v %+v", err, res)
	}

	// Change PriorityWeightAge in the scenario: the schedule moves.
	changed := strings.Replace(small, "slurm:\n", "slurm:\n  PriorityWeightAge: \"10000000\"\n", 1)
	os.WriteFile(scen, []byte(changed), 0o644)
	res, err = Regress(RegressOptions{Scenarios: []string{scen}, Golden: golden, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Drifted() {
		t.Fatal("a changed PriorityWeightAge did not drift")
	}
	var b bytes.Buffer
	WriteRegressTable(&b, res)
	out := b.String()
	for _, want := range []string{"small  DRIFT", "wait_mean_s", "jobs.csv sha256", "fairsim regress --update small"} {
		if !strings.Contains(out, want) {
			t.Errorf("regress table lacks %q:\n%s", want, out)
		}
	}

	// Tolerances from the scenario's regress: section let it pass.
	tolerant := changed + "regress: {\"*\": 1.0e12, schedule_hash: 1}\n"
	os.WriteFile(scen, []byte(tolerant), 0o644)
	res, err = Regress(RegressOptions{Scenarios: []string{scen}, Golden: golden, Jobs: 1})
	if err != nil || res[0].Drifted() {
		t.Errorf("within tolerance: %v %+v", err, res[0].Drifts)
	}

	// No golden results: a drift that says how to make them.
	res, err = Regress(RegressOptions{Scenarios: []string{scen}, Golden: filepath.Join(dir, "none"), Jobs: 1})
	if err != nil || !res[0].NoGolden {
		t.Errorf("no golden: %v %+v", err, res)
	}
}
