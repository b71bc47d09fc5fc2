package sim

import (
	"fmt"
	"strings"

	"fairsim/policy"
)

// TRESGres is a GRES that accounting tracks as a TRES
// (AccountingStorageTRES=gres/gpu,gres/gpu:a100): its TRES name and the
// GRES kinds it counts (all types of the name for an untyped entry).
type TRESGres struct {
	Name string // "gres/gpu", "gres/gpu:a100"
	Mask uint64
}

// TrackTRES sets the GRES TRES the cluster's accounting tracks from an
// AccountingStorageTRES value. Slurm tracks cpu, mem, energy, node,
// billing, fs/disk, vmem and pages always and a GRES only when listed: a
// job's GPUs then show in AllocTRES and count in TRESBillingWeights,
// PriorityWeightTRES and TRES limits. It returns a warning when nodes have
// GPUs that are not tracked, since Slurm then bills and limits jobs as if
// they had none.
func (c *Cluster) TrackTRES(list string) (warning string, err error) {
	c.TRESGres = c.TRESGres[:0]
	for _, item := range strings.Split(list, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		name, ok := strings.CutPrefix(item, "gres/")
		if !ok || name == "" {
			continue // cpu, mem, license/..., bb/...: tracked or not, no GRES
		}
		gname, gtype, _ := strings.Cut(name, ":")
		if gname == "" || strings.Contains(gtype, ":") {
			return "", fmt.Errorf("AccountingStorageTRES item %q: want gres/NAME or gres/NAME:TYPE", item)
		}
		dup := false
		for _, t := range c.TRESGres {
			dup = dup || t.Name == item
		}
		if !dup {
			c.TRESGres = append(c.TRESGres, TRESGres{Name: item, Mask: c.gresMask(gname, gtype)})
		}
	}
	if c.GPUs > 0 && c.TRESMask(c.gresMask("gpu", "")) == 0 {
		warning = fmt.Sprintf("the nodes have %d GPUs but AccountingStorageTRES does not list gres/gpu: as in Slurm, "+
			"jobs' AllocTRES, TRESBillingWeights and PriorityWeightTRES do not see them (they are still allocated)", c.GPUs)
	}
	return warning, nil
}

// TRESMask is the union of the tracked GRES TRES's kinds within mask.
func (c *Cluster) TRESMask(mask uint64) uint64 {
	var m uint64
	for _, t := range c.TRESGres {
		m |= t.Mask & mask
	}
	return m
}

// AllocTRES is the TRES of an allocation as Slurm's tres_alloc_cnt holds
// it: CPUs, memory (MB), nodes and each tracked GRES TRES (gres/gpu counts
// every GPU, gres/gpu:a100 those of its type). Billing is left 0 for the
// policy to fill.
func (c *Cluster) AllocTRES(a Alloc) policy.TRESAlloc {
	tr := policy.TRESAlloc{CPU: uint64(a.Cores()), MemMB: uint64(max(a.MemMB(), 0)), Node: uint64(len(a))}
	for _, t := range c.TRESGres {
		k := 0
		for _, s := range a {
			k += c.SliceGres(s, t.Mask)
		}
		if k > 0 {
			tr.Other = append(tr.Other, policy.TRESCount{Name: t.Name, Count: uint64(k)})
		}
	}
	return tr
}

// PartTRES is the TRES of partition p's nodes, the denominators of
// PriorityWeightTRES's factors.
func (c *Cluster) PartTRES(p int) policy.TRESAlloc {
	part := &c.Parts[p]
	tr := policy.TRESAlloc{CPU: uint64(part.TotalCores), Node: uint64(len(part.Nodes))}
	for _, n := range part.Nodes {
		tr.MemMB += uint64(max(c.Nodes[n].MemMB, 0))
	}
	for _, t := range c.TRESGres {
		k := 0
		for _, n := range part.Nodes {
			k += c.countMatching(n, t.Mask)
		}
		if k > 0 {
			tr.Other = append(tr.Other, policy.TRESCount{Name: t.Name, Count: uint64(k)})
		}
	}
	return tr
}

// JobTRES is a started job's AllocTRES: its allocation's TRES with the
// billing Slurm records, the billable TRES truncated to a whole number
// (tres_alloc_cnt[TRES_ARRAY_BILLING] = calc_job_billable_tres). A job
// that never started holds nothing.
func (c *Cluster) JobTRES(j *Job) policy.TRESAlloc {
	if j.Start < 0 || len(j.Alloc) == 0 {
		return policy.TRESAlloc{}
	}
	tr := c.AllocTRES(j.Alloc)
	tr.Billing = uint64(max(j.Billing, 0))
	return tr
}

// RequestTRES is a request's TRES as select_nodes counts them for the
// limits of a job it has no allocation for (node_scheduler.c
// tres_req_cnt): the CPUs, memory and nodes given, and of each GRES the
// count asked, per node times nodes or over the job, into the tracked
// GRES TRES as gres_ctld.c's _set_type_tres_cnt puts it: gres/NAME
// counts every request of NAME; gres/NAME:TYPE the requests of that
// type, or an untyped request where gres/NAME itself is not tracked
// (the first tracked type of NAME, "better than nothing").
func (c *Cluster) RequestTRES(r *Request, cpus, memMB, nodes uint64) policy.TRESAlloc {
	tr := policy.TRESAlloc{CPU: cpus, MemMB: memMB, Node: nodes}
	tracked := func(name string) bool {
		for _, t := range c.TRESGres {
			if t.Name == name {
				return true
			}
		}
		return false
	}
	set := func(name string, n uint64, add bool) {
		for i := range tr.Other {
			if tr.Other[i].Name == name {
				if add {
					n += tr.Other[i].Count
				}
				tr.Other[i].Count = n
				return
			}
		}
		tr.Other = append(tr.Other, policy.TRESCount{Name: name, Count: n})
	}
	for i := range r.Gres {
		g := &r.Gres[i]
		n := uint64(max(g.PerJob, 0)) + uint64(max(g.PerNode, 0))*nodes
		if n == 0 {
			continue
		}
		total := "gres/" + strings.ToLower(g.Name)
		setTotal := tracked(total)
		if setTotal {
			set(total, n, true)
		}
		switch {
		case g.Type != "":
			if typed := total + ":" + strings.ToLower(g.Type); tracked(typed) {
				set(typed, n, false)
			}
		case !setTotal:
			for _, t := range c.TRESGres {
				if strings.HasPrefix(t.Name, total+":") {
					set(t.Name, n, false)
					break
				}
			}
		}
	}
	return tr
}
