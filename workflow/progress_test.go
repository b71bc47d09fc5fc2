package workflow

import (
	"strings"
	"testing"
	"time"

	"fairsim/workload"
)

// TestProgressLog drives the display of a run that is not on a terminal
// with a clock that advances 4 s per update: a line every 10 s, days
// counted from the first submission, and a last line at 100 % although
// the header announced more jobs than the trace held.
func TestProgressLog(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	// The first job is submitted at simulated second 1,000,000; the
	// header announces 400 jobs, the input's position says how far.
	in := &workload.InputPos{Size: 1000}
	update, done := Progress(&b, false, 10*time.Second, clock)(RunProgress{First: 1_000_000, Jobs: 400, Input: in})
	for i := 1; i <= 5; i++ {
		now = now.Add(4 * time.Second)
		in.Read.Store(int64(i * 150))
		update(1_000_000+int64(i)*86400, i*30) // day i since the first submission
	}
	done()
	// Updates at 4, 8, 12, 16, 20 s: a line at 12 s (10 s after the
	// start); the next is due at 22 s, so the update at 20 s prints
	// nothing, and done prints the last line.
	want := []string{
		// 12 s: read 450 of 1000 bytes → 45 %; time left 12 × 0.55/0.45 = 14.67 s → 14 s.
		"fairsim: progress:  45%  day 3  90 jobs  00:00:12  about 00:00:14 left",
		"fairsim: progress: 100%  day 5  150 jobs  00:00:20",
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRunProgressFraction(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rp        RunProgress
		submitted int
		want      float64
	}{
		{"input position wins over the header", RunProgress{Jobs: 773138, Input: inputAt(500, 1000)}, 100, 0.5},
		{"header count without a file", RunProgress{Jobs: 400}, 100, 0.25},
		{"more jobs than announced stop at 1", RunProgress{Jobs: 400}, 500, 1},
		{"standard input, no count", RunProgress{Input: inputAt(10, 0)}, 100, -1},
	} {
		if got := tc.rp.Fraction(tc.submitted); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// inputAt is an input position read bytes into a file of size bytes.
func inputAt(read, size int64) *workload.InputPos {
	p := &workload.InputPos{Size: size}
	p.Read.Store(read)
	return p
}
