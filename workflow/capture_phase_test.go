package workflow

import (
	"errors"
	"strings"
	"testing"
)

// TestCaptureControllerPhase: sim.controller_uptime is the first Submit
// minus BOOT_TIME; fairshare.assoc_added_after_start is set when the last
// "Add Associations" transaction between the boot and the first submission
// is at or after the last PriorityCalcPeriod tick (boot + k·period) before
// that submission. First submission 10:00:00 in every case.
func TestCaptureControllerPhase(t *testing.T) {
	sacct := []byte("JobIDRaw|Submit|Start\n2|10:00:05|x\n1|2024-01-01T10:00:00|2024-01-01T10:00:01\n3|2024-01-01T10:00:09|\n")
	for _, tc := range []struct {
		name       string
		boot, calc string
		txn        string
		txnErr     bool
		uptime     int64
		assocAfter bool
		warn       string
	}{
		// 10:00:00 - 09:59:57 = 3 s; add at 09:59:58 after the tick at
		// the boot (calc 1 min: ticks 09:59:57, 10:00:57).
		{"fresh harness", "2024-01-01T09:59:57", "00:01:00", "2024-01-01T09:59:58|Add Associations\n", false, 3, true, ""},
		// Up 1 h 5 s; the add at 09:10:00 came before the tick at
		// 09:59:55 (boot 08:59:55 + 60·60 s): factors already computed.
		{"add long before", "2024-01-01T08:59:55", "00:01:00", "2024-01-01T09:10:00|Add Associations\n", false, 3605, false, ""},
		// Same boot, add at 09:59:56, after that tick.
		{"add after the last tick", "2024-01-01T08:59:55", "00:01:00", "2024-01-01T09:59:56|Add Users\n2024-01-01T09:59:56|Add Associations\n", false, 3605, true, ""},
		// Default period 5 min: ticks at 08:59:55 + k·300; the last before
		// 10:00:00 is 09:59:55, the add at 09:58:00 is before it.
		{"default period", "2024-01-01T08:59:55", "", "2024-01-01T09:58:00|Add Associations\n", false, 3605, false, ""},
		// An add after the first submission does not count.
		{"add after the first submission", "2024-01-01T09:59:57", "00:01:00", "2024-01-01T10:00:02|Add Associations\n", false, 3, false, ""},
		{"no transactions", "2024-01-01T09:59:57", "00:01:00", "", false, 3, false, ""},
		{"sacctmgr fails", "2024-01-01T09:59:57", "00:01:00", "", true, 3, false, "fairshare.assoc_added_after_start not set"},
		{"restarted within the window", "2024-01-01T10:00:01", "00:01:00", "", false, -1, false, "after the window's first submission"},
		{"no BOOT_TIME", "", "00:01:00", "", false, -1, false, "BOOT_TIME \"\" is not a date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := map[string]string{"BOOT_TIME": tc.boot, "PriorityCalcPeriod": tc.calc}
			run := func(env []string, name string, args ...string) ([]byte, error) {
				if want := "sacctmgr -P -n list transactions Start=" + tc.boot + " format=Time,Action"; name+" "+strings.Join(args, " ") != want {
					t.Errorf("ran %s %v, want %s", name, args, want)
				}
				if tc.txnErr {
					return nil, errors.New("sacctmgr: permission denied")
				}
				return []byte(tc.txn), nil
			}
			ph, warn := captureControllerPhase(run, nil, cfg, sacct)
			if ph.uptime != tc.uptime || ph.assocAfter != tc.assocAfter {
				t.Errorf("uptime %d, assoc added after %v; want %d, %v", ph.uptime, ph.assocAfter, tc.uptime, tc.assocAfter)
			}
			if got := strings.Join(warn, "; "); (tc.warn == "") != (got == "") || !strings.Contains(got, tc.warn) {
				t.Errorf("warnings %q, want one containing %q", got, tc.warn)
			}
		})
	}
}
