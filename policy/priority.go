package policy

import "math"

// Weights are the integer PriorityWeight* options of slurm.conf. Slurm's
// code default for each is 0 (its sample config's "default 1" is stale).
type Weights struct {
	Age       uint32 // PriorityWeightAge
	Assoc     uint32 // PriorityWeightAssoc
	Fairshare uint32 // PriorityWeightFairshare
	JobSize   uint32 // PriorityWeightJobSize
	Partition uint32 // PriorityWeightPartition
	QOS       uint32 // PriorityWeightQOS
}

// DefaultMaxAge is PriorityMaxAge's default, 7-0, in seconds.
const DefaultMaxAge int64 = 7 * 24 * 3600

// Params is the priority/multifactor configuration.
type Params struct {
	Weights
	// WeightTRES is PriorityWeightTRES (nil: no TRES term). Only the
	// first MaxTRESWeights entries count; ParseTRESWeights never returns more.
	WeightTRES TRESWeights
	// MaxAge is PriorityMaxAge in seconds: the wait at which the age
	// factor reaches 1.
	MaxAge int64
	// FavorSmall is PriorityFavorSmall.
	FavorSmall bool
	Flags      PriorityFlags
}

// DefaultParams returns Slurm's code defaults: every weight 0, MaxAge 7
// days, PriorityFavorSmall=NO, PriorityFlags=FAIR_TREE.
func DefaultParams() Params {
	return Params{MaxAge: DefaultMaxAge, Flags: DefaultPriorityFlags}
}

// NiceOffset is Slurm's NICE_OFFSET: nice and site factor are stored offset
// by it. Job takes them already signed; this is for converting raw values.
const NiceOffset = 0x80000000

// Job is what the multifactor formula reads from one pending (or, with
// CALCULATE_RUNNING, running) job.
type Job struct {
	// AccrueTime is when the job began to accrue age (0: not accruing);
	// see AccrueTracker.
	AccrueTime int64
	// MinNodes is details.min_nodes.
	MinNodes uint32
	// CPUs is the first available of total_cpus (once allocated),
	// details.max_cpus if not NoVal, and details.min_cpus; see JobCPUs.
	CPUs uint32
	// TimeLimit is the time limit in minutes: NoVal when not given (the
	// partition's MaxTime applies), Infinite when unlimited.
	TimeLimit uint32
	// PartMaxTime is the partition's MaxTime in minutes (Infinite when
	// UNLIMITED), used when TimeLimit is NoVal.
	PartMaxTime uint32
	// PartJobFactor is the partition's PriorityJobFactor.
	PartJobFactor uint32
	// QOSPriority is the job's QOS Priority.
	QOSPriority uint32
	// AssocPriority is the association's Priority (0 when unset).
	AssocPriority uint32
	// FairShare is the association's fair-share factor, in [0, 1].
	FairShare float64
	// TRES is tres_alloc_cnt for a running job, else tres_req_cnt.
	TRES *TRESAlloc
	// PartTRES is the partition's TRES totals, the TRES denominators.
	PartTRES *TRESAlloc
	// Nice is the user's nice value (positive lowers the priority).
	Nice int64
	// Site is the site factor (site_factor - NICE_OFFSET), added as is.
	Site int64
}

// JobCPUs picks the CPU count the job-size factor uses: total (allocated)
// if non-zero, else maxCPUs unless it is NoVal, else minCPUs.
func JobCPUs(total, maxCPUs, minCPUs uint32) uint32 {
	switch {
	case total != 0:
		return total
	case maxCPUs != NoVal:
		return maxCPUs
	}
	return minCPUs
}

// Normalizers are the cluster-wide denominators of the factors.
type Normalizers struct {
	Nodes uint32 // active node count
	CPUs  uint32 // cluster_cpus
	// MaxPartJobFactor is the largest PriorityJobFactor over all partitions
	// (part_max_priority); 0 counts as 1.
	MaxPartJobFactor uint32
	MaxQOSPriority   uint32 // largest QOS Priority (QOSSet.MaxPriority)
	MaxAssocPriority uint32 // largest association Priority
}

// Factors are the weighted terms of one job's priority, as sprio shows
// them. Sum adds them in Slurm's order; the priority is Sum clamped to
// [1, 2^32-1] and truncated.
type Factors struct {
	Age       float64
	Assoc     float64
	FairShare float64
	JobSize   float64
	Partition float64
	QOS       float64
	// TRES holds one weighted term per Params.WeightTRES entry, in the
	// same order; NTRES says how many are used.
	TRES  [MaxTRESWeights]float64
	NTRES int
	Site  float64
	Nice  float64 // subtracted
}

// TRESSum is the TRES term: the per-TRES terms added in TRES order.
func (f *Factors) TRESSum() float64 {
	var s float64
	for i := 0; i < f.NTRES && i < MaxTRESWeights; i++ {
		s += f.TRES[i]
	}
	return s
}

// Sum is the priority before clamping, in Slurm's evaluation order: site +
// age + assoc + fairshare + jobsize + partition + qos + tres − nice.
func (f *Factors) Sum() float64 {
	return f.Site + f.Age + f.Assoc + f.FairShare + f.JobSize + f.Partition + f.QOS + f.TRESSum() - f.Nice
}

// Compute returns a job's priority at time now (the decay tick's start
// time, or submit time) and its weighted factors. A factor whose weight is
// 0 is not computed; the fair-share factor is taken as given (see package
// fairshare); site and nice enter unweighted. It never allocates.
func (p *Params) Compute(n *Normalizers, j *Job, now int64) (uint32, Factors) {
	var f Factors
	if p.Age != 0 {
		f.Age = float64(p.Age) * AgeFactor(j.AccrueTime, now, p.MaxAge)
	}
	if p.Assoc != 0 {
		f.Assoc = float64(p.Assoc) * AssocFactor(j.AssocPriority, n.MaxAssocPriority, p.Flags)
	}
	if p.Fairshare != 0 {
		f.FairShare = float64(p.Fairshare) * j.FairShare
	}
	if p.JobSize != 0 {
		f.JobSize = float64(p.JobSize) * JobSizeFactor(j, n, p.FavorSmall, p.Flags)
	}
	if p.Partition != 0 {
		f.Partition = float64(p.Partition) * PartitionFactor(j.PartJobFactor, n.MaxPartJobFactor, p.Flags)
	}
	if p.QOS != 0 {
		f.QOS = float64(p.QOS) * QOSFactor(j.QOSPriority, n.MaxQOSPriority, p.Flags)
	}
	if len(p.WeightTRES) != 0 && j.TRES != nil {
		f.NTRES = len(p.WeightTRES)
		if f.NTRES > MaxTRESWeights {
			f.NTRES = MaxTRESWeights
		}
		for i := 0; i < f.NTRES; i++ {
			w := &p.WeightTRES[i]
			f.TRES[i] = TRESFactor(j.TRES, j.PartTRES, w, p.Flags) * w.Weight
		}
	}
	f.Site = float64(j.Site)
	f.Nice = float64(j.Nice)
	return ClampPriority(f.Sum()), f
}

// ClampPriority turns the float sum into Slurm's uint32 priority: below 1
// (or NaN) becomes 1, since 0 means held; at or above 2^32 becomes
// 2^32−1; otherwise the fraction is truncated, not rounded.
func ClampPriority(sum float64) uint32 {
	switch {
	case !(sum >= 1):
		return 1
	case sum >= 1<<32:
		return math.MaxUint32
	}
	return uint32(sum)
}

// UpdatePriority applies INCR_ONLY: with the flag a recomputed priority
// replaces the stored one only if it is larger; without it, always.
func UpdatePriority(flags PriorityFlags, stored, computed uint32) uint32 {
	if flags&FlagIncrOnly != 0 && computed <= stored {
		return stored
	}
	return computed
}

// AgeFactor is the age factor in [0, 1], weighted by PriorityWeightAge:
// (now − accrue) / PriorityMaxAge, capped at 1. It is 0 while the job does not
// accrue (accrue == 0) or when accrue is in the future. With maxAge ≤ 0 any
// accruing job gets 1, as in Slurm where no wait is below a zero maximum.
func AgeFactor(accrue, now, maxAge int64) float64 {
	if accrue == 0 {
		return 0
	}
	var diff int64
	if now > accrue {
		diff = now - accrue
	}
	if diff < maxAge {
		return float64(diff) / float64(maxAge)
	}
	return 1
}

// JobSizeFactor is the job-size factor, clamped to [0, 1] and weighted by
// PriorityWeightJobSize. With N active
// nodes, C cluster CPUs, the job's min nodes n and CPUs c:
//
//   - favor large (PriorityFavorSmall=NO): n/N, averaged with c/C when c > 0.
//   - PriorityFavorSmall=YES: (N−n)/N (0 if n ≥ N), averaged with (C−c)/C
//     when c > 0.
//   - PriorityFlags=SMALL_RELATIVE_TO_TIME, overriding both: size =
//     max(n×C/N, c) CPUs, divided by the time limit in minutes (the
//     partition's MaxTime when unset; Infinite is used as the number it is)
//     and by C; with PriorityFavorSmall, 1 minus that.
//
// Slurm itself bases this factor on CPUs and nodes only, not on TRES
// billing. It is 0 when the cluster has no nodes or CPUs, and a 0/0 (a
// zero-size job with a zero time limit) gives 0 rather than NaN.
func JobSizeFactor(j *Job, n *Normalizers, favorSmall bool, flags PriorityFlags) float64 {
	if n.Nodes == 0 || n.CPUs == 0 {
		return 0
	}
	nodes, cpus := float64(n.Nodes), float64(n.CPUs)
	minNodes, jobCPUs := float64(j.MinNodes), float64(j.CPUs)
	var js float64
	switch {
	case flags&FlagSmallRelativeToTime != 0:
		js = minNodes * cpus / nodes
		if jobCPUs > js {
			js = jobCPUs
		}
		tl := j.TimeLimit
		if tl == NoVal {
			tl = j.PartMaxTime
		}
		js /= float64(tl)
		js /= cpus
		if favorSmall {
			js = 1 - js
		}
	case favorSmall:
		if n.Nodes > j.MinNodes {
			js = float64(n.Nodes-j.MinNodes) / nodes
		}
		if j.CPUs != 0 {
			js += (cpus - jobCPUs) / cpus
			js /= 2
		}
	default:
		js = minNodes / nodes
		if j.CPUs != 0 {
			js += jobCPUs / cpus
			js /= 2
		}
	}
	switch {
	case js != js:
		return 0
	case js < 0:
		return 0
	case js > 1:
		return 1
	}
	return js
}

// PartitionFactor is the partition factor, weighted by
// PriorityWeightPartition: the partition's PriorityJobFactor divided by
// the largest PriorityJobFactor of any partition (floor 1), or the raw
// PriorityJobFactor with NO_NORMAL_PART. Normally in [0, 1].
func PartitionFactor(jobFactor, maxJobFactor uint32, flags PriorityFlags) float64 {
	if jobFactor == 0 {
		return 0
	}
	if flags&FlagNoNormalPart != 0 {
		return float64(jobFactor)
	}
	if maxJobFactor == 0 {
		maxJobFactor = 1
	}
	return float64(jobFactor) / float64(maxJobFactor)
}

// QOSFactor is the QOS factor, weighted by PriorityWeightQOS: the job's
// QOS Priority divided by the largest
// QOS Priority, or the raw Priority with NO_NORMAL_QOS. 0 for a QOS of
// priority 0, or when no QOS has a priority.
func QOSFactor(prio, maxPrio uint32, flags PriorityFlags) float64 {
	return normalise(prio, maxPrio, flags&FlagNoNormalQOS != 0)
}

// AssocFactor is the association factor, weighted by PriorityWeightAssoc:
// the association's Priority
// divided by the largest association Priority, or the raw Priority with
// NO_NORMAL_ASSOC. Callers pass 0 for an unset (INFINITE) priority.
func AssocFactor(prio, maxPrio uint32, flags PriorityFlags) float64 {
	return normalise(prio, maxPrio, flags&FlagNoNormalAssoc != 0)
}

func normalise(v, max uint32, raw bool) float64 {
	switch {
	case v == 0:
		return 0
	case raw:
		return float64(v)
	case max == 0:
		return 0
	}
	return float64(v) / float64(max)
}

// TRESFactor is one TRES's factor, weighted by that TRES's entry in
// PriorityWeightTRES: the
// job's amount of it divided by the partition's total, or the raw amount
// with NO_NORMAL_TRES. It is 0 when the partition has none of it (or no
// totals are given). Memory counts in MB.
func TRESFactor(job, part *TRESAlloc, w *TRESWeight, flags PriorityFlags) float64 {
	if job == nil {
		return 0
	}
	v := job.Count(w)
	if v == 0 {
		return 0
	}
	if flags&FlagNoNormalTRES != 0 {
		return float64(v)
	}
	if part == nil {
		return 0
	}
	total := part.Count(w)
	if total == 0 {
		return 0
	}
	return float64(v) / float64(total)
}
