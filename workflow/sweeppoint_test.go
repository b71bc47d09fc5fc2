package workflow

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fairsim/config"
	"fairsim/internal/shared"
)

// TestPointStreamedAsKept runs a scenario as a sweep point runs it
// (runPoint: each job written and tallied as it ends, then forgotten) and
// with every job kept (Pipeline.Run, then Compute): the point's metrics
// and every file of its run directory are the same. stranded.yaml leaves
// jobs waiting when the run ends (their starvation reads the end) and
// rejects one; the sacct fixture has jobs cancelled while they wait
// (theirs reads the cancellation).
func TestPointStreamedAsKept(t *testing.T) {
	paths := []string{"testdata/stranded.yaml", "testdata/tiny.yaml"}
	if shared.Dir() != "" {
		paths = append(paths, filepath.Join("..", "scenarios", "testdata", "sacct-fixture.yaml"))
	} else {
		t.Log("no ../shared beside the repository: the sacct fixture is left out")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			load := func() *config.Scenario {
				sc, err := config.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := sc.Resolve(); err != nil {
					t.Fatal(err)
				}
				return sc
			}
			const after = 600 // short, so that waiting jobs starve
			kept := filepath.Join(t.TempDir(), "kept")
			run, res, err := Pipeline{}.Run(load(), kept)
			if err != nil {
				t.Fatal(err)
			}
			want := Compute(run, res, after).Fields()
			streamed := filepath.Join(t.TempDir(), "streamed")
			m, err := runPoint(load(), streamed, after)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Fields(); !slices.Equal(got, want) {
				t.Errorf("streamed point's metrics\n%v\nwant (every job kept)\n%v", got, want)
			}
			starved := ""
			for _, f := range want {
				if f.Name == "starved_jobs" {
					starved = f.Value
				}
			}
			// Starvation by its definition, over the kept jobs.
			n := 0
			for _, j := range res.Jobs {
				if Starved(j, res.Now, after) {
					n++
				}
			}
			if starved != strconv.Itoa(n) {
				t.Errorf("starved_jobs %s, want %d (Starved over the kept jobs)", starved, n)
			}
			if path == "testdata/stranded.yaml" && starved != "4" {
				t.Errorf("stranded: starved_jobs %s, want 4 (the jobs waiting when the node failed for good)", starved)
			}
			files, err := os.ReadDir(kept)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				a, b := read(t, filepath.Join(kept, f.Name())), read(t, filepath.Join(streamed, f.Name()))
				if a != b {
					t.Errorf("%s differs between the kept and the streamed run", f.Name())
				}
			}
			if len(files) < 6 {
				t.Errorf("kept run wrote %d files", len(files))
			}
		})
	}
}

// TestPointFailingLeavesNoFolder: with fail_impossible, stranded.yaml's
// 16-CPU job fails the run at its submit, after the point's jobs.csv was
// opened; the folder goes, as when points were written only once they
// had run.
func TestPointFailingLeavesNoFolder(t *testing.T) {
	d := t.TempDir()
	for _, f := range []string{"stranded.yaml", "stranded.swf", "stranded.events"} {
		b := read(t, filepath.Join("testdata", f))
		if f == "stranded.yaml" {
			b += "sim:\n  fail_impossible: true\n"
		}
		if err := os.WriteFile(filepath.Join(d, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := config.Load(filepath.Join(d, "stranded.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(d, "point")
	if _, err := runPoint(sc, dir, 600); err == nil || !strings.Contains(err.Error(), "16 CPUs") {
		t.Fatalf("runPoint: %v, want the 16-CPU job's error", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed point left %s (%v)", dir, err)
	}
}
