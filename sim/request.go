package sim

import "fairsim/workload"

// RequestIn is job j's request as tried in partition p: its own, with the
// partition's exclusivity (OverSubscribe=EXCLUSIVE gives whole nodes),
// MaxNodes and memory rules (DefMemPerCPU, MaxMemPerCPU, ... of p).
func RequestIn(c *Cluster, j *Job, p int) Request {
	r := j.Req
	r.Exclusive = c.Parts[p].Exclusive || j.Job.Exclusive
	r.MaxNodes = c.maxNodesIn(j, p)
	if p != j.Part {
		r.CPUs, r.MemPerCPU, r.MemPerNode, r.MemPerGPU = memRequest(c, &c.Parts[p], j, r.Gres, r.Nodes)
	}
	return r
}

// memRequest is the CPUs and memory job j takes in partition part: what it
// asked (per node for --mem, else per CPU), else the partition's default (job_mgr.c _get_def_mem), with a
// per-CPU request over MaxMemPerCPU turned into more CPUs with less memory
// each, as _valid_pn_min_mem does. A job with GPUs gets DefCPUPerGPU CPUs
// per GPU when that is more than it asked, and, asking no memory,
// DefMemPerGPU per GPU (slurm.conf allows it only without DefMemPerCPU and
// DefMemPerNode).
func memRequest(c *Cluster, part *Partition, j *Job, gres []GresNeed, nodes int) (cpus int, perCPU, perNode, perGPU int64) {
	cpus = j.CPUs
	gpus := 0
	for _, g := range gres {
		if g.Name == "gpu" {
			gpus += g.PerJob + g.PerNode*max(nodes, 1)
		}
	}
	if gpus > 0 && part.DefCPUPerGPU > 0 {
		cpus = max(cpus, gpus*part.DefCPUPerGPU)
	}
	switch {
	case j.MemPerNode > 0:
		perNode = j.MemPerNode // sbatch --mem: per node as asked
	case j.MemPerCPU != workload.Unset:
		perCPU = j.MemPerCPU
	case gpus > 0 && part.DefMemPerGPU > 0 && c.MemDefault == MemSlurm:
		perGPU = part.DefMemPerGPU
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
	return cpus, perCPU, perNode, perGPU
}
