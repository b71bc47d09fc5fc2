package report

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fairsim/slurmtime"
)

// durationMetric tells the columns held in seconds, whose axes are
// labelled in minutes, hours or days (durTicks).
func durationMetric(col string) bool {
	return col == MetricWaitMean || col == MetricWaitMedian || col == MetricWaitP95
}

// sweepMetrics are the overall sweep.csv columns plotted against each
// parameter, with their axis labels.
var sweepMetrics = []struct{ col, label string }{
	{MetricWaitMean, "mean wait"},
	{MetricWaitMedian, "median wait"},
	{MetricWaitP95, "95th percentile wait"},
	{MetricBSLDMean, "mean bounded slowdown"},
	{MetricUtilization, "utilisation"},
	{MetricBackfilledShare, "share of jobs started by backfill"},
	{MetricStarved, "starved jobs"},
	{MetricJain, "Jain's index over usage/share"},
	{MetricShareErrorMax, "largest |usage share - share|"},
	{MetricPreempted, "preempted jobs"},
	{MetricLostCoreHours, "core-hours lost to preemption"},
}

// sweepData is a sweep.csv read for the report.
type sweepData struct {
	c      *csvFile
	params []string // parameter columns, seed excluded
	seed   int      // column of seed, -1 when none
	pcol   map[string]int
}

func loadSweep(dir string) (*sweepData, error) {
	c, err := readCSVFile(filepath.Join(dir, "sweep.csv"))
	if err != nil {
		return nil, err
	}
	pi, ok1 := c.head["point"]
	ji, ok2 := c.head[MetricJobs]
	if !ok1 || !ok2 || pi != 0 || ji < 1 {
		return nil, fmt.Errorf("%s:1: not a sweep.csv (want point, the parameters, then jobs, ...)", c.path)
	}
	d := &sweepData{c: c, seed: -1, pcol: map[string]int{}}
	hdr := make([]string, len(c.head))
	for n, k := range c.head {
		hdr[k] = n
	}
	for k := 1; k < ji; k++ {
		if hdr[k] == "seed" {
			d.seed = k
			continue
		}
		d.params = append(d.params, hdr[k])
		d.pcol[hdr[k]] = k
	}
	if len(c.rows) == 0 {
		return nil, fmt.Errorf("%s: no points", c.path)
	}
	return d, nil
}

// axis places a parameter's values on a plot axis: at their numeric value
// when all are numbers (or all Slurm durations, in days), else at 0, 1, 2
// in the order of the grid; labelled with the values as written.
type axis struct {
	values []string
	pos    []float64
	log    bool
	label  string
}

func newAxis(name string, values []string) axis {
	a := axis{values: values, pos: make([]float64, len(values)), label: name}
	num := true
	for i, v := range values {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			num = false
			break
		}
		a.pos[i] = f
	}
	if !num {
		dur := true
		for i, v := range values {
			if !strings.ContainsAny(v, ":-") {
				dur = false
				break
			}
			s, err := slurmtime.ParseSeconds(v)
			if err != nil || s < 0 {
				dur = false
				break
			}
			a.pos[i] = float64(s) / 86400
		}
		if dur {
			a.label += " (days)"
		} else {
			for i := range values {
				a.pos[i] = float64(i)
			}
		}
		num = dur
	}
	if num && len(values) > 1 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range a.pos {
			lo, hi = math.Min(lo, p), math.Max(hi, p)
		}
		a.log = lo > 0 && hi/lo >= 100
	}
	return a
}

func (a axis) apply(p *plot.Plot) {
	p.X.Label.Text = a.label
	p.X.Tick.Marker = labelTicks{at: a.pos, labels: a.values}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range a.pos {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if a.log {
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = lo/1.5, hi*1.5
		return
	}
	pad := math.Max((hi-lo)*0.08, 0.5)
	if lo == hi {
		pad = math.Max(math.Abs(lo)*0.1, 0.5)
	}
	p.X.Min, p.X.Max = lo-pad, hi+pad
}

// distinct lists a column's values in order of first appearance (grid
// order).
func (d *sweepData) distinct(col int) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range d.c.rows {
		if !seen[r[col]] {
			seen[r[col]] = true
			out = append(out, r[col])
		}
	}
	return out
}

// SweepPage builds the report of a sweep from its sweep.csv.
func SweepPage(dir string) (*Page, error) {
	d, err := loadSweep(dir)
	if err != nil {
		return nil, err
	}
	p := &Page{Title: "fairsim sweep: " + filepath.Base(filepath.Clean(dir)),
		Subtitle: fmt.Sprintf("%d points over %s; from %s", len(d.c.rows), strings.Join(d.params, ", "), dir)}
	if d.seed >= 0 {
		p.Subtitle += fmt.Sprintf("; %d seeds per setting, averaged in the plots", len(d.distinct(d.seed)))
	}
	p.Sections = append(p.Sections, d.tableSection())
	for _, param := range d.params {
		if len(d.distinct(d.pcol[param])) < 2 {
			p.Sections[0].Notes = append(p.Sections[0].Notes, param+" has one value in this sweep: nothing to plot against it.")
			continue
		}
		s, err := d.paramSection(param)
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, s)
	}
	s, err := d.accountSection()
	if err != nil {
		return nil, err
	}
	p.Sections = append(p.Sections, s)
	return p, nil
}

func (d *sweepData) tableSection() Section {
	t := HTMLTable{Caption: "Points (sweep.csv; per-account columns in the file)"}
	cols := []int{0}
	for _, p := range d.params {
		cols = append(cols, d.pcol[p])
	}
	if d.seed >= 0 {
		cols = append(cols, d.seed)
	}
	for _, m := range []string{MetricStarted, MetricWaitMean, MetricWaitP95, MetricBSLDMean, MetricUtilization, MetricBackfilledShare, MetricStarved, MetricJain} {
		if k, ok := d.c.head[m]; ok {
			cols = append(cols, k)
		}
	}
	hdr := make([]string, len(d.c.head))
	for n, k := range d.c.head {
		hdr[k] = n
	}
	for _, k := range cols {
		t.Head = append(t.Head, hdr[k])
	}
	const maxRows = 500
	for i, r := range d.c.rows {
		if i == maxRows {
			break
		}
		row := make([]string, len(cols))
		for j, k := range cols {
			row[j] = r[k]
		}
		t.Rows = append(t.Rows, row)
	}
	s := Section{Title: "Points", Tables: []HTMLTable{t}}
	if len(d.c.rows) > maxRows {
		s.Notes = append(s.Notes, fmt.Sprintf("The table shows the first %d of %d points; sweep.csv has them all.", maxRows, len(d.c.rows)))
	}
	return s
}

// value reads a metric cell; ok is false when empty or unreadable.
func (d *sweepData) value(row, col int) (float64, bool) {
	v, ok, err := d.c.floatAt(row, col)
	return v, ok && err == nil
}

// paramSection plots every overall metric against one parameter: one
// line per setting of the other parameters (their mean when there are
// more than the palette shows), seeds averaged.
func (d *sweepData) paramSection(param string) (Section, error) {
	s := Section{Title: "Metrics against " + param, Grid: true}
	col := d.pcol[param]
	ax := newAxis(param, d.distinct(col))
	vpos := map[string]float64{}
	for i, v := range ax.values {
		vpos[v] = ax.pos[i]
	}
	// Group rows by the other parameters' values.
	var groups []string
	members := map[string][]int{}
	for i, r := range d.c.rows {
		var parts []string
		for _, o := range d.params {
			if o != param {
				parts = append(parts, o+"="+r[d.pcol[o]])
			}
		}
		g := strings.Join(parts, ", ")
		if _, ok := members[g]; !ok {
			groups = append(groups, g)
		}
		members[g] = append(members[g], i)
	}
	collapse := len(groups) > maxLines
	if collapse {
		all := []int{}
		for _, g := range groups {
			all = append(all, members[g]...)
		}
		name := fmt.Sprintf("mean over %d settings of the other parameters", len(groups))
		groups, members = []string{name}, map[string][]int{name: all}
		s.Notes = append(s.Notes, "Too many settings of the other parameters to draw one line each: each point is their mean.")
	}
	for _, m := range sweepMetrics {
		mc, ok := d.c.head[m.col]
		if !ok {
			continue
		}
		var series []Series
		any := false
		for _, g := range groups {
			sum, n := map[string]float64{}, map[string]int{}
			for _, i := range members[g] {
				if v, ok := d.value(i, mc); ok {
					sum[d.c.rows[i][col]] += v
					n[d.c.rows[i][col]]++
				}
			}
			se := Series{Name: g}
			for _, v := range ax.values {
				if n[v] > 0 {
					se.XY = append(se.XY, plotter.XY{X: vpos[v], Y: sum[v] / float64(n[v])})
					any = true
				}
			}
			series = append(series, se)
		}
		if !any {
			continue
		}
		p := newPlot(m.label+" against "+param, param, m.label)
		if err := addLines(p, series, true); err != nil {
			return s, err
		}
		ax.apply(p)
		if durationMetric(m.col) {
			p.Y.Tick.Marker = durTicks{}
		}
		s.Figures = append(s.Figures, &Figure{Name: "sweep_" + fileSlug(m.col) + "_vs_" + fileSlug(param),
			Title: m.label + " against " + param, Caption: "Column " + m.col + " of sweep.csv.", Plot: p,
			W: 6.5 * vg.Inch, H: 3.8 * vg.Inch})
	}
	return s, nil
}

// fileSlug keeps a name safe for a file name.
func fileSlug(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	return string(b)
}

// accountSection draws each account's mean and p95 wait at every point,
// side by side.
func (d *sweepData) accountSection() (Section, error) {
	s := Section{Title: "Per-account wait, point by point",
		Intro: "Each account's wait at each point of the sweep, side by side (columns METRIC[account] of sweep.csv)."}
	hdr := make([]string, len(d.c.head))
	for n, k := range d.c.head {
		hdr[k] = n
	}
	// Accounts, ranked by jobs summed over the points.
	jobs := map[string]float64{}
	for k, h := range hdr {
		if a, ok := strings.CutPrefix(h, "jobs["); ok && strings.HasSuffix(a, "]") {
			a = strings.TrimSuffix(a, "]")
			for i := range d.c.rows {
				v, _ := d.value(i, k)
				jobs[a] += v
			}
		}
	}
	if len(jobs) == 0 {
		s.Notes = append(s.Notes, "sweep.csv has no per-account columns.")
		return s, nil
	}
	names, left := topNames(jobs, maxLines)
	if left > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("The %d accounts with the most jobs; %d more in sweep.csv.", len(names), left))
	}
	labels := make([]string, len(d.c.rows))
	for i, r := range d.c.rows {
		labels[i] = r[0]
	}
	for _, m := range []struct{ col, label string }{{MetricWaitMean, "mean wait"}, {MetricWaitP95, "95th percentile wait"}} {
		p := newPlot(m.label+" per account at each point", "point (see the table above)", m.label)
		n := len(names)
		pts := len(d.c.rows)
		w := vg.Points(math.Max(1.5, math.Min(14, 420/float64(n*pts+1))))
		for k, a := range names {
			col, ok := d.c.head[m.col+"["+a+"]"]
			if !ok {
				continue
			}
			vals := make(plotter.Values, pts)
			for i := range d.c.rows {
				v, _ := d.value(i, col)
				vals[i] = v
			}
			bc, err := plotter.NewBarChart(vals, w)
			if err != nil {
				return s, err
			}
			bc.Color = Color(k)
			bc.LineStyle.Width = 0
			bc.Offset = vg.Length(float64(k)-float64(n-1)/2) * w
			p.Add(bc)
			p.Legend.Add(a, bc)
		}
		p.NominalX(labels...)
		if pts > 30 {
			p.X.Tick.Label.Rotation = math.Pi / 2
			p.X.Tick.Label.XAlign = draw.XRight
		}
		p.Y.Min = 0
		p.Y.Tick.Marker = durTicks{}
		s.Figures = append(s.Figures, &Figure{Name: "sweep_account_" + m.col, Title: m.label + " per account",
			Caption: "One bar per account at each point.", Plot: p, W: 8 * vg.Inch, H: 4.2 * vg.Inch})
	}
	return s, nil
}
