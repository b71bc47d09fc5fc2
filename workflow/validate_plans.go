package workflow

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"fairsim/config"
	"fairsim/report"
	"fairsim/scheduler"
	"fairsim/slurmtime"
)

// PlanCheck compares the backfill cycles slurmctld logged (DebugFlags=
// Backfill) with fairsim's on the same replay: each logged cycle against
// fairsim's cycle in the same second, the one before or after (their
// sub-second phases differ), or the last before it, whose plan is still
// in force when nothing changed since (fairsim runs no cycle then).
type PlanCheck struct {
	File      string
	Cycles    int // logged cycles within the replay, with jobs pending
	Same      int // of them, planned as fairsim planned: the same starts, each reservation at the same time on the same nodes
	Near      int // the same but for expected starts a second apart (sub-second phases)
	Differing int
	Diffs     []PlanDiff // the first planDiffsShown differing cycles
	Rows      []PlanRow  // every compared cycle, for backfill_plans.csv
}

// PlanRow is one compared cycle: when the controller and fairsim ran it
// (seconds from the first submission; SimAt -1 for none), the outcome
// (same, near or differ) and how many jobs differ.
type PlanRow struct {
	At, SimAt int64
	Outcome   string
	Jobs      int
}

// PlanDiff is a logged cycle that fairsim planned otherwise: At and
// SimAt are the logged cycle's and fairsim's, in seconds from the first
// submission (SimAt -1: fairsim had run no cycle yet).
type PlanDiff struct {
	At, SimAt int64
	Jobs      []PlanJobDiff
}

// PlanJobDiff is one job's plan in the logged cycle and in fairsim's.
type PlanJobDiff struct {
	Job       int64
	Real, Sim string
}

const planDiffsShown = 3

// planCycle is a cycle's plans by job, times in simulated seconds.
type planCycle struct {
	at    int64
	plans map[int64]BackfillPlan
}

// comparePlans replays sc with its backfill cycles traced and compares
// them with the cycles of slurmctld's log at logPath.
func comparePlans(sc *config.Scenario, logPath string) (*PlanCheck, error) {
	loc := time.Local
	if tz := sc.Trace.TimeZone; tz != "" {
		l, err := time.LoadLocation(tz)
		if err != nil {
			return nil, fmt.Errorf("trace.time_zone %q: %v", tz, err)
		}
		loc = l
	}
	logged, err := ReadBackfillLogFile(logPath, loc)
	if err != nil {
		return nil, err
	}
	var p Pipeline
	run, err := p.Build(sc)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	s, ok := run.Scheduler.(*scheduler.Slurm)
	if !ok {
		return nil, fmt.Errorf("--slurmctld-log: the scenario's scheduler is %s; backfill plans need scheduler: slurm", sc.Scheduler)
	}
	c := run.Cluster
	var sims []planCycle
	s.Trace = func(e scheduler.BackfillEvent) {
		if e.Kind == scheduler.CycleBegins {
			sims = append(sims, planCycle{at: e.Now, plans: map[int64]BackfillPlan{}})
			return
		}
		bp := BackfillPlan{Job: e.Job.ID, Started: e.Kind == scheduler.Started, Start: e.Start, End: e.End,
			Nodes: report.NodeList(c, e.Alloc), Part: c.Parts[e.Part].Name}
		sims[len(sims)-1].plans[bp.Job] = bp
	}
	res, err := p.Simulate(run)
	if err != nil {
		return nil, err
	}
	wall := c.Wall()
	var last int64
	for _, j := range res.Jobs {
		last = max(last, j.End)
	}
	pc := &PlanCheck{File: logPath}
	for _, lc := range logged {
		at := lc.At - wall
		if at < 0 || at > last || lc.NoJobs {
			continue // before the replay, after it, or with no job pending
		}
		real := planCycle{at: at, plans: map[int64]BackfillPlan{}}
		for _, bp := range lc.Plans {
			bp.Start -= wall
			if !bp.Started {
				bp.End -= wall
			}
			real.plans[bp.Job] = bp
		}
		pc.Cycles++
		// The candidates: fairsim's cycles within a second of it, and the
		// plan in force, fairsim's last cycle before them, whose starts
		// have happened.
		best, bi := []PlanJobDiff(nil), -1
		k, _ := slices.BinarySearchFunc(sims, at+2, func(x planCycle, t int64) int { return cmp.Compare(x.at, t) })
		i := k - 1
		for ; i >= 0 && sims[i].at >= at-1; i-- {
			if d := diffPlans(&real, &sims[i], false, 0); bi < 0 || len(d) < len(best) {
				best, bi = d, i
			}
		}
		if i >= 0 {
			if d := diffPlans(&real, &sims[i], true, 0); bi < 0 || len(d) < len(best) {
				best, bi = d, i
			}
		}
		chosen := &planCycle{at: -1}
		if bi >= 0 {
			chosen = &sims[bi]
		} else {
			best = diffPlans(&real, chosen, true, 0)
		}
		row := PlanRow{At: at, SimAt: chosen.at, Outcome: "differ", Jobs: len(best)}
		switch {
		case len(best) == 0:
			row.Outcome = "same"
		case len(diffPlans(&real, chosen, chosen.at < at-1, 1)) == 0:
			row.Outcome = "near"
		}
		pc.Rows = append(pc.Rows, row)
		switch row.Outcome {
		case "same":
			pc.Same++
			continue
		case "near":
			pc.Near++
			continue
		}
		pc.Differing++
		if len(pc.Diffs) < planDiffsShown {
			pc.Diffs = append(pc.Diffs, PlanDiff{At: at, SimAt: chosen.at, Jobs: best})
		}
	}
	if pc.Cycles == 0 {
		return nil, fmt.Errorf("%s: no backfill cycle with a job within the replay (first submission at %s)", logPath,
			time.Unix(wall, 0).In(loc).Format("2006-01-02T15:04:05"))
	}
	return pc, nil
}

// diffPlans lists the jobs a logged cycle and fairsim's plan differently,
// by job id, expected starts up to slack seconds apart counting as the
// same. In a cycle of an earlier second (inForce), fairsim's starts have
// happened: only its reservations stand.
func diffPlans(real, sim *planCycle, inForce bool, slack int64) []PlanJobDiff {
	ids := map[int64]bool{}
	for id := range real.plans {
		ids[id] = true
	}
	for id, bp := range sim.plans {
		if !inForce || !bp.Started {
			ids[id] = true
		}
	}
	var out []PlanJobDiff
	for _, id := range slices.Sorted(func(yield func(int64) bool) {
		for id := range ids {
			if !yield(id) {
				return
			}
		}
	}) {
		r, rok := real.plans[id]
		s, sok := sim.plans[id]
		if sok && inForce && s.Started {
			sok = false
		}
		if rok && sok && r.Started == s.Started && r.Nodes == s.Nodes && (r.Started || max(r.Start-s.Start, s.Start-r.Start) <= slack) {
			continue
		}
		out = append(out, PlanJobDiff{Job: id, Real: planString(r, rok), Sim: planString(s, sok)})
	}
	return out
}

func planString(p BackfillPlan, ok bool) string {
	switch {
	case !ok:
		return "not planned"
	case p.Started:
		return "started on " + p.Nodes
	}
	return "expected at " + slurmtime.Format(p.Start) + " on " + p.Nodes
}

// write prints the comparison, after validate's other figures.
func (pc *PlanCheck) write(w io.Writer) {
	fmt.Fprintf(w, "  backfill plans against slurmctld's log (%s): %d cycles with jobs, %d planned as fairsim planned them, %d but for expected starts a second apart, %d otherwise\n",
		pc.File, pc.Cycles, pc.Same, pc.Near, pc.Differing)
	for _, d := range pc.Diffs {
		sim := "none before it"
		if d.SimAt >= 0 {
			sim = "at " + slurmtime.Format(d.SimAt)
		}
		fmt.Fprintf(w, "    cycle at %s (fairsim's %s):\n", slurmtime.Format(d.At), sim)
		for _, j := range d.Jobs[:min(len(d.Jobs), 8)] {
			fmt.Fprintf(w, "      job %d: slurmctld %s; fairsim %s\n", j.Job, j.Real, j.Sim)
		}
		if n := len(d.Jobs) - 8; n > 0 {
			fmt.Fprintf(w, "      ... and %d more job%s\n", n, strings.Repeat("s", min(n-1, 1)))
		}
	}
}

// csv is backfill_plans.csv: one row per compared cycle.
func (pc *PlanCheck) csv() []byte {
	var b strings.Builder
	b.WriteString("LoggedAt,SimAt,Outcome,JobsDiffering\n")
	for _, r := range pc.Rows {
		fmt.Fprintf(&b, "%d,%d,%s,%d\n", r.At, r.SimAt, r.Outcome, r.Jobs)
	}
	return []byte(b.String())
}
