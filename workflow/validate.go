package workflow

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"fairsim/config"
	"fairsim/report"
	"fairsim/slurmtime"
)

// ValidateHelp is fairsim validate's description.
const ValidateHelp = `Replays a captured scenario (fairsim capture, or any scenario whose trace records
when each job really started) from its first submission and compares the simulated
schedule with the recorded one:

  start order      Kendall's tau-b between recorded and simulated start times, the
                   pairs of jobs started in the opposite order, and the pairs started
                   in the same second in one schedule only (tau-b counts them neither
                   way; records are to the second)
  wait error       simulated minus recorded wait, per job (validate.csv)
  MAPE             mean wait per partition and per QOS over moving windows of submit
                   time, |simulated - recorded| / recorded averaged over the windows
                   whose recorded mean wait is not zero (the measure HPE's FastSim uses)
  plot             waits.png: simulated against recorded wait, one point per job
  worst jobs       the jobs whose wait differs most, with explain's reasons
  sshare           with DIR/sshare-*.txt snapshots (sshare -a -l -P after a line
                   "#fairsim snapshot epoch=N[.mmm]"), the largest difference per column
                   from fairsim's sshare at that instant
  backfill plans   with slurmctld's log of the run (--slurmctld-log, or DIR/slurmctld.log;
                   DebugFlags=Backfill), each logged backfill cycle against fairsim's:
                   the jobs started, and each reservation's time and nodes; the first
                   cycles that differ, job by job

--timing model (the default) runs fairsim's own model of the controller's timers.
--timing log replays the controller's timing from its log instead: its main passes
and backfill cycles at the logged instants, and submissions and completions in the
order of their milliseconds (SlurmctldDebug=debug logs the main passes). With the
timing the same, what differs is what the passes decided.

Only jobs that started in both schedules are compared; the others are counted.

  fairsim validate --scenario DIR [--out DIR] [--window 0:01:00] [--top 5] [--slurmctld-log FILE] [--timing model|log]`

// ValidateOptions tune Validate.
type ValidateOptions struct {
	// Window is the width of the moving windows of submit time, in
	// seconds; 0 takes a fifth of the submission span (at least 1 s).
	// The windows step by half their width.
	Window int64
	// Top is how many of the most different jobs to explain.
	Top int
	// Out, when set, receives validate.csv and waits.png.
	Out string
	// Sshare are recorded `sshare -a -l -P` snapshots ("#fairsim snapshot
	// epoch=N" first) to compare with fairsim's sshare at their instant.
	Sshare []string
	// SlurmctldLog is slurmctld's log with DebugFlags=Backfill, whose
	// backfill cycles are compared with fairsim's ("": none).
	SlurmctldLog string
	// Timing is "model" ("" too): fairsim's model of the controller's
	// timers; or "log": the controller's own timing replayed from
	// SlurmctldLog (config.SimSpec.Timeline).
	Timing string
}

// JobDiff is one job's recorded and simulated start.
type JobDiff struct {
	ID                   int64
	Partition, QOS       string
	Submit               int64
	RealStart, SimStart  int64
	RealWait, SimWait    int64
	Reasons              []string // explain's summary, for the worst jobs
	realRank, simRank    int
	hasReal, hasSimStart bool
}

// Err is the simulated wait minus the recorded one.
func (d *JobDiff) Err() int64 { return d.SimWait - d.RealWait }

// GroupMAPE is the wait agreement of one partition or QOS.
type GroupMAPE struct {
	Kind, Name         string // "partition" or "qos"
	Jobs               int
	RealMean, SimMean  float64 // over the whole run
	Windows, ZeroWins  int     // windows scored, and left out for a zero recorded mean
	MAPE               float64 // over the scored windows, in percent; NaN when none
	realSum, simSum    []float64
	count              []int
	windowFirst, width int64
}

// Validation is the comparison of a replay with the recorded schedule.
type Validation struct {
	Scenario   string
	Jobs       []*JobDiff // compared jobs, by recorded start then id
	NotStarted int        // jobs without a recorded or a simulated start
	Tau        float64    // Kendall's tau-b of start times
	// Discordant counts the pairs of jobs started in the opposite order;
	// TiedOne the pairs started in the same second in one record only.
	Discordant, TiedOne int64
	MeanAbsErr          float64 // seconds
	MaxAbsErr           int64
	RealMean            float64
	SimMean             float64
	Window              int64
	Groups              []*GroupMAPE
	MAPE                float64 // mean of the groups' MAPE (partitions and QOS), percent
	PartitionMAPE       float64
	QOSMAPE             float64
	Worst               []*JobDiff
	ExplainFailure      string
	Shares              []*ShareCheck
	Plans               *PlanCheck // with ValidateOptions.SlurmctldLog
	Timeline            string     // the log whose timing was replayed (--timing log)
}

// Validate simulates sc and compares each job's start with the start its
// trace recorded (Submit + Wait).
func Validate(sc *config.Scenario, o ValidateOptions) (*Validation, error) {
	switch o.Timing {
	case "", "model":
	case "log":
		if o.SlurmctldLog == "" {
			return nil, fmt.Errorf("--timing log: no slurmctld log (give --slurmctld-log FILE, or put slurmctld.log in the scenario folder)")
		}
		abs, err := filepath.Abs(o.SlurmctldLog)
		if err != nil {
			return nil, err
		}
		sc.Sim.Timeline = abs
	default:
		return nil, fmt.Errorf("--timing %q: want model or log", o.Timing)
	}
	_, res, err := Pipeline{}.Run(sc, "")
	if err != nil {
		return nil, err
	}
	v := &Validation{Scenario: sc.Name, Timeline: sc.Sim.Timeline}
	names := res.Names
	for _, j := range res.Jobs {
		if j.CancelledPending {
			continue
		}
		// Waits count from the user's submission: the trace's, where
		// sacct -D gives a requeued job's first run (workload mergeRun),
		// and the replay's before any requeue of its own.
		d := &JobDiff{ID: j.ID, Submit: j.FirstSubmit(), SimStart: j.Start, RealStart: -1}
		if j.Part >= 0 && j.Part < len(res.Cluster.Parts) {
			d.Partition = res.Cluster.Parts[j.Part].Name
		}
		if j.QOSIdx >= 0 && j.QOSIdx < len(res.QOSNames) {
			d.QOS = res.QOSNames[j.QOSIdx]
		} else if names != nil {
			d.QOS = names.QOS.Name(j.QOS)
		}
		if d.QOS == "" {
			d.QOS = "normal" // what sacctmgr gives an association unless told otherwise
		}
		d.hasReal = j.Wait >= 0
		d.hasSimStart = j.Start >= 0
		if !d.hasReal || !d.hasSimStart {
			v.NotStarted++
			continue
		}
		d.RealStart = d.Submit + j.Wait
		d.RealWait, d.SimWait = j.Wait, j.Start-d.Submit
		v.Jobs = append(v.Jobs, d)
	}
	if len(v.Jobs) == 0 {
		return nil, fmt.Errorf("validate: %s: no job started both in the trace and in the replay", sc.Name)
	}
	slices.SortFunc(v.Jobs, func(a, b *JobDiff) int {
		return cmp.Or(cmp.Compare(a.RealStart, b.RealStart), cmp.Compare(a.ID, b.ID))
	})
	real := make([]float64, len(v.Jobs))
	simd := make([]float64, len(v.Jobs))
	var sumAbs float64
	for i, d := range v.Jobs {
		real[i], simd[i] = float64(d.RealStart), float64(d.SimStart)
		e := d.Err()
		sumAbs += math.Abs(float64(e))
		v.MaxAbsErr = max(v.MaxAbsErr, abs64(e))
		v.RealMean += float64(d.RealWait)
		v.SimMean += float64(d.SimWait)
	}
	n := float64(len(v.Jobs))
	v.MeanAbsErr, v.RealMean, v.SimMean = sumAbs/n, v.RealMean/n, v.SimMean/n
	ord := kendall(real, simd)
	v.Tau, v.Discordant, v.TiedOne = ord.tau, ord.discordant, ord.tiedOne
	v.windows(o.Window)
	worst := slices.Clone(v.Jobs)
	slices.SortStableFunc(worst, func(a, b *JobDiff) int {
		return cmp.Or(cmp.Compare(abs64(b.Err()), abs64(a.Err())), cmp.Compare(a.ID, b.ID))
	})
	for _, d := range worst[:min(o.Top, len(worst))] {
		if d.Err() == 0 {
			break
		}
		v.Worst = append(v.Worst, d)
		st, err := Explain(sc, d.ID)
		if err != nil {
			v.ExplainFailure = err.Error()
			continue
		}
		for _, s := range st.summary() {
			if !strings.HasPrefix(strings.TrimSpace(s), "(") {
				d.Reasons = append(d.Reasons, s)
			}
		}
	}
	for _, f := range o.Sshare {
		for _, recorded := range []bool{false, true} {
			c, err := checkSshare(sc, f, recorded)
			if err != nil {
				return nil, err
			}
			v.Shares = append(v.Shares, c)
		}
	}
	if o.SlurmctldLog != "" {
		if v.Plans, err = comparePlans(sc, o.SlurmctldLog); err != nil {
			return nil, fmt.Errorf("--slurmctld-log: %w", err)
		}
	}
	if o.Out != "" {
		if err := v.writeFiles(o.Out); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// windows scores the mean wait of each partition and QOS over moving
// windows of submit time: width w stepping by w/2 from the first submit.
func (v *Validation) windows(w int64) {
	first, last := v.Jobs[0].Submit, v.Jobs[0].Submit
	for _, d := range v.Jobs {
		first, last = min(first, d.Submit), max(last, d.Submit)
	}
	if w <= 0 {
		w = max((last-first)/5, 1)
	}
	v.Window = w
	step := max(w/2, 1)
	nwin := int((last-first)/step) + 1
	groups := map[string]*GroupMAPE{}
	get := func(kind, name string) *GroupMAPE {
		k := kind + "\x00" + name
		g := groups[k]
		if g == nil {
			g = &GroupMAPE{Kind: kind, Name: name, realSum: make([]float64, nwin), simSum: make([]float64, nwin), count: make([]int, nwin)}
			groups[k] = g
			v.Groups = append(v.Groups, g)
		}
		return g
	}
	for _, d := range v.Jobs {
		for _, g := range []*GroupMAPE{get("partition", d.Partition), get("qos", d.QOS)} {
			g.Jobs++
			g.RealMean += float64(d.RealWait)
			g.SimMean += float64(d.SimWait)
			// Window k covers [first+k*step, first+k*step+w).
			for k := 0; k < nwin; k++ {
				lo := first + int64(k)*step
				if d.Submit >= lo && d.Submit < lo+w {
					g.realSum[k] += float64(d.RealWait)
					g.simSum[k] += float64(d.SimWait)
					g.count[k]++
				}
			}
		}
	}
	slices.SortFunc(v.Groups, func(a, b *GroupMAPE) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	var part, qos, all []float64
	for _, g := range v.Groups {
		g.RealMean /= float64(g.Jobs)
		g.SimMean /= float64(g.Jobs)
		var sum float64
		for k := range nwin {
			if g.count[k] == 0 {
				continue
			}
			if g.realSum[k] == 0 {
				g.ZeroWins++
				continue
			}
			sum += math.Abs(g.simSum[k]-g.realSum[k]) / g.realSum[k] // the means share one count
			g.Windows++
		}
		g.MAPE = math.NaN()
		if g.Windows > 0 {
			g.MAPE = 100 * sum / float64(g.Windows)
			all = append(all, g.MAPE)
			if g.Kind == "partition" {
				part = append(part, g.MAPE)
			} else {
				qos = append(qos, g.MAPE)
			}
		}
	}
	v.MAPE, v.PartitionMAPE, v.QOSMAPE = mean(all), mean(part), mean(qos)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// KendallTau is Kendall's tau-b of two equally long samples: (concordant -
// discordant pairs) / sqrt((pairs - pairs tied in x)(pairs - pairs tied in
// y)), counted in O(n log n) by Knight's merge sort. It is 1 for the same
// order, -1 for the reverse, and NaN when either sample is all ties.
func KendallTau(x, y []float64) float64 {
	return kendall(x, y).tau
}

// orderAgreement is what Kendall's count finds: tau-b, the pairs ordered
// the other way round (discordant), and the pairs tied in one sample only,
// which tau-b counts neither way but which keep it below 1 — in start
// times recorded to the second, two jobs a controller started in the same
// second and a simulation a second apart.
type orderAgreement struct {
	tau        float64
	discordant int64
	tiedOne    int64
}

func kendall(x, y []float64) orderAgreement {
	n := len(x)
	if n < 2 || len(y) != n {
		return orderAgreement{tau: math.NaN()}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Or(cmp.Compare(x[a], x[b]), cmp.Compare(y[a], y[b])) })
	pairs := int64(n) * int64(n-1) / 2
	tiedX, tiedXY := int64(0), int64(0)
	for i := 0; i < n; {
		j, k := i, i
		for j < n && x[idx[j]] == x[idx[i]] {
			j++
		}
		tiedX += int64(j-i) * int64(j-i-1) / 2
		for k < j { // runs tied in x and in y
			l := k
			for l < j && y[idx[l]] == y[idx[k]] {
				l++
			}
			tiedXY += int64(l-k) * int64(l-k-1) / 2
			k = l
		}
		i = j
	}
	ys := make([]float64, n)
	for i, id := range idx {
		ys[i] = y[id]
	}
	swaps := mergeCount(ys, make([]float64, n))
	tiedY := int64(0)
	for i := 0; i < n; { // ys is now sorted
		j := i
		for j < n && ys[j] == ys[i] {
			j++
		}
		tiedY += int64(j-i) * int64(j-i-1) / 2
		i = j
	}
	// Sorted by (x, y), ys holds no inversion inside a run tied in x, and
	// mergeCount skips equal values: every swap is a discordant pair.
	o := orderAgreement{tau: math.NaN(), discordant: swaps, tiedOne: tiedX + tiedY - 2*tiedXY}
	num := float64(pairs - tiedX - tiedY + tiedXY - 2*swaps)
	den := math.Sqrt(float64(pairs-tiedX) * float64(pairs-tiedY))
	if den != 0 {
		o.tau = num / den
	}
	return o
}

// mergeCount sorts a and returns how many pairs it found out of order
// (strictly greater before smaller).
func mergeCount(a, buf []float64) int64 {
	if len(a) < 2 {
		return 0
	}
	m := len(a) / 2
	s := mergeCount(a[:m], buf[:m]) + mergeCount(a[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < len(a) {
		if a[j] < a[i] {
			buf[k] = a[j]
			s += int64(m - i)
			j++
		} else {
			buf[k] = a[i]
			i++
		}
		k++
	}
	k += copy(buf[k:], a[i:m])
	copy(buf[k:], a[j:])
	copy(a, buf[:len(a)])
	return s
}

// Write prints the comparison.
func (v *Validation) Write(w io.Writer) {
	fmt.Fprintf(w, "validate %s: %d jobs compared (%d not started in both)\n", v.Scenario, len(v.Jobs), v.NotStarted)
	if v.Timeline != "" {
		fmt.Fprintf(w, "  timing: the controller's, replayed from %s\n", v.Timeline)
	}
	fmt.Fprintf(w, "  start order: Kendall's tau-b %.4f; %d pairs started in the opposite order, %d in the same second in one record only\n", v.Tau, v.Discordant, v.TiedOne)
	fmt.Fprintf(w, "  wait: recorded mean %s, simulated mean %s; error mean |%s|, max |%s|\n",
		meanDur(v.RealMean), meanDur(v.SimMean), meanDur(v.MeanAbsErr), slurmtime.Format(v.MaxAbsErr))
	fmt.Fprintf(w, "  mean wait over moving windows of %s: MAPE %.2f%% (partitions %.2f%%, QOS %.2f%%)\n",
		slurmtime.Format(v.Window), v.MAPE, v.PartitionMAPE, v.QOSMAPE)
	fmt.Fprintf(w, "  %-9s %-12s %5s %12s %12s %8s %8s\n", "kind", "name", "jobs", "real mean", "sim mean", "windows", "MAPE")
	for _, g := range v.Groups {
		fmt.Fprintf(w, "  %-9s %-12s %5d %12s %12s %8d %7.2f%%\n", g.Kind, g.Name, g.Jobs, meanDur(g.RealMean), meanDur(g.SimMean), g.Windows, g.MAPE)
	}
	if len(v.Worst) > 0 {
		fmt.Fprintln(w, "  jobs that differ most (wait error = simulated - recorded):")
	}
	for _, d := range v.Worst {
		fmt.Fprintf(w, "  job %d (%s, %s): recorded wait %s, simulated %s, error %s\n", d.ID, d.Partition, d.QOS,
			slurmtime.Format(d.RealWait), slurmtime.Format(d.SimWait), signedDur(d.Err()))
		for _, r := range d.Reasons {
			fmt.Fprintf(w, "      %s\n", r)
		}
	}
	if v.ExplainFailure != "" {
		fmt.Fprintf(w, "  (explain failed: %s)\n", v.ExplainFailure)
	}
	v.writeShares(w)
	if v.Plans != nil {
		v.Plans.write(w)
	}
}

// writeFiles writes validate.csv (one row per compared job, by recorded
// start), waits.png and, with slurmctld's log, backfill_plans.csv.
func (v *Validation) writeFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("JobID,Partition,QOS,Submit,RealStart,SimStart,RealWait,SimWait,WaitError\n")
	for _, d := range v.Jobs {
		fmt.Fprintf(&b, "%d,%s,%s,%d,%d,%d,%d,%d,%d\n", d.ID, d.Partition, d.QOS, d.Submit, d.RealStart, d.SimStart, d.RealWait, d.SimWait, d.Err())
	}
	if err := os.WriteFile(filepath.Join(dir, "validate.csv"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	if v.Plans != nil {
		if err := os.WriteFile(filepath.Join(dir, "backfill_plans.csv"), v.Plans.csv(), 0o644); err != nil {
			return err
		}
	}
	return v.plot(filepath.Join(dir, "waits.png"))
}

// plot draws simulated against recorded waits, with the diagonal.
func (v *Validation) plot(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: simulated vs recorded wait (tau %.3f, MAPE %.1f%%)", v.Scenario, v.Tau, v.MAPE)
	p.X.Label.Text = "recorded wait (s)"
	p.Y.Label.Text = "simulated wait (s)"
	pts := make(plotter.XYs, len(v.Jobs))
	hi := 1.0
	for i, d := range v.Jobs {
		pts[i].X, pts[i].Y = float64(d.RealWait), float64(d.SimWait)
		hi = max(hi, pts[i].X, pts[i].Y)
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.Color = report.Color(0)
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: hi, Y: hi}})
	if err != nil {
		return err
	}
	diag.Color = report.Color(1)
	p.Add(sc, diag)
	p.Legend.Add("job", sc)
	p.Legend.Add("equal", diag)
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(7*vg.Inch, 5*vg.Inch, path)
}

// ValidateScenario loads the scenario a --scenario argument names (a
// folder or a YAML file), reads --window as a Slurm time, and validates.
func ValidateScenario(path, window string, o ValidateOptions) (*Validation, error) {
	if window != "" {
		w, err := slurmtime.ParseSeconds(window)
		if err != nil || w <= 0 {
			return nil, fmt.Errorf("--window %q: want a positive Slurm time (e.g. 0:01:00)", window)
		}
		o.Window = w
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		// The sshare snapshots a reference run records beside its capture.
		snaps, _ := filepath.Glob(filepath.Join(path, "sshare-*.txt"))
		o.Sshare = append(o.Sshare, snaps...)
		// And the backfill log of a run recorded with DebugFlags=Backfill.
		if l := filepath.Join(path, "slurmctld.log"); o.SlurmctldLog == "" {
			if _, err := os.Stat(l); err == nil {
				o.SlurmctldLog = l
			}
		}
	}
	spec := RunSpec{Scenario: path}
	sc, err := spec.Resolve()
	if err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	return Validate(sc, o)
}

// ValidateTo is ValidateScenario writing its figures to w, as `fairsim
// validate` prints them.
func ValidateTo(w io.Writer, path, window string, o ValidateOptions) error {
	v, err := ValidateScenario(path, window, o)
	if err == nil {
		v.Write(w)
	}
	return err
}

// meanDur prints a mean wait in seconds as Slurm prints durations,
// [D-]HH:MM:SS rounded to the second, like every other duration shown.
func meanDur(secs float64) string {
	if math.IsNaN(secs) {
		return "n/a"
	}
	return slurmtime.Format(int64(math.Round(secs)))
}

// signedDur prints a wait error as +[D-]HH:MM:SS or -[D-]HH:MM:SS.
func signedDur(secs int64) string {
	if secs < 0 {
		return "-" + slurmtime.Format(-secs)
	}
	return "+" + slurmtime.Format(secs)
}
