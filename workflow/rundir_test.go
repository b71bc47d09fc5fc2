package workflow

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"fairsim/report"
	"fairsim/sim"
	"fairsim/workload"
)

// listDir is the sorted names in dir, hidden ones included.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// oldRun makes parent/r holding an earlier run: its marker and a
// fairshare.png a scheduler without fair-share would not rewrite.
func oldRun(t *testing.T) (parent, out string) {
	parent = t.TempDir()
	out = filepath.Join(parent, "r")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(out, RunMarker), "old\n")
	writeFile(t, filepath.Join(out, "fairshare.png"), "old plot")
	return parent, out
}

func TestRunDirRerunLeavesNoStaleFile(t *testing.T) {
	parent, out := oldRun(t)
	d, err := OpenRunDir(out, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	writeFile(t, filepath.Join(d.Tmp, RunMarker), "new\n")
	writeFile(t, filepath.Join(d.Tmp, "jobs.csv"), "JobID\n")
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got := strings.Join(listDir(t, out), " "); got != "jobs.csv "+RunMarker {
		t.Errorf("run folder holds %q, want only the new run's two files", got)
	}
	if got := strings.Join(listDir(t, parent), " "); got != "r" {
		t.Errorf("beside the run: %q, want only r (no lock, temporary or old folder)", got)
	}
}

func TestRunDirFailedWriteKeepsPreviousRun(t *testing.T) {
	parent, out := oldRun(t)
	d, err := OpenRunDir(out, false)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(d.Tmp, "jobs.csv"), "JobID\n1\n") // then the write fails: no Commit
	d.Close()
	if got := strings.Join(listDir(t, out), " "); got != "fairshare.png "+RunMarker {
		t.Errorf("after a failed run the folder holds %q, want the previous run", got)
	}
	if got := strings.Join(listDir(t, parent), " "); got != "r" {
		t.Errorf("beside the run: %q, want only r", got)
	}
}

func TestRunDirRefusals(t *testing.T) {
	parent := t.TempDir()
	foreign := filepath.Join(parent, "thesis")
	os.Mkdir(foreign, 0o755)
	writeFile(t, filepath.Join(foreign, "chapter1.tex"), "x")
	file := filepath.Join(parent, "afile")
	writeFile(t, file, "x")
	for _, tc := range []struct {
		name, out string
		force     bool
		want      string // "" for success
	}{
		{"foreign folder", foreign, false, "not a fairsim run"},
		{"foreign folder with --force", foreign, true, ""},
		{"out is a file", file, false, "not a folder"},
		{"parent is a file", filepath.Join(file, "r"), false, "not a directory"},
		{"new folder in new parents", filepath.Join(parent, "a", "b"), false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := OpenRunDir(tc.out, tc.force)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				d.Close()
				return
			}
			if err == nil {
				d.Close()
				t.Fatalf("no error, want one containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q in it", err, tc.want)
			}
		})
	}
}

func TestRunDirConcurrentRunRefused(t *testing.T) {
	_, out := oldRun(t)
	first, err := OpenRunDir(out, false)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := OpenRunDir(out, false); err == nil {
		second.Close()
		t.Fatal("a second run into the same folder was let in")
	} else if !strings.Contains(err.Error(), "another fairsim run") {
		t.Errorf("error %q does not say another run holds the folder", err)
	}
	first.Close()
	third, err := OpenRunDir(out, false)
	if err != nil {
		t.Fatalf("after the first run ended: %v", err)
	}
	third.Close()
}

// TestRunDirSignalLeavesPreviousRun runs a child process (this test
// binary) that opens the run folder, writes half a jobs.csv into it and
// waits; SIGINT and SIGTERM must end it with 130 and 143 and leave the
// previous run whole, with nothing beside it.
func TestRunDirSignalLeavesPreviousRun(t *testing.T) {
	if out := os.Getenv("FAIRSIM_RUNDIR_CHILD"); out != "" {
		d, err := OpenRunDir(out, false)
		if err != nil {
			os.Exit(3)
		}
		d.AbortOnSignal(os.Exit)
		writeFile(t, filepath.Join(d.Tmp, "jobs.csv"), "JobID\n1\n2")
		os.Stdout.WriteString("ready\n")
		time.Sleep(time.Minute)
		os.Exit(4)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			parent, out := oldRun(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestRunDirSignalLeavesPreviousRun$")
			cmd.Env = append(os.Environ(), "FAIRSIM_RUNDIR_CHILD="+out)
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(stdout).ReadString('\n')
			if line != "ready\n" {
				cmd.Process.Kill()
				t.Fatalf("child said %q", line)
			}
			cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Errorf("child ended with %v, want exit %d", err, tc.code)
			}
			if got := strings.Join(listDir(t, out), " "); got != "fairshare.png "+RunMarker {
				t.Errorf("after %v the folder holds %q, want the previous run", tc.sig, got)
			}
			if got := strings.Join(listDir(t, parent), " "); got != "r" {
				t.Errorf("beside the run: %q, want only r", got)
			}
		})
	}
}

func TestAllRejected(t *testing.T) {
	rej := func(id int64, why string) *sim.Job {
		return &sim.Job{Job: workload.Job{ID: id}, State: sim.Rejected, Reason: why}
	}
	for _, tc := range []struct {
		name string
		jobs []*sim.Job
		want string
	}{
		{"no jobs", nil, ""},
		{"one ran", []*sim.Job{rej(1, "x"), {State: sim.Completed}}, ""},
		{"all refused", []*sim.Job{rej(7, "64 CPUs, partition batch has 4"), rej(8, "y")},
			"every one of the 2 jobs was rejected at submit, so nothing ran; the first (job 7): 64 CPUs, partition batch has 4 (jobs.csv's Reason column has each job's)"},
	} {
		if got := allRejected(report.TallyJobs(&sim.Result{Jobs: tc.jobs, Cluster: &sim.Cluster{}})); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
