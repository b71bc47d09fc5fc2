package fairshare

import (
	"fmt"
	"strings"
	"time"
)

// ResetPeriod is PriorityUsageResetPeriod: when all usage is zeroed.
type ResetPeriod int

// The reset periods of slurm.conf. ResetNone is the default.
const (
	ResetNone ResetPeriod = iota
	ResetNow
	ResetDaily
	ResetWeekly
	ResetMonthly
	ResetQuarterly
	ResetYearly
)

var resetNames = [...]string{"NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"}

// ParseResetPeriod reads a PriorityUsageResetPeriod value, case-insensitive
// as read_config.c compares it.
func ParseResetPeriod(s string) (ResetPeriod, error) {
	for i, n := range resetNames {
		if strings.EqualFold(s, n) {
			return ResetPeriod(i), nil
		}
	}
	return ResetNone, fmt.Errorf("bad value %q for PriorityUsageResetPeriod", s)
}

// String returns the slurm.conf spelling.
func (p ResetPeriod) String() string {
	if p >= 0 && int(p) < len(resetNames) {
		return resetNames[p]
	}
	return fmt.Sprintf("ResetPeriod(%d)", int(p))
}

const (
	secsPerDay  = 24 * 60 * 60
	secsPerWeek = 7 * secsPerDay
)

// NextReset is _next_reset: the first reset boundary after lastReset, in
// local time loc (UTC when nil), given the current time now.
//
//   - DAILY: local midnight of lastReset's day + 86400 s, then advanced in
//     whole days while boundary+1 day < now (missed days are skipped).
//   - WEEKLY: that midnight + (7 - weekday) days, i.e. the next Sunday
//     00:00, advanced in whole weeks the same way.
//   - MONTHLY / QUARTERLY / YEARLY: 00:00 on the 1st of the next month /
//     of the next Jan, Apr, Jul or Oct / of the next January; no catch-up.
//
// Like the C code, DAILY and WEEKLY add fixed seconds to a mktime()d
// midnight, so across a DST change the boundary drifts by the DST offset.
// NONE and NOW have no boundary (0).
func NextReset(p ResetPeriod, lastReset, now int64, loc *time.Location) int64 {
	if loc == nil {
		loc = time.UTC
	}
	lt := time.Unix(lastReset, 0).In(loc)
	y, m, d := lt.Date()
	switch p {
	case ResetDaily:
		t := time.Date(y, m, d, 0, 0, 0, 0, loc).Unix() + secsPerDay
		for t+secsPerDay < now {
			t += secsPerDay
		}
		return t
	case ResetWeekly:
		t := time.Date(y, m, d, 0, 0, 0, 0, loc).Unix() + secsPerDay*int64(7-int(lt.Weekday()))
		for t+secsPerWeek < now {
			t += secsPerWeek
		}
		return t
	case ResetMonthly:
		return time.Date(y, m+1, 1, 0, 0, 0, 0, loc).Unix()
	case ResetQuarterly:
		switch {
		case m < time.April:
			m = time.April
		case m < time.July:
			m = time.July
		case m < time.October:
			m = time.October
		default:
			m, y = time.January, y+1
		}
		return time.Date(y, m, 1, 0, 0, 0, 0, loc).Unix()
	case ResetYearly:
		return time.Date(y+1, time.January, 1, 0, 0, 0, 0, loc).Unix()
	}
	return 0
}
