package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// TestEncodePNGRoundTrip: what encodePNG writes decodes, through
// image/png, to the very pixels it was given: an opaque plot-like image
// (flat background, lines, a gradient, rows that repeat and rows that do
// not), one whose bounds do not start at 0, one a pixel wide, and one
// with translucent pixels (left to image/png, alpha kept).
func TestEncodePNGRoundTrip(t *testing.T) {
	plotLike := func(r image.Rectangle) *image.RGBA {
		m := image.NewRGBA(r)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := color.RGBA{255, 255, 255, 255}
				switch {
				case (x+2*y)%37 == 0:
					c = color.RGBA{200, 30, 40, 255}
				case y%11 == 0:
					c = color.RGBA{uint8(x), uint8(3 * x), uint8(y), 255}
				case x > r.Min.X+r.Dx()/2 && y > r.Min.Y+r.Dy()/2:
					c = color.RGBA{uint8(x ^ y), 128, uint8(y), 255}
				}
				m.SetRGBA(x, y, c)
			}
		}
		return m
	}
	translucent := plotLike(image.Rect(0, 0, 20, 10))
	translucent.SetRGBA(3, 4, color.RGBA{}) // transparent: the one value alpha premultiplied both ways keeps exactly
	for name, m := range map[string]*image.RGBA{
		"plot":        plotLike(image.Rect(0, 0, 300, 200)),
		"offset":      plotLike(image.Rect(-7, 13, 90, 60)),
		"sub-image":   plotLike(image.Rect(0, 0, 120, 80)).SubImage(image.Rect(10, 20, 70, 75)).(*image.RGBA),
		"one wide":    plotLike(image.Rect(0, 0, 1, 50)),
		"translucent": translucent,
	} {
		var b bytes.Buffer
		if err := encodePNG(&b, m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		if g, w := got.Bounds().Size(), m.Bounds().Size(); g != w {
			t.Fatalf("%s: %v pixels, want %v", name, g, w)
		}
		d := got.Bounds().Min.Sub(m.Bounds().Min)
		for y := m.Bounds().Min.Y; y < m.Bounds().Max.Y; y++ {
			for x := m.Bounds().Min.X; x < m.Bounds().Max.X; x++ {
				gr, gg, gb, ga := got.At(x+d.X, y+d.Y).RGBA()
				wr, wg, wb, wa := m.At(x, y).RGBA()
				if gr != wr || gg != wg || gb != wb || ga != wa {
					t.Fatalf("%s: pixel (%d,%d) %v, want %v", name, x, y, got.At(x+d.X, y+d.Y), m.At(x, y))
				}
			}
		}
	}
}
