package workflow

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fairsim/config"
	"fairsim/policy"
	"fairsim/sim"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// SprioFilter holds sprio's -j, -u and -p.
type SprioFilter struct {
	IDs   []int64
	Users []string
	Parts []string
}

// SprioWeights are the weights of the run's multifactor policy as sprio
// -w shows them, PriorityWeightTRES as slurm.conf spells it.
func SprioWeights(run *config.Run) policy.SprioWeights {
	p := run.Multifactor.Params()
	sw := policy.SprioWeights{W: p.Weights, TRES: p.WeightTRES}
	if run.Slurm != nil {
		sw.Raw = run.Slurm.PriorityWeightTRES
	} else if p.WeightTRES != nil {
		sw.Raw = p.WeightTRES.String()
	}
	return sw
}

// SprioSelect picks the jobs sprio would list, as Slurm's
// priority_p_get_priority_factors_list does: pending and eligible (and
// running too with CALCULATE_RUNNING), priority not 0, then -j, -u and -p;
// sorted by job id (sprio's default sort). missing explains each -j id that
// is not listed; an id the trace does not have is an error.
func SprioSelect(ar *At, f SprioFilter) (rows []policy.SprioRow, missing []string, err error) {
	res, mf := ar.Res, ar.Mf
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
			r := policy.SprioRow{ID: j.ID, Part: part, User: user, Account: names.Accounts.Name(j.Account),
				F: pf[k], Priority: prios[k]}
			if j.QOSIdx >= 0 {
				r.QOS = qs.QOS(j.QOSIdx).Name
			}
			rows = append(rows, r)
			shown[j.ID] = true
		}
	}
	slices.SortStableFunc(rows, func(a, b policy.SprioRow) int { return cmp.Compare(a.ID, b.ID) })
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
	found := laterInTrace(ar.Run.Source, later)
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
func (ar *At) whyNotListed(id int64, j *sim.Job) string {
	now := ar.Res.Now
	at := func(t int64) string { return "+" + slurmtime.Format(t-ar.First) }
	switch {
	case j == nil || j.Submit > now:
		return fmt.Sprintf("job %d is not listed: it is submitted after --at", id)
	case j.State == sim.Running:
		return fmt.Sprintf("job %d is not listed: running since %s", id, at(j.Start))
	case j.State == sim.Pending && j.EligibleTime > now:
		return fmt.Sprintf("job %d is not listed: pending but not eligible before %s", id, at(j.EligibleTime))
	case j.State == sim.Pending:
		return fmt.Sprintf("job %d is not listed: pending, %s", id, j.Reason)
	case j.End >= 0:
		return fmt.Sprintf("job %d is not listed: %s at %s", id, j.State, at(j.End))
	}
	return fmt.Sprintf("job %d is not listed: %s", id, j.State)
}
