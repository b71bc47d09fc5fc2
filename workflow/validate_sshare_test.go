package workflow

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"fairsim/policy/fairshare"
	"fairsim/slurmtime"
)

// recordedJob is one job of a reference run's sacct.txt as the fair-share
// engine needs it: its association, its recorded start and end (Unix
// seconds) and its CPUs (the billing without TRESBillingWeights).
type recordedJob struct {
	assoc      int
	start, end int64
	cpus       float64
}

// readRecorded reads sacct -P output (comment lines first) for the
// fields the fair-share engine takes.
func readRecorded(t *testing.T, path string, tr *fairshare.Tree) []recordedJob {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var head []string
	var jobs []recordedJob
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "|")
		if head == nil {
			head = f
			continue
		}
		col := func(name string) string {
			for i, h := range head {
				if h == name && i < len(f) {
					return f[i]
				}
			}
			t.Fatalf("%s: no column %s", path, name)
			return ""
		}
		date := func(name string) int64 {
			d, err := time.ParseInLocation(captureTimeLayout, col(name), time.UTC)
			if err != nil {
				t.Fatalf("%s: %s: %v", path, name, err)
			}
			return d.Unix()
		}
		a, ok := tr.Lookup(col("Account"), col("User"))
		if !ok {
			t.Fatalf("%s: no association %s|%s", path, col("Account"), col("User"))
		}
		cpus, err := strconv.ParseFloat(col("NCPUS"), 64)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, recordedJob{assoc: a, start: date("Start"), end: date("End"), cpus: cpus})
	}
	return jobs
}

// TestReferenceSshareModel drives the fair-share engine with the schedule
// the controller recorded (sacct's Start and End of every job) and the
// decay thread's phase, and holds its sshare to the controller's at the
// end of each fairshare reference run: every column within 1e-6. This is
// the fair-share model alone (priority_multifactor.c _decay_thread with
// Fair Tree: each tick decays all usage by df^Δ since g_last_ran, charges
// running jobs d·df^d·billing, then ranks; priority_p_job_end charges an
// ended job's slice since g_last_ran at once). validate's own sshare check
// runs on fairsim's schedule, whose starts differ by a second or two, and
// a job's end either side of a tick moves RawUsage by up to a tenth.
//
// The decay thread's first tick is read from the run's
// sim.controller_uptime (slurmctld's BOOT_TIME, fairsim capture): it came
// one second after the boot in every run, once the plugins had loaded —
// the one phase of the 60 s grid that gives all three associations'
// RawUsage.
func TestReferenceSshareModel(t *testing.T) {
	for _, run := range []string{"run1", "run2", "run3"} {
		t.Run(run, func(t *testing.T) {
			dir := filepath.Join("..", "scenarios", "testdata", "slurm-ref", "fairshare", run)
			tick := uptimeOf(t, filepath.Join(dir, "scenario.yaml")) - 1
			f, err := os.Open(filepath.Join(dir, "assoc.cfg"))
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err := fairshare.ReadAssocFile("assoc.cfg", f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			// site.conf: Fair Tree (the default), PriorityDecayHalfLife
			// 1 min, PriorityCalcPeriod 1 min.
			eng, err := fairshare.NewEngine(tr, fairshare.Config{Algorithm: fairshare.FairTree, HalfLife: 60, AddedAfterStart: true})
			if err != nil {
				t.Fatal(err)
			}
			jobs := readRecorded(t, filepath.Join(dir, "sacct.txt"), tr)
			snapAt, _, real, order, err := readSshareSnapshot(filepath.Join(dir, "sshare-end.txt"))
			if err != nil {
				t.Fatal(err)
			}
			first := firstSubmitOf(t, filepath.Join(dir, "sacct.txt"))
			type ev struct {
				at   int64
				tick bool
				j    int
			}
			var evs []ev
			eng.SetLastRan(first - tick)
			for T := first - tick + 60; T <= snapAt; T += 60 {
				evs = append(evs, ev{at: T, tick: true})
			}
			for i, j := range jobs {
				if j.end <= snapAt {
					evs = append(evs, ev{at: j.end, j: i})
				}
			}
			// A job ending in a tick's second is charged at its end
			// first (its end_time_exp is cleared, the tick skips it).
			sort.SliceStable(evs, func(a, b int) bool {
				if evs[a].at != evs[b].at {
					return evs[a].at < evs[b].at
				}
				return !evs[a].tick && evs[b].tick
			})
			ended := make([]bool, len(jobs))
			for _, e := range evs {
				if !e.tick {
					j := jobs[e.j]
					eng.ChargeAtEnd(j.assoc, j.start, j.end, j.cpus, 1, fairshare.TRES{})
					ended[e.j] = true
					continue
				}
				eng.BeginTick(e.at)
				for i, j := range jobs {
					if !ended[i] && j.start <= e.at {
						eng.Charge(j.assoc, j.start, e.at, j.cpus, 1, fairshare.TRES{})
					}
				}
				eng.EndTick(e.at)
			}
			opt := fairshare.SshareOptions{Long: true, All: true, Parsable2: true, SlurmTRES: true}
			var buf bytes.Buffer
			if err := fairshare.WriteSshare(&buf, eng.Rows(), opt); err != nil {
				t.Fatal(err)
			}
			sim, _, err := parseSshareP(buf.Bytes(), "engine")
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range order {
				for _, col := range sshareCompared {
					if d := cellDiff(real[k][col], sim[k][col]); !(d <= 1e-6) {
						t.Errorf("%s %s: sshare %q, engine %q", k, col, real[k][col], sim[k][col])
					}
				}
			}
		})
	}
}

// uptimeOf reads sim.controller_uptime from a captured scenario.yaml.
func uptimeOf(t *testing.T, path string) int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "controller_uptime:"); ok {
			s, err := slurmtime.ParseSeconds(strings.Trim(strings.TrimSpace(v), `"`))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return s
		}
	}
	t.Fatalf("%s: no sim.controller_uptime", path)
	return 0
}

// firstSubmitOf is the earliest Submit of a sacct -P file.
func firstSubmitOf(t *testing.T, path string) int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte("#")) {
			lines = append(lines, l)
		}
	}
	first, ok := firstSubmit(bytes.Join(lines, []byte("\n")))
	if !ok {
		t.Fatalf("%s: no Submit", path)
	}
	return first.Unix()
}

// TestReferenceSshareRecorded runs validate's sshare check on the
// recorded schedule (scheduler.Recorded: every job started when sacct
// says it started) through the whole pipeline — slurm.conf, the
// association dump, the multifactor policy, the decay thread's phase
// from sim.controller_uptime and sim.decay_thread_delay — and holds every
// column of both snapshots of every fairshare reference run to the
// controller's sshare within 1e-6. TestReferenceSshareModel checks the
// engine alone the same way; this one checks what users run.
func TestReferenceSshareRecorded(t *testing.T) {
	for _, run := range []string{"run1", "run2", "run3"} {
		dir := filepath.Join("..", "scenarios", "testdata", "slurm-ref", "fairshare", run)
		for _, snap := range []string{"sshare-wave.txt", "sshare-end.txt"} {
			t.Run(run+"/"+snap, func(t *testing.T) {
				spec := RunSpec{Scenario: dir}
				sc, err := spec.Resolve()
				if err != nil {
					t.Fatal(err)
				}
				c, err := checkSshare(sc, filepath.Join(dir, snap), true)
				if err != nil {
					t.Fatal(err)
				}
				if c.Rows != 8 || len(c.Missing) > 0 || c.Late > 0 {
					t.Errorf("%d rows, missing %v, %d late starts: want 8, none, 0", c.Rows, c.Missing, c.Late)
				}
				for i, col := range sshareCompared {
					if !(c.MaxDiff[i] <= 1e-6) {
						t.Errorf("%s: max |difference| %g (%s)", col, c.MaxDiff[i], c.Worst)
					}
				}
			})
		}
	}
}

// FuzzReadSshareSnapshot: no snapshot file panics its reader.
func FuzzReadSshareSnapshot(f *testing.F) {
	for _, p := range []string{"main-log/run1/sshare-end.txt", "fairshare/run1/sshare-wave.txt"} {
		if b, err := os.ReadFile(filepath.Join("..", "scenarios", "testdata", "slurm-ref", p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("#fairsim snapshot epoch=12.345\nAccount|User|RawShares\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		epoch, ms, _, _, err := parseSshareSnapshot(data, "fuzz")
		if err == nil && (epoch < 0 || ms < -1 || ms > 999) {
			t.Fatalf("epoch %d ms %d accepted", epoch, ms)
		}
	})
}
