package workflow

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"fairsim/config"
)

// Golden file names inside results/golden/<scenario>/.
const (
	GoldenMetrics = "metrics.csv"
	GoldenHash    = "jobs.sha256"
	// HashKey is the regress: key that tolerates a changed schedule.
	HashKey = "schedule_hash"
)

// RegressHelp is `fairsim regress --help`'s description: the golden
// files and the regress: tolerances it names are defined above.
const RegressHelp = `Runs each scenario (default: every scenarios/*.yaml; a bare NAME means
scenarios/NAME.yaml) and compares its summary.csv metrics and the sha256 of its jobs.csv
(the per-job schedule) with results/golden/NAME/metrics.csv and jobs.sha256. Prints a
table of what drifted and exits non-zero when anything did, so a change that moves a
schedule fails CI until the golden results are updated on purpose:

  fairsim regress                      check every scenario
  fairsim regress --update odyssey     accept odyssey's new results (commit them)
  fairsim regress --set PriorityWeightAge=0 odyssey   would this change drift?

Tolerances come from the scenario's regress: section, absolute, by summary metric
(default 0: exact); "*" sets one for every metric, and schedule_hash: 1 accepts a changed
jobs.csv while every metric stays within tolerance:

  regress: {wait_mean_s: 60, utilization: 0.001}`

// RegressOptions say which scenarios to check against which goldens.
type RegressOptions struct {
	// Scenarios are scenario files; golden results are looked up by the
	// file's base name without .yaml.
	Scenarios []string
	// Golden is the folder of golden results (results/golden).
	Golden string
	// Update rewrites the golden results instead of comparing.
	Update bool
	// Set are KEY=VALUE settings applied to every scenario before it runs
	// (to see whether a change would drift).
	Set [][2]string
	// Jobs is how many scenarios run at once.
	Jobs int
	// Keep, when set, keeps each scenario's run directory under Keep/NAME.
	Keep string
}

// Drift is one difference from the golden results.
type Drift struct {
	Metric    string
	Golden    string // "" when the golden results lack it
	Got       string // "" when the run lacks it
	Tolerance float64
}

// RegressResult is one scenario's comparison.
type RegressResult struct {
	Name     string
	File     string
	Metrics  int // metrics compared
	Hash     string
	Golden   string // golden hash
	Drifts   []Drift
	Updated  bool
	NoGolden bool
}

// Drifted reports whether the scenario moved beyond its tolerances.
func (r *RegressResult) Drifted() bool { return len(r.Drifts) > 0 || r.NoGolden }

// ParseKeyValues reads regress's --set KEY=VALUE settings, which apply
// to every scenario.
func ParseKeyValues(sets []string) ([][2]string, error) {
	var out [][2]string
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--set %q: want KEY=VALUE", s)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// RegressScenarios names the scenario files regress runs: args, a bare
// NAME meaning dir/NAME.yaml, or with no args every dir/*.yaml, the whole
// library CI checks.
func RegressScenarios(dir string, args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		if !strings.ContainsAny(a, "/.") {
			a = filepath.Join(dir, a+".yaml")
		}
		if _, err := os.Stat(a); err != nil {
			return nil, fmt.Errorf("regress: %w", err)
		}
		files = append(files, a)
	}
	if len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join(dir, "*.yaml"))
		if len(files) == 0 {
			return nil, fmt.Errorf("regress: no scenarios in %s/ (run from the repository root, or name the scenario files)", dir)
		}
	}
	return files, nil
}

// ScenarioName is the name a scenario file's golden results go by.
func ScenarioName(file string) string {
	b := filepath.Base(file)
	return strings.TrimSuffix(strings.TrimSuffix(b, ".yaml"), ".yml")
}

// Regress runs every scenario and compares it with (or, with Update,
// writes) its golden results: summary.csv's metrics and the sha256 of
// jobs.csv. A run that fails is an error, not a drift.
func Regress(o RegressOptions) ([]RegressResult, error) {
	if len(o.Scenarios) == 0 {
		return nil, fmt.Errorf("regress: no scenarios")
	}
	names := map[string]string{}
	for _, f := range o.Scenarios {
		n := ScenarioName(f)
		if prev, dup := names[n]; dup {
			return nil, fmt.Errorf("regress: %s and %s would share results/golden/%s", prev, f, n)
		}
		names[n] = f
	}
	res := make([]RegressResult, len(o.Scenarios))
	errs := make([]error, len(o.Scenarios))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(o.Jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res[i], errs[i] = regressOne(o, o.Scenarios[i])
			}
		}()
	}
	for i := range o.Scenarios {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

func regressOne(o RegressOptions, file string) (RegressResult, error) {
	r := RegressResult{Name: ScenarioName(file), File: file}
	sc, err := config.Load(file)
	if err != nil {
		return r, err
	}
	for _, kv := range o.Set {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			return r, fmt.Errorf("%s: %w", file, err)
		}
	}
	if err := sc.Resolve(); err != nil {
		return r, err
	}
	dir := ""
	if o.Keep != "" {
		dir = filepath.Join(o.Keep, r.Name)
	} else {
		if dir, err = os.MkdirTemp("", "fairsim-regress-"); err != nil {
			return r, err
		}
		defer os.RemoveAll(dir)
	}
	run, res, err := Pipeline{}.Run(sc, "")
	if err != nil {
		return r, fmt.Errorf("%s: %w", file, err)
	}
	if err := WriteRunDir(dir, run, res); err != nil {
		return r, err
	}
	jobs, err := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		return r, err
	}
	sum := sha256.Sum256(jobs)
	r.Hash = hex.EncodeToString(sum[:])
	got, err := readMetrics(filepath.Join(dir, "summary.csv"), "metric")
	if err != nil {
		return r, err
	}
	gdir := filepath.Join(o.Golden, r.Name)
	if o.Update {
		r.Updated = true
		r.Metrics = len(got)
		return r, writeGolden(gdir, got, r.Hash)
	}
	want, err := readMetrics(filepath.Join(gdir, GoldenMetrics), "metric")
	if errors.Is(err, fs.ErrNotExist) {
		r.NoGolden = true
		return r, nil
	}
	if err != nil {
		return r, err
	}
	hb, err := os.ReadFile(filepath.Join(gdir, GoldenHash))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, err
	}
	if f := strings.Fields(string(hb)); len(f) > 0 {
		r.Golden = f[0]
	}
	r.Drifts, r.Metrics = Compare(want, got, sc.Regress)
	if r.Golden != r.Hash && sc.Regress[HashKey] == 0 {
		r.Drifts = append(r.Drifts, Drift{Metric: "jobs.csv sha256", Golden: short(r.Golden), Got: short(r.Hash)})
	}
	return r, nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return ""
	}
	return h
}

// metricKV is one metric,value line.
type metricKV struct{ name, value string }

// readMetrics reads a two-column CSV (header first) of metric,value.
func readMetrics(path, first string) ([]metricKV, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 || len(recs[0]) != 2 || recs[0][0] != first {
		return nil, fmt.Errorf("%s:1: want the header %s,value", path, first)
	}
	out := make([]metricKV, 0, len(recs)-1)
	for _, r := range recs[1:] {
		out = append(out, metricKV{r[0], r[1]})
	}
	return out, nil
}

func writeGolden(dir string, m []metricKV, hash string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"metric", "value"})
	for _, kv := range m {
		w.Write([]string{kv.name, kv.value})
	}
	w.Flush()
	if err := os.WriteFile(filepath.Join(dir, GoldenMetrics), b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, GoldenHash), []byte(hash+"  jobs.csv\n"), 0o644)
}

// Compare lists the metrics that differ beyond their tolerance (tol by
// metric name, "*" for the rest; absolute; 0 means exact): numbers are
// compared as numbers, anything else as text, and a metric on one side
// only drifts. It also returns how many metrics it compared.
func Compare(want, got []metricKV, tol map[string]float64) ([]Drift, int) {
	gm := map[string]string{}
	for _, kv := range got {
		gm[kv.name] = kv.value
	}
	wm := map[string]string{}
	var order []string
	for _, kv := range want {
		wm[kv.name] = kv.value
		order = append(order, kv.name)
	}
	for _, kv := range got {
		if _, ok := wm[kv.name]; !ok {
			order = append(order, kv.name)
		}
	}
	var drifts []Drift
	for _, name := range order {
		w, okw := wm[name]
		g, okg := gm[name]
		t, ok := tol[name]
		if !ok {
			t = tol["*"]
		}
		d := Drift{Metric: name, Golden: w, Got: g, Tolerance: t}
		switch {
		case !okw || !okg:
			drifts = append(drifts, d)
		case w == g:
		default:
			wf, err1 := strconv.ParseFloat(w, 64)
			gf, err2 := strconv.ParseFloat(g, 64)
			if err1 != nil || err2 != nil || math.IsNaN(wf) || math.IsNaN(gf) || math.Abs(gf-wf) > t {
				drifts = append(drifts, d)
			}
		}
	}
	return drifts, len(order)
}

// WriteRegressTable prints a line per scenario that matched (or was
// updated), then a table of every drift.
func WriteRegressTable(w io.Writer, results []RegressResult) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	for _, r := range results {
		switch {
		case r.Updated:
			fmt.Fprintf(tw, "%s\tgolden results written: %d metrics, jobs.csv %s\n", r.Name, r.Metrics, short(r.Hash))
		case r.NoGolden:
			fmt.Fprintf(tw, "%s\tDRIFT: no golden results (run fairsim regress --update %s)\n", r.Name, r.Name)
		case len(r.Drifts) == 0:
			fmt.Fprintf(tw, "%s\tok: %d metrics and jobs.csv %s as golden\n", r.Name, r.Metrics, short(r.Hash))
		default:
			fmt.Fprintf(tw, "%s\tDRIFT: %d of %d checks differ (below)\n", r.Name, len(r.Drifts), r.Metrics+1)
		}
	}
	tw.Flush()
	var drifted []string
	for _, r := range results {
		if r.Drifted() {
			drifted = append(drifted, r.Name)
		}
	}
	if len(drifted) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tMETRIC\tGOLDEN\tNOW\tCHANGE\tTOLERANCE")
	for _, r := range results {
		for _, d := range r.Drifts {
			tolS := strconv.FormatFloat(d.Tolerance, 'g', -1, 64)
			if d.Metric == "jobs.csv sha256" {
				tolS = HashKey + ": 0"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, d.Metric, orDash(d.Golden), orDash(d.Got), change(d), tolS)
		}
	}
	tw.Flush()
	slices.Sort(drifted)
	fmt.Fprintf(w, "\nregress: %d of %d scenarios drifted (%s). If the change is intended, update the golden results:\n  fairsim regress --update %s\n",
		len(drifted), len(results), strings.Join(drifted, ", "), strings.Join(drifted, " "))
}

// change describes a drift: the difference, printed with the decimals
// the values have, and in percent; or what else changed.
func change(d Drift) string {
	wf, e1 := strconv.ParseFloat(d.Golden, 64)
	gf, e2 := strconv.ParseFloat(d.Got, 64)
	switch {
	case d.Golden == "":
		return "new metric"
	case d.Got == "":
		return "gone"
	case e1 != nil || e2 != nil:
		return "changed"
	}
	dec := 0
	for _, s := range []string{d.Golden, d.Got} {
		if i := strings.IndexByte(s, '.'); i >= 0 {
			dec = max(dec, len(s)-i-1)
		}
	}
	c := strconv.FormatFloat(gf-wf, 'f', dec, 64)
	if gf >= wf {
		c = "+" + c
	}
	if wf != 0 {
		c += fmt.Sprintf(" (%+.2f%%)", 100*(gf-wf)/math.Abs(wf))
	}
	return c
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
