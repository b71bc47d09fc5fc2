package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"fairsim/config"
	"fairsim/multifactor"
	"fairsim/policy"
	"fairsim/sim"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// atHelp documents --at once for sprio and sshare.
const atHelp = `TIME is a point in the simulation, either
  - a Slurm time string counted from the first job's submission (the start of
    the trace, and of the simulation): 1-0 is one day after it, 12:00:00 twelve
    hours, 90 ninety minutes; or
  - a date YYYY-MM-DD[THH:MM[:SS]] on the trace's own clock, in its time zone
    (fairshare.time_zone, else the SWF TimeZoneString, else UTC); this needs
    the trace header's UnixStartTime.
The run stops after the last event at or before TIME, so the view is the state
slurmctld would show then: priorities and fair-share as of the latest
PriorityCalcPeriod tick (or a job's submission, if later). A TIME before the
first submission or after the run's last event is an error.`

func sprioCommand() *cli.Command {
	return &cli.Command{
		Name:      "sprio",
		Usage:     "show the multifactor priority of pending jobs at a simulated time, like sprio",
		ArgsUsage: " ",
		Description: `Simulates a scenario (scheduler: slurm) up to --at and prints the priority of
every pending, eligible job as Slurm's sprio prints it, sorted by job id:

  fairsim sprio --scenario s.yaml --at 1-0 -l
  fairsim sprio --scenario s.yaml --at 2024-03-01T09:00 -u alice,bob
  fairsim sprio --scenario s.yaml -w             the weights (no simulation)

Each factor column is the weighted term (PriorityWeight* x factor), rounded
to an integer (%.0f); PRIORITY is their sum (site + age + assoc + fairshare +
jobsize + partition + qos + TRES - nice, at least 1, truncated), which is the
job's priority unless PriorityFlags=INCR_ONLY kept an older, larger one
(sprio shows the sum then too). With PriorityFlags=CALCULATE_RUNNING running
jobs are listed as well. -n divides each term by its weight (a weight of 0
shows 0) and shows PRIORITY / (2^32-1); TRES shows name=factor. -w prints the
configured weights ("Weights" line; SITE is always 1). Without -l, columns of
zero weights are left out, and USER appears only with -u.

` + atHelp,
		UseShortOptionHandling: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Required: true, Usage: "scenario YAML `FILE` (scheduler: slurm)"},
			&cli.StringFlag{Name: "at", Usage: "simulated `TIME`: offset from the first submit (1-0) or a date (see below)"},
			&cli.StringFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "only these job ids (comma-separated `LIST`)"},
			&cli.StringFlag{Name: "user", Aliases: []string{"u"}, Usage: "only jobs of these users (comma-separated `LIST`); adds USER to the short format"},
			&cli.StringFlag{Name: "partition", Aliases: []string{"p"}, Usage: "only jobs in these partitions (comma-separated `LIST`)"},
			&cli.BoolFlag{Name: "long", Aliases: []string{"l"}, Usage: "long report: every column"},
			&cli.BoolFlag{Name: "norm", Aliases: []string{"n"}, Usage: "normalised (unweighted) factors"},
			&cli.BoolFlag{Name: "weights", Aliases: []string{"w"}, Usage: "print the configured weights"},
			&cli.BoolFlag{Name: "noheader", Usage: "no header line"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say on stderr what was simulated (notes, warnings, times)"},
		},
		Action: func(c *cli.Context) error {
			opt := sprioOptions{Long: c.Bool("long"), Norm: c.Bool("norm"), Weights: c.Bool("weights"),
				NoHeader: c.Bool("noheader"), UserColumn: c.IsSet("user")}
			ids, err := parseJobIDs(c.String("jobs"))
			if err != nil {
				return err
			}
			filt := sprioFilter{IDs: ids, Users: splitList(c.String("user")), Parts: splitList(c.String("partition"))}
			run, mf, err := buildSlurmRun(c.String("scenario"), "sprio")
			if err != nil {
				return err
			}
			defer run.Close()
			errw := c.App.ErrWriter
			if c.Bool("verbose") {
				printRunNotes(errw, run)
			}
			if opt.Weights {
				return writeSprio(c.App.Writer, nil, sprioWeightsOf(run, mf), opt)
			}
			if !c.IsSet("at") {
				return errors.New("sprio: --at TIME is required (or -w for the weights)")
			}
			ar, err := simulateAt(run, mf, c.String("at"), nil)
			if err != nil {
				return err
			}
			if c.Bool("verbose") {
				ar.describe(errw)
			}
			rows, missing, err := sprioSelect(ar, filt)
			if err != nil {
				return err
			}
			for _, m := range missing {
				fmt.Fprintln(errw, "fairsim:", m)
			}
			if len(filt.IDs) > 0 && len(rows) == 0 {
				// sprio's own answer when -j matches nothing.
				_, err := fmt.Fprintln(c.App.Writer, "Unable to find jobs matching user/id(s) specified")
				return err
			}
			return writeSprio(c.App.Writer, rows, sprioWeightsOf(run, mf), opt)
		},
	}
}

// buildSlurmRun loads, resolves and builds a scenario whose policy is
// Slurm's multifactor; cmd names the command in errors.
func buildSlurmRun(path, cmd string) (*config.Run, *multifactor.Policy, error) {
	sc, err := config.Load(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--scenario: %w", err)
	}
	if err := sc.Resolve(); err != nil {
		return nil, nil, err
	}
	run, err := sc.Build()
	if err != nil {
		return nil, nil, err
	}
	if run.Multifactor == nil {
		run.Close()
		return nil, nil, fmt.Errorf("%s: scenario %s uses scheduler %q, which has no multifactor priority or fair-share; %s needs scheduler: slurm",
			path, sc.Name, sc.Scheduler, cmd)
	}
	return run, run.Multifactor, nil
}

// printRunNotes says what fairsim chose and ignored while building the run.
func printRunNotes(w io.Writer, run *config.Run) {
	for _, n := range run.Notes {
		fmt.Fprintln(w, "fairsim:", n)
	}
	for _, s := range run.Warnings {
		fmt.Fprintln(w, "fairsim: warning:", s)
	}
}

// atRun is a scenario simulated up to a point in time.
type atRun struct {
	run   *config.Run
	mf    *multifactor.Policy
	res   *sim.Result
	label string // --at as given
	first int64  // simulated time of the first submission: TIME's epoch
	stop  int64  // simulated time of the view (first + offset)
	loc   *time.Location
}

// peekSource hands out one job read ahead of time before the rest of its
// source, so the first submission is known before the simulation starts.
type peekSource struct {
	workload.Source
	first workload.Job
	held  bool
}

func (p *peekSource) Next(j *workload.Job) bool {
	if p.held {
		*j, p.held = p.first, false
		return true
	}
	return p.Source.Next(j)
}

// looksLikeDate tells a date (YYYY-MM-DD...) from a Slurm time string,
// which never has a '-' in those places.
func looksLikeDate(s string) bool {
	return len(s) >= 10 && s[4] == '-' && s[7] == '-'
}

// simulateAt runs run up to --at. wrap, when set, wraps the workload
// source first (tests use it to give jobs a QOS).
func simulateAt(run *config.Run, mf *multifactor.Policy, at string, wrap func(workload.Source) workload.Source) (*atRun, error) {
	ps := &peekSource{Source: run.Source}
	if !ps.Source.Next(&ps.first) {
		if err := ps.Source.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("the scenario's workload has no jobs")
	}
	ps.held = true
	ar := &atRun{run: run, mf: mf, label: at, first: ps.first.Submit, loc: mf.Engine().Config().Loc}
	if ar.loc == nil {
		ar.loc = time.UTC
	}
	h := ps.Header()
	if looksLikeDate(at) && h.UnixStartTime == 0 {
		return nil, fmt.Errorf("--at %s: a date needs the trace's UnixStartTime, and its header has none; give an offset from the first submission such as 1-0", at)
	}
	off, err := slurmtime.ParseDateOrDuration(at, h.UnixStartTime+ar.first, ar.loc)
	if err != nil {
		return nil, fmt.Errorf("--at: %w", err)
	}
	if off < 0 {
		return nil, fmt.Errorf("--at %s is before the first submission (%s)", at, ar.clock(ar.first))
	}
	ar.stop = ar.first + off
	if ar.stop <= 0 {
		// sim.Options.StopAt 0 means "run to the end".
		return nil, fmt.Errorf("--at %s is the very first instant of the trace (simulated time 0), which fairsim cannot stop at; use a later time such as 0:1", at)
	}
	var src workload.Source = ps
	if wrap != nil {
		src = wrap(src)
	}
	run.Source = src
	run.Options.StopAt = ar.stop
	res, err := run.Simulate()
	if err != nil {
		return nil, err
	}
	if res.Now < ar.stop {
		return nil, fmt.Errorf("--at %s (%s) is after the end of the run: its last event is at %s, %s after the first submission",
			at, ar.clock(ar.stop), ar.clock(res.Now), slurmtime.Format(res.Now-ar.first))
	}
	ar.res = res
	return ar, nil
}

// clock names a simulated time as a date on the trace's clock when the
// trace has a UnixStartTime, else as seconds of simulated time.
func (ar *atRun) clock(t int64) string {
	if u := ar.run.Source.Header().UnixStartTime; u != 0 {
		return time.Unix(u+t, 0).In(ar.loc).Format("2006-01-02T15:04:05 MST")
	}
	return fmt.Sprintf("simulated second %d", t)
}

// describe says which moment the view shows.
func (ar *atRun) describe(w io.Writer) {
	fmt.Fprintf(w, "fairsim: state at %s after the first submission: %s (simulated second %d); %d pending, last calc tick at %s\n",
		slurmtime.Format(ar.stop-ar.first), ar.clock(ar.stop), ar.stop, len(ar.res.Pending), ar.clock(ar.mf.LastTick()))
}

// sprioOptions are the sprio switches that shape the output.
type sprioOptions struct {
	Long, Norm, Weights, NoHeader bool
	UserColumn                    bool // -u was given: the short format shows USER
}

// sprioFilter holds -j, -u and -p.
type sprioFilter struct {
	IDs   []int64
	Users []string
	Parts []string
}

// sprioRow is one pending job as sprio lists it.
type sprioRow struct {
	ID      int64
	Part    string
	User    string
	Account string
	QOS     string
	F       policy.Factors
	// Priority is the job's stored priority (what the scheduler sorts by);
	// the PRIORITY column is the sum of F, like sprio's.
	Priority uint32
}

// sprioWeights are what -w prints and -n divides by.
type sprioWeights struct {
	W    policy.Weights
	TRES policy.TRESWeights
	Raw  string // PriorityWeightTRES as configured
}

func sprioWeightsOf(run *config.Run, mf *multifactor.Policy) sprioWeights {
	p := mf.Params()
	sw := sprioWeights{W: p.Weights, TRES: p.WeightTRES}
	if run.Slurm != nil {
		sw.Raw = run.Slurm.PriorityWeightTRES
	} else if p.WeightTRES != nil {
		sw.Raw = p.WeightTRES.String()
	}
	return sw
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseJobIDs(s string) ([]int64, error) {
	var ids []int64
	for _, f := range splitList(s) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("-j: invalid job id %q", f)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// sprioSelect picks the jobs sprio would list, as Slurm's
// priority_p_get_priority_factors_list does: pending and eligible (and
// running too with CALCULATE_RUNNING), priority not 0, then -j, -u and -p;
// sorted by job id (sprio's default sort). missing explains each -j id that
// is not listed; an id the trace does not have is an error.
func sprioSelect(ar *atRun, f sprioFilter) (rows []sprioRow, missing []string, err error) {
	res, mf := ar.res, ar.mf
	names := res.Names
	jobs := slices.Clone(res.Pending)
	if mf.Params().Flags.Has(policy.FlagCalculateRunning) {
		for _, j := range res.Jobs {
			if j.State == sim.Running {
				jobs = append(jobs, j)
			}
		}
	}
	want := map[int64]bool{}
	for _, id := range f.IDs {
		want[id] = true
	}
	shown := map[int64]bool{}
	qs := mf.QOSSet()
	for _, j := range jobs {
		if j.Priority == 0 {
			continue // held
		}
		user := names.Users.Name(j.User)
		if len(want) > 0 && !want[j.ID] {
			continue
		}
		if len(f.Users) > 0 && !slices.Contains(f.Users, user) {
			continue
		}
		// One row per partition, as sprio lists a multi-partition job.
		parts, pf := []int{j.Part}, []policy.Factors{mf.Factors(j)}
		prios := []uint32{j.Priority}
		if x := mf.PartFactors(j); len(x) == len(j.Parts) && len(j.PartPrio) == len(j.Parts) {
			parts, pf, prios = j.Parts, x, j.PartPrio
		}
		for k, p := range parts {
			part := res.Cluster.Parts[p].Name
			if len(f.Parts) > 0 && !slices.Contains(f.Parts, part) {
				continue
			}
			r := sprioRow{ID: j.ID, Part: part, User: user, Account: names.Accounts.Name(j.Account),
				F: pf[k], Priority: prios[k]}
			if j.QOSIdx >= 0 {
				r.QOS = qs.QOS(j.QOSIdx).Name
			}
			rows = append(rows, r)
			shown[j.ID] = true
		}
	}
	slices.SortStableFunc(rows, func(a, b sprioRow) int { return cmpInt64(a.ID, b.ID) })
	if len(want) == 0 {
		return rows, nil, nil
	}
	byID := map[int64]*sim.Job{}
	for _, j := range res.Jobs {
		if _, ok := byID[j.ID]; !ok {
			byID[j.ID] = j
		}
	}
	var later []int64
	for _, id := range f.IDs {
		if _, ok := byID[id]; !ok && !shown[id] {
			later = append(later, id)
		}
	}
	found := laterInTrace(ar.run.Source, later)
	var unknown []string
	for _, id := range f.IDs {
		if shown[id] {
			continue
		}
		j, ok := byID[id]
		if !ok && !found[id] {
			unknown = append(unknown, strconv.FormatInt(id, 10))
			continue
		}
		missing = append(missing, ar.whyNotListed(id, j))
	}
	if len(unknown) > 0 {
		return nil, nil, fmt.Errorf("-j: no job %s in the trace", strings.Join(unknown, ", "))
	}
	return rows, missing, nil
}

// laterInTrace reads the rest of the workload (jobs submitted after the
// view) and reports which of ids it holds.
func laterInTrace(src workload.Source, ids []int64) map[int64]bool {
	found := map[int64]bool{}
	if len(ids) == 0 {
		return found
	}
	var j workload.Job
	for src.Next(&j) {
		if slices.Contains(ids, j.ID) {
			found[j.ID] = true
		}
	}
	return found
}

// whyNotListed explains why a job asked for with -j has no row.
func (ar *atRun) whyNotListed(id int64, j *sim.Job) string {
	now := ar.res.Now
	at := func(t int64) string { return "+" + slurmtime.Format(t-ar.first) }
	switch {
	case j == nil || j.Submit > now:
		return fmt.Sprintf("job %d is not listed: it is submitted after --at", id)
	case j.State == sim.Running:
		return fmt.Sprintf("job %d is not listed: running since %s", id, at(j.Start))
	case j.State == sim.Pending && j.Eligible > now:
		return fmt.Sprintf("job %d is not listed: pending but not eligible before %s", id, at(j.Eligible))
	case j.State == sim.Pending:
		return fmt.Sprintf("job %d is not listed: pending, %s", id, j.Reason)
	case j.End >= 0:
		return fmt.Sprintf("job %d is not listed: %s at %s", id, j.State, at(j.End))
	}
	return fmt.Sprintf("job %d is not listed: %s", id, j.State)
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sprioCol is one output column: a header, sprio's width and
// justification, the cell of a job and the cell of the "Weights" line.
type sprioCol struct {
	head   string
	width  int
	right  bool
	job    func(r *sprioRow) string
	weight string
}

// sprioCell prints s as sprio's _print_str does with cut_output: cut to
// width bytes, then padded to width, right- or left-justified.
func sprioCell(s string, width int, right bool) string {
	if width == 0 {
		return s
	}
	if len(s) > width {
		s = s[:width]
	}
	pad := strings.Repeat(" ", width-len(s))
	if right {
		return pad + s
	}
	return s + pad
}

// fmtInt is C's "%.0f" (round half to even on the exact binary value).
func fmtInt(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }

// fmtNorm is C's "%.7lf".
func fmtNorm(x float64) string { return strconv.FormatFloat(x, 'f', 7, 64) }

func weightStr(w uint32) string { return strconv.FormatUint(uint64(w), 10) }

// norm divides a weighted term by its weight; 0 when the weight is 0, as
// sprio -n shows it.
func norm(term float64, w uint32) string {
	if w == 0 {
		return fmtNorm(0)
	}
	return fmtNorm(term / float64(w))
}

func orNull(s string) string {
	if s == "" {
		return "(null)" // what sprio's printf prints for a missing name
	}
	return s
}

// sprioPriority is sprio's PRIORITY: the sum of the terms, at least 1
// (Slurm's get_priority_from_factors), truncated for the integer column.
func sprioPriority(f *policy.Factors) float64 {
	return max(f.Sum(), 1)
}

// sprioColumns builds the column list sprio.c chooses: the fixed long
// formats "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P
// %.10n %.10Q %.11N %.20T" (weighted) and "%.15i %9r %.8u %.8o %10y %10a
// %10b %10f %10j %10p %10n %10q %20t" (-n), or the short ones that keep
// only the factors with a non-zero weight (and USER only with -u).
func sprioColumns(sw sprioWeights, o sprioOptions) []sprioCol {
	w := sw.W
	id := sprioCol{"JOBID", 15, true, func(r *sprioRow) string { return strconv.FormatInt(r.ID, 10) }, "Weights"}
	part := sprioCol{"PARTITION", 9, false, func(r *sprioRow) string { return orNull(r.Part) }, ""}
	user := sprioCol{"USER", 8, true, func(r *sprioRow) string { return orNull(r.User) }, ""}
	acct := sprioCol{"ACCOUNT", 8, true, func(r *sprioRow) string { return orNull(r.Account) }, ""}
	// QOSNAME is "%.10n" in the weighted long format, "%10n" with -n.
	qosName := sprioCol{"QOSNAME", 10, !o.Norm, func(r *sprioRow) string { return orNull(r.QOS) }, ""}
	type factor struct {
		head string
		w    uint32
		term func(f *policy.Factors) float64
	}
	factors := []factor{
		{"AGE", w.Age, func(f *policy.Factors) float64 { return f.Age }},
		{"ASSOC", w.Assoc, func(f *policy.Factors) float64 { return f.Assoc }},
		{"FAIRSHARE", w.Fairshare, func(f *policy.Factors) float64 { return f.FairShare }},
		{"JOBSIZE", w.JobSize, func(f *policy.Factors) float64 { return f.JobSize }},
		{"PARTITION", w.Partition, func(f *policy.Factors) float64 { return f.Partition }},
		{"QOS", w.QOS, func(f *policy.Factors) float64 { return f.QOS }},
	}
	factorCol := func(fc factor) sprioCol {
		if o.Norm {
			return sprioCol{fc.head, 10, false, func(r *sprioRow) string { return norm(fc.term(&r.F), fc.w) }, weightStr(fc.w)}
		}
		return sprioCol{fc.head, 10, true, func(r *sprioRow) string { return fmtInt(fc.term(&r.F)) }, weightStr(fc.w)}
	}
	var prio, tres sprioCol
	if o.Norm {
		prio = sprioCol{"PRIORITY", 10, false, func(r *sprioRow) string {
			return fmt.Sprintf("%16.14f", sprioPriority(&r.F)/float64(uint32(0xffffffff)))
		}, ""}
		tres = sprioCol{"TRES", 20, false, func(r *sprioRow) string { return tresCell(r, sw.TRES, true) }, ""}
	} else {
		prio = sprioCol{"PRIORITY", 10, true, func(r *sprioRow) string {
			return strconv.FormatInt(int64(sprioPriority(&r.F)), 10)
		}, ""}
		tres = sprioCol{"TRES", 20, true, func(r *sprioRow) string { return tresCell(r, sw.TRES, false) }, sw.Raw}
	}
	site := sprioCol{"SITE", 10, true, func(r *sprioRow) string { return fmtInt(r.F.Site) }, "1"}
	nice := sprioCol{"NICE", 11, true, func(r *sprioRow) string { return fmtInt(r.F.Nice) }, ""}

	cols := []sprioCol{id, part}
	switch {
	case o.Long:
		cols = append(cols, user, acct, prio)
		if !o.Norm {
			cols = append(cols, site)
		}
		for i, fc := range factors {
			cols = append(cols, factorCol(fc))
			if i == 4 {
				cols = append(cols, qosName)
			}
		}
		if !o.Norm {
			cols = append(cols, nice)
		}
		return append(cols, tres)
	default:
		if o.UserColumn {
			cols = append(cols, user)
		}
		cols = append(cols, prio)
		if !o.Norm {
			cols = append(cols, site)
		}
		for _, fc := range factors {
			if fc.w != 0 {
				cols = append(cols, factorCol(fc))
			}
		}
		if sw.Raw != "" {
			cols = append(cols, tres)
		}
		return cols
	}
}

// tresCell lists the non-zero TRES terms as name=value ("%.0f" weighted,
// "%.2f" of term/weight with -n), comma-separated, like sprio's TRES column.
func tresCell(r *sprioRow, ws policy.TRESWeights, normalised bool) string {
	var b strings.Builder
	for i := 0; i < r.F.NTRES && i < len(ws); i++ {
		t := r.F.TRES[i]
		if t == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(ws[i].Name)
		b.WriteByte('=')
		if normalised {
			b.WriteString(strconv.FormatFloat(t/ws[i].Weight, 'f', 2, 64))
		} else {
			b.WriteString(fmtInt(t))
		}
	}
	return b.String()
}

// writeSprio prints the header, then the Weights line (-w) or one line per
// row; every cell is followed by a space except the last, as sprio's
// format strings put them.
func writeSprio(w io.Writer, rows []sprioRow, sw sprioWeights, o sprioOptions) error {
	cols := sprioColumns(sw, o)
	var b strings.Builder
	line := func(cell func(c *sprioCol) string) {
		for i := range cols {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(sprioCell(cell(&cols[i]), cols[i].width, cols[i].right))
		}
		b.WriteByte('\n')
	}
	if !o.NoHeader {
		line(func(c *sprioCol) string { return c.head })
	}
	if o.Weights {
		line(func(c *sprioCol) string { return c.weight })
	} else {
		for i := range rows {
			r := &rows[i]
			line(func(c *sprioCol) string { return c.job(r) })
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
