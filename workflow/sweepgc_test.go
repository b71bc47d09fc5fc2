package workflow

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestSweepGCKeepsTheEnvironment: a sweep raises GOGC to 400 unless the
// environment sets it, and reads the machine's memory for its soft limit.
func TestSweepGCKeepsTheEnvironment(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	SweepGC()
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GOGC unset: a sweep collects at %d %%, want 400", got)
	}
	if _, err := os.Stat("/proc/meminfo"); err == nil {
		if memTotal() <= 0 {
			t.Error("/proc/meminfo is there but memTotal read nothing")
		}
		if got := debug.SetMemoryLimit(-1); got != memTotal()/2 {
			t.Errorf("memory limit %d, want half of %d", got, memTotal())
		}
	}
	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	SweepGC()
	if got := debug.SetGCPercent(100); got != 150 {
		t.Errorf("GOGC=150 in the environment: a sweep collects at %d %%, want 150", got)
	}
}
