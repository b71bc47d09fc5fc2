package policy

// Billing returns a job's billable TRES, the value Slurm caches in
// job.billable_tres and charges to fair-share usage per second
// (calc_job_billable_tres, assoc_mgr_tres_weighted).
//
//   - weights empty (the partition has no TRESBillingWeights): the job's CPUs.
//   - default: Σ alloc_i × w_i over every weighted TRES except billing.
//   - MAX_TRES: the largest alloc_i × w_i among the node TRES (cpu, mem,
//     node and every TRES of type gres, typed "gres/gpu:a100" as well as
//     untyped "gres/gpu") plus the sum over the others (licenses, bb, …).
//   - MAX_TRES_GRES: the largest among cpu, mem and node, plus the sum over
//     gres/*, plus the sum over the others.
//
// The maximum starts at 0, as Slurm's does, so it is never negative. Slurm
// skips a NO_CONSUME_VAL64 count (a no_consume GRES); fairsim allocates
// none of a no_consume GRES, and a 0 count weighs the same. Pass
// the allocation (tres_alloc_cnt): Slurm bills what a job holds, not what it
// asked for. Result range: [0, ∞) for non-negative weights.
func Billing(alloc TRESAlloc, weights TRESWeights, flags PriorityFlags) float64 {
	if len(weights) == 0 {
		return float64(alloc.CPU)
	}
	maxTRES := flags&FlagMaxTRES != 0
	maxGRES := flags&FlagMaxTRESGRES != 0
	var sum, max float64
	for i := range weights {
		w := &weights[i]
		if w.Kind == TRESBilling {
			continue
		}
		v := float64(alloc.Count(w)) * w.Weight
		switch {
		case maxGRES && (w.Kind == TRESCPU || w.Kind == TRESMem || w.Kind == TRESNode):
			if v > max {
				max = v
			}
		case maxTRES && !maxGRES && w.Kind.PerNode():
			if v > max {
				max = v
			}
		default:
			sum += v
		}
	}
	return max + sum
}

// MemWeightPerGB is the memory billing weight that makes a whole node's
// memory cost what its cores cost (the Odyssey per-CPU-type rule):
// cores × coreWeight / memGB. A node without memory gets 0.
func MemWeightPerGB(cores int, coreWeight, memGB float64) float64 {
	if memGB <= 0 {
		return 0
	}
	return float64(cores) * coreWeight / memGB
}

// CPUTypeWeights returns the default billing weights for a node type under
// that rule: CPU=coreWeight and Mem=MemWeightPerGB per GB (held per MB).
func CPUTypeWeights(cores int, coreWeight, memGB float64) TRESWeights {
	return TRESWeights{
		{Kind: TRESCPU, Name: "cpu", Weight: coreWeight},
		{Kind: TRESMem, Name: "mem", Weight: MemWeightPerGB(cores, coreWeight, memGB) / 1024},
	}
}
