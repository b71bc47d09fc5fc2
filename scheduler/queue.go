package scheduler

import (
	"slices"

	"fairsim/sim"
)

// slurmOrder is the order of Slurm's job queue (sort_job_queue2):
// partition PriorityTier, then priority, then submit time, then job id.
// Preemptors sort first implicitly under partition_prio, since they sit in
// higher tiers.
func slurmOrder(c *sim.Cluster) func(a, b *sim.Job) int {
	return func(a, b *sim.Job) int {
		ta, tb := c.Parts[a.Part].PriorityTier, c.Parts[b.Part].PriorityTier
		if ta != tb {
			return tb - ta
		}
		if a.Priority != b.Priority {
			if a.Priority > b.Priority {
				return -1
			}
			return 1
		}
		if a.Submit != b.Submit {
			if a.Submit < b.Submit {
				return -1
			}
			return 1
		}
		if a.ID != b.ID {
			if a.ID < b.ID {
				return -1
			}
			return 1
		}
		return a.Idx - b.Idx
	}
}

// queue keeps the pending jobs in Slurm's order across passes. Priorities
// change only at calc ticks and new jobs arrive a few at a time, so it is
// maintained incrementally: finished entries are filtered out, arrivals
// appended, and the nearly sorted slice re-sorted (pdqsort detects runs).
type queue struct {
	jobs  []*sim.Job
	seen  uint64 // highest EligSeq taken in
	epoch uint64
	cmp   func(a, b *sim.Job) int
}

func (q *queue) sync(ctx *sim.Context) []*sim.Job {
	if q.cmp == nil {
		q.cmp = slurmOrder(ctx.Cluster)
	}
	k := 0
	for _, j := range q.jobs {
		if j.State == sim.Pending && j.Mark == j.EligSeq {
			q.jobs[k] = j
			k++
		}
	}
	clear(q.jobs[k:])
	q.jobs = q.jobs[:k]
	pend := ctx.Pending()
	added := false
	i := len(pend)
	for i > 0 && pend[i-1].EligSeq > q.seen {
		i--
	}
	for _, j := range pend[i:] {
		j.Mark = j.EligSeq
		q.jobs = append(q.jobs, j)
		added = true
	}
	if len(pend) > 0 {
		q.seen = max(q.seen, pend[len(pend)-1].EligSeq)
	}
	if e := ctx.Epoch(); added || e != q.epoch {
		q.epoch = e
		if !slices.IsSortedFunc(q.jobs, q.cmp) {
			slices.SortFunc(q.jobs, q.cmp) // cmp is total (ends with Idx): no need for stability
		}
	}
	return q.jobs
}
