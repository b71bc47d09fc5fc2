package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// TestPlotUntil: a stalled run's plots end a twentieth of its active span
// after its last progress, an hour at least, and keep the first sample
// after that; any other run's plots draw every sample.
func TestPlotUntil(t *testing.T) {
	hourly := func(i int) int64 { return int64(i) * 3600 }
	for _, tc := range []struct {
		name               string
		first, from        int64
		stalled            bool
		n                  int
		wantUntil, wantLen int64
	}{
		{"not stalled", 0, 0, false, 9000, maxTime, 9000},
		// 1 h of work: until 1 h + 1 h; samples 0, 1 h, 2 h and the next.
		{"short run: an hour past", 0, 3600, true, 9000, 7200, 4},
		// 40 days of work: until 42 days (1008 h); samples 0..1008 h and 1009 h.
		{"long run: a twentieth past", 0, 40 * 86400, true, 9000, 42 * 86400, 1010},
		{"first not at 0", 86400, 86400 + 40*86400, true, 9000, 86400 + 42*86400, 1034},
		{"until past the last sample", 0, 3600, true, 2, 7200, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			until := plotUntil(tc.first, tc.from, tc.stalled)
			if until != tc.wantUntil {
				t.Fatalf("plotUntil = %d, want %d", until, tc.wantUntil)
			}
			if got := plotLen(tc.n, until, hourly); int64(got) != tc.wantLen {
				t.Errorf("plotLen = %d, want %d", got, tc.wantLen)
			}
		})
	}
}

// A stalled run's summary names stalled_from; the PNGs draw the samples
// up to plotUntil; the HTML report reads stalled_from back and draws the
// same span, and refuses a stalled_from that is not a time.
func TestStalledRunPlots(t *testing.T) {
	r := gpuResult(t)
	r.Samples = nil
	for i := range 9000 { // a year of hourly samples
		r.Samples = append(r.Samples, sim.Sample{T: r.First + int64(i)*3600})
	}
	r.Stalled, r.StalledFrom = true, r.First+40*86400
	if n := len(plotSamples(r)); n != 1010 {
		t.Errorf("plotSamples: %d samples, want 1010 (0 to 42 days and the next)", n)
	}
	if xy, _, _ := utilSeries(r); len(xy) == 0 || xy[len(xy)-1].X < 40 || xy[len(xy)-1].X > 42+1/24.0 {
		t.Errorf("utilization.png ends at day %v, want within 40..42 days and an hour", xy[len(xy)-1].X)
	}
	if g := runGPUBusy(r); len(g.times) != 1010 {
		t.Errorf("gpu_utilization.png: %d samples, want 1010", len(g.times))
	}
	snaps := &FSSeries{Rows: []fairshare.Row{{Account: "a", User: "u", IsUser: true, HasFairShare: true}}}
	for _, s := range r.Samples {
		snaps.T = append(snaps.T, s.T)
		snaps.Vals = append(snaps.Vals, make([]fairshare.Value, 1))
	}
	if fs := fsSeries(r, snaps, []string{"a"}); len(fs) != 1 || len(fs[0].XY) == 0 || fs[0].XY[len(fs[0].XY)-1].X > 42+1/24.0 {
		t.Errorf("fairshare.png: %v, want one line ending by day 42 and an hour", fs)
	}
	var row string
	for _, s := range SummaryRows(r, Metrics{}) {
		if s.Metric == MetricStalledFrom {
			row = s.Value
		}
	}
	if row != fmt.Sprint(r.StalledFrom) {
		t.Errorf("summary %s = %q, want %d", MetricStalledFrom, row, r.StalledFrom)
	}
	r.Stalled = false
	for _, s := range SummaryRows(r, Metrics{}) {
		if s.Metric == MetricStalledFrom {
			t.Errorf("a run that did not stall has %s", MetricStalledFrom)
		}
	}
	if n := len(plotSamples(r)); n != 9000 {
		t.Errorf("not stalled: plotSamples %d, want all 9000", n)
	}

	dir := t.TempDir()
	jobs, err := os.ReadFile(filepath.Join("testdata", "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var util strings.Builder
	util.WriteString("time,busy_cores,total_cores,utilization,running_jobs,pending_jobs\n")
	for i := range 9000 {
		fmt.Fprintf(&util, "%d,0,64,0,0,1\n", i*3600)
	}
	// Fair-share every 6 hours, two users' rows each.
	var fsCSV strings.Builder
	fsCSV.WriteString("time,Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS\n")
	for i := range 1500 {
		for _, u := range []string{"u1", "u2"} {
			fmt.Fprintf(&fsCSV, "%d,g1,%s,1,0.5,0,0,0.500000,inf\n", i*21600, u)
		}
	}
	for _, tc := range []struct {
		from           string
		utilLen, fsLen int
		err            string
	}{
		{"", 9000, 3000, ""},
		// 40 days after the first submit (0 in jobs.csv): up to 42 days,
		// 169 snapshots of 6 h, and the next.
		{"3456000", 1010, 2 * 170, ""},
		{"40d", 0, 0, "stalled_from \"40d\" is not a time"},
	} {
		summary := "metric,value\njobs,4\n"
		if tc.from != "" {
			summary += MetricStalledFrom + "," + tc.from + "\n"
		}
		for name, data := range map[string]string{"jobs.csv": string(jobs), "summary.csv": summary, "utilization.csv": util.String(), "fairshare.csv": fsCSV.String()} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, err := loadRun(dir)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "summary.csv") {
				t.Errorf("stalled_from %q: %v, want an error naming summary.csv: %s", tc.from, err, tc.err)
			}
		case err != nil:
			t.Errorf("stalled_from %q: %v", tc.from, err)
		case len(d.util) != tc.utilLen || len(d.fsPlot) != tc.fsLen || len(d.fs) != 3000:
			t.Errorf("stalled_from %q: %d utilisation samples and %d of %d fair-share rows drawn, want %d and %d of 3000",
				tc.from, len(d.util), len(d.fsPlot), len(d.fs), tc.utilLen, tc.fsLen)
		default:
			p, err := RunPage(dir)
			if err != nil {
				t.Fatalf("stalled_from %q: report page: %v", tc.from, err)
			}
			notes := strings.Join(p.Sections[0].Notes, " ")
			if want := "From 40-00:00:00 after the first submission"; (tc.from != "") != strings.Contains(notes, want) {
				t.Errorf("stalled_from %q: summary notes %q; want %q only when stalled", tc.from, notes, want)
			}
		}
	}
}
