package workflow

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"fairsim/slurmtime"
	"fairsim/workload"
)

// RunProgress is what a progress display knows of a run before it starts.
type RunProgress struct {
	// First is the simulated time of the first submission: days are
	// counted from it, as --at and the summary count them.
	First int64
	// Jobs is the number of jobs the workload announces (a trace header's
	// MaxRecords), 0 when unknown; a cleaned trace may announce more than
	// it holds, so the input's position is preferred when there is one.
	Jobs int64
	// Input is how far the reader is through its file, nil when it reads
	// from memory.
	Input *workload.InputPos
}

// Fraction is how much of the workload has been submitted, in [0, 1]:
// the bytes of the input read, else the jobs over the announced number,
// else -1 (unknown).
func (p RunProgress) Fraction(submitted int) float64 {
	switch {
	case p.Input != nil && p.Input.Size > 0:
		return min(float64(p.Input.Read.Load())/float64(p.Input.Size), 1)
	case p.Jobs > 0:
		return min(float64(submitted)/float64(p.Jobs), 1)
	}
	return -1
}

// progressLine is one report of a run's advance: how much is submitted,
// the simulated day since the first submission, the jobs and the time
// taken, and an estimate of the time left.
func progressLine(frac float64, day int64, submitted int, el time.Duration) string {
	var b strings.Builder
	if frac >= 0 {
		fmt.Fprintf(&b, "%3.0f%%  ", frac*100)
	}
	fmt.Fprintf(&b, "day %d  %d jobs  %s", day, submitted, slurmtime.Format(int64(el.Seconds())))
	if frac > 0.02 && frac < 1 {
		left := time.Duration(float64(el) * (1 - frac) / frac)
		fmt.Fprintf(&b, "  about %s left", slurmtime.Format(int64(left.Seconds())))
	}
	return b.String()
}

// TerminalProgress is a Pipeline.Progress for f: on a terminal a bar
// redrawn in place once a run has taken more than a second, finishing at
// 100 %; otherwise (a log, a pipe) a line every interval, so a long run
// under a batch system still shows it is alive. nil for a nil f.
func TerminalProgress(f *os.File) func(RunProgress) (func(now int64, submitted int), func()) {
	if f == nil {
		return nil
	}
	st, err := f.Stat()
	tty := err == nil && st.Mode()&os.ModeCharDevice != 0
	return Progress(f, tty, 10*time.Second, time.Now)
}

// Progress is TerminalProgress on any writer: a bar when tty, else a
// line every interval; clock is time.Now outside tests.
func Progress(w io.Writer, tty bool, interval time.Duration, clock func() time.Time) func(RunProgress) (func(now int64, submitted int), func()) {
	return func(rp RunProgress) (func(now int64, submitted int), func()) {
		start := clock()
		drawn, last := false, start
		day := func(now int64) int64 { return max(now-rp.First, 0) / 86400 }
		lastNow, lastSub := rp.First, 0
		draw := func(frac float64, now int64, submitted int, el time.Duration) {
			line := progressLine(frac, day(now), submitted, el)
			if !tty {
				fmt.Fprintf(w, "fairsim: progress: %s\n", line)
				return
			}
			bar := ""
			if frac >= 0 {
				n := int(frac * 30)
				bar = "[" + strings.Repeat("#", n) + strings.Repeat(" ", 30-n) + "] "
			}
			fmt.Fprintf(w, "\r%s%s ", bar, line)
		}
		update := func(now int64, submitted int) {
			lastNow, lastSub = now, submitted
			t := clock()
			el := t.Sub(start)
			if tty && el < time.Second || !tty && t.Sub(last) < interval {
				return
			}
			drawn, last = true, t
			draw(rp.Fraction(submitted), now, submitted, el)
		}
		done := func() {
			// A run that was shown ends its display at 100 %: every job
			// was submitted, whatever the header announced.
			if drawn {
				frac := 1.0
				if rp.Fraction(lastSub) < 0 {
					frac = -1
				}
				draw(frac, lastNow, lastSub, clock().Sub(start))
				if tty {
					fmt.Fprintln(w)
				}
			}
		}
		return update, done
	}
}
