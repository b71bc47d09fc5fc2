package workflow

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
