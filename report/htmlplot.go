package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fairsim/slurmtime"
)

// newPlot is a plot with a title, axis labels and a grid.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	if xlabel == daysAxis {
		timeAxis(p)
	}
	return p
}

// addLines adds one coloured line (with point marks when marks is set)
// per series, in order, skipping empty ones.
func addLines(p *plot.Plot, series []Series, marks bool) error {
	for i, s := range series {
		if len(s.XY) == 0 {
			continue
		}
		var l *plotter.Line // the first piece, which the legend shows
		for _, xy := range strokes(s.XY, s.Style != nil && len(s.Style.Dashes) > 0) {
			li, err := plotter.NewLine(xy)
			if err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
			li.Color = Color(i)
			if s.Style != nil {
				li.Color, li.Dashes = s.Style.Color, s.Style.Dashes
			}
			li.Width = vg.Points(1.5)
			p.Add(li)
			if l == nil {
				l = li
			}
		}
		var thumb []plot.Thumbnailer
		thumb = append(thumb, l)
		if marks {
			sc, err := plotter.NewScatter(s.XY)
			if err != nil {
				return err
			}
			sc.GlyphStyle.Color = l.Color
			sc.GlyphStyle.Radius = vg.Points(3)
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			p.Add(sc)
			thumb = append(thumb, sc)
		}
		if s.Name != "" {
			p.Legend.Add(s.Name, thumb...)
		}
	}
	return nil
}

// strokePoints is how many segments one stroke of a line takes (16 was
// the fastest of 8 to 128 on a 400-point utilisation line).
const strokePoints = 16

// strokes cuts a polyline into pieces of strokePoints segments, each
// starting one segment before the last one ended. The PNG rasteriser
// (freetype's) looks up every cell of a path in a list of its scanline's
// cells, so one stroke's cost grows with the square of the times it
// crosses a scanline: a utilisation line of 400 points took 58 ms as one
// stroke and 28 ms in pieces. The shared segment draws each join between
// pieces whole (end to end, the line's butt ends left notches); it is
// painted twice, which darkens its antialiased edge pixels a little. A
// dashed line stays whole, as each piece would restart its dashes.
func strokes(xy plotter.XYs, dashed bool) []plotter.XYs {
	if dashed || len(xy) <= strokePoints+1 {
		return []plotter.XYs{xy}
	}
	var out []plotter.XYs
	for lo := 0; lo < len(xy)-1; lo += strokePoints {
		out = append(out, xy[max(lo-1, 0):min(lo+strokePoints+1, len(xy))])
	}
	return out
}

// logWaitAxis puts a log-scaled wait axis (seconds + 1) on x, labelled in
// minutes, hours and days.
func logWaitAxis(p *plot.Plot) {
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = durationTicks{}
	p.X.Min = math.Max(p.X.Min, 1)
	p.X.Max = math.Max(p.X.Max, 60)
}

// labelTicks marks given positions with given labels (categorical or
// hand-labelled numeric axes).
type labelTicks struct {
	at     []float64
	labels []string
}

// Ticks implements plot.Ticker.
func (t labelTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for i, v := range t.at {
		if v >= lo-1e-9*math.Abs(lo) && v <= hi+1e-9*math.Abs(hi) {
			out = append(out, plot.Tick{Value: v, Label: t.labels[i]})
		}
	}
	return out
}

// niceTicks marks about five round values (1, 2 or 5 times a power of
// ten apart) with as many decimals as the step needs, so close values
// are not all labelled alike.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = m * mag
	}
	dec := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var out []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', dec, 64)})
		for k := 1; k < 5 && v+step*float64(k)/5 <= hi; k++ {
			out = append(out, plot.Tick{Value: v + step*float64(k)/5})
		}
	}
	return out
}

// topNames orders names by weight (heaviest first, then by name) and
// keeps n, returning how many were left out.
func topNames(w map[string]float64, n int) ([]string, int) {
	names := make([]string, 0, len(w))
	for k := range w {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(w[b], w[a]), NaturalCompare(a, b))
	})
	if len(names) > n {
		return names[:n], len(names) - n
	}
	return names, 0
}

// fmtNum prints a figure for a table: integers as such, others with
// three significant decimals.
func fmtNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// fmtDur prints seconds as Slurm prints elapsed times ([D-]HH:MM:SS).
func fmtDur(s float64) string {
	if math.IsNaN(s) {
		return ""
	}
	return slurmtime.Format(int64(math.Round(s)))
}
