package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"fairsim/sim"
)

// maxPoints bounds the points of one plotted line.
const maxPoints = 400

// Series is one named line of a plot.
type Series struct {
	Name string
	XY   plotter.XYs
	// Style, when set, is the line's look (an account's or partition's,
	// kept across plots); else the series' place in the plot picks it.
	Style *Style
}

// daysAxis is the x label of plots over time (x in days since the first
// submission), which get timeTicks.
const daysAxis = "days since first submit"

// palette gives lines distinct, colour-blind-friendly colours (Okabe-Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{240, 228, 66, 255}, color.RGBA{0, 0, 0, 255},
}

// Color returns the i-th palette colour.
func Color(i int) color.Color { return palette[i%len(palette)] }

// WaitCDF is the empirical CDF of wait times as points (wait+1 s, fraction
// of jobs waiting at most that long); the +1 lets zero waits sit on a log
// axis.
func WaitCDF(waits []float64) plotter.XYs { return histOf(waits).cdf() }

// LinePlot draws series into a PNG (or SVG, by the file's extension).
func LinePlot(path, title, xlabel, ylabel string, logX bool, series []Series) error {
	p := newPlot(title, xlabel, ylabel)
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = durationTicks{}
	}
	if err := addLines(p, series, false); err != nil {
		return err
	}
	if len(series) == 0 {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1 // an empty chart: plain unit axes
	}
	if logX {
		// A log axis needs a positive range; a run whose waits are all
		// zero still gets a readable axis from 1 s to 1 min.
		p.X.Min = math.Max(p.X.Min, 1)
		p.X.Max = math.Max(p.X.Max, 60)
	}
	return savePlot(p, 8*vg.Inch, 5*vg.Inch, path)
}

// durationTicks labels a log-scaled seconds axis in units people read:
// 1 min, 1 h, 1 day, 1 week.
type durationTicks struct{}

// Ticks implements plot.Ticker.
func (durationTicks) Ticks(min, max float64) []plot.Tick {
	marks := []struct {
		v     float64
		label string
	}{{1, "0"}, {10, "10 s"}, {60, "1 min"}, {600, "10 min"}, {3600, "1 h"}, {6 * 3600, "6 h"},
		{86400, "1 d"}, {7 * 86400, "1 w"}, {30 * 86400, "30 d"}, {365 * 86400, "1 y"}}
	var ticks []plot.Tick
	for _, m := range marks {
		if m.v >= min*0.999 && m.v <= max*1.001 {
			ticks = append(ticks, plot.Tick{Value: m.v, Label: m.label})
		}
	}
	if len(ticks) < 2 {
		return plot.LogTicks{}.Ticks(min, max)
	}
	return ticks
}

// WaitPlot writes the wait-time distribution of started jobs, overall and
// per partition when there are several.
func WaitPlot(path string, r *sim.Result, t *JobTally) error {
	all, perPart := &t.waitAll, t.waitPart
	title := "Wait-time distribution (" + r.Scheduler + ")"
	if all.N() == 0 {
		// A run where nothing started is a result too (every job refused,
		// or a partition DOWN): an empty chart that says so, not an error.
		return LinePlot(path, title+": no job started", "wait", "fraction of jobs waiting at most this long", false, nil)
	}
	series := []Series{{Name: fmt.Sprintf("all (%d jobs)", all.N()), XY: all.cdf(), Style: &allStyle}}
	if len(r.Cluster.Parts) > 1 {
		st := PartitionStyles(r)
		for i, p := range r.Cluster.Parts {
			if perPart[i].N() > 0 {
				series = append(series, Series{Name: fmt.Sprintf("%s (%d)", p.Name, perPart[i].N()), XY: perPart[i].cdf(), Style: new(st[p.Name])})
			}
		}
	}
	return LinePlot(path, title, "wait (log scale)", "fraction of jobs waiting at most this long", true, series)
}

// PartitionStyles is the style of each partition of a run's cluster.
func PartitionStyles(r *sim.Result) Styles {
	names := make([]string, len(r.Cluster.Parts))
	for i, p := range r.Cluster.Parts {
		names[i] = p.Name
	}
	return NewStyles(names)
}

// utilSeries are utilization.png's lines: busy cores over the total, and
// pending jobs over their peak (maxPend), against days since the first
// submission, for the samples a plot draws (plotSamples).
func utilSeries(r *sim.Result) (xy, pend plotter.XYs, maxPend float64) {
	samples := plotSamples(r)
	total := float64(r.Cluster.TotalCores)
	maxPend = 1.0
	for _, s := range samples {
		maxPend = math.Max(maxPend, float64(s.Pending))
	}
	// Average the samples into at most maxPoints bins: the rasteriser's
	// cost grows steeply with a polyline's length, and a 5-inch plot shows
	// no more.
	step := max(1, (len(samples)+maxPoints-1)/maxPoints)
	for i := 0; i < len(samples); i += step {
		bin := samples[i:min(i+step, len(samples))]
		var busy, p float64
		for _, s := range bin {
			busy += float64(s.BusyCores)
			p += float64(s.Pending)
		}
		n := float64(len(bin))
		d := float64(bin[0].T-r.First) / 86400
		xy = append(xy, plotter.XY{X: d, Y: busy / n / total})
		pend = append(pend, plotter.XY{X: d, Y: p / n / maxPend})
	}
	return xy, pend, maxPend
}

// UtilizationPlot writes busy-core fraction over time, in days.
func UtilizationPlot(path string, r *sim.Result) error {
	xy, pend, maxPend := utilSeries(r)
	if len(xy) == 0 {
		return fmt.Errorf("no samples")
	}
	return LinePlot(path, "Utilisation ("+r.Scheduler+")", daysAxis, "fraction",
		false, []Series{{Name: "busy cores / total", XY: xy}, {Name: fmt.Sprintf("pending jobs / %.0f", maxPend), XY: pend}})
}
