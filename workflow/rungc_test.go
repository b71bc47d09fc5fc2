package workflow

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's setting.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// settle collects until the percent is want or wait passes: the watch
// runs on the cleanup goroutine after a cycle.
func settle(want int, wait time.Duration) int {
	deadline := time.Now().Add(wait)
	for gcPercent() != want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	return gcPercent()
}

func TestRunGCGivesBackDefaultOnceLarge(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(gcPercent())
	RunGC()
	if p := gcPercent(); p != runGCPercent {
		t.Fatalf("after RunGC GOGC is %d, want %d", p, runGCPercent)
	}
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if p := gcPercent(); p != runGCPercent {
		t.Fatalf("a small heap changed GOGC to %d, want %d kept", p, runGCPercent)
	}
	big := make([]byte, runGCLive+runGCLive/4)
	if p := settle(100, 2*time.Second); p != 100 {
		t.Errorf("live heap over %d MB: GOGC %d, want 100", runGCLive>>20, p)
	}
	runtime.KeepAlive(big)
}

func TestRunGCLeavesSweepSetting(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB") // SweepGC sets no limit then
	defer debug.SetGCPercent(gcPercent())
	defer debug.SetMemoryLimit(math.MaxInt64)
	RunGC()
	SweepGC()
	big := make([]byte, runGCLive+runGCLive/4)
	if p := settle(100, 200*time.Millisecond); p != 400 {
		t.Errorf("after SweepGC and a large heap GOGC is %d, want the sweep's 400", p)
	}
	runtime.KeepAlive(big)
}

func TestRunGCYieldsToEnvironment(t *testing.T) {
	t.Setenv("GOGC", "150")
	defer debug.SetGCPercent(gcPercent())
	debug.SetGCPercent(150)
	RunGC()
	if p := gcPercent(); p != 150 {
		t.Errorf("GOGC=150 in the environment: RunGC set %d", p)
	}
}
