package workflow

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// TerminalProgress is a Pipeline.Progress that draws a bar on f once a
// run has taken more than a second; nil when f is not a terminal, so the
// bar stays out of logs and pipes.
func TerminalProgress(f *os.File) func(total int64) (func(now int64, submitted int), func()) {
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(total int64) (func(now int64, submitted int), func()) {
		start := time.Now()
		drawn := false
		done := func() {
			if drawn {
				fmt.Fprintln(f)
			}
		}
		return func(now int64, submitted int) {
			el := time.Since(start)
			if el < time.Second {
				return
			}
			drawn = true
			if total > 0 {
				frac := min(float64(submitted)/float64(total), 1)
				n := int(frac * 30)
				fmt.Fprintf(f, "\r[%s%s] %3.0f%%  %d jobs  day %d  %s ", strings.Repeat("#", n), strings.Repeat(" ", 30-n), frac*100, submitted, now/86400, el.Round(time.Second))
			} else {
				fmt.Fprintf(f, "\r%d jobs  day %d  %s ", submitted, now/86400, el.Round(time.Second))
			}
		}, done
	}
}
