package scheduler

import (
	"slices"

	"fairsim/sim"
)

// rec is a record of Slurm's job queue: a job in one of its partitions
// (build_job_queue makes one per partition of a multi-partition job).
type rec struct {
	j *sim.Job
	k int // index into j.Parts
}

func (r rec) part() int {
	if len(r.j.Parts) == 0 {
		return r.j.Part
	}
	return r.j.Parts[r.k]
}

func (r rec) prio() uint32 {
	if r.k < len(r.j.PartPrio) {
		return r.j.PartPrio[r.k]
	}
	return r.j.Priority
}

// slurmOrder is the order of Slurm's job queue (sort_job_queue2):
// partition PriorityTier, then priority, then submit time, then job id.
// Preemptors sort first implicitly under partition_prio, since they sit in
// higher tiers.
func slurmOrder(c *sim.Cluster) func(a, b rec) int {
	return func(a, b rec) int {
		ta, tb := c.Parts[a.part()].PriorityTier, c.Parts[b.part()].PriorityTier
		if ta != tb {
			return tb - ta
		}
		if pa, pb := a.prio(), b.prio(); pa != pb {
			if pa > pb {
				return -1
			}
			return 1
		}
		if a.j.Submit != b.j.Submit {
			if a.j.Submit < b.j.Submit {
				return -1
			}
			return 1
		}
		if a.j.ID != b.j.ID {
			if a.j.ID < b.j.ID {
				return -1
			}
			return 1
		}
		if a.j.Idx != b.j.Idx {
			return a.j.Idx - b.j.Idx
		}
		return a.k - b.k
	}
}

// queue keeps the pending jobs' records in Slurm's order across passes.
// Priorities change only at calc ticks and new jobs arrive a few at a
// time, so it is maintained incrementally: finished entries are filtered
// out, arrivals appended, and the nearly sorted slice re-sorted (pdqsort
// detects runs).
type queue struct {
	recs  []rec
	seen  uint64 // highest EligSeq taken in
	epoch uint64
	cmp   func(a, b rec) int
	cur   *sim.Job // the job whose record is being evaluated
}

func (q *queue) sync(ctx *sim.Context) []rec {
	if q.cmp == nil {
		q.cmp = slurmOrder(ctx.Cluster)
	}
	k := 0
	for _, r := range q.recs {
		if r.j.State == sim.Pending && r.j.Mark == r.j.EligSeq {
			q.recs[k] = r
			k++
		}
	}
	clear(q.recs[k:])
	q.recs = q.recs[:k]
	pend := ctx.Pending()
	added := false
	i := len(pend)
	for i > 0 && pend[i-1].EligSeq > q.seen {
		i--
	}
	for _, j := range pend[i:] {
		j.Mark = j.EligSeq
		for k := range max(len(j.Parts), 1) {
			q.recs = append(q.recs, rec{j, k})
		}
		added = true
	}
	if len(pend) > 0 {
		q.seen = max(q.seen, pend[len(pend)-1].EligSeq)
	}
	if e := ctx.Epoch(); added || e != q.epoch {
		q.epoch = e
		if !slices.IsSortedFunc(q.recs, q.cmp) {
			slices.SortFunc(q.recs, q.cmp) // cmp is total: no need for stability
		}
	}
	return q.recs
}

// use makes r's partition the one its job is tried in, first putting the
// previous record's job, if it is still pending, back in its first
// partition (so that between evaluations a job is in its home partition).
func (q *queue) use(c *sim.Cluster, r rec) *sim.Job {
	q.done(c)
	if len(r.j.Parts) > 1 {
		sim.UsePartition(c, r.j, r.k)
		q.cur = r.j
	}
	return r.j
}

// done puts the job of the last record back in its first partition unless
// it started.
func (q *queue) done(c *sim.Cluster) {
	if j := q.cur; j != nil && j.State == sim.Pending {
		sim.UsePartition(c, j, 0)
	}
	q.cur = nil
}
