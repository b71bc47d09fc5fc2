package workload

import "strings"

// Unset marks a numeric request field the trace did not give.
const Unset = -1

// Job is one request as a trace records it. Times are seconds since the
// trace epoch (the SWF UnixStartTime, or the first submit for sacct), and
// Runtime is what the job ran on the trace's reference CPU type, so the
// simulator can stretch or shrink it on other hardware.
type Job struct {
	ID        int64 // trace job number (SWF field 1, sacct JobIDRaw)
	Submit    int64 // submit time
	Eligible  int64 // earliest begin time (sacct Eligible); Unset = at submit
	Wait      int64 // wait recorded in the trace, for comparison; Unset if unknown
	Runtime   int64 // actual run time on the reference CPU
	CPUs      int   // processors requested (allocated when the request is missing)
	AllocCPUs int   // processors the trace says were allocated (SWF field 5, sacct NCPUS), for conversion and comparison; Unset if unknown
	// Nodes is the minimum node count requested (sbatch -N min[-max],
	// sacct ReqNodes, which is the minimum); Unset lets the scheduler choose.
	Nodes int
	// MaxNodes is the upper end of sbatch -N min-max, which lets the job
	// start on any count from Nodes to MaxNodes; Unset (or 0, as in a zero
	// Job) when the request gave no range. Never below Nodes when set.
	MaxNodes int
	// AllocNodes is the node count the trace says the job got (sacct
	// NNodes/AllocNodes), for comparison, and to let a GPU job the
	// controller spread over nodes spread in the simulation too; Unset
	// (or 0) when unknown.
	AllocNodes int
	MemPerCPU  int64 // memory per CPU in MB; Unset when not given
	// MemPerNode is memory on each node in MB (sbatch --mem, from
	// SubmitLine), 0 when not given. Slurm checks it per node as it is,
	// where MemPerCPU (which then still holds the total over the CPUs,
	// for writers) would round it up per CPU and let it split.
	MemPerNode int64
	TimeLimit  int64 // requested wall time; Unset when not given
	Status     int   // SWF status (StatusCompleted, ...), Unset unknown
	// CancelledPending marks a job cancelled before it ever started (sacct
	// CANCELLED with no Start, or Start == End and Elapsed 0): it stays
	// queued until Submit+Wait, then leaves without running. A bool rather
	// than a cancel time so that the zero Job means "ran".
	CancelledPending bool
	// Exclusive is sbatch --exclusive (whole nodes, shared with no other
	// job), as SubmitLine shows it.
	Exclusive bool
	// ArrayTaskID is an array task's index ("123_4" gives 4); 0 outside
	// arrays. Slurm's queue orders tasks of one array by it.
	ArrayTaskID int32
	// ArrayJobID is the job array a task belongs to (sacct's JobID
	// "123_4" or a pending "123_[5-9]" gives 123, Slurm's ArrayJobID);
	// 0 for a job outside any array. Backfill plans an array's tasks as
	// slurmctld plans one array record (bf_max_job_array_resv).
	ArrayJobID int64

	User      int32 // index into Names.Users
	Group     int32 // index into Names.Groups; Unset when none
	Account   int32 // index into Names.Accounts; Unset when the trace has none
	Partition int32 // index into Names.Partitions; Unset when none
	// PartitionList is, for a job submitted to several partitions
	// (sbatch -p a,b; sacct's comma list), 1 + the index of the list in
	// Names.PartitionLists ("a,b"); 0 for a job of one partition. Partition
	// is then the list's first. The job runs in whichever partition can
	// start it first. (An index, not a slice, keeps Job comparable.)
	PartitionList int32
	QOS           int32 // index into Names.QOS; Unset when none
	Feature       int32 // index into Names.Features (a CPU-type constraint); Unset for any
	// ReqNodeList is 1 + the index in Names.NodeLists of the nodes the job
	// asked for (sbatch -w/--nodelist, a hostlist such as "cn[01-04]"); 0
	// for none. Like PartitionList, 0 means none so that a zero Job asks
	// for nothing.
	ReqNodeList int32
	// ExcNodeList is 1 + the index in Names.NodeLists of the nodes the job
	// must not run on (sbatch -x/--exclude); 0 for none.
	ExcNodeList int32
	// AllocNodeList is 1 + the index in Names.NodeLists of the nodes the
	// trace says the job ran on (sacct's NodeList); 0 when unknown. Only
	// the recorded scheduler reads it, to replay a schedule where it ran.
	AllocNodeList int32
	// Reservation is 1 + the index in Names.Reservations of the
	// reservation the job asked for (sbatch --reservation); 0 for none.
	Reservation int32
	// Dependency is 1 + the index in Names.Dependencies of the job's
	// --dependency value as submitted ("afterok:12:13,singleton"; parse it
	// with ParseDependency); 0 for none. When it names exactly one job,
	// Preceding is that job too.
	Dependency int32
	// Gres is 1 + the index in Names.Gres of the job's generic-resource
	// request in canonical form (FormatGres: "gpu:a100:2/job"); 0 for
	// none. Read it with Names.GresOf.
	Gres int32
	// ArrayMaxRun is the array's throttle (sbatch --array=0-7%2 gives
	// 2, max_run_tasks): at most this many of its tasks run at once. 0
	// for none. sacct's Eligible of a task the throttle held is the time
	// it let the task go, not the array's.
	ArrayMaxRun int32 // beside Gres: fills the padding before Queue

	Queue      int     // SWF queue number (field 15); Unset when none
	Executable int     // SWF application number (field 14); Unset when none
	UsedCPU    float64 // SWF average CPU time used per processor; Unset when none
	UsedMemKB  float64 // SWF used memory per processor in KB; Unset when none
	Preceding  int64   // job this one waits for (SWF field 17); Unset for none
	ThinkTime  int64   // delay after Preceding ends (SWF field 18)
	Line       int     // line in the source file, for error messages
}

// MaxSpan is the longest stretch of simulated time a run may cover, in
// seconds: 100 years. A trace whose submissions spread wider, or a job
// that would run, wait for its begin time or think for longer, holds a
// corrupt time: simulating it would sample a century of idle cluster.
const MaxSpan int64 = 3_155_760_000

// Names interns the strings of a trace. Index 0.. are dense so per-user or
// per-account tables can be slices.
type Names struct {
	Users      Intern
	Groups     Intern
	Accounts   Intern
	Partitions Intern
	// PartitionLists holds comma-separated partition lists, for jobs
	// submitted to several.
	PartitionLists Intern
	QOS            Intern
	Features       Intern
	// NodeLists holds hostlists of Job.ReqNodeList and Job.ExcNodeList.
	NodeLists Intern
	// Reservations holds reservation names of Job.Reservation.
	Reservations Intern
	// Dependencies holds --dependency values of Job.Dependency.
	Dependencies Intern
	// Gres holds canonical GRES requests of Job.Gres (FormatGres).
	Gres Intern
}

// Intern maps strings to dense int32 ids, in first-seen order so that ids
// are deterministic for a given input.
type Intern struct {
	ids   map[string]int32
	names []string
}

// ID returns the id of s, adding it when new.
func (t *Intern) ID(s string) int32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = make(map[string]int32)
	}
	id := int32(len(t.names))
	t.ids[s] = id
	t.names = append(t.names, s)
	return id
}

// Lookup returns the id of s without adding it.
func (t *Intern) Lookup(s string) (int32, bool) {
	id, ok := t.ids[s]
	return id, ok
}

// Name returns the string of id, or "" for Unset or an unknown id.
func (t *Intern) Name(id int32) string {
	if id < 0 || int(id) >= len(t.names) {
		return ""
	}
	return t.names[id]
}

// Len is the number of interned strings.
func (t *Intern) Len() int { return len(t.names) }

// All returns the interned strings in id order. Callers must not modify it.
func (t *Intern) All() []string { return t.names }

// LookupFold returns the id of the first interned string equal to s
// ignoring case. Slurm matches associations without case
// (assoc_mgr.c compares user, account and partition with xstrcasecmp),
// and stores accounts in lower case (slurmctld lower-cases a job's
// --account in job_mgr.c; sacctmgr lower-cases account names, and user
// names too unless slurmdbd.conf says Parameters=PreserveCaseUser), while
// sacct prints the user name as the system spells it. Readers keep names
// as the trace has them; a caller matching them against a sacctmgr dump
// uses LookupFold.
func (t *Intern) LookupFold(s string) (int32, bool) {
	if id, ok := t.ids[s]; ok {
		return id, true
	}
	for i, n := range t.names {
		if strings.EqualFold(n, s) {
			return int32(i), true
		}
	}
	return 0, false
}
