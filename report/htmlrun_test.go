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

// TestHeadlineDurations: the report's headline table prints seconds
// metrics as Slurm's elapsed times and leaves the others as summary.csv
// has them.
func TestHeadlineDurations(t *testing.T) {
	for _, tc := range []struct{ name, v, want string }{
		{"wait_mean_s", "7368.7925", "02:02:49"},      // 2 h 2 min 48.79 s, rounded
		{"wait_max_s", "825032.000000", "9-13:10:32"}, // 9 d = 777600 s, + 47432 s = 13:10:32
		{"makespan_s", "59", "00:00:59"},
		{"utilization", "0.324657", "0.324657"},
		{"jobs", "4000", "4000"},
		{"wait_p95_s", "", ""}, // empty stays empty
	} {
		if got := headlineValue(tc.name, tc.v); got != tc.want {
			t.Errorf("%s=%q: %q, want %q", tc.name, tc.v, got, tc.want)
		}
	}
}
