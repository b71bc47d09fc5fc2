package scenarios

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"fairsim/config"
	"fairsim/sim"
)

// library is the scenario library: every scenario here must run through
// the command line and show what its README section says it shows.
var library = []string{"odyssey", "rcac-fairshare", "rcac-credit", "slurm20", "kestrel-gpu"}

// runScenario runs scenarios/NAME.yaml through the CLI and returns the
// output folder.
func runScenario(t *testing.T, name string) string {
	t.Helper()
	out := t.TempDir()
	cli(t, "run", "--scenario", name+".yaml", "--out", out, "--quiet")
	return out
}

// simulate runs a scenario in-process, with wrap (when not nil) placed
// around its scheduler to watch every pass.
func simulate(t *testing.T, name string, wrap func(sim.Scheduler) sim.Scheduler) (*config.Run, *sim.Result) {
	t.Helper()
	sc, err := config.Load(name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	run, err := sc.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if wrap != nil {
		run.Scheduler = wrap(run.Scheduler)
	}
	res, err := run.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	return run, res
}

// jobsTable is jobs.csv as rows addressed by column name.
type jobsTable struct {
	hdr  map[string]int
	rows [][]string
}

func readJobs(t *testing.T, dir string) jobsTable {
	t.Helper()
	all := readCSV(t, filepath.Join(dir, "jobs.csv"))
	jt := jobsTable{hdr: map[string]int{}, rows: all[1:]}
	for i, h := range all[0] {
		jt.hdr[h] = i
	}
	return jt
}

func (jt jobsTable) s(r []string, col string) string { return r[jt.hdr[col]] }

func (jt jobsTable) f(t *testing.T, r []string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(r[jt.hdr[col]], 64)
	if err != nil {
		t.Fatalf("jobs.csv %s %q: %v", col, r[jt.hdr[col]], err)
	}
	return v
}

// TestScenarioLibraryInvariants runs every scenario in-process and checks
// the engine's invariants on the result: no node oversubscribed, no start
// before submit or eligibility, every job ended exactly once.
func TestScenarioLibraryInvariants(t *testing.T) {
	for _, name := range library {
		t.Run(name, func(t *testing.T) {
			_, res := simulate(t, name, nil)
			if err := sim.CheckInvariants(res); err != nil {
				t.Fatal(err)
			}
			for _, j := range res.Jobs {
				if !j.State.Final() {
					t.Fatalf("job %d left %s", j.ID, j.State)
				}
			}
		})
	}
}

// TestOdysseyScenario: backfill starts jobs, owners' jobs requeue
// serial_requeue jobs, which restart from the beginning and record their
// lost work, and billing follows the partitions' TRESBillingWeights with
// MAX_TRES (memory costs what cores cost).
func TestOdysseyScenario(t *testing.T) {
	out := runScenario(t, "odyssey")
	s := summary(t, out)
	if atoi(t, s["started_by_backfill"]) == 0 {
		t.Error("no job started by backfill")
	}
	if atoi(t, s["jobs_preempted"]) == 0 {
		t.Error("no job preempted")
	}
	if atoi(t, s["jobs_rejected"]) != 0 {
		t.Errorf("%s jobs rejected", s["jobs_rejected"])
	}
	jt := readJobs(t, out)
	// CPU weight and memory weight per GB of each partition (slurm.conf).
	weights := map[string][2]float64{
		"abudhabi": {0.25, 0.0625}, "nehalem": {0.25, 0.0625}, "sandybridge": {0.5, 0.125},
		"broadwell": {1.0, 0.25}, "skylake": {1.2, 0.3}, "serial_requeue": {0.5, 0.125},
	}
	types := map[string]bool{}
	preempted, memBound := 0, 0
	for _, r := range jt.rows {
		part := jt.s(r, "Partition")
		if n := jt.f(t, r, "Preemptions"); n > 0 {
			preempted++
			if part != "serial_requeue" {
				t.Errorf("job %s of %s preempted: only serial_requeue is preemptable", jt.s(r, "JobID"), part)
			}
			if jt.s(r, "State") != "COMPLETED" || jt.f(t, r, "LostCoreSecs") <= 0 {
				t.Errorf("requeued job %s: state %s, lost %s core-s; want COMPLETED (restarted) with lost work",
					jt.s(r, "JobID"), jt.s(r, "State"), jt.s(r, "LostCoreSecs"))
			}
			// It restarted from the beginning: its final run is its whole runtime.
			if el, rt := jt.f(t, r, "Elapsed"), jt.f(t, r, "TraceRuntime"); jt.s(r, "NodeType") == "broadwell" && el != rt {
				t.Errorf("requeued job %s ran %v s on broadwell, want its whole runtime %v s", jt.s(r, "JobID"), el, rt)
			}
		}
		types[jt.s(r, "NodeType")] = true
		w, ok := weights[part]
		if !ok {
			t.Fatalf("job in unknown partition %q", part)
		}
		cpu := jt.f(t, r, "NCPUS") * w[0]
		mem := jt.f(t, r, "AllocMemMB") / 1024 * w[1]
		want := math.Max(cpu, mem) // PriorityFlags=MAX_TRES
		if mem > cpu {
			memBound++
		}
		if got := jt.f(t, r, "Billing"); math.Abs(got-want) > 1e-6 {
			t.Errorf("job %s (%s, %s CPUs, %s MB): billing %v, want max(%v, %v) = %v", jt.s(r, "JobID"), part,
				jt.s(r, "NCPUS"), jt.s(r, "AllocMemMB"), got, cpu, mem, want)
		}
	}
	if preempted != atoi(t, s["jobs_preempted"]) {
		t.Errorf("jobs.csv has %d preempted jobs, summary.csv %s", preempted, s["jobs_preempted"])
	}
	if memBound == 0 {
		t.Error("no job billed for its memory: MAX_TRES shows nothing")
	}
	for _, ty := range []string{"abudhabi", "nehalem", "sandybridge", "broadwell", "skylake"} {
		if !types[ty] {
			t.Errorf("no job ran on %s", ty)
		}
	}
}

// TestRCACFairshareScenario: QOS dominates (every job is in normal, whose
// factor 1.0 × PriorityWeightQOS = 100,000,000 sits under every priority),
// and fair-share orders the rest: the group that used most beyond its
// share waits longer than the one that used least of it.
func TestRCACFairshareScenario(t *testing.T) {
	out := runScenario(t, "rcac-fairshare")
	jt := readJobs(t, out)
	const qos, fs, age = 100_000_000, 10_000_000, 100_000
	wait := map[string][2]float64{}
	for _, r := range jt.rows {
		p := jt.f(t, r, "Priority")
		if p < qos || p > qos+fs+age {
			t.Errorf("job %s priority %v outside [QOS weight, QOS+fair-share+age weights]", jt.s(r, "JobID"), p)
		}
		a := jt.s(r, "Account")
		w := wait[a]
		wait[a] = [2]float64{w[0] + jt.f(t, r, "Wait"), w[1] + 1}
	}
	// Final fair-share standing: EffectvUsage / NormShares per account.
	fsRows := readCSV(t, filepath.Join(out, "fairshare.csv"))
	hdr := map[string]int{}
	for i, h := range fsRows[0] {
		hdr[h] = i
	}
	last := fsRows[len(fsRows)-1][hdr["time"]]
	over, under := "", ""
	var hi, lo float64 = -1, math.Inf(1)
	for _, r := range fsRows[1:] {
		if r[hdr["time"]] != last || r[hdr["User"]] != "" || r[hdr["Account"]] == "root" {
			continue
		}
		ue, _ := strconv.ParseFloat(r[hdr["EffectvUsage"]], 64)
		ns, _ := strconv.ParseFloat(r[hdr["NormShares"]], 64)
		if ratio := ue / ns; ratio > hi {
			hi, over = ratio, r[hdr["Account"]]
		}
		if ratio := ue / ns; ratio < lo {
			lo, under = ratio, r[hdr["Account"]]
		}
	}
	mean := func(a string) float64 { return wait[a][0] / wait[a][1] }
	if over == "" || mean(over) <= mean(under) {
		t.Errorf("most over-served group %s (usage/share %.2f) waited %.0f s on average, least %s (%.2f) %.0f s: want the first longer",
			over, hi, mean(over), under, lo, mean(under))
	}
}

// accrueWitness wraps a scheduler and looks at the queue after every pass:
// how many pending jobs of each account accrue age, the longest queue of
// one account, and whether a job waited on its QOS's credits.
type accrueWitness struct {
	sim.Scheduler
	maxAccruing, maxQueued int
	creditHeld             bool
}

func (w *accrueWitness) Schedule(v *sim.View, kind sim.PassKind) *sim.Plan {
	p := w.Scheduler.Schedule(v, kind)
	accruing, queued := map[int32]int{}, map[int32]int{}
	for _, j := range v.Pending() {
		started, reason, _ := p.Outcome(j)
		if started {
			continue
		}
		queued[j.Account]++
		if j.Accrue != sim.NotAccruing {
			accruing[j.Account]++
		}
		if reason == "QOSGrpCPUMinutesLimit" {
			w.creditHeld = true
		}
	}
	for a, n := range accruing {
		w.maxAccruing = max(w.maxAccruing, n)
		w.maxQueued = max(w.maxQueued, queued[a])
	}
	return p
}

// TestRCACCreditScenario: the normal QOS's CPU-minute credits run out and
// jobs wait on QOSGrpCPUMinutesLimit until the weekly reset; meanwhile queues
// build up but no account ever has more than MaxJobsAccruePA = 4 jobs
// accruing age.
func TestRCACCreditScenario(t *testing.T) {
	out := runScenario(t, "rcac-credit")
	if len(readJobs(t, out).rows) == 0 {
		t.Fatal("empty jobs.csv")
	}
	w := &accrueWitness{}
	_, res := simulate(t, "rcac-credit", func(s sim.Scheduler) sim.Scheduler { w.Scheduler = s; return w })
	if !w.creditHeld {
		t.Error("no job ever pended on QOSGrpCPUMinutesLimit")
	}
	if w.maxAccruing != 4 {
		t.Errorf("at most %d jobs of one account accrued age at once, want exactly the cap, 4", w.maxAccruing)
	}
	if w.maxQueued <= 4 {
		t.Errorf("no account ever queued more than %d jobs: the accrue cap was never tested", w.maxQueued)
	}
	if err := sim.CheckInvariants(res); err != nil {
		t.Fatal(err)
	}
	t.Logf("longest queue of one account %d jobs, at most %d accruing", w.maxQueued, w.maxAccruing)
}

// TestSlurm20Scenario: fair-share is Slurm 2.0's F = (S - U_E + 1) / 2 on
// the seed's tree, whose normalised shares are the worked example's.
func TestSlurm20Scenario(t *testing.T) {
	out := runScenario(t, "slurm20")
	rows := readCSV(t, filepath.Join(out, "fairshare.csv"))
	hdr := map[string]int{}
	for i, h := range rows[0] {
		hdr[h] = i
	}
	shares := map[string]float64{"u1": 0.3, "u2": 0.05, "u3": 0.05, "u4": 0.25, "u5": 0.35}
	checked, used := 0, 0
	for _, r := range rows[1:] {
		u := r[hdr["User"]]
		if u == "" {
			continue
		}
		s, _ := strconv.ParseFloat(r[hdr["NormShares"]], 64)
		ue, _ := strconv.ParseFloat(r[hdr["EffectvUsage"]], 64)
		f, err := strconv.ParseFloat(r[hdr["FairShare"]], 64)
		if err != nil {
			t.Fatalf("fairshare.csv FairShare %q: %v", r[hdr["FairShare"]], err)
		}
		if want := shares[u]; math.Abs(s-want) > 1e-6 {
			t.Errorf("%s NormShares %v, want %v (seed 000)", u, s, want)
		}
		// Printed to 6 decimals: allow for the rounding of all three.
		if want := (s - ue + 1) / 2; math.Abs(f-want) > 2e-6 {
			t.Errorf("t=%s %s: FairShare %v, want (S - U_E + 1)/2 = (%v - %v + 1)/2 = %v", r[hdr["time"]], u, f, s, ue, want)
		}
		if ue > 0 {
			used++
		}
		checked++
	}
	if checked == 0 || used == 0 {
		t.Fatalf("fairshare.csv has %d user rows, %d with usage", checked, used)
	}
}

// TestOdysseyDeterministic: the same scenario twice gives the same jobs.csv.
func TestOdysseyDeterministic(t *testing.T) {
	a, b := runScenario(t, "odyssey"), runScenario(t, "odyssey")
	ja := readCSV(t, filepath.Join(a, "jobs.csv"))
	jb := readCSV(t, filepath.Join(b, "jobs.csv"))
	if len(ja) != len(jb) {
		t.Fatalf("%d vs %d rows", len(ja), len(jb))
	}
	for i := range ja {
		for k := range ja[i] {
			if ja[i][k] != jb[i][k] {
				t.Fatalf("row %d differs: %v vs %v", i, ja[i], jb[i])
			}
		}
	}
}

// TestWeeklyResetFallsOnSunday: PriorityUsageResetPeriod=WEEKLY zeroes
// usage at the first calc tick at or after Sunday 00:00 local time
// (priority_multifactor.c _next_reset), in the trace's own time. The
// generated workload starts on Monday 2024-01-01 00:00 UTC
// (UnixStartTime 1704067200): its boundaries fall on days 6, 13, ... of
// the run (Sunday 2024-01-07 00:00 is 518400 s in), i.e. on Unix times
// that are Sundays 00:00 UTC: 259200 s (Thursday 1970-01-01 to Sunday)
// modulo a week.
func TestWeeklyResetFallsOnSunday(t *testing.T) {
	sc, err := config.Load("rcac-credit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"PriorityUsageResetPeriod": "WEEKLY", "generate.days": "10", "generate.jobs": "1000"} {
		if err := sc.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	run, err := sc.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	res, err := run.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	if h := res.Header; h == nil || h.UnixStartTime != 1704067200 {
		t.Fatalf("header %+v: want UnixStartTime 1704067200", h)
	}
	// The fair-share engine works in Unix time (reset boundaries are
	// calendar dates); Unix 0 was a Thursday, so Sundays are 3 days into a
	// 7-day cycle.
	got := run.Multifactor.Engine().LastReset() - res.Header.UnixStartTime
	if got < 518400 || (res.Header.UnixStartTime+got)%(7*86400) != 3*86400 {
		t.Errorf("last weekly reset at %d s (day %.2f of the run, Unix %d), want a Sunday 00:00 UTC: day 6, 13, ...",
			got, float64(got)/86400, res.Header.UnixStartTime+got)
	}
}
