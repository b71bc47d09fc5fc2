package sim

import "fairsim/workload"

// RequestIn is job j's request as tried in partition p: its own, with the
// partition's exclusivity (OverSubscribe=EXCLUSIVE gives whole nodes),
// MaxNodes and memory rules (DefMemPerCPU, MaxMemPerCPU, ... of p).
func RequestIn(c *Cluster, j *Job, p int) Request {
	r := j.Req
	r.Exclusive = c.Parts[p].Exclusive || j.exclusive()
	if p != j.Part {
		r.CPUs, r.MemPerCPU, r.MemPerNode, r.MemPerGPU = memRequest(c, &c.Parts[p], j, r.Gres, r.Nodes)
	}
	c.nodeBounds(j, p, &r)
	return r
}

// nodeBounds sets r's node bounds in partition p for job j: the
// partition's MaxNodes and MinNodes as they hold for it (maxNodesIn,
// minNodesIn), with its CPUs raised to one a node of MinNodes: on the
// 22.05 harness (MinNodes=2, 8-CPU nodes) -n 1 ran on two nodes with
// NumCPUs=2, and -n 12 took 7 and 5 CPUs of two nodes with 7 free.
func (c *Cluster) nodeBounds(j *Job, p int, r *Request) {
	r.MaxNodes = c.maxNodesIn(j, p)
	r.MinNodes = c.minNodesIn(j, p)
	r.CPUs = max(r.CPUs, r.MinNodes)
}

// rehome makes partition p job j's own (a job of several partitions runs
// in the one that could hold it or start it): j.Req becomes its request
// there, its CPUs and memory made again where a partition's MinNodes
// raised them or raises them now.
func (c *Cluster) rehome(j *Job, p int) {
	old := j.Part
	j.Part = p
	j.Req.Exclusive = c.Parts[p].Exclusive || j.exclusive()
	if c.Parts[old].MinNodes > 1 || c.Parts[p].MinNodes > 1 {
		j.Req.CPUs, j.Req.MemPerCPU, j.Req.MemPerNode, j.Req.MemPerGPU = memRequest(c, &c.Parts[p], j, j.Req.Gres, j.Req.Nodes)
	}
	c.nodeBounds(j, p, &j.Req)
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
