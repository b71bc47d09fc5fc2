package workload

import (
	"slices"
)

// parseGres sets the job's GRES request (Job.Gres) from what the line
// records and what its SubmitLine asked.
//
// The recorded request is the first of ReqTRES, ReqGRES, AllocTRES and
// AllocGRES that lists any GRES: all four are totals over the job (see
// GresFromTRES and ParseGresTotals), so they give per-job counts. Every
// one present is checked, so that a malformed value is an error even when
// an earlier column decides.
//
// The SubmitLine (sub, nil when absent or not understood) tells the
// scope: --gres and --gpus-per-node per node, -G/--gpus per job,
// --gpus-per-task per task. Per GRES name, the SubmitLine's items are kept
// when the recorded totals agree with them over the job's nodes (the
// requested minimum, else for an allocated total the allocated count,
// else 1); when they disagree, the recorded totals win, as they are what
// Slurm accounted; a name only one side gives comes from that side (a
// GRES that AccountingStorageTRES does not track is in no TRES list).
func (r *SacctReader) parseGres(l *sacctLine, j *Job, sub *SubmitRequest) *sacctProblem {
	var rec []GresReq
	recField := sacctField(-1)
	for _, f := range [...]sacctField{sfReqTRES, sfReqGRES, sfAllocTRES, sfAllocGRES} {
		b, st := l.get(f)
		if st != valOK {
			continue
		}
		var items []GresReq
		var err error
		if f == sfReqTRES || f == sfAllocTRES {
			items, err = GresFromTRES(string(b))
		} else {
			items, err = ParseGresTotals(string(b))
		}
		if err != nil {
			return &sacctProblem{field: f, reason: "bad GRES", detail: err.Error()}
		}
		if len(items) > 0 && rec == nil {
			rec, recField = items, f
		}
	}
	if recField == sfAllocTRES || recField == sfAllocGRES {
		l.defs = append(l.defs, "GRES from "+sacctFieldNames[recField]+": no requested GRES recorded")
	}

	var asked []GresReq
	if sub != nil && (len(sub.Gres) > 0 || len(sub.GresPerTask) > 0) {
		tasks := int64(1)
		if len(sub.GresPerTask) > 0 {
			var p *sacctProblem
			if tasks, p = r.taskCount(l, j, sub); p != nil {
				return p
			}
		}
		var err error
		if asked, err = sub.GresFor(tasks); err != nil {
			l.defs = append(l.defs, "SubmitLine GRES per task beyond bounds: ignored")
			asked = nil
		}
		if sub.GPUsPerSocket {
			l.defs = append(l.defs, "SubmitLine --gpus-per-socket: taken per node (sockets unknown)")
		}
	}
	nodes := 1
	switch {
	case j.Nodes > 0:
		nodes = j.Nodes
	case (recField == sfAllocTRES || recField == sfAllocGRES) && j.AllocNodes > 0:
		nodes = j.AllocNodes
	}
	for _, v := range gresTotals(asked, max(j.Nodes, 1)) {
		if v > MaxGresCount {
			l.defs = append(l.defs, "SubmitLine GRES beyond bounds over the job's nodes: ignored")
			asked = nil
			break
		}
	}
	if len(rec) == 0 && len(asked) == 0 {
		return nil
	}
	var names []string
	for _, g := range append(append([]GresReq(nil), rec...), asked...) {
		if !slices.Contains(names, g.Name) {
			names = append(names, g.Name)
		}
	}
	slices.Sort(names)
	var out []GresReq
	for _, name := range names {
		a, c := gresNamed(asked, name), gresNamed(rec, name)
		switch {
		case len(c) == 0:
			out = append(out, a...)
		case len(a) == 0:
			out = append(out, c...)
		case gresAgree(a, c, nodes):
			out = append(out, a...)
		default:
			out = append(out, c...)
			l.defs = append(l.defs, "SubmitLine GRES disagrees with "+sacctFieldNames[recField]+": recorded total used")
		}
	}
	SortGres(out)
	j.Gres = 1 + r.names.Gres.ID(FormatGres(out))
	return nil
}

// taskCount is the task count --gpus-per-task multiplies: -n, else
// --ntasks-per-node times the nodes, else the NTasks column, else one task
// per CPU (per -c CPUs when given), as srun would start.
func (r *SacctReader) taskCount(l *sacctLine, j *Job, sub *SubmitRequest) (int64, *sacctProblem) {
	switch {
	case sub.NTasks > 0:
		return int64(sub.NTasks), nil
	case sub.NTasksPerNode > 0:
		return int64(sub.NTasksPerNode) * int64(max(j.Nodes, 1)), nil
	}
	if n, ok := l.count(sfNTasks); ok && n > 0 {
		return n, nil
	}
	if l.bad != nil {
		return 0, l.bad
	}
	l.defs = append(l.defs, "SubmitLine --gpus-per-task without a task count: one task per CPU")
	cpus := int64(max(j.CPUs, 1))
	if sub.CPUsPerTask > 0 {
		cpus = max(cpus/int64(sub.CPUsPerTask), 1)
	}
	return cpus, nil
}

// gresNamed is the items of one GRES name.
func gresNamed(reqs []GresReq, name string) []GresReq {
	var out []GresReq
	for _, g := range reqs {
		if g.Name == name {
			out = append(out, g)
		}
	}
	return out
}

// gresAgree tells whether asked (one GRES name, any scope) comes to the
// recorded per-job totals rec over nodes nodes: the same total, and the
// same count for each type the record lists (a record without types,
// from a site tracking only gres/NAME, agrees with any types).
func gresAgree(asked, rec []GresReq, nodes int) bool {
	at, rt := gresTotals(asked, nodes), gresTotals(rec, nodes)
	var sumA, sumR int64
	recTyped := false
	for k, v := range rt {
		sumR += v
		recTyped = recTyped || k.typ != ""
	}
	for _, v := range at {
		sumA += v
	}
	if sumA != sumR {
		return false
	}
	if !recTyped {
		return true
	}
	for k, v := range at {
		if k.typ != "" && rt[k] != v {
			return false
		}
	}
	return true
}
