package workflow

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// RunGC trades memory for collector time in one simulation: after each
// collection it sets GOGC so that the next one comes when the heap has
// grown by the live heap (Go's 100) or by runGCRoom, whichever is more,
// up to runGCMax (above 100, Go's 4 MB minimum heap grows in proportion:
// 32 MB at 800). A small run's collections cost it more than the memory
// they save: KTH-SP2 under EASY makes nine at Go's default and two so,
// and runs about 10 % faster (40 paired runs) for 47 MB at its peak
// instead of 33; CEA-Curie under EASY 5 % faster for 79 MB instead of
// 74. A run whose live heap passes runGCRoom collects as at Go's default
// from there (ten million jobs under fifo: 526-550 MB at the peak, 525
// before). GOGC in the environment wins; SweepGC's setting stands (the
// watch stops).
func RunGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	gcOwned.Store(false)
	gcPercent.Store(runGCMax)
	debug.SetGCPercent(runGCMax) // the heap is nearly empty yet
	armGCWatch()
}

const (
	runGCRoom = 32 << 20
	runGCMax  = 800
)

var (
	// gcOwned says SweepGC has set the collector: the watch leaves it.
	gcOwned atomic.Bool
	// gcPercent is the watch's last setting.
	gcPercent atomic.Int64
)

// gcTick is garbage whose cleanup runs after a collection; the pointer
// keeps it out of the tiny allocator, whose blocks outlive their objects.
type gcTick struct{ _ *byte }

func armGCWatch() { runtime.AddCleanup(new(gcTick), afterGC, 0) }

// afterGC sets GOGC for the live heap the last collection left, and
// watches the next one. The live heap is read back from the goal the
// collection set (live × (1 + GOGC/100), or Go's minimum for a heap too
// small for GOGC to matter, which reads back as under 4 MB and gives
// runGCMax as the true figure would; the goal also counts goroutine
// stacks and globals, a fraction of a MB): runtime/metrics, which reads it
// directly, costs every run 0.6-0.8 ms of start-up to initialise.
func afterGC(int) {
	if gcOwned.Load() {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	last := gcPercent.Load()
	if p := roomPercent(ms.NextGC * 100 / uint64(100+last)); p != last && !gcOwned.Load() {
		gcPercent.Store(p)
		debug.SetGCPercent(int(p))
	}
	armGCWatch()
}

// roomPercent is the GOGC that lets a heap of live bytes grow by
// runGCRoom before the next collection, within [100, runGCMax].
func roomPercent(live uint64) int64 {
	if live == 0 {
		return runGCMax
	}
	return min(max(int64(runGCRoom*100/live), 100), runGCMax)
}
