package report

import "testing"

// TestBinMeans: 5 samples in bins of 2 average to 3 points, the last a
// bin of one; x is days since first.
func TestBinMeans(t *testing.T) {
	xy := binMeans([]int64{0, 43200, 86400, 129600, 172800}, []float64{1, 3, 5, 7, 10}, 2, 0)
	want := [][2]float64{{0, 2}, {1, 6}, {2, 10}}
	if len(xy) != len(want) {
		t.Fatalf("binMeans = %v, want %v", xy, want)
	}
	for i, w := range want {
		if xy[i].X != w[0] || xy[i].Y != w[1] {
			t.Errorf("point %d = %v, want %v", i, xy[i], w)
		}
	}
}
