package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

func TestNaturalCompare(t *testing.T) {
	got := []string{"g100", "g10", "g2", "g1", "batch", "g01", "a10b2", "a10b10", "a9"}
	slices.SortFunc(got, NaturalCompare)
	// Digit runs compare by value (2 < 10 < 100); g01 and g1 have one
	// value and fall back to byte order ("g01" < "g1").
	want := []string{"a9", "a10b2", "a10b10", "batch", "g01", "g1", "g2", "g10", "g100"}
	if !slices.Equal(got, want) {
		t.Errorf("natural order %v, want %v", got, want)
	}
}

func labels(ts []plot.Tick) string {
	var l []string
	for _, t := range ts {
		if t.Label != "" {
			l = append(l, t.Label)
		}
	}
	return strings.Join(l, ", ")
}

func TestTimeTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64 // days
		want   string
	}{
		// 26.8 days: steps of 5 d give 6 labels (≤ 6 intervals).
		{-1e-9, 26.8, "0 d, 5 d, 10 d, 15 d, 20 d, 25 d"},
		// 0.9 days = 21.6 h: 6 h steps.
		{0, 0.9, "0 h, 6 h, 12 h, 18 h"},
		// 330 days: 60 d steps.
		{0, 330, "0 d, 60 d, 120 d, 180 d, 240 d, 300 d"},
		// 10 days: 2 d steps.
		{0, 10, "0 d, 2 d, 4 d, 6 d, 8 d, 10 d"},
	} {
		if got := labels(timeTicks{}.Ticks(tc.lo, tc.hi)); got != tc.want {
			t.Errorf("[%g, %g] days: %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestDurTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64 // seconds
		want   string
	}{
		// 11052 s = 3.07 h: hours, niceTicks steps of 1 h.
		{0, 11052, "0 h, 1 h, 2 h, 3 h"},
		{0, 1200, "0 min, 5 min, 10 min, 15 min, 20 min"},
		{0, 50, "0 s, 10 s, 20 s, 30 s, 40 s, 50 s"},
	} {
		if got := labels(durTicks{}.Ticks(tc.lo, tc.hi)); got != tc.want {
			t.Errorf("[%g, %g] s: %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestStylesByName(t *testing.T) {
	// An account's style is its place among the run's names in natural
	// order (g1, g2, g10): g2 second, g10 third.
	a := NewStyles([]string{"g10", "g2", "g1"})
	if a["g2"].Color != Color(1) || a["g10"].Color != Color(2) {
		t.Errorf("g2 %v g10 %v, want palette colours 1 and 2", a["g2"].Color, a["g10"].Color)
	}
	// Past the eight colours, the ninth name reuses the first colour with a dash.
	var names []string
	for i := range 9 {
		names = append(names, "a"+string(rune('0'+i)))
	}
	b := NewStyles(names)
	if b["a8"].Color != Color(0) || len(b["a8"].Dashes) == 0 || len(b["a0"].Dashes) != 0 {
		t.Errorf("ninth style %+v, first %+v", b["a8"], b["a0"])
	}
}

// TestFairsharePlotsWithoutUsage writes fairshare.png and
// usage_vs_share.png for a run where no job ran (all pending): both are
// empty charts that say so, never a crash or an error.
func TestFairsharePlotsWithoutUsage(t *testing.T) {
	r := gpuResult(t)
	for _, j := range r.Jobs {
		j.Start, j.End, j.State = -1, -1, sim.Pending
	}
	snaps := &FSSeries{T: []int64{0}, Vals: [][]fairshare.Value{{}}}
	dir := t.TempDir()
	if err := UsageVsSharePlot(filepath.Join(dir, "usage_vs_share.png"), r, snaps); err != nil {
		t.Fatal(err)
	}
	if err := FairsharePlot(filepath.Join(dir, "fairshare.png"), r, snaps); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"usage_vs_share.png", "fairshare.png"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", n, err)
		}
	}
}
