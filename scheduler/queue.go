package scheduler

import (
	"cmp"
	"slices"

	"fairsim/sim"
)

// Record is a record of Slurm's job queue: a job in one of its
// partitions (build_job_queue in job_scheduler.c makes one per partition
// of a multi-partition job).
type Record struct {
	Job *sim.Job
	K   int // index into Job.Parts
	// shape is the record's request shape as the slurm scheduler's
	// backfill scan interned it (shapeIDs; 0: not yet, negative: made
	// while maintenance reservations existed, which put the limit in it).
	shape int32
}

// Part is the record's partition.
func (r Record) Part() int {
	if len(r.Job.Parts) == 0 {
		return r.Job.Part
	}
	return r.Job.Parts[r.K]
}

// Priority is the job's priority in the record's partition.
func (r Record) Priority() uint32 {
	if r.K < len(r.Job.PartPrio) {
		return r.Job.PartPrio[r.K]
	}
	return r.Job.Priority
}

// SlurmOrder is the order of Slurm's job queue (sort_job_queue2):
// partition PriorityTier, then priority, then submit time, then job id,
// an array task's being its array's (ArrayJobID), and then task index.
// Preemptors sort first implicitly under partition_prio, since they sit in
// higher tiers.
func SlurmOrder(c *sim.Cluster) func(a, b Record) int {
	return func(a, b Record) int {
		ta, tb := c.Parts[a.Part()].PriorityTier, c.Parts[b.Part()].PriorityTier
		if ta != tb {
			return tb - ta
		}
		if c := cmp.Compare(b.Priority(), a.Priority()); c != 0 {
			return c // higher first
		}
		return cmp.Or(cmp.Compare(a.Job.Submit, b.Job.Submit), cmp.Compare(queueID(a.Job), queueID(b.Job)),
			cmp.Compare(a.Job.ArrayTaskID, b.Job.ArrayTaskID), cmp.Compare(a.Job.ID, b.Job.ID),
			cmp.Compare(a.Job.Idx, b.Job.Idx), cmp.Compare(a.K, b.K))
	}
}

// queueID is the id Slurm's queue sorts a job by: its array's for an
// array task (sort_job_queue2 reads array_job_id when array_task_id is
// set), else its own.
func queueID(j *sim.Job) int64 {
	if j.ArrayJobID != 0 {
		return j.ArrayJobID
	}
	return j.ID
}

// queue keeps the pending jobs' records in Slurm's order across passes.
// Priorities change only at calc ticks and new jobs arrive a few at a
// time, so it is maintained incrementally: finished entries are filtered
// out, arrivals appended, and the nearly sorted slice re-sorted (pdqsort
// detects runs).
type queue struct {
	recs  []Record
	seen  uint64   // highest EligSeq taken in
	mark  []uint64 // per job index: the EligSeq its records were made for
	epoch uint64
	cmp   func(a, b Record) int
	// sorted says recs were in order at epoch (dropping records keeps
	// them so): arrivals then need only be checked against the records
	// before them, not the whole queue read again.
	sorted bool
}

func (q *queue) sync(v *sim.View) []Record {
	if q.cmp == nil {
		q.cmp = SlurmOrder(v.Cluster())
	}
	k := 0
	for _, r := range q.recs {
		// A job that started, or was requeued since (a new EligSeq), drops
		// its records; a requeued one comes back as a new arrival.
		if r.Job.State == sim.Pending && q.mark[r.Job.Idx] == r.Job.EligSeq {
			q.recs[k] = r
			k++
		}
	}
	clear(q.recs[k:])
	q.recs = q.recs[:k]
	pend := v.Pending()
	added := false
	kept := len(q.recs) // the records before the arrivals
	i := len(pend)
	for i > 0 && pend[i-1].EligSeq > q.seen {
		i--
	}
	for _, j := range pend[i:] {
		for len(q.mark) <= j.Idx {
			q.mark = append(q.mark, 0)
		}
		q.mark[j.Idx] = j.EligSeq
		for k := range max(len(j.Parts), 1) {
			q.recs = append(q.recs, Record{Job: j, K: k})
		}
		added = true
	}
	if len(pend) > 0 {
		q.seen = max(q.seen, pend[len(pend)-1].EligSeq)
	}
	if e := v.Epoch(); added || e != q.epoch {
		from := 0 // where the order must be checked from
		if e == q.epoch && q.sorted && kept > 0 {
			from = kept - 1
		}
		q.epoch = e
		if !slices.IsSortedFunc(q.recs[from:], q.cmp) {
			slices.SortFunc(q.recs, q.cmp) // cmp is total: no need for stability
		}
		q.sorted = true
	}
	return q.recs
}

// cand is a queue record as a pass tries it: the job in the record's
// partition, with the request and priority it has there. Slurm evaluates
// one record per partition of a multi-partition job; the job itself stays
// as it is until the plan is committed.
type cand struct {
	j    *sim.Job
	part int
	req  sim.Request
	prio uint32
	resv bool // maintenance reservations exist: placement depends on the limit
}

func candOf(c *sim.Cluster, r Record) cand {
	p := r.Part()
	return cand{j: r.Job, part: p, req: sim.RequestIn(c, r.Job, p), prio: r.Priority(), resv: c.HasReservations()}
}
