package sim

import "fairsim/workload"

// RequestIn is job j's request as tried in partition p: its own, with the
// partition's exclusivity (OverSubscribe=EXCLUSIVE gives whole nodes) and
// memory rules (DefMemPerCPU, MaxMemPerCPU, ... of p).
func RequestIn(c *Cluster, j *Job, p int) Request {
	r := j.Req
	r.Exclusive = c.Parts[p].Exclusive || j.Job.Exclusive
	if p != j.Part {
		r.CPUs, r.MemPerCPU, r.MemPerNode = memRequest(c, &c.Parts[p], j)
	}
	return r
}

// memRequest is the CPUs and memory job j takes in partition part: what it
// asked, else the partition's default (job_mgr.c _get_def_mem), with a
// per-CPU request over MaxMemPerCPU turned into more CPUs with less memory
// each, as _valid_pn_min_mem does.
func memRequest(c *Cluster, part *Partition, j *Job) (cpus int, perCPU, perNode int64) {
	cpus = j.CPUs
	switch {
	case j.MemPerCPU != workload.Unset:
		perCPU = j.MemPerCPU
	case c.MemDefault == MemShare:
		perCPU = MemCoreShare
	case c.MemDefault == MemNone:
	case part.DefMemPerCPU > 0:
		perCPU = part.DefMemPerCPU
	case part.DefMemPerNode > 0:
		perNode = part.DefMemPerNode
	default:
		perCPU = MemWholeNode
	}
	if m := part.MaxMemPerCPU; m > 0 && perCPU > m {
		k := (perCPU + m - 1) / m
		cpus *= int(k)
		perCPU = (perCPU + k - 1) / k
	}
	return cpus, perCPU, perNode
}
