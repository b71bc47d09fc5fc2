package report

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"git.sr.ht/~sbinet/gg"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"fairsim/sim"
)

// Every plot fairsim writes goes through this file's layout: the legend
// in a column of its own right of the axes, so it never covers a curve;
// the title padded off the edge; time axes in hours or days with round
// ticks; and one line style per account or partition name, the same in
// every plot of a run.

// titlePad is the space between a plot's title and the image's edge and
// between the title and the axes.
const titlePad = 6

// plotWriterTo lays p out on a w×h canvas of the format ("png", "svg"):
// the axes on the left, the legend (when p has entries) in a column on
// the right, top-aligned with the axes.
func plotWriterTo(p *plot.Plot, w, h vg.Length, format string) (vg.CanvasWriterTo, error) {
	var c vg.CanvasWriterTo
	if format == "png" {
		c = fastPNG{newImageCanvas(w, h)}
		if opaqueWhite(p.BackgroundColor) {
			// The image starts white (vgimg.NewWith): the plot's own
			// fill of it, a path through the rasteriser over every
			// pixel, would change none (KTH: 1.4 % of the run's CPU).
			bg := p.BackgroundColor
			p.BackgroundColor = nil
			defer func() { p.BackgroundColor = bg }()
		}
	} else {
		var err error
		if c, err = draw.NewFormattedCanvas(w, h, format); err != nil {
			return nil, err
		}
	}
	dc := draw.New(c)
	full := dc
	dc = draw.Crop(dc, 0, 0, 0, -vg.Points(titlePad)) // off the top edge
	p.Title.Padding = vg.Points(titlePad)
	leg := p.Legend
	width := leg.Rectangle(dc).Size().X
	if width <= 0 {
		p.Draw(dc)
		return c, nil
	}
	gap := vg.Points(10)
	width = min(width, w*2/5) // a very long name is cut rather than the axes squeezed away
	p.Legend = plot.NewLegend()
	defer func() { p.Legend = leg }()
	p.Draw(draw.Crop(dc, 0, -(width + 2*gap), 0, 0))
	lc := draw.Crop(full, w-width-gap, 0, 0, 0)
	if p.Title.Text != "" {
		lc.Max.Y -= p.Title.TextStyle.Height(p.Title.Text) + 2*p.Title.Padding + vg.Points(titlePad)
	}
	leg.Top, leg.Left, leg.XOffs, leg.YOffs = true, true, 0, 0
	leg.Draw(lc)
	return c, nil
}

// opaqueWhite reports whether c is white without transparency, the
// colour vgimg paints a new image with.
func opaqueWhite(c color.Color) bool {
	if c == nil {
		return false
	}
	r, g, b, a := c.RGBA()
	return r == 0xffff && g == 0xffff && b == 0xffff && a == 0xffff
}

// newImageCanvas is vgimg.New(w, h) without its first act: vgimg.New
// makes an image, then a drawing context for a copy of it (gg's
// NewContextForImage converts by copying) and paints the copy; here the
// context draws on the image itself, which saves the copy of every pixel
// (8 % of a KTH run). The context is set up as vgimg sets up its own.
func newImageCanvas(w, h vg.Length) *vgimg.Canvas {
	dpi := vgimg.DefaultDPI
	r := imageRect(w, h)
	var img *image.RGBA
	select {
	case m := <-readyImages:
		if m.Rect == r {
			img = m
		}
	default:
	}
	if img == nil {
		img = image.NewRGBA(r)
	}
	ctx := gg.NewContextForRGBA(img)
	ctx.SetLineCapButt()
	ctx.InvertY()
	return vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(dpi))
}

// imageRect is the pixels of a w×h image at vgimg's default resolution.
func imageRect(w, h vg.Length) image.Rectangle {
	dpi := vg.Length(vgimg.DefaultDPI)
	return image.Rect(0, 0, int(w/vg.Inch*dpi+0.5), int(h/vg.Inch*dpi+0.5))
}

// readyImages are images of the common plot size (8×5 inches) made ahead
// by PrepareImages, for newImageCanvas to draw on.
var readyImages = make(chan *image.RGBA, 4)

// PrepareImages makes n images for a run's 8×5-inch plots on a goroutine
// of its own, writing a byte of each page, so that the plots find them
// ready. Each page of a new image is a page fault when first written, as
// the plot paints its background: 370 faults for one image, at about
// 12 µs each on the 2-core VM of issue 13's figures, and the plots make
// theirs side by side, in the last step of a run; during the simulation
// the second core has time. Images not taken are collected as garbage.
func PrepareImages(n int) {
	go func() {
		for range min(n, cap(readyImages)) {
			img := image.NewRGBA(imageRect(8*vg.Inch, 5*vg.Inch))
			for i := 0; i < len(img.Pix); i += 4096 {
				img.Pix[i] = 0xff
			}
			select {
			case readyImages <- img:
			default:
				return
			}
		}
	}()
}

// fastPNG is vgimg's PNG canvas encoded at zlib's fastest level: a
// plot's flat colours compress almost as well, in a third of the time
// that the default level takes, which is most of writing a small run.
// Its rows are filtered as encodePNG says.
type fastPNG struct{ *vgimg.Canvas }

// WriteTo encodes the canvas as a PNG.
func (c fastPNG) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	var err error
	if m, ok := c.Image().(*image.RGBA); ok {
		err = encodePNG(cw, m)
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(cw, c.Image())
	}
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// savePlot writes p to path, in the format its extension names, laid out
// by plotWriterTo; an error closing the file (a full disk) is returned.
func savePlot(p *plot.Plot, w, h vg.Length, path string) (err error) {
	wt, err := plotWriterTo(p, w, h, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return err
	}
	return writeFile(path, func(f io.Writer) error {
		_, err := wt.WriteTo(f)
		return err
	})
}

// timeTicks labels an axis of days since the first submission in the
// unit its span reads best in: hours for spans under two days, else
// days, at round steps (1, 2, 3, 6, 12 h; 1, 2, 5, 7, 10, 14, 30, 60,
// 90, 180, 365 d) giving at most seven labels, with unlabelled minor
// ticks between.
type timeTicks struct{}

// Ticks implements plot.Ticker.
func (timeTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return []plot.Tick{{Value: lo, Label: dayLabel(lo, 1)}}
	}
	steps := []float64{1.0 / 24, 2.0 / 24, 3.0 / 24, 6.0 / 24, 12.0 / 24, 1, 2, 5, 7, 10, 14, 30, 60, 90, 180, 365}
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= 6 {
			step = s
			break
		}
	}
	for step*6 < span { // longer than a six-year trace: multiples of a year
		step += 365
	}
	minor := step / 5
	if step == 7 || step == 14 {
		minor = 1
	}
	var out []plot.Tick
	for v := math.Ceil(lo/minor-1e-9) * minor; v <= hi+minor*1e-9; v += minor {
		k := math.Round(v / step)
		if math.Abs(v-k*step) < minor*1e-6 {
			out = append(out, plot.Tick{Value: k * step, Label: dayLabel(k*step, step)})
		} else {
			out = append(out, plot.Tick{Value: v})
		}
	}
	return out
}

// dayLabel prints a time in days at a tick step: whole hours below a
// day's step ("36 h"), else whole days ("5 d").
func dayLabel(d, step float64) string {
	unit := " d"
	if step < 1 {
		d, unit = d*24, " h"
	}
	return strconv.FormatFloat(math.Round(d)+0, 'f', 0, 64) + unit // +0: no "-0"
}

// timeAxis labels p's x axis (in days since the first submission) with
// timeTicks.
func timeAxis(p *plot.Plot) {
	p.X.Label.Text = "time since the first submission"
	p.X.Tick.Marker = timeTicks{}
}

// durTicks labels a linear axis of seconds in the unit its range reads
// best in: seconds, minutes, hours or days, at niceTicks' round steps of
// that unit.
type durTicks struct{}

// Ticks implements plot.Ticker.
func (durTicks) Ticks(lo, hi float64) []plot.Tick {
	unit, name := durUnit(math.Max(math.Abs(lo), math.Abs(hi)))
	ts := niceTicks{}.Ticks(lo/unit, hi/unit)
	for i := range ts {
		ts[i].Value *= unit
		if ts[i].Label != "" {
			ts[i].Label += " " + name
		}
	}
	return ts
}

// durUnit is the unit a duration of up to m seconds reads best in.
func durUnit(m float64) (float64, string) {
	switch {
	case m >= 3*86400:
		return 86400, "d"
	case m >= 3*3600:
		return 3600, "h"
	case m >= 180:
		return 60, "min"
	}
	return 1, "s"
}

// Style is the look of one named line (an account, a partition): a
// colour, and a dash pattern once the palette's colours are used up.
type Style struct {
	Color  color.Color
	Dashes []vg.Length
}

// Styles gives each name one line style, the same in every plot of a
// run: by the name's place among all the run's names in natural order,
// not among those a plot happens to show.
type Styles map[string]Style

// NewStyles assigns styles to names (duplicates ignored).
func NewStyles(names []string) Styles {
	u := slices.Clone(names)
	slices.SortFunc(u, NaturalCompare)
	u = slices.Compact(u)
	dashes := [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
	s := Styles{}
	for i, n := range u {
		s[n] = Style{Color: Color(i), Dashes: dashes[i/len(palette)%len(dashes)]}
	}
	return s
}

// allStyle is the line of all jobs together, drawn beside per-account
// or per-partition lines: black, which the palette keeps for last.
var allStyle = Style{Color: color.Black}

// AccountStyles is the style of each account of a run: the accounts of
// its jobs and of its fair-share tree.
func AccountStyles(r *sim.Result, snaps *FSSeries) Styles {
	var names []string
	for i := range r.Names.Accounts.Len() {
		names = append(names, r.Names.Accounts.Name(int32(i)))
	}
	if snaps != nil {
		for _, row := range snaps.Rows {
			if !row.IsUser && row.Depth > 0 {
				names = append(names, row.Account)
			}
		}
	}
	return NewStyles(names)
}

// NaturalCompare orders strings as people count: digit runs by their
// value, so g2 comes before g10 and g10 before g100; equal values
// (g01, g1) fall back to plain order, so the order is total.
func NaturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return cmp.Compare(ca, cb)
		}
		i++
		j++
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// others names the entry that sums what a top-N plot leaves out.
func others(n int) string {
	if n == 1 {
		return "1 other"
	}
	return fmt.Sprintf("%d others", n)
}
