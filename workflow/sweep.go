package workflow

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"fairsim/config"
	"fairsim/inputerr"
	"fairsim/multifactor"
	"fairsim/report"
	"fairsim/sim"
	"fairsim/slurmtime"
)

// Sweep is a grid of scenario settings to simulate.
type Sweep struct {
	// Scenario is the scenario file; "" for the embedded default.
	Scenario string
	// Site, when set, describes the swept run by a site's own files
	// (--slurm-conf, --assoc, --qos, --trace) instead of Scenario.
	Site   *RunSpec
	Params []Param
	// Seeds > 1 repeats every point with generate.seed = base ..
	// base+Seeds-1, base being the scenario's generate.seed.
	Seeds int
	// StarvedAfter is the wait (seconds) beyond which a job starves.
	StarvedAfter int64
}

// NewSweep reads a sweep as the command line gives it: the scenario file
// ("" for the embedded default), its --set KEY=V1,V2,... settings, the
// seed count and the starvation threshold (a Slurm time string).
func NewSweep(scenario string, sets []string, seeds int, starvedAfter string) (*Sweep, error) {
	sw := &Sweep{Scenario: scenario, Seeds: seeds}
	if sw.Seeds < 0 {
		return nil, fmt.Errorf("--seeds %d: want a positive count", sw.Seeds)
	}
	for _, s := range sets {
		p, err := ParseSet(s)
		if err != nil {
			return nil, err
		}
		sw.Params = append(sw.Params, p)
	}
	after, err := slurmtime.ParseSeconds(starvedAfter)
	if err != nil || after <= 0 {
		return nil, fmt.Errorf("--starved-after %q: want a positive Slurm time string such as 1-0 or 12:00:00", starvedAfter)
	}
	sw.StarvedAfter = after
	return sw, nil
}

// DefaultOut is where a sweep writes unless told: results/sweep-<name of
// the scenario file>, so sweeps of different scenarios do not collide.
func (s *Sweep) DefaultOut() string {
	name := "default"
	if s.Site != nil && s.Site.SlurmConf != "" && s.Scenario == "" {
		name = siteName(s.Site.SlurmConf)
	} else if s.Scenario != "" {
		base := filepath.Base(s.Scenario)
		name = base[:len(base)-len(filepath.Ext(base))]
	}
	return filepath.Join("results", "sweep-"+name)
}

// Manifest is sweep.yaml: what a sweep directory holds, so that merge can
// check its shards belong to one sweep.
type Manifest struct {
	Scenario       string          `yaml:"scenario"`
	ScenarioSHA256 string          `yaml:"scenario_sha256"`
	Params         []ManifestParam `yaml:"params"`
	Seeds          int             `yaml:"seeds"`
	BaseSeed       uint64          `yaml:"base_seed"`
	StarvedAfter   string          `yaml:"starved_after"`
	Points         int             `yaml:"points"`
	Shard          string          `yaml:"shard"`
}

// ManifestParam is one swept key and its values.
type ManifestParam struct {
	Key    string   `yaml:"key"`
	Values []string `yaml:"values"`
}

// sameSweep reports whether two manifests describe the same grid (their
// shards and scenario paths aside).
func (m Manifest) sameSweep(o Manifest) bool {
	m.Shard, o.Shard = "", ""
	m.Scenario, o.Scenario = "", ""
	a, _ := yaml.Marshal(m)
	b, _ := yaml.Marshal(o)
	return string(a) == string(b)
}

// load reads the sweep's scenario afresh (every point edits its own copy)
// and a digest of its text.
func (s *Sweep) load() (*config.Scenario, string, error) {
	if s.Site != nil {
		sc, err := s.Site.Unresolved()
		if err != nil {
			return nil, "", err
		}
		h := sha256.New()
		for _, f := range []string{s.Site.Scenario, s.Site.SlurmConf, s.Site.Assoc, s.Site.QOS, s.Site.Trace} {
			if f == "" {
				continue
			}
			if err := hashFile(h, f); err != nil {
				return nil, "", err
			}
		}
		return sc, hex.EncodeToString(h.Sum(nil)), nil
	}
	if s.Scenario == "" {
		sc, err := config.Default()
		if err != nil {
			return nil, "", err
		}
		b, err := sc.MarshalCompact()
		sum := sha256.Sum256(b)
		return sc, hex.EncodeToString(sum[:]), err
	}
	b, err := inputerr.ReadFile(s.Scenario, "scenario", inputerr.MaxConfBytes)
	if err != nil {
		return nil, "", err
	}
	sc, err := config.Load(s.Scenario)
	sum := sha256.Sum256(b)
	return sc, hex.EncodeToString(sum[:]), err
}

// Plan checks the sweep and returns its full grid and manifest (for the
// whole grid: Shard "0/1").
func (s *Sweep) Plan() ([]Point, Manifest, error) {
	var man Manifest
	if s.StarvedAfter <= 0 {
		s.StarvedAfter = DefaultStarvedAfter
	}
	seen := map[string]bool{}
	for _, p := range s.Params {
		k := strings.ToLower(p.Key)
		if seen[k] {
			return nil, man, fmt.Errorf("--set %s given twice: give all its values in one --set", p.Key)
		}
		seen[k] = true
		if s.Seeds > 1 && k == "generate.seed" {
			return nil, man, fmt.Errorf("--set generate.seed and --seeds both choose seeds: keep one")
		}
	}
	sc, sum, err := s.load()
	if err != nil {
		return nil, man, err
	}
	var base uint64
	if sc.Generate != nil {
		base = sc.Generate.Seed
	} else if s.Seeds > 1 {
		return nil, man, fmt.Errorf("--seeds %d: the scenario replays a trace; seeds apply to generated workloads", s.Seeds)
	}
	points := Grid(s.Params, s.Seeds, base)
	man = Manifest{Scenario: s.Scenario, ScenarioSHA256: sum, Seeds: max(s.Seeds, 1), BaseSeed: base,
		StarvedAfter: slurmtime.Format(s.StarvedAfter), Points: len(points), Shard: All.String()}
	if s.Site != nil && s.Site.SlurmConf != "" && s.Scenario == "" {
		man.Scenario = "--slurm-conf " + s.Site.SlurmConf
	} else if man.Scenario == "" {
		man.Scenario = "(embedded default)"
	} else if abs, err := filepath.Abs(s.Scenario); err == nil {
		man.Scenario = abs
	}
	for _, p := range s.Params {
		man.Params = append(man.Params, ManifestParam{Key: p.Key, Values: p.Values})
	}
	return points, man, nil
}

// PointScenario is the resolved scenario of one point: the sweep's
// scenario with the point's settings applied in --set order.
func (s *Sweep) PointScenario(pt Point) (*config.Scenario, error) {
	sc, _, err := s.load()
	if err != nil {
		return nil, err
	}
	for k, p := range s.Params {
		if err := sc.Set(p.Key, pt.Values[k]); err != nil {
			return nil, fmt.Errorf("point %d: %w", pt.Index, err)
		}
	}
	if s.Seeds > 1 {
		sc.Generate.Seed = pt.Seed
	}
	if err := sc.Resolve(); err != nil {
		return nil, fmt.Errorf("point %d (%s): %w", pt.Index, s.Label(pt), err)
	}
	keys := make([]string, len(s.Params))
	for k, p := range s.Params {
		keys[k] = p.Key
	}
	if err := sc.CheckSet(keys); err != nil {
		return nil, fmt.Errorf("point %d (%s): %w", pt.Index, s.Label(pt), err)
	}
	return sc, nil
}

// Label describes a point as KEY=V settings.
func (s *Sweep) Label(pt Point) string {
	var parts []string
	for k, p := range s.Params {
		parts = append(parts, p.Key+"="+pt.Values[k])
	}
	if s.Seeds > 1 {
		parts = append(parts, fmt.Sprintf("seed=%d", pt.Seed))
	}
	if len(parts) == 0 {
		return "(scenario as given)"
	}
	return strings.Join(parts, " ")
}

// PointDir is the directory of a point inside a sweep directory:
// points/<index>_<settings>, the index zero-padded so that ls lists the
// points in grid order.
func (s *Sweep) PointDir(pt Point, total int) string {
	width := len(fmt.Sprint(max(total-1, 0)))
	name := fmt.Sprintf("%0*d", width, pt.Index)
	for k, p := range s.Params {
		name += "_" + slug(p.Key+"="+pt.Values[k])
	}
	if s.Seeds > 1 {
		name += fmt.Sprintf("_seed=%d", pt.Seed)
	}
	if len(name) > 120 {
		name = name[:120]
	}
	return filepath.Join("points", name)
}

// slug keeps the characters that are safe in a file name on any system.
func slug(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '=' || c == '+'
		if !ok {
			b[i] = '-'
		}
	}
	return string(b)
}

// paramColumns are sweep.csv's leading columns.
func (s *Sweep) paramColumns() []string {
	cols := []string{"point"}
	for _, p := range s.Params {
		cols = append(cols, p.Key)
	}
	if s.Seeds > 1 {
		cols = append(cols, "seed")
	}
	return cols
}

func (s *Sweep) paramValues(pt Point) []string {
	vals := append([]string{fmt.Sprint(pt.Index)}, pt.Values...)
	if s.Seeds > 1 {
		vals = append(vals, fmt.Sprint(pt.Seed))
	}
	return vals
}

// RunOptions say where and how a sweep runs.
type RunOptions struct {
	Out   string
	Shard Shard
	// Jobs is how many points run at once (at least 1).
	Jobs int
	// Log receives one line per finished point; nil for none.
	Log io.Writer
}

// Run simulates the points of the shard, Jobs at a time, writing each
// point's run directory and then sweep.yaml and sweep.csv (the rows of
// this shard's points, in grid order). Points go to the workers in
// dispatchOrder. It stops handing out points at the first failure and
// reports the failing point with the lowest index.
func (s *Sweep) Run(o RunOptions) error {
	points, man, err := s.Plan()
	if err != nil {
		return err
	}
	man.Shard = o.Shard.String()
	var mine []Point
	for _, pt := range points {
		if o.Shard.Has(pt.Index) {
			mine = append(mine, pt)
		}
	}
	// Check every point's settings before simulating any.
	scs := make([]*config.Scenario, len(mine))
	for i, pt := range mine {
		if scs[i], err = s.PointScenario(pt); err != nil {
			return err
		}
	}
	if err := prepareOut(o.Out); err != nil {
		return err
	}
	rows := make([]Row, len(mine))
	errs := make([]error, len(mine))
	var (
		mu     sync.Mutex
		failed bool
		done   int
		wg     sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < max(o.Jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				pt := mine[i]
				dir := filepath.Join(o.Out, s.PointDir(pt, len(points)))
				m, err := runPoint(scs[i], dir, s.StarvedAfter)
				rows[i] = Row{Index: pt.Index, Params: s.paramValues(pt), Fields: m.Fields()}
				mu.Lock()
				if err != nil {
					errs[i] = fmt.Errorf("point %d (%s): %w", pt.Index, s.Label(pt), err)
					failed = true
				} else {
					err = writeFields(filepath.Join(dir, "point.csv"), s.paramColumns(), rows[i])
					if err != nil {
						errs[i], failed = err, true
					}
				}
				done++
				if o.Log != nil && err == nil {
					fmt.Fprintf(o.Log, "[%d/%d] point %d done: %s\n", done, len(mine), pt.Index, s.Label(pt))
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range dispatchOrder(len(mine), max(o.Jobs, 1)) {
		mu.Lock()
		stop := failed
		mu.Unlock()
		if stop {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := firstErr(errs); err != nil {
		return err
	}
	if err := writeManifest(o.Out, man); err != nil {
		return err
	}
	return WriteTable(filepath.Join(o.Out, "sweep.csv"), s.paramColumns(), rows)
}

// dispatchOrder is the order in which n points go to workers: the grid
// order, with every other block of workers points reversed (a serpentine,
// as in a snake draft). In grid order the last --set knob varies fastest,
// so with two workers and two values of it, each worker would run every
// point of one value: a sweep over bf_window=1440,2880 put all the
// slower 2880 points on one worker, which then ran alone for the last
// 8-10 % of the sweep. The serpentine gives each worker both values in
// turn, whatever the knob; results are still written in grid order.
func dispatchOrder(n, workers int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if workers > 1 {
		for lo := workers; lo < n; lo += 2 * workers {
			slices.Reverse(order[lo:min(lo+workers, n)])
		}
	}
	return order
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// prepareOut makes the sweep directory, clearing what an earlier sweep
// wrote there (recognised by its sweep.yaml), so no stale point survives.
func prepareOut(out string) error {
	if _, err := os.Stat(filepath.Join(out, "sweep.yaml")); err == nil {
		for _, name := range []string{"points", "sweep.csv", "sweep.yaml"} {
			if err := os.RemoveAll(filepath.Join(out, name)); err != nil {
				return err
			}
		}
	}
	return os.MkdirAll(out, 0o755)
}

func writeManifest(out string, man Manifest) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(man); err != nil {
		return err
	}
	enc.Close()
	b := buf.Bytes()
	head := "# fairsim sweep: the grid this directory holds (sweep.csv has one row per point).\n"
	return os.WriteFile(filepath.Join(out, "sweep.yaml"), append([]byte(head), b...), 0o644)
}

// ReadManifest reads DIR/sweep.yaml.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, "sweep.yaml"))
	if err != nil {
		return m, fmt.Errorf("%s is not a sweep directory: %w", dir, err)
	}
	if err := yaml.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", filepath.Join(dir, "sweep.yaml"), err)
	}
	return m, nil
}

// runPoint simulates one scenario into dir and computes its metrics. Its
// jobs are written and tallied as they end and then forgotten, as `fairsim
// run` does, so that a point's memory follows its running and pending
// jobs, not its trace.
func runPoint(sc *config.Scenario, dir string, after int64) (Metrics, error) {
	p := Pipeline{}
	run, err := p.Build(sc)
	if err != nil {
		return Metrics{}, err
	}
	defer run.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Metrics{}, err
	}
	pt := NewPointTally(after)
	st, err := report.NewJobStreamWith(dir, StreamResult(run), pt.Add)
	if err != nil {
		return Metrics{}, err
	}
	streamInto(run, st)
	// A point that fails leaves no folder: its jobs.csv would be part of
	// a run.
	fail := func(err error) (Metrics, error) {
		os.RemoveAll(dir)
		return Metrics{}, err
	}
	res, err := p.Simulate(run)
	if err != nil {
		st.Close(&sim.Result{})
		return fail(err)
	}
	tally, err := st.Close(res)
	if err != nil {
		return fail(err)
	}
	if err := writeRunSummaries(dir, run, res, tally); err != nil {
		return fail(err)
	}
	return pt.Metrics(run, res, tally.Metrics(res)), nil
}

// FairshareSeries is the policy's fair-share time series in the form the
// report writes.
func FairshareSeries(mf *multifactor.Policy) *report.FSSeries {
	s := &report.FSSeries{Rows: mf.SnapshotRows()}
	for _, snap := range mf.Snapshots {
		s.T = append(s.T, snap.T)
		s.Vals = append(s.Vals, snap.Vals)
	}
	return s
}

// WriteRunDir writes the outputs `fairsim run` writes for a run.
func WriteRunDir(out string, run *config.Run, res *sim.Result) error {
	if err := report.WriteRun(out, res, run.Scenario); err != nil {
		return err
	}
	return writeRunRest(out, run, res, nil)
}

// writeRunSummaries writes what WriteRunDir writes beside the per-job
// files a JobStream wrote, from the stream's tally.
// The fair-share outputs are made beside the summaries, which leave a
// core idle while the last plot draws; both only read res and t.
func writeRunSummaries(out string, run *config.Run, res *sim.Result, t *report.JobTally) error {
	rest := make(chan error, 1)
	go func() { rest <- writeRunRest(out, run, res, t) }()
	err := report.WriteSummaries(out, res, t, run.Scenario)
	if rerr := <-rest; err == nil {
		err = rerr
	}
	return err
}

// writeRunRest writes the fair-share outputs and the generated
// association dump; t, when set, gives the accounts' usage.
func writeRunRest(out string, run *config.Run, res *sim.Result, t *report.JobTally) error {
	if mf := run.Multifactor; mf != nil {
		fs := FairshareSeries(mf)
		if t != nil {
			fs.Usage = t.AccountUsage()
		}
		if err := report.WriteFairshare(out, res, fs); err != nil {
			return err
		}
	}
	if run.AssocDump != "" {
		return os.WriteFile(filepath.Join(out, "assoc.generated.cfg"), []byte(run.AssocDump), 0o644)
	}
	return nil
}

// hashFile adds the file at path to h, streamed: a site's trace may be
// larger than memory allows to hold at once.
func hashFile(h io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}
