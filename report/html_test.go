package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const jobsHead = "JobID,User,Group,Account,Partition,QOS,NCPUS,NNodes,AllocMemMB,Submit,Eligible,Start,End,Wait,Elapsed,TraceRuntime,Timelimit,State,NodeType,StartedBy,Priority,Billing,Preemptions,LostCoreSecs,LostBilling,Reason\n"

// A run of four jobs whose report figures are worked out by hand:
//
//	job 1  a  2 CPUs broadwell  wait 0     elapsed 3600  billing 2
//	job 2  a  4 CPUs skylake    wait 600   elapsed 3600  billing 4.8
//	job 3  b  2 CPUs broadwell  wait 1800  elapsed 900   billing 2
//	job 4  b  never started
//
// Waits of a: mean 300 s, median 300, p95 0 + 0.95 x 600 = 570, max 600.
// Usage (billing x elapsed): a 7200 + 17280 = 24480, b 1800; parts
// 24480/26280 = 0.9315 and 0.0685, against NormShares 0.5 each.
func writeRunDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"jobs.csv": jobsHead +
			"1,u1,g,a,batch,,2,1,0,0,0,0,3600,0,3600,3600,3600,COMPLETED,broadwell,main,10,2,0,0,0,\n" +
			"2,u2,g,a,batch,,4,1,0,0,0,600,4200,600,3600,3600,3600,COMPLETED,skylake,backfill,10,4.8,0,0,0,\n" +
			"3,u3,g,b,batch,,2,1,0,100,100,1900,2800,1800,900,900,3600,COMPLETED,broadwell,main,10,2,0,0,0,\n" +
			"4,u3,g,b,batch,,64,0,0,200,-1,-1,-1,-1,-1,900,3600,PENDING,,,10,0,0,0,0,\n",
		"summary.csv":     "metric,value\nscheduler,slurm\njobs,4\nwait_mean_s,800.000000\n",
		"utilization.csv": "time,busy_cores,total_cores,utilization,running_jobs,pending_jobs\n0,2,8,0.25,1,1\n1800,6,8,0.75,2,2\n3600,4,8,0.5,1,1\n",
		"fairshare.csv": "time,Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS\n" +
			"0,a,,1,0.500000,0,0,,inf\n0,a,u1,1,1.000000,0,0,1.000000,inf\n0,b,,1,0.500000,0,0,,inf\n0,b,u3,1,1.000000,0,0,1.000000,inf\n" +
			"3600,a,,1,0.500000,20000,0.9,,0.55\n3600,a,u1,1,1.000000,20000,0.9,0.250000,1\n3600,b,,1,0.500000,2000,0.1,,5\n3600,b,u3,1,1.000000,2000,0.1,0.750000,1\n",
		"scenario.resolved.yaml": "name: handmade\nscheduler: slurm\n",
	}
	for n, body := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func tableRows(p *Page, caption string) [][]string {
	for _, s := range p.Sections {
		for _, tb := range s.Tables {
			if tb.Caption == caption {
				return tb.Rows
			}
		}
	}
	return nil
}

func TestRunPageByHand(t *testing.T) {
	dir := writeRunDir(t)
	p, err := RunPage(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "fairsim run: handmade" {
		t.Errorf("title %q", p.Title)
	}
	waits := tableRows(p, "Waits per account (started jobs)")
	want := [][]string{{"a", "2", "00:05:00", "00:05:00", "00:09:30", "00:10:00"}, {"b", "1", "00:30:00", "00:30:00", "00:30:00", "00:30:00"}}
	if strings.Join(flat(waits), "|") != strings.Join(flat(want), "|") {
		t.Errorf("wait table %v, want %v", waits, want)
	}
	shares := tableRows(p, "Usage and share per account")
	wantS := [][]string{{"a", "0.9315", "0.5000", "+0.4315"}, {"b", "0.0685", "0.5000", "-0.4315"}}
	if strings.Join(flat(shares), "|") != strings.Join(flat(wantS), "|") {
		t.Errorf("share table %v, want %v", shares, wantS)
	}
	var names []string
	for _, s := range p.Sections {
		for _, f := range s.Figures {
			names = append(names, f.Name)
		}
	}
	if got := strings.Join(names, " "); got != "fairshare_over_time wait_by_account utilization_by_type usage_by_account_type usage_vs_share" {
		t.Errorf("figures %s", got)
	}

	out, err := p.Render(dir)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(out)
	checkSelfContained(t, html, len(names))
	for _, n := range names {
		for _, ext := range []string{".svg", ".png"} {
			if st, err := os.Stat(filepath.Join(dir, PlotDir, n+ext)); err != nil || st.Size() < 1000 {
				t.Errorf("%s%s missing or tiny: %v", n, ext, err)
			}
		}
	}
	// The same inputs give the same page, byte for byte.
	again, err := WriteHTMLReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(again); !bytes.Equal(b, html) {
		t.Error("report.html differs between two renderings")
	}
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, ","))
	}
	return out
}

// checkSelfContained: one inline <svg> per figure, nothing fetched.
func checkSelfContained(t *testing.T, html []byte, figures int) {
	t.Helper()
	s := string(html)
	if n := strings.Count(s, "<svg "); n != figures {
		t.Errorf("%d inline svg elements, want %d", n, figures)
	}
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(http"} {
		if strings.Contains(s, bad) {
			t.Errorf("report.html contains %q: not self-contained", bad)
		}
	}
	// The only URLs are XML namespace names, which browsers never fetch.
	for _, u := range regexp.MustCompile(`https?://[^"' )]+`).FindAllString(s, -1) {
		if u != "http://www.w3.org/2000/svg" && u != "http://www.w3.org/1999/xlink" {
			t.Errorf("report.html refers to %s", u)
		}
	}
	if strings.Contains(s, "<?xml") {
		t.Error("an XML prolog inside the HTML")
	}
}

func TestRunPageWithoutFairshare(t *testing.T) {
	dir := writeRunDir(t)
	os.Remove(filepath.Join(dir, "fairshare.csv"))
	os.Remove(filepath.Join(dir, "utilization.csv"))
	p, err := RunPage(dir)
	if err != nil {
		t.Fatal(err)
	}
	notes, figs := 0, 0
	for _, s := range p.Sections {
		notes += len(s.Notes)
		figs += len(s.Figures)
	}
	if notes != 2 || figs != 3 {
		t.Errorf("%d notes and %d figures, want 2 notes (no fair-share, no shares) and 3 figures", notes, figs)
	}
	if _, err := p.Render(dir); err != nil {
		t.Fatal(err)
	}
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteHTMLReport(dir); err == nil || !strings.Contains(err.Error(), "neither a run directory") {
		t.Errorf("empty dir: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "summary.csv"), []byte("metric,value\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte("JobID,Account\n1,a\n"), 0o644)
	if _, err := WriteHTMLReport(dir); err == nil || !strings.Contains(err.Error(), `jobs.csv:1: no column "Partition"`) {
		t.Errorf("missing column: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte(jobsHead+"1,u,g,a,batch,,x,1,0,0,0,0,1,0,1,1,1,COMPLETED,broadwell,main,1,1,0,0,0,\n"), 0o644)
	if _, err := WriteHTMLReport(dir); err == nil || !strings.Contains(err.Error(), `jobs.csv:2: field NCPUS: "x" is not a whole number`) {
		t.Errorf("bad cell: %v", err)
	}
}

func TestNewAxis(t *testing.T) {
	for _, tc := range []struct {
		values []string
		pos    []float64
		log    bool
		label  string
	}{
		{[]string{"1000", "10000", "100000"}, []float64{1000, 10000, 100000}, true, "K"},
		{[]string{"0", "10", "20"}, []float64{0, 10, 20}, false, "K"},
		{[]string{"7-0", "14-0"}, []float64{7, 14}, false, "K (days)"},
		{[]string{"fairtree", "classic"}, []float64{0, 1}, false, "K"},
	} {
		a := newAxis("K", tc.values)
		if a.log != tc.log || a.label != tc.label || strings.Join(flatF(a.pos), ",") != strings.Join(flatF(tc.pos), ",") {
			t.Errorf("newAxis(%v) = %+v", tc.values, a)
		}
	}
}

func flatF(v []float64) []string {
	var out []string
	for _, x := range v {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func TestSweepPage(t *testing.T) {
	dir := t.TempDir()
	csv := "point,K,H,jobs,wait_mean_s,utilization,jobs[a],jobs[b],wait_mean_s[a],wait_mean_s[b],wait_p95_s[a],wait_p95_s[b]\n" +
		"0,1000,7-0,10,60,0.5,5,5,30,90,100,200\n1,1000,14-0,10,70,0.5,5,5,40,100,100,200\n" +
		"2,10000,7-0,10,80,0.6,5,5,50,110,100,200\n3,10000,14-0,10,90,0.6,5,5,60,120,100,200\n" +
		"4,100000,7-0,10,,0.7,5,5,70,130,100,200\n5,100000,14-0,10,110,0.7,5,5,80,140,100,200\n"
	os.WriteFile(filepath.Join(dir, "sweep.csv"), []byte(csv), 0o644)
	p, err := SweepPage(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range p.Sections {
		for _, f := range s.Figures {
			names = append(names, f.Name)
		}
	}
	want := "sweep_wait_mean_s_vs_K sweep_utilization_vs_K sweep_wait_mean_s_vs_H sweep_utilization_vs_H sweep_account_wait_mean_s sweep_account_wait_p95_s"
	if strings.Join(names, " ") != want {
		t.Errorf("figures\n%s\nwant\n%s", strings.Join(names, " "), want)
	}
	out, err := p.Render(dir)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(out)
	checkSelfContained(t, html, len(names))
}

// FuzzReadJobs: the jobs.csv reader fails cleanly or reads every row.
func FuzzReadJobs(f *testing.F) {
	seed, err := os.ReadFile("testdata/jobs.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(jobsHead))
	if gpu, err := os.ReadFile("testdata/jobs_gpu.csv"); err == nil {
		f.Add(gpu) // with the GPUs, AllocTRES and NodeList columns
	} else {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "jobs.csv")
		os.WriteFile(p, data, 0o644)
		jobs, err := readJobs(p)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		c, _ := readCSVFile(p)
		if len(jobs) != len(c.rows) {
			t.Errorf("%d jobs from %d rows", len(jobs), len(c.rows))
		}
	})
}
