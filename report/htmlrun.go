package report

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WriteHTMLReport writes DIR/report.html for a run directory (jobs.csv,
// summary.csv, and utilization.csv and fairshare.csv when present) or a
// sweep directory (sweep.csv), and the plots as DIR/report/*.svg and
// *.png. It returns the HTML file's path.
func WriteHTMLReport(dir string) (string, error) {
	var p *Page
	var err error
	switch {
	case exists(filepath.Join(dir, "sweep.csv")):
		p, err = SweepPage(dir)
	case exists(filepath.Join(dir, "jobs.csv")):
		p, err = RunPage(dir)
	default:
		return "", fmt.Errorf("%s: neither a run directory (jobs.csv) nor a sweep directory (sweep.csv)", dir)
	}
	if err != nil {
		return "", err
	}
	return p.Render(dir)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// runData is what a run directory's CSV files say.
type runData struct {
	name, scheduler string
	summary         [][2]string
	jobs            []runJob
	util            []utilRow
	gpuKinds        []string // utilization.csv's per-kind GPU columns
	utilGPUs        bool     // utilization.csv has GPU columns
	fs              []fsRow
	first           int64
	accounts        []string           // by delivered usage, heaviest first
	usage           map[string]float64 // billing-seconds, or core-seconds without billing
	billing         bool
	styles          Styles // one line style per account, as in the run's PNGs
	// plotUntil ends the plots over time, as in the run's PNGs (plotUntil);
	// util holds only the samples they draw (plotLen), fsPlot the
	// snapshots of fs they draw.
	plotUntil   int64
	stalledFrom int64
	fsPlot      []fsRow
}

func loadRun(dir string) (*runData, error) {
	d := &runData{}
	var err error
	if d.summary, err = readSummary(filepath.Join(dir, "summary.csv")); err != nil {
		return nil, err
	}
	if d.jobs, err = readJobs(filepath.Join(dir, "jobs.csv")); err != nil {
		return nil, err
	}
	if len(d.jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs", filepath.Join(dir, "jobs.csv"))
	}
	ut, err := readUtil(filepath.Join(dir, "utilization.csv"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	d.util, d.gpuKinds, d.utilGPUs = ut.rows, ut.kinds, ut.gpus
	if d.fs, err = readFairshare(filepath.Join(dir, "fairshare.csv")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var sc struct {
		Name      string `yaml:"name"`
		Scheduler string `yaml:"scheduler"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "scenario.resolved.yaml")); err == nil {
		yaml.Unmarshal(b, &sc) // best effort: only for the title
	}
	d.name, d.scheduler = sc.Name, sc.Scheduler
	for _, kv := range d.summary {
		if kv[0] == "scheduler" && d.scheduler == "" {
			d.scheduler = kv[1]
		}
	}
	if d.name == "" {
		d.name = filepath.Base(dir)
	}
	d.first = d.jobs[0].Submit
	d.usage = map[string]float64{}
	for _, j := range d.jobs {
		d.first = min(d.first, j.Submit)
		if j.Billing > 0 {
			d.billing = true
		}
	}
	for _, j := range d.jobs {
		if j.Start < 0 || j.Elapsed < 0 {
			d.usage[j.Account] += 0 // listed, with no usage
			continue
		}
		if d.billing {
			d.usage[j.Account] += j.Billing * float64(j.Elapsed)
		} else {
			d.usage[j.Account] += float64(j.CPUs * j.Elapsed)
		}
	}
	d.accounts, _ = topNames(d.usage, len(d.usage))
	d.plotUntil = maxTime
	for _, kv := range d.summary {
		if kv[0] == MetricStalledFrom {
			t, err := strconv.ParseInt(kv[1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %s %q is not a time", filepath.Join(dir, "summary.csv"), MetricStalledFrom, kv[1])
			}
			d.plotUntil, d.stalledFrom = plotUntil(d.first, t, true), t
		}
	}
	d.util = d.util[:plotLen(len(d.util), d.plotUntil, func(i int) int64 { return d.util[i].Time })]
	// The fair-share snapshots up to plotUntil and the first after it,
	// each snapshot a run of rows of one time.
	d.fsPlot = d.fs
	if k := slices.IndexFunc(d.fs, func(r fsRow) bool { return r.Time > d.plotUntil }); k >= 0 {
		end := k
		for end < len(d.fs) && d.fs[end].Time == d.fs[k].Time {
			end++
		}
		d.fsPlot = d.fs[:end]
	}
	return d, nil
}

// accountStyles gives the run's accounts (those of jobs.csv and of
// fairshare.csv) their line styles, as AccountStyles does for the PNGs.
func (d *runData) accountStyles() Styles {
	if d.styles == nil {
		names := slices.Clone(d.accounts)
		for _, r := range d.fs {
			if !r.IsUser {
				names = append(names, r.Account)
			}
		}
		d.styles = NewStyles(names)
	}
	return d.styles
}

// RunPage builds the report of one run from the CSV files in dir.
func RunPage(dir string) (*Page, error) {
	d, err := loadRun(dir)
	if err != nil {
		return nil, err
	}
	p := &Page{Title: "fairsim run: " + d.name,
		Subtitle: fmt.Sprintf("scheduler %s, %d jobs, %d accounts; from %s", d.scheduler, len(d.jobs), len(d.accounts), dir)}
	p.Sections = append(p.Sections, d.summarySection())
	for _, f := range []func() (Section, error){d.fairshareSection, d.waitSection, d.utilSection, d.shareSection} {
		s, err := f()
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, s)
	}
	// GPUs get a section only in a run that has them, so a CPU-only
	// run's report is what it was.
	if d.hasGPUs() {
		s, err := d.gpuSection()
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, s)
	}
	return p, nil
}

// headline are the summary.csv rows the report's first table shows.
var headline = []string{MetricJobs, MetricStarted, MetricNeverStarted, MetricRejected, MetricBackfilled,
	MetricPreempted, MetricUtilization, MetricGPUUtilization, MetricWaitMean, MetricWaitMedian, MetricWaitP95, MetricWaitMax,
	MetricBSLDMean, MetricDeliveredCoreHr, MetricDeliveredGPUHr, MetricMakespan, MetricClusterNodes, MetricClusterCores,
	MetricClusterGPUs}

func (d *runData) summarySection() Section {
	t := HTMLTable{Caption: "Headline figures (summary.csv)", Head: []string{"metric", "value"}}
	for _, h := range headline {
		for _, kv := range d.summary {
			if kv[0] == h {
				t.Rows = append(t.Rows, []string{kv[0], headlineValue(kv[0], kv[1])})
			}
		}
	}
	s := Section{Title: "Summary", Tables: []HTMLTable{t}}
	if d.plotUntil != maxTime {
		s.Notes = append(s.Notes, fmt.Sprintf("From %s after the first submission (summary.csv's %s) only jobs that never started were left: "+
			"the run waited up to a year for something to lift what held them, then ended. The plots over time end at their first sample after %s; the CSV files keep every sample.",
			fmtDur(float64(d.stalledFrom-d.first)), MetricStalledFrom, fmtDur(float64(d.plotUntil-d.first))))
	}
	return s
}

// headlineValue prints a duration metric (seconds, "_s") as Slurm prints
// elapsed times, D-HH:MM:SS, the form every other view of a run uses;
// summary.csv keeps the seconds for programs.
func headlineValue(name, v string) string {
	if !strings.HasSuffix(name, "_s") {
		return v
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	return fmtDur(f)
}

func (d *runData) fairshareSection() (Section, error) {
	s := Section{Title: "Fair-share factor over time",
		Intro: "Each account's fair-share factor (the mean of its users' FairShare, as sshare shows it) at every sample of fairshare.csv. An account that uses more than its share sinks; one that waits rises."}
	if len(d.fs) == 0 {
		s.Notes = append(s.Notes, "No fairshare.csv in this run: the "+d.scheduler+" scheduler keeps no fair-share (use scheduler: slurm).")
		return s, nil
	}
	type acc struct {
		sum float64
		n   int
	}
	names, left := topNames(d.usage, maxLines)
	idx := map[string]int{}
	for i, a := range names {
		idx[a] = i
	}
	series := make([]Series, len(names))
	st := d.accountStyles()
	for i, a := range names {
		series[i].Name = a
		series[i].Style = new(st[a])
	}
	// Rows come grouped by time; average the users of each account.
	var times []int64
	for i := 0; i < len(d.fsPlot); {
		t := d.fsPlot[i].Time
		sums := make([]acc, len(names))
		for ; i < len(d.fsPlot) && d.fsPlot[i].Time == t; i++ {
			r := d.fsPlot[i]
			if k, ok := idx[r.Account]; ok && r.IsUser && r.HasFairShare {
				sums[k].sum += r.FairShare
				sums[k].n++
			}
		}
		times = append(times, t)
		for k, a := range sums {
			if a.n > 0 {
				series[k].XY = append(series[k].XY, plotter.XY{X: float64(t-d.first) / 86400, Y: a.sum / float64(a.n)})
			}
		}
	}
	for k := range series {
		series[k].XY = thin(series[k].XY, maxPoints)
	}
	title := "Fair-share factor by account"
	if left > 0 {
		title += fmt.Sprintf(" (the %d heaviest; %d more not shown)", maxLines, left)
	}
	p := newPlot(title, daysAxis, "FairShare")
	if err := addLines(p, series, false); err != nil {
		return s, err
	}
	p.Y.Min, p.Y.Max = 0, 1
	s.Figures = append(s.Figures, &Figure{Name: "fairshare_over_time", Title: "Fair-share factor over time",
		Caption: fmt.Sprintf("%d samples from fairshare.csv.", len(times)), Plot: p})
	return s, nil
}

// thin keeps at most n points of a line, evenly spaced, always the last.
func thin(xy plotter.XYs, n int) plotter.XYs {
	if len(xy) <= n {
		return xy
	}
	step := (len(xy) + n - 1) / n
	var out plotter.XYs
	for i := 0; i < len(xy); i += step {
		out = append(out, xy[i])
	}
	if (len(xy)-1)%step != 0 {
		out = append(out, xy[len(xy)-1])
	}
	return out
}

func (d *runData) waitSection() (Section, error) {
	s := Section{Title: "Wait times by account",
		Intro: "Wait is start minus eligible time, for jobs that started. The curves are cumulative: the fraction of an account's jobs that waited at most the time on the axis (log scale)."}
	waits := map[string][]float64{}
	var all []float64
	for _, j := range d.jobs {
		if j.Start >= 0 && j.Wait >= 0 {
			waits[j.Account] = append(waits[j.Account], float64(j.Wait))
			all = append(all, float64(j.Wait))
		}
	}
	if len(all) == 0 {
		s.Notes = append(s.Notes, "No job started: no wait times.")
		return s, nil
	}
	count := map[string]float64{}
	for a, w := range waits {
		count[a] = float64(len(w))
	}
	names, left := topNames(count, maxLines-1)
	series := []Series{{Name: fmt.Sprintf("all (%d)", len(all)), XY: WaitCDF(all), Style: &allStyle}}
	st := d.accountStyles()
	for _, a := range names {
		series = append(series, Series{Name: fmt.Sprintf("%s (%d)", a, len(waits[a])), XY: WaitCDF(waits[a]), Style: new(st[a])})
	}
	title := "Wait-time distribution by account"
	if left > 0 {
		title += fmt.Sprintf(" (the %d busiest; %d more in the table)", len(names), left)
	}
	p := newPlot(title, "wait (log scale)", "fraction of jobs waiting at most this long")
	if err := addLines(p, series, false); err != nil {
		return s, err
	}
	logWaitAxis(p)
	p.Y.Min, p.Y.Max = 0, 1
	s.Figures = append(s.Figures, &Figure{Name: "wait_by_account", Title: "Wait-time distribution per account",
		Caption: "Empirical CDF of wait per account.", Plot: p})

	t := HTMLTable{Caption: "Waits per account (started jobs)", Head: []string{"Account", "jobs started", "mean", "median", "p95", "max"}}
	acc := make([]string, 0, len(waits))
	for a := range waits {
		acc = append(acc, a)
	}
	slices.SortFunc(acc, NaturalCompare)
	for _, a := range acc {
		w := slices.Clone(waits[a])
		slices.Sort(w)
		var sum float64
		for _, x := range w {
			sum += x
		}
		t.Rows = append(t.Rows, []string{a, fmt.Sprint(len(w)), fmtDur(sum / float64(len(w))),
			fmtDur(Quantile(w, 0.5)), fmtDur(Quantile(w, 0.95)), fmtDur(w[len(w)-1])})
	}
	s.Tables = append(s.Tables, t)
	return s, nil
}

// nodeTypes lists the CPU types jobs ran on, in the registry order
// (slowest first) when known, else by name.
func (d *runData) nodeTypes() []string {
	order := []string{"abudhabi", "nehalem", "sandybridge", "haswell", "broadwell", "skylake"}
	seen := map[string]bool{}
	for _, j := range d.jobs {
		if j.Start >= 0 && j.NodeType != "" {
			seen[j.NodeType] = true
		}
	}
	var out []string
	for _, t := range order {
		if seen[t] {
			out = append(out, t)
			delete(seen, t)
		}
	}
	rest := make([]string, 0, len(seen))
	for t := range seen {
		rest = append(rest, t)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// utilSection is the report's utilisation section: busy cores per CPU
// type over time and core-hours per account and type.
func (d *runData) utilSection() (Section, error) {
	s := Section{Title: "Utilisation by CPU type and by account",
		Intro: "Busy cores per CPU type over time (a job counts on the type of its slowest node), and the core-hours each account used on each type."}
	types := d.nodeTypes()
	if len(types) == 0 {
		s.Notes = append(s.Notes, "No job started: no utilisation.")
		return s, nil
	}
	tix := map[string]int{}
	for i, t := range types {
		tix[t] = i
	}
	busy, err := d.busyByTypeFigure(types, tix)
	if err != nil {
		return s, err
	}
	usage, err := d.usageByTypeFigure(types, tix)
	if err != nil {
		return s, err
	}
	s.Figures = append(s.Figures, busy, usage)
	return s, nil
}

// sampleTimes are the instants the busy-cores plot samples, utilization.csv's
// own when there is one (so the per-type lines match its total), else an
// even grid from the first submit to the last end; total is the cluster's
// core count from utilization.csv, 0 without it.
func (d *runData) sampleTimes() (times []int64, total int64) {
	for _, u := range d.util {
		times = append(times, u.Time)
		total = u.Total
	}
	if len(times) == 0 {
		last := d.first
		for _, j := range d.jobs {
			last = max(last, j.End)
		}
		for k := 0; k <= maxPoints; k++ {
			times = append(times, d.first+(last-d.first)*int64(k)/maxPoints)
		}
	}
	return times, total
}

// busyByType replays the jobs' starts and ends to count the busy cores of
// each CPU type (index tix) at each of times, which jobs.csv does not
// record directly.
func (d *runData) busyByType(ntypes int, tix map[string]int, times []int64) [][]float64 {
	type ev struct {
		t     int64
		typ   int
		cores int64
	}
	var evs []ev
	for _, j := range d.jobs {
		if j.Start >= 0 && j.End > j.Start {
			k := tix[j.NodeType]
			evs = append(evs, ev{j.Start, k, j.CPUs}, ev{j.End, k, -j.CPUs})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int {
		// ends (negative cores) before starts at one instant
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.cores, b.cores))
	})
	busy := make([]int64, ntypes)
	raw := make([][]float64, ntypes)
	e := 0
	for _, t := range times {
		for e < len(evs) && evs[e].t <= t {
			busy[evs[e].typ] += evs[e].cores
			e++
		}
		for k := range raw {
			raw[k] = append(raw[k], float64(busy[k]))
		}
	}
	return raw
}

// binMeans averages vals (sampled at times) over bins of step samples, so
// a long run plots at most maxPoints points; x is in days since first.
func binMeans(times []int64, vals []float64, step int, first int64) plotter.XYs {
	var xy plotter.XYs
	for i := 0; i < len(times); i += step {
		bin := vals[i:min(i+step, len(times))]
		var sum float64
		for _, v := range bin {
			sum += v
		}
		xy = append(xy, plotter.XY{X: float64(times[i]-first) / 86400, Y: sum / float64(len(bin))})
	}
	return xy
}

// busyByTypeFigure plots busy cores per CPU type over time, with the
// cluster total from utilization.csv when there is one, so a user sees
// which hardware the load fell on.
func (d *runData) busyByTypeFigure(types []string, tix map[string]int) (*Figure, error) {
	times, total := d.sampleTimes()
	raw := d.busyByType(len(types), tix, times)
	step := max(1, (len(times)+maxPoints-1)/maxPoints)
	series := make([]Series, 0, len(types)+1)
	for k, name := range types {
		series = append(series, Series{Name: name, XY: binMeans(times, raw[k], step, d.first)})
	}
	ylabel := "busy cores"
	if total > 0 {
		utimes := make([]int64, len(d.util))
		ubusy := make([]float64, len(d.util))
		for i, u := range d.util {
			utimes[i], ubusy[i] = u.Time, float64(u.Busy)
		}
		series = append(series, Series{Name: "all types", XY: binMeans(utimes, ubusy, step, d.first)})
		ylabel = fmt.Sprintf("busy cores (of %d)", total)
	}
	p := newPlot("Busy cores by CPU type", daysAxis, ylabel)
	if err := addLines(p, series, false); err != nil {
		return nil, err
	}
	p.Y.Min = 0
	if total > 0 {
		p.Y.Max = float64(total)
	}
	return &Figure{Name: "utilization_by_type", Title: "Utilisation by CPU type over time",
		Caption: "Busy cores per CPU type from jobs.csv (start to end), with the cluster total from utilization.csv.", Plot: p}, nil
}

// usageByTypeFigure plots the core-hours of the heaviest accounts stacked
// by CPU type, so a user sees who used which hardware.
func (d *runData) usageByTypeFigure(types []string, tix map[string]int) (*Figure, error) {
	names, left := topNames(d.usage, 12)
	ch := make([][]float64, len(types))
	for k := range types {
		ch[k] = make([]float64, len(names))
	}
	aix := map[string]int{}
	for i, a := range names {
		aix[a] = i
	}
	for _, j := range d.jobs {
		i, ok := aix[j.Account]
		if ok && j.Start >= 0 && j.Elapsed > 0 {
			ch[tix[j.NodeType]][i] += float64(j.CPUs*j.Elapsed) / 3600
		}
	}
	title := "Core-hours by account and CPU type"
	if left > 0 {
		title += fmt.Sprintf(" (the %d heaviest; %d more not shown)", len(names), left)
	}
	bp := newPlot(title, "account", "core-hours")
	w := vg.Points(math.Max(6, math.Min(30, 400/float64(len(names)+1))))
	var below *plotter.BarChart
	for k, name := range types {
		bc, err := plotter.NewBarChart(plotter.Values(ch[k]), w)
		if err != nil {
			return nil, err
		}
		bc.Color = Color(k)
		bc.LineStyle.Width = 0
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		bp.Add(bc)
		bp.Legend.Add(name, bc)
	}
	bp.NominalX(names...)
	bp.Y.Min = 0
	if len(names) > 6 {
		bp.X.Tick.Label.Rotation = math.Pi / 4
		bp.X.Tick.Label.XAlign = draw.XRight
	}
	return &Figure{Name: "usage_by_account_type", Title: "Core-hours by account and CPU type",
		Caption: "Cores × elapsed of each started job, by its account and the CPU type it ran on.", Plot: bp}, nil
}

func (d *runData) shareSection() (Section, error) {
	unit := "TRES billing"
	if !d.billing {
		unit = "core-seconds"
	}
	s := Section{Title: "Usage against share",
		Intro: "Each account's part of the delivered " + unit + " against its NormShares from the last fair-share sample. Points on the dashed diagonal got exactly their share; above it, more."}
	if len(d.fs) == 0 {
		s.Notes = append(s.Notes, "No fairshare.csv in this run: no shares to compare with (use scheduler: slurm).")
		return s, nil
	}
	lastT := d.fs[len(d.fs)-1].Time
	shares := map[string]float64{}
	for _, r := range d.fs {
		if r.Time == lastT && !r.IsUser {
			shares[r.Account] = r.NormShares
		}
	}
	total := 0.0
	for _, u := range d.usage {
		total += u
	}
	if total <= 0 {
		s.Notes = append(s.Notes, "No usage was delivered.")
		return s, nil
	}
	var pts plotter.XYs
	var labels []string
	hi := 0.0
	t := HTMLTable{Caption: "Usage and share per account", Head: []string{"Account", "usage share", "NormShares", "usage − share"}}
	acc := slices.Clone(d.accounts)
	slices.SortFunc(acc, NaturalCompare)
	for _, a := range acc {
		x, y := shares[a], d.usage[a]/total
		t.Rows = append(t.Rows, []string{a, fmt.Sprintf("%.4f", y), fmt.Sprintf("%.4f", x), fmt.Sprintf("%+.4f", y-x)})
	}
	for _, a := range d.accounts {
		x, y := shares[a], d.usage[a]/total
		pts = append(pts, plotter.XY{X: x, Y: y})
		labels = append(labels, a)
		hi = math.Max(hi, math.Max(x, y))
	}
	hi = math.Min(1, hi*1.1+0.01)
	p := newPlot("Delivered "+unit+" against NormShares", "NormShares", "part of delivered "+unit)
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: hi, Y: hi}})
	if err != nil {
		return s, err
	}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(diag)
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return s, err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(4)
	sc.GlyphStyle.Color = Color(0)
	p.Add(sc)
	if len(labels) <= 3*maxLines {
		if lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels}); err == nil {
			p.Add(lb)
		}
	}
	p.X.Min, p.Y.Min, p.X.Max, p.Y.Max = 0, 0, hi, hi
	s.Figures = append(s.Figures, &Figure{Name: "usage_vs_share", Title: "Usage against share",
		Caption: "NormShares as sshare prints it (under Fair Tree, relative to the account's siblings).", Plot: p,
		W: 6 * vg.Inch, H: 5.5 * vg.Inch})
	s.Tables = append(s.Tables, t)
	return s, nil
}
