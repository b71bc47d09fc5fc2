package workload

import (
	"bytes"
	"strconv"
	"testing"
	"time"
)

// TestSacctRepeatedDSTHour: sacct prints local time, so a time in the
// hour a DST fall-back repeats names two instants. The record's own
// order and Elapsed choose: an end printed before its start, or an
// Elapsed only the later instant gives, takes the later; otherwise the
// earlier, whichever one Go's time.Date would pick for the zone
// (New York's EDT first, Berlin's CET second).
func TestSacctRepeatedDSTHour(t *testing.T) {
	const head = "JobID|JobIDRaw|Submit|Start|End|Elapsed|State|NCPUS\n"
	for _, tc := range []struct {
		name, zone, row string
		wait, run       int64
		def             string
	}{
		{"end printed before start", "America/New_York", "1|1|2021-11-07T01:00:00|2021-11-07T01:30:00|2021-11-07T01:20:00|00:50:00|COMPLETED|4",
			1800, 3000, "time in a repeated DST hour: the later instant, by the record's order or Elapsed"},
		{"only Elapsed tells", "America/New_York", "1|1|2021-11-07T00:40:00|2021-11-07T00:50:00|2021-11-07T01:40:00|01:50:00|COMPLETED|4",
			600, 6600, "time in a repeated DST hour: the later instant, by the record's order or Elapsed"},
		{"both readings agree", "America/New_York", "1|1|2021-11-07T01:40:00|2021-11-07T01:40:00|2021-11-07T01:50:00|00:10:00|COMPLETED|4",
			0, 600, "time in a repeated DST hour: the earlier instant"},
		{"Berlin end printed before start", "Europe/Berlin", "1|1|2021-10-31T02:00:00|2021-10-31T02:30:00|2021-10-31T02:20:00|00:50:00|COMPLETED|4",
			1800, 3000, "time in a repeated DST hour: the later instant, by the record's order or Elapsed"},
		{"no repeated hour", "America/New_York", "1|1|2021-11-07T03:00:00|2021-11-07T03:30:00|2021-11-07T03:50:00|00:20:00|COMPLETED|4",
			1800, 1200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc, err := time.LoadLocation(tc.zone)
			if err != nil {
				t.Skipf("no tzdata for %s: %v", tc.zone, err)
			}
			r, err := NewSacctReader(bytes.NewReader([]byte(head+tc.row+"\n")), "t.sacct", SacctOptions{Location: loc})
			if err != nil {
				t.Fatal(err)
			}
			var j Job
			if !r.Next(&j) {
				t.Fatalf("no job: %v", r.Err())
			}
			if j.Wait != tc.wait || j.Runtime != tc.run {
				t.Errorf("wait %d, run %d; want %d, %d", j.Wait, j.Runtime, tc.wait, tc.run)
			}
			d := r.Stats().Defaulted
			if tc.def != "" && d[tc.def] != 1 || tc.def == "" && len(d) > 0 && (d["time in a repeated DST hour: the earlier instant"] > 0 || d["time in a repeated DST hour: the later instant, by the record's order or Elapsed"] > 0) {
				t.Errorf("defaults %v; want %q counted once", d, tc.def)
			}
		})
	}
}

// TestSacctDSTTwoYearsAndEpochSeconds: the zone-period cache ends where
// the period does, so a second year's repeated hour is settled as the
// first's (Berlin, where time.Date picks the later instant); and Unix
// seconds (SLURM_TIME_FORMAT=%s) name one instant, never moved.
func TestSacctDSTTwoYearsAndEpochSeconds(t *testing.T) {
	read := func(zone, rows string) []Job {
		t.Helper()
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Skipf("no tzdata for %s: %v", zone, err)
		}
		r, err := NewSacctReader(bytes.NewReader([]byte("JobID|JobIDRaw|Submit|Start|End|Elapsed|State|NCPUS\n"+rows)), "t.sacct", SacctOptions{Location: loc})
		if err != nil {
			t.Fatal(err)
		}
		var jobs []Job
		var j Job
		for r.Next(&j) {
			jobs = append(jobs, j)
		}
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		return jobs
	}
	jobs := read("Europe/Berlin",
		"1|1|2021-10-31T02:00:00|2021-10-31T02:30:00|2021-10-31T02:20:00|00:50:00|COMPLETED|4\n"+
			"2|2|2022-10-30T02:00:00|2022-10-30T02:30:00|2022-10-30T02:20:00|00:50:00|COMPLETED|4\n")
	if len(jobs) != 2 || jobs[1].Wait != 1800 || jobs[1].Runtime != 3000 {
		t.Errorf("second year: %+v", jobs)
	}
	// 2022-11-06 06:30 UTC is 01:30 EST, New York's repeated hour.
	s := time.Date(2022, 11, 6, 6, 30, 0, 0, time.UTC).Unix()
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	jobs = read("America/New_York",
		"1|1|"+n(s)+"|"+n(s+60)+"|"+n(s+660)+"|00:10:00|COMPLETED|4\n"+
			"2|2|"+n(s+7200)+"|"+n(s+7260)+"|"+n(s+7860)+"|00:10:00|COMPLETED|4\n")
	if len(jobs) != 2 || jobs[1].Submit-jobs[0].Submit != 7200 {
		t.Errorf("Unix seconds: submits %d apart, want 7200", jobs[1].Submit-jobs[0].Submit)
	}
}
