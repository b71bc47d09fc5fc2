package fairshare

import (
	"testing"
	"time"
	_ "time/tzdata" // America/New_York without relying on the host's zoneinfo
)

func TestParseResetPeriod(t *testing.T) {
	for s, want := range map[string]ResetPeriod{
		"NONE": ResetNone, "now": ResetNow, "Daily": ResetDaily, "weekly": ResetWeekly,
		"MONTHLY": ResetMonthly, "quarterly": ResetQuarterly, "Yearly": ResetYearly,
	} {
		got, err := ParseResetPeriod(s)
		if err != nil || got != want {
			t.Errorf("ParseResetPeriod(%q) = %v, %v; want %v", s, got, err, want)
		}
		if back, _ := ParseResetPeriod(got.String()); back != want {
			t.Errorf("String round trip of %v failed", want)
		}
	}
	if _, err := ParseResetPeriod("28-0"); err == nil || err.Error() != `bad value "28-0" for PriorityUsageResetPeriod` {
		t.Errorf("bad value error = %v", err)
	}
}

func TestNextReset(t *testing.T) {
	// A non-UTC zone without DST: boundaries are local midnights.
	syd := time.FixedZone("AEST", 10*3600)
	at := func(loc *time.Location, y int, m time.Month, d, h, min int) int64 {
		return time.Date(y, m, d, h, min, 0, 0, loc).Unix()
	}
	tests := []struct {
		name      string
		p         ResetPeriod
		last, now int64
		want      int64
	}{
		{"daily: next local midnight", ResetDaily,
			at(syd, 2024, 3, 5, 15, 30), at(syd, 2024, 3, 5, 15, 30), at(syd, 2024, 3, 6, 0, 0)},
		// Missed days are skipped: the latest midnight m with m+1d >= now.
		{"daily: catch up", ResetDaily,
			at(syd, 2024, 3, 5, 15, 30), at(syd, 2024, 3, 10, 12, 0), at(syd, 2024, 3, 10, 0, 0)},
		// 2024-03-06 is a Wednesday: + (7-3) days = Sunday 2024-03-10.
		{"weekly: next Sunday", ResetWeekly,
			at(syd, 2024, 3, 6, 9, 0), at(syd, 2024, 3, 6, 9, 0), at(syd, 2024, 3, 10, 0, 0)},
		// From a Sunday the next Sunday is a full week on.
		{"weekly: from a Sunday", ResetWeekly,
			at(syd, 2024, 3, 10, 10, 0), at(syd, 2024, 3, 10, 10, 0), at(syd, 2024, 3, 17, 0, 0)},
		{"weekly: catch up", ResetWeekly,
			at(syd, 2024, 3, 6, 9, 0), at(syd, 2024, 4, 2, 0, 0), at(syd, 2024, 3, 31, 0, 0)},
		{"monthly: year wrap", ResetMonthly,
			at(syd, 2024, 12, 15, 8, 0), at(syd, 2024, 12, 15, 8, 0), at(syd, 2025, 1, 1, 0, 0)},
		// No catch-up for monthly and longer periods.
		{"monthly: no catch up", ResetMonthly,
			at(syd, 2024, 1, 15, 8, 0), at(syd, 2024, 6, 1, 0, 0), at(syd, 2024, 2, 1, 0, 0)},
		{"quarterly: Feb → Apr", ResetQuarterly,
			at(syd, 2024, 2, 10, 0, 0), 0, at(syd, 2024, 4, 1, 0, 0)},
		{"quarterly: on Apr 1 → Jul", ResetQuarterly,
			at(syd, 2024, 4, 1, 0, 0), 0, at(syd, 2024, 7, 1, 0, 0)},
		{"quarterly: Aug → Oct", ResetQuarterly,
			at(syd, 2024, 8, 31, 23, 59), 0, at(syd, 2024, 10, 1, 0, 0)},
		{"quarterly: Nov → next Jan", ResetQuarterly,
			at(syd, 2024, 11, 11, 0, 0), 0, at(syd, 2025, 1, 1, 0, 0)},
		{"yearly", ResetYearly,
			at(syd, 2024, 6, 1, 12, 0), 0, at(syd, 2025, 1, 1, 0, 0)},
		{"none", ResetNone, 100, 200, 0},
		{"now", ResetNow, 100, 200, 0},
	}
	for _, tc := range tests {
		if got := NextReset(tc.p, tc.last, tc.now, syd); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, time.Unix(got, 0).In(syd), time.Unix(tc.want, 0).In(syd))
		}
	}
	// The boundary is local: the same instant in UTC gives another midnight.
	last := at(syd, 2024, 3, 5, 8, 0) // 2024-03-04 22:00 UTC
	if NextReset(ResetDaily, last, last, syd) == NextReset(ResetDaily, last, last, nil) {
		t.Error("daily boundary must depend on the location")
	}

	// Like the C code, DAILY adds 86400 s to a mktime()d midnight: across
	// the US DST start (2024-03-10 02:00) the boundary lands at 01:00 EDT.
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	got := NextReset(ResetDaily, at(ny, 2024, 3, 10, 0, 0), at(ny, 2024, 3, 10, 0, 0), ny)
	if want := at(ny, 2024, 3, 11, 1, 0); got != want {
		t.Errorf("DST daily boundary = %v, want %v", time.Unix(got, 0).In(ny), time.Unix(want, 0).In(ny))
	}
}

func TestEngineReset(t *testing.T) {
	syd := time.FixedZone("AEST", 10*3600)
	tr := newBuilder(t).acct("a", "root", 1).user("u", "a", 1).done()
	u := mustLookup(t, tr, "a", "u")
	t0 := time.Date(2024, 3, 5, 23, 0, 0, 0, syd).Unix() // 23:00 local

	e := newEngine(t, tr, Config{HalfLife: 0, Reset: ResetDaily, Loc: syd})
	tick := func(T int64, charge bool) {
		e.BeginTick(T)
		if charge {
			e.Charge(u, t0, T, 1, 1, TRES{})
		}
		e.EndTick(T)
	}
	tick(t0, false) // first tick: last_reset = t0, next = 2024-03-06 00:00
	if want := time.Date(2024, 3, 6, 0, 0, 0, 0, syd).Unix(); e.NextReset() != want {
		t.Fatalf("NextReset = %v", time.Unix(e.NextReset(), 0).In(syd))
	}
	tick(t0+1800, true) // 23:30: 1800 s charged, HL=0 so no decay
	if e.Usage(u) != 1800 {
		t.Fatalf("usage = %v, want 1800", e.Usage(u))
	}
	// 00:05 is past the boundary: the reset zeroes usage before this
	// tick's charge, which then adds the whole 2100-s slice since lastRan.
	tick(t0+3900, true)
	if e.Usage(u) != 2100 || e.Usage(0) != 2100 {
		t.Errorf("after reset usage = %v (root %v), want 2100", e.Usage(u), e.Usage(0))
	}
	if want := time.Date(2024, 3, 6, 0, 0, 0, 0, syd).Unix(); e.LastReset() != want {
		t.Errorf("LastReset = %v, want the boundary", time.Unix(e.LastReset(), 0).In(syd))
	}

	// NOW resets once, at the first tick only.
	e = newEngine(t, tr, Config{HalfLife: week, Reset: ResetNow})
	_ = e.SetUsage(u, 500)
	e.BeginTick(1000)
	e.EndTick(1000)
	if e.Usage(u) != 0 || e.Usage(0) != 0 {
		t.Fatalf("NOW: usage not reset: %v", e.Usage(u))
	}
	_ = e.SetUsage(u, 500)
	e.BeginTick(1000)
	e.EndTick(1000)
	if e.Usage(u) != 500 {
		t.Errorf("NOW must reset only once, usage = %v", e.Usage(u))
	}
}
