package sim

import (
	"math"

	"fairsim/workload"
)

// JobState is a job's state, named as sacct names them.
type JobState uint8

// partLifts says which partition limits a job's QOS lifts.
type partLifts uint8

const (
	liftMaxNodes partLifts = 1 << iota // QOS Flags=PartitionMaxNodes
	liftMaxTime                        // QOS Flags=PartitionTimeLimit
	liftMinNodes                       // QOS Flags=PartitionMinNodes
)

// maxNodesIn is the node cap of partition p for job j: the partition's
// MaxNodes, unless the job asks a node count (-N) and its QOS lifts the
// limit. get_node_cnts gives a job without a max_nodes of its own the
// partition's whatever its QOS: on the 22.05 harness (MaxNodes=2, 8-CPU
// nodes, a QOS with Flags=PartitionMaxNodes) -N 3 -n 16 ran on 3 nodes,
// while -n 16 waited for two nodes whole and -n 20 was refused at
// submission as without the flag.
// The node count is the request's (Req.Nodes): a trace's ReqNodes of 1
// says nothing (placeRequest).
func (c *Cluster) maxNodesIn(j *Job, p int) int {
	if j.lifts&liftMaxNodes != 0 && j.Req.Nodes >= 1 {
		return 0
	}
	return c.Parts[p].MaxNodes
}

// minNodesIn is the nodes partition p spreads job j over: for a job
// that asks no node count, the min_nodes its partitions gave it at
// submission (minNodes), which get_node_cnts then gives select as both
// min_nodes and req_nodes. A partition whose MinNodes is larger never
// runs it (underMinNodes), so p's own is no more. A QOS with
// Flags=PartitionMinNodes does not change it: the job's min_nodes was
// raised at submission whatever its QOS (the 22.05 harness: -n 2 of such
// a QOS under MinNodes=2 ran on two nodes); the flag lets a -N under
// MinNodes run (underMinNodes).
func (c *Cluster) minNodesIn(j *Job, p int) int {
	if j.Req.Nodes >= 1 || j.minNodes <= 1 {
		return 0
	}
	return int(j.minNodes)
}

// underMinNodes reports whether job j asks fewer nodes than partition p's
// MinNodes, which _part_access_check refuses (PartitionNodeLimit): its -N,
// else the min_nodes its partitions gave it at submission (a job of
// -p a,b without -N gets the smaller MinNodes of a and b, and cannot run
// in the other).
func (c *Cluster) underMinNodes(j *Job, p int) bool {
	mn := c.Parts[p].MinNodes
	if mn <= 1 || j.lifts&liftMinNodes != 0 {
		return false
	}
	if j.Req.Nodes >= 1 {
		return j.Req.Nodes < mn
	}
	return j.minNodes > 0 && int(j.minNodes) < mn
}

// NotAccruing is Job.Accrue of a job whose age does not accrue. Slurm
// marks that with accrue_time 0, an instant no job can have; the
// simulated clock starts at 0, so a job submitted then does accrue.
const NotAccruing int64 = math.MinInt64

// Job states.
const (
	Pending    JobState = iota
	Running             // started, not ended
	Suspended           // started, stopped by a SUSPEND preemption; resumes later
	Completed           // ran to its end (trace status 1 or unknown)
	Failed              // ran to its end; the trace says it failed (status 0)
	Cancelled           // ran to its end; the trace says cancelled (status 5), or cancelled by preemption
	Timeout             // killed at its time limit
	Rejected            // refused at submit (bigger than its partition, over MaxTime)
	NodeFailed          // killed by the failure of one of its nodes and not requeued
)

var stateNames = [...]string{"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "REJECTED", "NODE_FAIL"}

func (s JobState) String() string { return stateNames[s] }

// Final reports whether the job is done.
func (s JobState) Final() bool { return s >= Completed }

// StartKind records which pass started a job.
type StartKind uint8

// How a job started.
const (
	NotStarted StartKind = iota
	ByMain               // the main (or FIFO) pass
	ByBackfill           // a backfill pass
)

func (k StartKind) String() string {
	return [...]string{"", "main", "backfill"}[k]
}

// Job is a request being simulated: the trace's request plus everything
// the simulation decides about it.
type Job struct {
	workload.Job
	Idx  int // index in arrival order
	Part int // partition index: the one it runs (or will first be tried) in
	// Parts are the partitions it may run in, Part first (several for
	// sbatch -p a,b); PartPrio their priorities, set by the policy, when
	// there are several.
	Parts    []int
	PartPrio []uint32
	Req      Request // what it asks of the partition
	State    JobState
	// lifts are the partition limits the job's QOS lifts (QOS
	// Flags=PartitionMaxNodes, PartitionTimeLimit, PartitionMinNodes),
	// set at submission.
	lifts partLifts
	// minNodes is the min_nodes a job without -N gets at submission
	// (_valid_job_part): the smallest MinNodes of the partitions it
	// names, at least 1; 0 until set.
	minNodes int32
	// wholeNode is details->whole_node set by an OverSubscribe=EXCLUSIVE
	// partition of its list: whole nodes in every partition (wholeNodes).
	wholeNode bool
	// EligibleTime is when it became eligible to start: its submit, its
	// begin time (the trace's Eligible), or when its dependency ended.
	EligibleTime int64
	Start        int64 // -1 until started
	End          int64 // -1 until ended
	// Release is when an ended job's resources are given back: End plus
	// Options.CompletingTime, while its nodes are COMPLETING.
	Release int64
	Alloc   Alloc
	// AllocRuntime is its actual runtime on its allocation: the trace's
	// Runtime (on the reference CPU) scaled by the slowest node's speed.
	AllocRuntime int64
	Limit        int64 // time limit in force on its allocation (scaled with ScaleLimit)
	NodeType     int   // CPU type of the slowest node it ran on
	StartedBy    StartKind
	// holeAt is where the pending list still holds the job after it
	// left (pendIdx -1), until the list is compacted; -1 for nowhere.
	// Retiring the job empties that entry, so that the engine never
	// reads a retired job's record again (Reusable). It fits beside
	// StartedBy.
	holeAt int32
	// TotalCPUs is Slurm's total_cpus: the CPUs of the nodes the last
	// select test that found room for it picked (a backfill reservation,
	// its start; a whole node counts all its CPUs), 0 until one has (and
	// again after a requeue). The job-size factor reads it once set. No
	// test at submission sets it: a 22.05 controller's sprio showed an
	// --exclusive job's request until backfill had tested it.
	TotalCPUs int32
	// SubmitShift is how far its requeues moved its submit time (Slurm
	// submits a requeued job anew); FirstSubmit undoes it.
	SubmitShift int32
	Reason      string // why it was rejected, or why it pends (for explain)
	// WaitReason is the reason it pended under longest, timed from each
	// pass that gave it to the next change, its start or the run's end.
	WaitReason string

	// Set by the policy layer.
	Assoc       int     // fair-share association, -1 for none
	QOSIdx      int     // QOS index, -1 for none
	Priority    uint32  // current priority (higher runs first)
	Accrue      int64   // age accrues from here; NotAccruing when it does not
	Billing     float64 // TRES billing per second of the allocation
	ExpectStart int64   // backfill's latest expected start, -1 when none

	// EligSeq numbers jobs in the order they entered the pending list
	// (again after a requeue), so schedulers can find new arrivals.
	EligSeq uint64

	Preemptions int
	// SuspendedSecs is how long its last run was suspended by SUSPEND
	// preemptions; its end moved by as much.
	SuspendedSecs int64
	// NodeFails counts the runs a node failure killed (requeued or not).
	NodeFails    int
	LostCoreSecs float64 // work thrown away by requeues
	LostBilling  float64

	susp preemptState // suspension and grace-time bookkeeping

	reasonSince int64      // when Reason was given, +1; 0 when not timing
	waits       []waitSpan // time per pending reason

	gen     uint32
	pendIdx int // -1 when not in the pending list; else its position there plus the simulator's pendOff
	runIdx  int // position in the running list, -1 when not running
	origin  int // the trace's line
	// planMark says what the current pass's plan did to the job (View.mark).
	planMark uint64
	listAt   uint64 // its place in slurmctld's job list (jobList)
}

// Reusable reports whether the record of a retired job may be filled with
// a later job once its consumer is done with it (ReusesRecords): false
// if the engine's pending list still held it when it retired, which
// retire prevents. It is read after the job has retired, when the engine
// no longer writes it.
func (j *Job) Reusable() bool { return j.holeAt < 0 }

// QueueWait is start minus submit, or -1 when it never started (the
// trace's own Wait is the embedded workload.Job.Wait).
// FirstSubmit is when the job was submitted by its user: its submit time
// before any requeue moved it.
func (j *Job) FirstSubmit() int64 { return j.Submit - int64(j.SubmitShift) }

func (j *Job) QueueWait() int64 {
	if j.Start < 0 {
		return -1
	}
	return j.Start - j.Submit
}

// WholeNode reports whether an OverSubscribe=EXCLUSIVE partition of j's
// list left details->whole_node on it (at submission, or a main pass's
// Plan.WholeNode): it takes whole nodes in all its partitions.
func (j *Job) WholeNode() bool { return j.wholeNode }

// exclusive reports whether j takes whole nodes wherever it runs: sbatch
// --exclusive, or the whole_node an OverSubscribe=EXCLUSIVE partition of
// its list left on it (Simulator.wholeNodes).
func (j *Job) exclusive() bool { return j.Job.Exclusive || j.wholeNode }
