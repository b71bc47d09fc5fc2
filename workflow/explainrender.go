package workflow

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"fairsim/policy"
	"fairsim/report"
	"fairsim/sim"
)

// signed prints a whole number with its sign, +0 for anything that
// rounds to zero.
func signed(v float64) string {
	r := math.Round(v)
	if r == 0 {
		return "+0"
	}
	return fmt.Sprintf("%+.0f", r)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// clock prints a time since the trace epoch as Slurm prints durations,
// [D-]HH:MM:SS, so it reads as "day D, hour HH".
func clock(t int64) string {
	if t < 0 {
		return "never"
	}
	return fmt.Sprintf("%d-%02d:%02d:%02d", t/86400, t/3600%24, t/60%60, t%60)
}

// dur prints a duration as [D-]HH:MM:SS.
func dur(s int64) string {
	if s < 0 {
		s = 0
	}
	if s >= 86400 {
		return clock(s)
	}
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

func passName(k sim.PassKind) string {
	switch k {
	case sim.PassBackfill:
		return "backfill pass"
	case sim.PassFull:
		return "main scheduler (periodic full pass)"
	default:
		return "main scheduler (event-triggered pass)"
	}
}

// Write prints the story: the job's timeline, a plain summary of why it
// waited, then the evidence (priority by factor at each tick, rank,
// reservation, jobs that started ahead, fair share).
func (st *Story) Write(w io.Writer, maxRows int) {
	if maxRows <= 0 {
		maxRows = 24
	}
	t, r := st.Job, st.Res
	nm := r.Names
	part := r.Cluster.Parts[max(t.Part, 0)]
	qos := nm.QOS.Name(t.Job.QOS)
	if st.Mf != nil && t.QOSIdx >= 0 {
		qos = st.Mf.QOSSet().QOS(t.QOSIdx).Name
	}
	if qos == "" {
		qos = "(none)"
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	p("Job %d: user %s, account %s, partition %s (PriorityTier %d), QOS %s", t.ID, nm.Users.Name(t.User),
		nm.Accounts.Name(t.Account), part.Name, part.PriorityTier, qos)
	limit := "UNLIMITED"
	if t.TimeLimit > 0 {
		limit = dur(t.TimeLimit)
	}
	gres := ""
	if t.Job.Gres > 0 {
		gres = ", GRES " + nm.Gres.Name(t.Job.Gres-1)
	}
	p("  asks %d CPUs%s%s, time limit %s; scheduler %s", t.CPUs, nodesText(t.Nodes), gres, limit, r.Scheduler)
	p("")
	if t.SubmitShift > 0 {
		p("  submitted  %s  (by its user; anew at %s, when it was last requeued)", clock(t.FirstSubmit()), clock(t.Submit))
	} else {
		p("  submitted  %s", clock(t.Submit))
	}
	if t.State == sim.Rejected {
		p("  rejected at submit: %s", t.Reason)
		return
	}
	if t.EligibleTime != t.Submit {
		p("  eligible   %s  (%s after submit: begin time or dependency)", clock(t.EligibleTime), dur(t.EligibleTime-t.Submit))
	} else {
		p("  eligible   %s  (at once)", clock(t.EligibleTime))
	}
	switch {
	case t.Start >= 0:
		by := "the main scheduler"
		if t.StartedBy == sim.ByBackfill {
			by = "the backfill scheduler"
		}
		p("  started    %s  by %s, after waiting %s, on %d node(s) of type %s", clock(t.Start), by, dur(t.Start-t.EligibleTime),
			len(t.Alloc), r.Cluster.Types[t.NodeType].Name)
		p("  allocated  %s", allocText(r.Cluster, t))
		p("  ended      %s  %s after %s", clock(t.End), t.State, dur(t.End-t.Start))
		if t.State == sim.Timeout && policy.IsLimitReason(t.Reason) {
			p("             (ended at the limit %s: acct_policy_job_time_out)", t.Reason)
		}
		if t.Limit > 0 && t.Limit != t.TimeLimit {
			p("             (its time limit became %s on %s nodes: runtimes and limits scale with CPU speed)", dur(t.Limit), r.Cluster.Types[t.NodeType].Name)
		}
	default:
		p("  never started: %s when the run ended at %s, after waiting %s (Reason=%s)", t.State, clock(r.Now), dur(st.until-t.EligibleTime), reasonName(t.Reason))
	}
	if t.Preemptions > 0 {
		p("  preempted %d time(s), losing %.1f core-hours", t.Preemptions, t.LostCoreSecs/3600)
	}
	p("")
	p("Why it waited")
	for _, s := range st.summary() {
		p("  %s", s)
	}
	st.writeTicks(w, maxRows)
	st.writePasses(w, maxRows)
	st.writeAhead(w)
	st.writeFairShare(w)
}

// allocText is a started job's nodes as a hostlist and its AllocTRES as
// sacct prints them, and the GPUs it holds per kind when accounting does
// not track them as TRES (AllocTRES then does not show them).
func allocText(c *sim.Cluster, j *sim.Job) string {
	tres := c.JobTRES(j)
	s := report.NodeList(c, j.Alloc) + "  AllocTRES " + tres.SacctString()
	if n := c.AllocGPUs(j.Alloc); n > 0 && !strings.Contains(s, "gres/gpu") {
		held := c.AllocGres(j.Alloc, nil)
		var kinds []string
		for _, k := range report.GPUKinds(c) {
			if held[k] > 0 {
				kinds = append(kinds, fmt.Sprintf("%s=%d", c.GresKinds[k], held[k]))
			}
		}
		s += fmt.Sprintf("; %d GPU(s) (%s), not tracked as TRES", n, strings.Join(kinds, ","))
	}
	return s
}

// jobs counts jobs in words: "1 job", "3 jobs".
func jobs(n int) string {
	if n == 1 {
		return "1 job"
	}
	return fmt.Sprintf("%d jobs", n)
}

func nodesText(n int) string {
	if n > 0 {
		return fmt.Sprintf(" on %d node(s)", n)
	}
	return ""
}

// reasonTime splits the wait by the Reason slurmctld would show: the
// time from each recorded pass to the next change.
func (st *Story) reasonTime() map[string]int64 {
	out := map[string]int64{}
	t := st.Job
	prevT, prevR := t.EligibleTime, "None"
	for _, ps := range st.Passes {
		if ps.T < t.EligibleTime {
			continue // before a requeue: an earlier wait
		}
		if ps.Start {
			break
		}
		out[prevR] += ps.T - prevT
		prevT, prevR = ps.T, reasonName(ps.Reason)
	}
	out[prevR] += st.until - prevT
	return out
}

// reasonName is the Reason squeue shows: None until a pass that reached
// the job gave it one.
func reasonName(r string) string {
	if r == "" {
		return "None"
	}
	return r
}

func (st *Story) summary() []string {
	t := st.Job
	wait := st.until - t.EligibleTime
	var out []string
	if n := t.Preemptions + t.NodeFails; n > 0 && t.SubmitShift > 0 {
		out = append(out, fmt.Sprintf("It was requeued %d time(s) (preempted, or its node failed) and submitted anew: what follows is its wait since it became eligible again at %s.", n, clock(t.EligibleTime)))
	}
	if wait <= 0 {
		return append(out, "It did not wait: resources were free and no job ahead of it needed them when it became eligible.")
	}
	rt := st.reasonTime()
	var parts []string
	keys := make([]string, 0, len(rt))
	for k := range rt {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if rt[a] != rt[b] {
			return int(rt[b] - rt[a])
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		if rt[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s for %s (%.0f%%)", k, dur(rt[k]), 100*float64(rt[k])/float64(wait)))
		}
	}
	if len(parts) > 0 {
		out = append(out, "squeue would have shown Reason="+strings.Join(parts, ", ")+".")
		out = append(out, "  (Priority: jobs ahead of it in its partition's queue were waiting too; Resources: it was at the head of the queue but its CPUs were not free; None: no pass had reached it yet, as the main scheduler stops at the first job of a full partition.)")
		for _, k := range keys {
			if rt[k] > 0 && policy.IsLimitReason(k) {
				out = append(out, fmt.Sprintf("It was held by the limit %s for %s: a QOS or association limit (acct_policy.c), not a lack of resources.", k, dur(rt[k])))
			}
		}
	}
	ticks := st.Ticks
	for len(ticks) > 0 && ticks[0].T < t.EligibleTime {
		ticks = ticks[1:] // before a requeue
	}
	if n := len(ticks); n > 0 {
		a, b := ticks[0], ticks[n-1]
		out = append(out, fmt.Sprintf("Its rank in %s's queue went from %d of %d pending at %s to %d of %d at %s.",
			st.Res.Cluster.Parts[t.Part].Name, a.Rank, a.Pending, clock(a.T), b.Rank, b.Pending, clock(b.T)))
		out = append(out, fmt.Sprintf("Its priority went from %d to %d: age %s, fair-share %s, the other factors %s.",
			a.Priority, b.Priority, signed(b.Factors.Age-a.Factors.Age), signed(b.Factors.FairShare-a.Factors.FairShare),
			signed((b.Factors.Sum()-b.Factors.Age-b.Factors.FairShare)-(a.Factors.Sum()-a.Factors.Age-a.Factors.FairShare))))
		if b.FairShare < a.FairShare-1e-9 {
			out = append(out, fmt.Sprintf("Its fair-share factor fell from %.4f to %.4f while it waited: its account used more than its share.", a.FairShare, b.FairShare))
		} else if b.FairShare > a.FairShare+1e-9 {
			out = append(out, fmt.Sprintf("Its fair-share factor rose from %.4f to %.4f while it waited, as its account's decayed usage fell.", a.FairShare, b.FairShare))
		}
	} else if st.Mf == nil {
		out = append(out, "The "+st.Res.Scheduler+" scheduler has no priorities: its queue is in submit order.")
	}
	var higher, lowerBF, other int
	for _, a := range st.Ahead {
		switch {
		case a.Higher:
			higher++
		case a.Job.StartedBy == sim.ByBackfill:
			lowerBF++
		default:
			other++
		}
	}
	if len(st.Ahead) > 0 {
		var parts []string
		if higher > 0 {
			parts = append(parts, fmt.Sprintf("%s ahead of it in priority (or in a higher PriorityTier partition)", jobs(higher)))
		}
		if lowerBF > 0 {
			parts = append(parts, fmt.Sprintf("%s of lower priority backfilled into idle CPUs (backfill starts a job only where it delays no reservation of a job ahead of it)", jobs(lowerBF)))
		}
		if other > 0 {
			parts = append(parts, fmt.Sprintf("%s of lower priority started by the main scheduler on CPUs it could not use", jobs(other)))
		}
		out = append(out, fmt.Sprintf("%s started on its partition's nodes while it waited: %s.", jobs(len(st.Ahead)), strings.Join(parts, "; ")))
	}
	if t.Start >= 0 && t.StartedBy == sim.ByBackfill {
		rank := 0
		if n := len(st.Ticks); n > 0 {
			rank = st.Ticks[n-1].Rank
		}
		s := "It was started by backfill"
		if rank > 1 {
			s += fmt.Sprintf(" while %d job(s) were ahead of it in the queue", rank-1)
		}
		out = append(out, s+fmt.Sprintf(": its %d CPUs were idle for its whole time limit without delaying any reservation of a job ahead of it.", t.CPUs))
	}
	if t.Start >= 0 && t.StartedBy == sim.ByMain && wait > 0 {
		out = append(out, "It was started by the main scheduler once it reached the head of its partition's queue and its CPUs were free.")
	}
	return out
}

// writeTicks prints the priority breakdown at each tick, keeping the
// first and last tick and those where the rank or the fair-share factor
// moved, at most maxRows.
func (st *Story) writeTicks(w io.Writer, maxRows int) {
	if len(st.Ticks) == 0 {
		return
	}
	pp := st.Mf.Params()
	type col struct {
		name string
		get  func(f *policy.Factors) float64
		on   bool
	}
	cols := []col{
		{"AGE", func(f *policy.Factors) float64 { return f.Age }, pp.Weights.Age > 0},
		{"ASSOC", func(f *policy.Factors) float64 { return f.Assoc }, pp.Weights.Assoc > 0},
		{"FAIRSHARE", func(f *policy.Factors) float64 { return f.FairShare }, pp.Weights.Fairshare > 0},
		{"JOBSIZE", func(f *policy.Factors) float64 { return f.JobSize }, pp.Weights.JobSize > 0},
		{"PARTITION", func(f *policy.Factors) float64 { return f.Partition }, pp.Weights.Partition > 0},
		{"QOS", func(f *policy.Factors) float64 { return f.QOS }, pp.Weights.QOS > 0},
		{"TRES", func(f *policy.Factors) float64 { return f.TRESSum() }, false},
		{"SITE", func(f *policy.Factors) float64 { return f.Site }, false},
		{"NICE", func(f *policy.Factors) float64 { return -f.Nice }, false},
	}
	for i := range cols {
		for k := range st.Ticks {
			if cols[i].get(&st.Ticks[k].Factors) != 0 {
				cols[i].on = true
			}
		}
	}
	keep := make([]bool, len(st.Ticks))
	keep[0], keep[len(keep)-1] = true, true
	for i := 1; i < len(st.Ticks); i++ {
		a, b := st.Ticks[i-1], st.Ticks[i]
		if a.Rank != b.Rank || math.Abs(a.FairShare-b.FairShare) > 0.005 {
			keep[i] = true
		}
	}
	var idx []int
	for i, k := range keep {
		if k {
			idx = append(idx, i)
		}
	}
	if len(idx) > maxRows { // thin evenly, keeping both ends
		var thin []int
		for k := 0; k < maxRows-1; k++ {
			thin = append(thin, idx[k*(len(idx)-1)/(maxRows-1)])
		}
		idx = append(thin, idx[len(idx)-1])
	}
	fmt.Fprintf(w, "\nPriority at each PriorityCalcPeriod tick while it pended (sprio's weighted factors; %d ticks, %d shown)\n", len(st.Ticks), len(idx))
	hdr := fmt.Sprintf("  %-12s %10s", "TIME", "PRIORITY")
	for _, c := range cols {
		if c.on {
			hdr += fmt.Sprintf(" %10s", c.name)
		}
	}
	hdr += fmt.Sprintf(" %11s %9s  %s", "RANK", "FS_FACTOR", "ACCOUNT EffectvUsage/NormShares")
	fmt.Fprintln(w, hdr)
	prev := -1
	for _, i := range idx {
		if prev >= 0 && i > prev+1 {
			fmt.Fprintf(w, "  ... %d ticks ...\n", i-prev-1)
		}
		k := &st.Ticks[i]
		line := fmt.Sprintf("  %-12s %10d", clock(k.T), k.Priority)
		for _, c := range cols {
			if c.on {
				line += fmt.Sprintf(" %10.0f", c.get(&k.Factors))
			}
		}
		acct := "-"
		if st.account >= 0 {
			acct = fmt.Sprintf("%.4f/%.4f", k.AcctUsage, k.AcctShares)
		}
		line += fmt.Sprintf(" %11s %9.4f  %s", fmt.Sprintf("%d/%d", k.Rank, k.Pending), k.FairShare, acct)
		fmt.Fprintln(w, line)
		prev = i
	}
}

// minMove is the smallest move of a reservation writePasses lists on its
// own line; smaller ones (the reservation creeping with each pass) are
// counted.
const minMove = 15 * 60

func (st *Story) writePasses(w io.Writer, maxRows int) {
	var lines []string
	small := 0
	shown := Pass{Expect: -1}
	for i, ps := range st.Passes {
		last := i == len(st.Passes)-1 || st.Passes[i+1].Start
		if i > 0 && !ps.Start && !last && ps.Reason == shown.Reason && ps.Expect >= 0 && shown.Expect >= 0 &&
			abs64(ps.Expect-shown.Expect) < minMove {
			small++
			continue
		}
		shown = ps
		in := "in " + dur(ps.Expect-ps.T)
		if ps.Expect < ps.T {
			in = "already due"
		}
		switch {
		case ps.Start && st.Job.StartedBy == sim.ByBackfill && ps.Kind != sim.PassBackfill:
			// EASY backfills inside every pass: the job was backfilled,
			// in a pass the main scheduler ran.
			lines = append(lines, fmt.Sprintf("%s  started by backfill within the %s", clock(ps.T), passName(ps.Kind)))
		case ps.Start:
			lines = append(lines, fmt.Sprintf("%s  started by the %s", clock(ps.T), passName(ps.Kind)))
		case ps.Expect >= 0:
			lines = append(lines, fmt.Sprintf("%s  %s: reservation at %s (%s), Reason=%s", clock(ps.T), passName(ps.Kind), clock(ps.Expect), in, reasonName(ps.Reason)))
		default:
			lines = append(lines, fmt.Sprintf("%s  %s: no reservation, Reason=%s", clock(ps.T), passName(ps.Kind), reasonName(ps.Reason)))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\nReservation and Reason after the passes that changed them (%d changes; %d moves of under %d min not listed)\n", len(st.Passes), small, minMove/60)
	if len(lines) > maxRows {
		h := maxRows / 2
		skipped := len(lines) - 2*h
		lines = append(append(lines[:h:h], fmt.Sprintf("  ... %d more changes ...", skipped)), lines[len(lines)-h:]...)
	}
	for _, l := range lines {
		fmt.Fprintln(w, "  "+l)
	}
}

func (st *Story) writeAhead(w io.Writer) {
	if len(st.Ahead) == 0 {
		return
	}
	nm := st.Res.Names
	byAcct := map[string]int{}
	var main, bf int
	for _, a := range st.Ahead {
		byAcct[nm.Accounts.Name(a.Job.Account)]++
		if a.Job.StartedBy == sim.ByBackfill {
			bf++
		} else {
			main++
		}
	}
	accts := make([]string, 0, len(byAcct))
	for a := range byAcct {
		accts = append(accts, a)
	}
	slices.SortFunc(accts, func(a, b string) int {
		if byAcct[a] != byAcct[b] {
			return byAcct[b] - byAcct[a]
		}
		return strings.Compare(a, b)
	})
	var top []string
	for i, a := range accts {
		if i == 6 {
			top = append(top, fmt.Sprintf("%d more accounts", len(accts)-6))
			break
		}
		top = append(top, fmt.Sprintf("%s %d", a, byAcct[a]))
	}
	fmt.Fprintf(w, "\nJobs that started on its partition's nodes while it waited: %d (%d by the main scheduler, %d by backfill)\n", len(st.Ahead), main, bf)
	fmt.Fprintf(w, "  by account: %s\n", strings.Join(top, ", "))
	const show = 12
	list := st.Ahead
	if len(list) > show {
		fmt.Fprintf(w, "  the last %d before it started:\n", show)
		list = list[len(list)-show:]
	}
	fmt.Fprintf(w, "  %-12s %10s %-10s %-12s %5s %10s %10s  %s\n", "START", "JOBID", "ACCOUNT", "PARTITION", "CPUS", "PRIORITY", "ITS_PRIO", "PASS / WHY AHEAD")
	for _, a := range list {
		j := a.Job
		why := "lower priority"
		switch {
		case st.Res.Cluster.Parts[j.Part].PriorityTier > st.Res.Cluster.Parts[st.Job.Part].PriorityTier:
			why = "higher PriorityTier partition"
		case a.Higher:
			why = "higher priority"
		}
		if j.StartedBy == sim.ByBackfill && !a.Higher {
			why += ", fit in idle CPUs"
			if a.TargetExpect >= j.Start { // a reservation still ahead
				if end := j.Start + j.Limit; j.Limit > 0 && end <= a.TargetExpect {
					why += " until " + clock(end) + ", before its reservation at " + clock(a.TargetExpect)
				} else {
					why += " off the nodes of its reservation at " + clock(a.TargetExpect)
				}
			}
		}
		fmt.Fprintf(w, "  %-12s %10d %-10s %-12s %5d %10d %10d  %s: %s\n", clock(j.Start), j.ID, nm.Accounts.Name(j.Account),
			st.Res.Cluster.Parts[j.Part].Name, j.Alloc.Cores(), j.Priority, a.TargetPrio, j.StartedBy, why)
	}
}

func (st *Story) writeFairShare(w io.Writer) {
	if st.Mf == nil || st.Job.Assoc < 0 || len(st.Ticks) == 0 {
		return
	}
	a, b := st.Ticks[0], st.Ticks[len(st.Ticks)-1]
	tree := st.Mf.Engine().Tree()
	acct := st.Res.Names.Accounts.Name(st.Job.Account)
	fmt.Fprintf(w, "\nFair share of its association (%s in account %s) from %s to %s\n", tree.User(st.Job.Assoc), acct, clock(a.T), clock(b.T))
	fmt.Fprintf(w, "  FairShare factor %.4f -> %.4f; account EffectvUsage %.4f -> %.4f against NormShares %.4f (%s)\n",
		a.FairShare, b.FairShare, a.AcctUsage, b.AcctUsage, b.AcctShares, st.Mf.Engine().Config().Algorithm)
	if b.AcctShares > 0 {
		ratio := b.AcctUsage / b.AcctShares
		switch {
		case ratio > 1.05:
			fmt.Fprintf(w, "  The account had used %.1f times its share: fair-share ranks its jobs below those of lighter accounts.\n", ratio)
		case ratio < 0.95:
			fmt.Fprintf(w, "  The account had used %.0f%% of its share: fair-share favoured its jobs.\n", 100*ratio)
		default:
			fmt.Fprintln(w, "  The account had used about its share.")
		}
	}
}
