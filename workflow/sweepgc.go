package workflow

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// SweepGC trades memory for collector time in a sweep. Its points are
// independent runs whose heaps are small next to the machine's memory;
// with one worker the collector runs on an idle core, while with a
// worker per core it takes the workers' time. On odyssey's 8-point sweep
// with 2 workers, GOGC=100 gives 1.74x over 1 worker, 400 gives 1.85x,
// for 118 MB at the peak instead of 68. A soft memory limit of half the
// machine's memory (GOMEMLIMIT's) still collects in time where points
// are large. GOGC or GOMEMLIMIT in the environment wins.
func SweepGC() {
	gcOwned.Store(true)
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		if total := memTotal(); total > 0 {
			debug.SetMemoryLimit(total / 2)
		}
	}
}

// memTotal is the machine's memory in bytes from /proc/meminfo (0 where
// it cannot be read).
func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}
