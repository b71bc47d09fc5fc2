package workflow

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// RunGC trades memory for collector time in one simulation while its
// heap is small: GOGC 200 until the live heap first reaches runGCLive,
// then Go's 100 for the rest of the run. A small run's collector cycles
// cost it more than the memory saves: KTH-SP2 under EASY makes nine at
// 100 and four at 200, and runs 5 % faster (40 paired runs) for 39 MB
// at its peak instead of 35; CEA-Curie under EASY 5 % faster for 122 MB
// instead of 79. A large run, whose heap would grow by half again at 200
// (ten million jobs under fifo: 525 MB at 100), keeps Go's default from
// there. GOGC in the environment wins; SweepGC's setting stands.
func RunGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	gcOwned.Store(false)
	debug.SetGCPercent(runGCPercent)
	armGCWatch()
}

const (
	runGCPercent = 200
	runGCLive    = 64 << 20
)

// gcOwned says SweepGC has set the collector: the watch leaves it.
var gcOwned atomic.Bool

// gcTick is garbage whose cleanup runs after a collection; the pointer
// keeps it out of the tiny allocator, whose blocks outlive their objects.
type gcTick struct{ _ *byte }

func armGCWatch() { runtime.AddCleanup(new(gcTick), afterGC, 0) }

// afterGC runs after each collection until the live heap is large.
func afterGC(int) {
	if gcOwned.Load() {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() >= runGCLive {
		if !gcOwned.Load() {
			debug.SetGCPercent(100)
		}
		return
	}
	armGCWatch()
}
