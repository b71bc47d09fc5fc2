package workload

import (
	"fairsim/internal/shared"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realSitePath is a file of ../shared/real-sites; the test is skipped
// when the shared folder is absent.
func realSitePath(t testing.TB, name string) string {
	return filepath.Join(shared.RealSites(t), name)
}

func readSacctFile(t *testing.T, path string, opts SacctOptions) ([]Job, *SacctReader) {
	t.Helper()
	opts.Location = time.UTC
	r, err := OpenSacct(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var jobs []Job
	var j Job
	for r.Next(&j) {
		jobs = append(jobs, j)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return jobs, r
}

func TestSacctRealSites(t *testing.T) {
	t.Run("ubccr sacct -P, a JobName holding '|'", func(t *testing.T) {
		p := realSitePath(t, "ubccr-sacct-simple.psv")
		if f, err := DetectFormat(p); err != nil || f != FormatSacct {
			t.Fatalf("DetectFormat = %q, %v", f, err)
		}
		jobs, r := readSacctFile(t, p, SacctOptions{})
		if len(jobs) != 4 {
			t.Fatalf("%d jobs, want 4 (stats %+v)", len(jobs), r.Stats())
		}
		// Lines 3-5 hold job_0||0002, job_0|0003 and job_|00004: realigned,
		// so NTasks stays empty and every other column in place.
		if n := r.Stats().Defaulted["JobName holds a '|': columns realigned"]; n != 3 {
			t.Errorf("%d lines realigned, want 3 (%v)", n, r.Stats().Defaulted)
		}
		for _, j := range jobs {
			if j.Status != StatusCompleted || r.Names().Partitions.Name(j.Partition) != "general-compute" {
				t.Errorf("job %d: status %d partition %q", j.ID, j.Status, r.Names().Partitions.Name(j.Partition))
			}
		}
		if j := jobs[2]; j.ID != 3 || j.CPUs != 18 || j.AllocNodes != 2 || j.Nodes != 2 || j.Runtime != 33*60+29 {
			t.Errorf("job 3 read as %+v", j)
		}
	})
	t.Run("frontier one job with steps", func(t *testing.T) {
		p := realSitePath(t, "frontier-one-job.psv")
		if f, err := DetectFormat(p); err != nil || f != FormatSacct {
			t.Fatalf("DetectFormat = %q, %v", f, err)
		}
		jobs, r := readSacctFile(t, p, SacctOptions{})
		if len(jobs) != 1 || r.Steps() != 2 {
			t.Fatalf("%d jobs, %d steps, want 1 and 2", len(jobs), r.Steps())
		}
		j := jobs[0]
		if j.ID != 4972494 || j.CPUs != 28672 || j.AllocNodes != 256 || j.Runtime != 6 || j.TimeLimit != 1200 ||
			j.Status != StatusFailed || j.Wait != 28*60+28 {
			t.Errorf("job read as %+v", j)
		}
	})
	t.Run("xdmod --noheader with PENDING and RUNNING jobs", func(t *testing.T) {
		p := realSitePath(t, "xdmod-noheader.psv")
		if f, err := DetectFormat(p); err != nil || f != FormatSacct {
			t.Fatalf("DetectFormat = %q, %v", f, err)
		}
		if _, err := OpenSacct(p, SacctOptions{}); err == nil || !strings.Contains(err.Error(), "field list") {
			t.Errorf("noheader without a field list: err %v, want one asking for the field list", err)
		}
		jobs, r := readSacctFile(t, p, SacctOptions{Fields: XDMoDSacctFields})
		st := r.Stats()
		// 72 lines: 56 ran (2 of them RUNNING at the end of the log, kept
		// with their run time so far), 16 PENDING never started.
		if len(jobs) != 56 || st.Records != 72 || st.Skipped["never started (PENDING)"] != 16 {
			t.Fatalf("%d jobs of %d records, skipped %v", len(jobs), st.Records, st.Skipped)
		}
		if n := st.Defaulted["End unknown (still running?): run time so far"]; n != 2 {
			t.Errorf("%d running jobs, want 2", n)
		}
		// Job 12: 2 CPUs, ReqTRES node=1 (the minimum), AllocTRES node=2.
		for _, j := range jobs {
			if j.ID == 12 && (j.Nodes != 1 || j.AllocNodes != 2 || j.CPUs != 2 || j.MaxNodes != Unset) {
				t.Errorf("job 12 read as %+v", j)
			}
		}
		if r.Names().Users.Len() != 3 {
			t.Errorf("users %v", r.Names().Users.All())
		}
	})
}
