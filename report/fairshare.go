package report

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// FSSeries is the association tree over a run: its rows (names, shares,
// blank cells) once, and each sampled tick's figures in the same order.
type FSSeries struct {
	Rows []fairshare.Row
	T    []int64
	Vals [][]fairshare.Value
	// Usage is each account's delivered billing-seconds (JobTally's
	// AccountUsage) for a run whose jobs were not kept; nil reads them
	// from the result's jobs.
	Usage map[string]float64
}

// Len is the number of snapshots.
func (s *FSSeries) Len() int { return len(s.T) }

// rowsAt returns snapshot k's rows, reusing buf.
func (s *FSSeries) rowsAt(k int, buf []fairshare.Row) []fairshare.Row {
	buf = buf[:0]
	for i, r := range s.Rows {
		buf = append(buf, s.Vals[k][i].At(r))
	}
	return buf
}

// FairshareRow is one line of fairshare.csv, with sshare's column names.
type FairshareRow struct {
	Time         int64   `csv:"time"`
	Account      string  `csv:"Account"`
	User         string  `csv:"User"`
	RawShares    string  `csv:"RawShares"`
	NormShares   float64 `csv:"NormShares"`
	RawUsage     uint64  `csv:"RawUsage"`
	EffectvUsage float64 `csv:"EffectvUsage"`
	FairShare    string  `csv:"FairShare"`
	LevelFS      string  `csv:"LevelFS"`
}

func f6(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}

// writeFairshareRows writes the snapshots as CSV rows, root excluded,
// one row at a time, so a long run's series is never held as rows.
func writeFairshareRows(w io.Writer, s *FSSeries) error {
	b := csvHeader[FairshareRow]()
	var buf []fairshare.Row
	for k := range s.T {
		buf = s.rowsAt(k, buf)
		for _, r := range buf {
			if r.Depth == 0 {
				continue
			}
			row := FairshareRow{Time: s.T[k], Account: r.Account, User: r.User, RawShares: r.RawShares,
				NormShares: round6(r.NormShares), RawUsage: r.RawUsage, EffectvUsage: round6(r.EffectvUsage)}
			if r.HasFairShare {
				row.FairShare = f6(r.FairShare)
			}
			if r.HasLevelFS {
				row.LevelFS = f6(r.LevelFS)
			}
			b = appendFairshareRow(b, &row)
			if len(b) >= 1<<15 {
				if _, err := w.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	}
	_, err := w.Write(b)
	return err
}

// accountFactor is an account's fair-share factor at a snapshot: the mean
// of its users' factors (an account's users share its standing).
func accountFactors(rows []fairshare.Row) map[string]float64 {
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range rows {
		if r.IsUser && r.HasFairShare {
			sum[r.Account] += r.FairShare
			n[r.Account]++
		}
	}
	out := map[string]float64{}
	for a, v := range sum {
		out[a] = v / float64(n[a])
	}
	return out
}

// maxLines is how many accounts a plot shows before it keeps only the
// heaviest and says how many it left out.
const maxLines = 8

// topAccounts ranks accounts by delivered billing in the run.
// The series' Usage when set (a streamed run), else the result's jobs.
func topAccounts(r *sim.Result, snaps *FSSeries) (names []string, usage map[string]float64) {
	usage = snaps.Usage
	if usage == nil {
		usage = TallyJobs(r).AccountUsage()
	}
	for a := range usage {
		names = append(names, a)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(usage[b], usage[a]), NaturalCompare(a, b))
	})
	return names, usage
}

// FairsharePlot draws each account's fair-share factor over time; with many
// accounts, the ones with the largest usage, and a note of the rest.
func FairsharePlot(path string, r *sim.Result, snaps *FSSeries) error {
	if snaps.Len() == 0 {
		return fmt.Errorf("no fair-share snapshots")
	}
	names, _ := topAccounts(r, snaps)
	left := 0
	if len(names) > maxLines {
		left = len(names) - maxLines
		names = names[:maxLines]
	}
	series := fsSeries(r, snaps, names)
	title := "Fair-share factor by account (mean over its users)"
	if left > 0 {
		title += fmt.Sprintf(": the %d heaviest, %d more not shown", maxLines, left)
	}
	return LinePlot(path, title, daysAxis, "FairShare", false, series)
}

// fsSeries are fairshare.png's lines, one per account of names: its
// fair-share factor against days since the first submission, at the
// snapshots a plot draws (plotSnapshots), thinned to maxPoints.
func fsSeries(r *sim.Result, snaps *FSSeries, names []string) []Series {
	n := plotSnapshots(r, snaps)
	step := max(1, (n+maxPoints-1)/maxPoints)
	series := make([]Series, len(names))
	st := AccountStyles(r, snaps)
	for i, a := range names {
		series[i].Name = a
		series[i].Style = new(st[a])
	}
	var buf []fairshare.Row
	for k := 0; k < n; k += step {
		buf = snaps.rowsAt(k, buf)
		f := accountFactors(buf)
		d := float64(snaps.T[k]-r.First) / 86400
		for i, a := range names {
			if v, ok := f[a]; ok {
				series[i].XY = append(series[i].XY, plotter.XY{X: d, Y: v})
			}
		}
	}
	return series
}

// maxBars is how many accounts usage_vs_share.png shows one by one;
// the rest are averaged in one "others" pair of bars.
const maxBars = 15

// UsageVsSharePlot draws, for the accounts with the most delivered
// billing, their part of it beside their NormShares (the part of the
// machine they own), as pairs of horizontal bars: an account whose dark
// bar is longer than its light one got more than it owns. A scatter of
// the same figures collapses into one column on traces whose accounts
// all have equal shares.
func UsageVsSharePlot(path string, r *sim.Result, snaps *FSSeries) error {
	if snaps.Len() == 0 {
		return fmt.Errorf("no fair-share snapshots")
	}
	names, usage := topAccounts(r, snaps)
	// Summed in the ranked order, not the map's, so the figure is the
	// same bytes run after run.
	total := 0.0
	for _, a := range names {
		total += usage[a]
	}
	shares := map[string]float64{}
	for _, row := range snaps.rowsAt(snaps.Len()-1, nil) {
		if !row.IsUser && row.Depth > 0 {
			shares[row.Account] = row.NormShares
		}
	}
	p := newPlot("Delivered TRES billing against NormShares, by account", "fraction of the whole", "")
	if total <= 0 {
		// Nothing ran: the empty chart says so rather than failing a run
		// whose other outputs are complete.
		p.Title.Text += ": no usage delivered"
		p.X.Min, p.Y.Min, p.X.Max, p.Y.Max = 0, 0, 1, 1
		return savePlot(p, 8*vg.Inch, 5*vg.Inch, path)
	}
	shown, rest := names, 0
	if len(names) > maxBars {
		shown, rest = names[:maxBars], len(names)-maxBars
	}
	n := len(shown)
	if rest > 0 {
		n++
	}
	use, own := make(plotter.Values, n), make(plotter.Values, n)
	labels := make([]string, n)
	// Bars are drawn bottom-up: the heaviest account goes on top.
	for i, a := range shown {
		k := n - 1 - i
		use[k], own[k], labels[k] = usage[a]/total, shares[a], a
	}
	if rest > 0 {
		var u, o float64
		for _, a := range names[maxBars:] {
			u += usage[a] / total
			o += shares[a]
		}
		// Their mean, not their sum, keeps the scale of the accounts
		// shown one by one.
		use[0], own[0], labels[0] = u/float64(rest), o/float64(rest), "mean of "+others(rest)
	}
	h := 5*vg.Inch + vg.Length(max(0, n-8))*0.3*vg.Inch
	w := vg.Length(math.Min(14, 0.6*float64(h)/float64(n)/1.6*72))
	for k, vals := range []plotter.Values{own, use} {
		bc, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bc.Horizontal = true
		bc.LineStyle.Width = 0
		bc.Offset = vg.Length(0.5-float64(1-k)) * w
		bc.Color = Color(0)
		name := "delivered TRES billing"
		if k == 0 {
			bc.Color, name = color.RGBA{190, 190, 190, 255}, "NormShares (owned)"
		}
		p.Add(bc)
		p.Legend.Add(name, bc)
	}
	// Each pair says how many times its share the account got, so the
	// over- and under-served stand out without reading bar lengths.
	xmax := 0.0
	pts := make(plotter.XYs, n)
	ratios := make([]string, n)
	for k := range n {
		pts[k] = plotter.XY{X: math.Max(use[k], own[k]), Y: float64(k)}
		xmax = math.Max(xmax, pts[k].X)
		ratios[k] = "no share"
		if own[k] > 0 {
			ratios[k] = fmt.Sprintf("×%.2f of share", use[k]/own[k])
		}
	}
	if lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: ratios}); err == nil {
		for i := range lb.TextStyle {
			lb.TextStyle[i].YAlign = -0.5
		}
		lb.Offset = vg.Point{X: 4}
		p.Add(lb)
	}
	p.NominalY(labels...)
	p.X.Min = 0
	p.X.Max = xmax * 1.22 // room for the labels
	p.X.Tick.Marker = niceTicks{}
	if rest > 0 {
		p.Title.Text += fmt.Sprintf(": the %d heaviest", maxBars)
	}
	return savePlot(p, 8*vg.Inch, h, path)
}

// WriteFairshare writes fairshare.csv, fairshare.png and
// usage_vs_share.png.
func WriteFairshare(dir string, r *sim.Result, snaps *FSSeries) error {
	// The CSV and the two plots are independent: side by side, as in
	// WriteSummaries, and the first error in this order.
	steps := [...]func() error{
		func() error {
			if err := writeFile(filepath.Join(dir, "fairshare.csv"), func(w io.Writer) error { return writeFairshareRows(w, snaps) }); err != nil {
				return fmt.Errorf("fairshare.csv: %w", err)
			}
			return nil
		},
		func() error {
			if err := FairsharePlot(filepath.Join(dir, "fairshare.png"), r, snaps); err != nil {
				return fmt.Errorf("fairshare.png: %w", err)
			}
			return nil
		},
		func() error {
			if err := UsageVsSharePlot(filepath.Join(dir, "usage_vs_share.png"), r, snaps); err != nil {
				return fmt.Errorf("usage_vs_share.png: %w", err)
			}
			return nil
		},
	}
	var errs [len(steps)]error
	var wg sync.WaitGroup
	for i, f := range steps {
		wg.Go(func() { errs[i] = f() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
