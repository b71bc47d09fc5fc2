package report

import (
	"bufio"
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gocarina/gocsv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// FSSeries is the association tree over a run: its rows (names, shares,
// blank cells) once, and each sampled tick's figures in the same order.
type FSSeries struct {
	Rows []fairshare.Row
	T    []int64
	Vals [][]fairshare.Value
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

// fairshareRows streams the snapshots as CSV rows, root excluded, so a
// long run's series is never held as rows all at once.
func fairshareRows(s *FSSeries, out chan<- any) {
	defer close(out)
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
			out <- row
		}
	}
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
func topAccounts(r *sim.Result) (names []string, usage map[string]float64) {
	usage = map[string]float64{}
	for _, j := range r.Jobs {
		if j.Start >= 0 {
			usage[r.Names.Accounts.Name(j.Account)] += j.Billing * float64(j.End-j.Start)
		}
	}
	for a := range usage {
		names = append(names, a)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(usage[b], usage[a]), cmp.Compare(a, b))
	})
	return names, usage
}

// FairsharePlot draws each account's fair-share factor over time; with many
// accounts, the ones with the largest usage, and a note of the rest.
func FairsharePlot(path string, r *sim.Result, snaps *FSSeries) error {
	if snaps.Len() == 0 {
		return fmt.Errorf("no fair-share snapshots")
	}
	names, _ := topAccounts(r)
	left := 0
	if len(names) > maxLines {
		left = len(names) - maxLines
		names = names[:maxLines]
	}
	step := max(1, (snaps.Len()+maxPoints-1)/maxPoints)
	series := make([]Series, len(names))
	for i, a := range names {
		series[i].Name = a
	}
	var buf []fairshare.Row
	for k := 0; k < snaps.Len(); k += step {
		buf = snaps.rowsAt(k, buf)
		f := accountFactors(buf)
		d := float64(snaps.T[k]-r.First) / 86400
		for i, a := range names {
			if v, ok := f[a]; ok {
				series[i].XY = append(series[i].XY, plotter.XY{X: d, Y: v})
			}
		}
	}
	title := "Fair-share factor by account (mean over its users)"
	if left > 0 {
		title += fmt.Sprintf(": the %d heaviest, %d more not shown", maxLines, left)
	}
	return LinePlot(path, title, "days since first submit", "FairShare", false, series)
}

// UsageVsSharePlot draws each account's part of the delivered billing
// against its NormShares: points on the diagonal got what they own.
func UsageVsSharePlot(path string, r *sim.Result, snaps *FSSeries) error {
	if snaps.Len() == 0 {
		return fmt.Errorf("no fair-share snapshots")
	}
	names, usage := topAccounts(r)
	total := 0.0
	for _, u := range usage {
		total += u
	}
	shares := map[string]float64{}
	for _, row := range snaps.rowsAt(snaps.Len()-1, nil) {
		if !row.IsUser && row.Depth > 0 {
			shares[row.Account] = row.NormShares
		}
	}
	p := plot.New()
	p.Title.Text = "Delivered billing against NormShares, by account"
	p.X.Label.Text = "NormShares"
	p.Y.Label.Text = "share of delivered TRES billing"
	p.Add(plotter.NewGrid())
	var pts plotter.XYs
	hi := 0.0
	var labels []string
	for _, a := range names {
		if total <= 0 {
			break
		}
		x, y := shares[a], usage[a]/total
		pts = append(pts, plotter.XY{X: x, Y: y})
		labels = append(labels, a)
		hi = math.Max(hi, math.Max(x, y))
	}
	if len(pts) == 0 {
		// Nothing ran: the empty chart says so rather than failing a run
		// whose other outputs are complete.
		p.Title.Text += ": no usage delivered"
		p.X.Min, p.Y.Min, p.X.Max, p.Y.Max = 0, 0, 1, 1
		return p.Save(8*vg.Inch, 5*vg.Inch, path)
	}
	hi = math.Min(1, hi*1.1+0.01)
	diag, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: hi, Y: hi}})
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(diag)
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(4)
	sc.GlyphStyle.Color = Color(0)
	p.Add(sc)
	if len(labels) <= 3*maxLines {
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
		if err == nil {
			p.Add(lb)
		}
	}
	p.X.Min, p.Y.Min, p.X.Max, p.Y.Max = 0, 0, hi, hi
	return p.Save(7*vg.Inch, 6*vg.Inch, path)
}

// WriteFairshare writes fairshare.csv, fairshare.png and
// usage_vs_share.png.
func WriteFairshare(dir string, r *sim.Result, snaps *FSSeries) error {
	f, err := os.Create(filepath.Join(dir, "fairshare.csv"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rows := make(chan any, 1024)
	go fairshareRows(snaps, rows)
	if err := gocsv.MarshalChan(rows, gocsv.DefaultCSVWriter(w)); err != nil {
		for range rows { // let the producer finish
		}
		f.Close()
		return fmt.Errorf("fairshare.csv: %w", err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := FairsharePlot(filepath.Join(dir, "fairshare.png"), r, snaps); err != nil {
		return fmt.Errorf("fairshare.png: %w", err)
	}
	if err := UsageVsSharePlot(filepath.Join(dir, "usage_vs_share.png"), r, snaps); err != nil {
		return fmt.Errorf("usage_vs_share.png: %w", err)
	}
	return nil
}
