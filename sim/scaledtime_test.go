package sim

import "testing"

func TestScaledTime(t *testing.T) {
	for _, tc := range []struct {
		t          int64
		ref, speed float64
		want       int64
	}{
		{219, 1.2, 1.2, 219}, // the reference type: exactly the trace's time (was 220)
		{219, 1.2, 0.6, 438}, // half the speed: twice the time
		{100, 1, 3, 34},      // 33.33 s rounds up: the work is not done at 33
		{300, 1.1, 1.1 * 1.0000001, 300},
		{0, 1.2, 1, 0},
	} {
		if got := scaledTime(tc.t, tc.ref, tc.speed); got != tc.want {
			t.Errorf("scaledTime(%d, %g, %g) = %d, want %d", tc.t, tc.ref, tc.speed, got, tc.want)
		}
	}
}
