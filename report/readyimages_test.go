package report

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"
)

// TestPrepareImages checks that a plot drawn on an image made ahead by
// PrepareImages, even one whose pixels hold garbage, is byte for byte the
// plot drawn on a new image, and that an image of another size is passed
// over.
func TestPrepareImages(t *testing.T) {
	for len(readyImages) > 0 {
		<-readyImages
	}
	dir := t.TempDir()
	series := []Series{{Name: "a", XY: plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0.5}, {X: 2, Y: 0.25}}}}
	draw := func(name string) []byte {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := LinePlot(p, "t", "x", "y", false, series); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fresh := draw("fresh.png")

	PrepareImages(1)
	deadline := time.Now().Add(10 * time.Second)
	for len(readyImages) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("PrepareImages made no image in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	m := <-readyImages
	if want := image.Rect(0, 0, 768, 480); m.Rect != want {
		t.Fatalf("prepared image is %v, want %v (8x5 inches at 96 dpi)", m.Rect, want)
	}
	for i := range m.Pix {
		m.Pix[i] = 0x5a
	}
	readyImages <- m
	if got := draw("ready.png"); !bytes.Equal(got, fresh) {
		t.Error("the plot drawn on a prepared image differs from the one drawn on a new image")
	}
	if len(readyImages) != 0 {
		t.Error("the prepared image was not used")
	}

	readyImages <- image.NewRGBA(image.Rect(0, 0, 10, 10))
	if got := draw("small.png"); !bytes.Equal(got, fresh) {
		t.Error("an image of another size was drawn on")
	}
}
