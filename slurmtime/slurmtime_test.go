package slurmtime

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestParse covers every form parse_time.c time_str2secs reads, with examples,
// the INFINITE spellings, and the edge cases of Slurm's validator.
func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		secs int64
		mins int64
	}{
		// M
		{"90", 5400, 90},
		{"0", 0, 0},
		{"007", 420, 7},
		// M:S
		{"1:30", 90, 2}, // time_str2mins: 90 s rounds up to 2 min
		{"0:59", 59, 1},
		{"0:60", 60, 1},
		{"2:00", 120, 2},
		// H:M:S
		{"1:30:00", 5400, 90},
		{"0:0:1", 1, 1},
		{"1:99:99", 3600 + 99*60 + 99, 60 + 99 + 2}, // fields are not range-checked
		// D-H
		{"2-0", 172800, 2880},
		{"7-0", 604800, 10080},
		{"14-0", 1209600, 20160},
		// D-H:M
		{"2-12:30", 2*86400 + 12*3600 + 30*60, 3630},
		{"0-0:1", 60, 1},
		// D-H:M:S
		{"0-0:0:30", 30, 1},
		{"1-02:03:04", 86400 + 2*3600 + 3*60 + 4, 1564},
		{"0-0:0:0", 0, 0},
		// no limit
		{"INFINITE", Infinite, Infinite},
		{"infinite", Infinite, Infinite},
		{"UNLIMITED", Infinite, Infinite},
		{"Unlimited", Infinite, Infinite},
		{"-1", Infinite, Infinite},
		// largest accepted value
		{"24855-03:14:00", MaxSeconds, 35791394},
	}
	for _, tc := range tests {
		secs, err := ParseSeconds(tc.in)
		if err != nil || secs != tc.secs {
			t.Errorf("ParseSeconds(%q) = %d, %v; want %d", tc.in, secs, err, tc.secs)
		}
		mins, err := ParseMinutes(tc.in)
		if err != nil || mins != tc.mins {
			t.Errorf("ParseMinutes(%q) = %d, %v; want %d", tc.in, mins, err, tc.mins)
		}
	}
}

// TestParseInvalid checks that everything Slurm rejects is rejected, with a
// reason that names the problem.
func TestParseInvalid(t *testing.T) {
	tests := []struct {
		in     string
		reason string // substring of the error
	}{
		{"", "empty"},
		{"1-2-3", "more than one '-'"},
		{"1:2:3:4", "more than two ':'"},
		{"1:2-3", "'-' after ':'"},
		{"abc", "unexpected character 'a'"},
		{"-", "missing days"},
		{"1-", "empty field"},   // Slurm would read one day; see ParseSeconds
		{"-5", "missing days"},  // Slurm would read minus five days
		{"-01", "missing days"}, // only exactly "-1" means INFINITE
		{"7-0x", "unexpected character 'x'"},
		{"1:", "empty field 2"},
		{":5", "empty field 1"},
		{"1::2", "empty field 2"},
		{"1-2:", "empty field 2"},
		{"1-:2:3", "empty field 1"},
		{" 90", "unexpected character ' '"},
		{"90 ", "unexpected character ' '"},
		{"+5", "unexpected character '+'"},
		{"1.5", "unexpected character '.'"},
		{"INFINITY", "unexpected character 'I'"},
		{"24855-03:14:01", "exceeds Slurm's limit"},
		{"99999999999999", "too large"},
	}
	for _, tc := range tests {
		secs, err := ParseSeconds(tc.in)
		if err == nil {
			t.Errorf("ParseSeconds(%q) = %d, want error", tc.in, secs)
			continue
		}
		var te *Error
		if !errors.As(err, &te) || te.Input != tc.in {
			t.Errorf("ParseSeconds(%q): error %v is not an *Error for the input", tc.in, err)
		}
		if !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("ParseSeconds(%q) error %q does not mention %q", tc.in, err, tc.reason)
		}
		if _, err := ParseMinutes(tc.in); err == nil {
			t.Errorf("ParseMinutes(%q) accepted an invalid string", tc.in)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		secs int64
		want string
	}{
		{0, "00:00:00"},
		{59, "00:00:59"},
		{5400, "01:30:00"},
		{86399, "23:59:59"},
		{86400, "1-00:00:00"},
		{2*86400 + 12*3600 + 30*60, "2-12:30:00"},
		{100*86400 + 1, "100-00:00:01"},
		{Infinite, "UNLIMITED"},
		{-2, "INVALID"},
	}
	for _, tc := range tests {
		if got := Format(tc.secs); got != tc.want {
			t.Errorf("Format(%d) = %q, want %q", tc.secs, got, tc.want)
		}
	}
	minTests := []struct {
		mins int64
		want string
	}{
		{0, "00:00:00"},
		{90, "01:30:00"},
		{2880, "2-00:00:00"},
		{3630, "2-12:30:00"},
		{Infinite, "UNLIMITED"},
		{-7, "INVALID"},
	}
	for _, tc := range minTests {
		if got := FormatMinutes(tc.mins); got != tc.want {
			t.Errorf("FormatMinutes(%d) = %q, want %q", tc.mins, got, tc.want)
		}
	}
}

func TestParseDateOrDuration(t *testing.T) {
	epoch := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skipf("no tzdata: %v", err)
	}
	tests := []struct {
		in   string
		loc  *time.Location
		want int64
	}{
		{"90", time.UTC, 5400},
		{"2-0", time.UTC, 172800},
		{"0-0:0:30", time.UTC, 30}, // offsets keep seconds, no minute rounding
		{"2024-01-01", time.UTC, 0},
		{"2024-01-02", nil, 86400}, // nil means UTC
		{"2024-01-02T06:30", time.UTC, 86400 + 6*3600 + 30*60},
		{"2024-01-02T06:30:15", time.UTC, 86400 + 6*3600 + 30*60 + 15},
		{"2024-01-01T01:00", berlin, 0}, // UTC+1 in winter
		{"2023-12-31", time.UTC, -86400},
		{"2024-07-01T02:00", berlin, (31+29+31+30+31+30)*86400 + 0},
	}
	for _, tc := range tests {
		got, err := ParseDateOrDuration(tc.in, epoch, tc.loc)
		if err != nil || got != tc.want {
			t.Errorf("ParseDateOrDuration(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"UNLIMITED", "-1", "2024-02-30", "2024-13-01", "2024-01-01T25:00", "2024-01-01T10", "2024-01-01 10:00", "2024-1-1", "tomorrow", ""} {
		if got, err := ParseDateOrDuration(in, epoch, time.UTC); err == nil {
			t.Errorf("ParseDateOrDuration(%q) = %d, want error", in, got)
		}
	}
}

// FuzzParse checks that no input panics, that accepted values are in range,
// and that Format and Parse are inverse wherever that is meaningful.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"90", "1:30", "1:30:00", "2-0", "2-12:30", "0-0:0:30",
		"INFINITE", "unlimited", "-1", "", "1-2-3", "1:2:3:4", "1:2-3", "abc", "-", "1-", "7-0x",
		"24855-03:14:00", "24855-03:14:01", "99999999999", "0:0:0", "00-00:00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		secs, err := ParseSeconds(s)
		mins, merr := ParseMinutes(s)
		if (err == nil) != (merr == nil) {
			t.Fatalf("ParseSeconds and ParseMinutes disagree on %q: %v / %v", s, err, merr)
		}
		if err != nil {
			return
		}
		if secs == Infinite {
			if mins != Infinite || Format(secs) != "UNLIMITED" {
				t.Fatalf("%q: Infinite not preserved", s)
			}
			return
		}
		if secs < 0 || secs > MaxSeconds {
			t.Fatalf("%q: seconds %d out of range", s, secs)
		}
		if mins*60 < secs || mins*60-secs >= 60 {
			t.Fatalf("%q: minutes %d is not ceil(%d/60)", s, mins, secs)
		}
		out := Format(secs)
		back, err := ParseSeconds(out)
		if err != nil || back != secs {
			t.Fatalf("Format(%d) = %q parses to %d, %v", secs, out, back, err)
		}
		if Format(back) != out {
			t.Fatalf("Format is not canonical for %q", s)
		}
		if m := FormatMinutes(mins); m == "INVALID" {
			t.Fatalf("FormatMinutes(%d) invalid", mins)
		} else if back, err := ParseMinutes(m); err != nil || back != mins {
			t.Fatalf("FormatMinutes(%d) = %q parses to %d, %v", mins, m, back, err)
		}
	})
}
