package workflow

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// currentGCPercent reads the collector's setting.
func currentGCPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// settle collects until GOGC is want or wait passes: the watch runs on
// the cleanup goroutine after a cycle.
func settle(want int, wait time.Duration) int {
	deadline := time.Now().Add(wait)
	for currentGCPercent() != want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	return currentGCPercent()
}

func TestRoomPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, runGCMax},
		{1 << 20, runGCMax},          // 32 MB room would be 3200
		{runGCRoom / 8, runGCMax},    // exactly 800
		{runGCRoom / 4, 400},         // 8 MB live: 32 MB room
		{runGCRoom / 2, 200},         // 16 MB live
		{runGCRoom, 100},             // 32 MB: Go's default
		{4 * runGCRoom, 100},         // never below it
		{runGCRoom * 100 / 150, 150}, // in between
	} {
		if got := roomPercent(c.live); got != c.want {
			t.Errorf("roomPercent(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

func TestRunGCFollowsTheLiveHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(currentGCPercent())
	RunGC()
	if p := currentGCPercent(); p != runGCMax {
		t.Fatalf("after RunGC GOGC is %d, want %d", p, runGCMax)
	}
	big := make([]byte, 2*runGCRoom)
	if p := settle(100, 2*time.Second); p != 100 {
		t.Errorf("live heap over %d MB: GOGC %d, want 100", 2*runGCRoom>>20, p)
	}
	runtime.KeepAlive(big)
	big = nil
	if p := settle(runGCMax, 2*time.Second); p != runGCMax {
		t.Errorf("live heap back to a few MB: GOGC %d, want %d", p, runGCMax)
	}
	gcOwned.Store(true) // stop the watch
}

func TestRunGCLeavesSweepSetting(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB") // SweepGC sets no limit then
	defer debug.SetGCPercent(currentGCPercent())
	defer debug.SetMemoryLimit(math.MaxInt64)
	RunGC()
	SweepGC()
	big := make([]byte, 2*runGCRoom)
	if p := settle(100, 200*time.Millisecond); p != 400 {
		t.Errorf("after SweepGC and a large heap GOGC is %d, want the sweep's 400", p)
	}
	runtime.KeepAlive(big)
}

func TestRunGCYieldsToEnvironment(t *testing.T) {
	t.Setenv("GOGC", "150")
	defer debug.SetGCPercent(currentGCPercent())
	debug.SetGCPercent(150)
	RunGC()
	if p := currentGCPercent(); p != 150 {
		t.Errorf("GOGC=150 in the environment: RunGC set %d", p)
	}
}
