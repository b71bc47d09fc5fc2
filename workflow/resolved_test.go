package workflow

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fairsim/config"
)

// scenario.resolved.yaml records what was in force, not what the scenario
// left to defaults: a tree read from a dump (g1 70, g2 20, g3 10 shares in
// tiny-assoc.cfg) is written with those shares and where they came from,
// never as accounts.shares: equal; the CPU types with their speeds and
// billing weights (broadwell 1.0, skylake 1.2); and the billing in force,
// sim.billing and each partition's TRESBillingWeights. Re-running from the
// resolved file gives a byte-identical jobs.csv.
func TestResolvedRecordsWhatWasInForce(t *testing.T) {
	sc, err := config.Load("testdata/tiny-assoc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	first := t.TempDir()
	if _, _, err := (Pipeline{}).Run(sc, first); err != nil {
		t.Fatal(err)
	}
	res, err := os.ReadFile(filepath.Join(first, "scenario.resolved.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(res)
	if strings.Contains(text, "shares: equal") {
		t.Errorf("resolved file says shares: equal for a tree read from a dump:\n%s", text)
	}
	for _, want := range []string{
		"  shares_from: assoc tiny-assoc.cfg",
		"    - account: g1\n      fairshare: \"70\"",
		"    - account: g2\n      fairshare: \"20\"",
		"    - account: g3\n      fairshare: \"10\"",
		"  billing: cpu_type", // sim.billing
		"    - name: broadwell\n      speed: 1\n      weight: 1\n      reference: true",
		"    - name: skylake\n      speed: 1.2\n      weight: 1.2\n",
		"      TRESBillingWeights: CPU=2.0,Mem=0.25G",
		"      TRESBillingWeights: '(none: the CPU-type weight of each node)'",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("resolved file lacks %q:\n%s", want, text)
		}
	}

	again, err := LoadRunScenario(first, []string{"testdata"})
	if err != nil {
		t.Fatal(err)
	}
	second := t.TempDir()
	if _, _, err := (Pipeline{}).Run(again, second); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"jobs.csv", "summary.csv", "fairshare.csv"} {
		a, err1 := os.ReadFile(filepath.Join(first, f))
		b, err2 := os.ReadFile(filepath.Join(second, f))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s of the re-run from scenario.resolved.yaml differs from the run's", f)
		}
	}
}
