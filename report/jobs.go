package report

import (
	"bufio"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"

	"github.com/gocarina/gocsv"

	"fairsim/sim"
)

// JobRow is one line of jobs.csv. Times are seconds since the trace epoch;
// -1 means never (a job that never started): jobs.csv leaves Start, End,
// Wait and Elapsed empty then, as a missing value (a job that left the
// queue without starting keeps its End, the time it left). The last columns (GPUs,
// AllocTRES, NodeList) came later and stay last, so readers that take
// columns by position keep working; for a job that never started they are
// 0 and empty.
type JobRow struct {
	JobID        int64   `csv:"JobID"`
	User         string  `csv:"User"`
	Group        string  `csv:"Group"`
	Account      string  `csv:"Account"`
	Partition    string  `csv:"Partition"`
	QOS          string  `csv:"QOS"`
	NCPUS        int     `csv:"NCPUS"`
	NNodes       int     `csv:"NNodes"`
	MemMB        int64   `csv:"AllocMemMB"`
	Submit       int64   `csv:"Submit"`
	Eligible     int64   `csv:"Eligible"`
	Start        int64   `csv:"Start"`
	End          int64   `csv:"End"`
	Wait         int64   `csv:"Wait"`
	Elapsed      int64   `csv:"Elapsed"`
	TraceRuntime int64   `csv:"TraceRuntime"`
	Timelimit    int64   `csv:"Timelimit"`
	State        string  `csv:"State"`
	NodeType     string  `csv:"NodeType"`
	StartedBy    string  `csv:"StartedBy"`
	Priority     uint32  `csv:"Priority"`
	Billing      float64 `csv:"Billing"`
	Preemptions  int     `csv:"Preemptions"`
	LostCoreSecs float64 `csv:"LostCoreSecs"`
	LostBilling  float64 `csv:"LostBilling"`
	Reason       string  `csv:"Reason"`
	// GPUs are the GPUs the allocation holds (GRES named gpu, any type).
	GPUs int `csv:"GPUs"`
	// AllocTRES is the allocation's TRES as sacct prints AllocTRES
	// ("billing=4,cpu=4,gres/gpu=2,mem=8000M,node=1").
	AllocTRES string `csv:"AllocTRES"`
	// NodeList is the allocation's nodes as a Slurm hostlist
	// ("ocio-gpu[01-02]"), in node order as sacct prints it.
	NodeList string `csv:"NodeList"`
	// WaitReason is the Reason squeue showed longest while the job
	// pended (QOSMaxJobsPerUserLimit, AssocGrpCpuLimit, Priority,
	// Resources, …), timed between the passes that set it; empty for a
	// job no pass held. Reason keeps what a never-started job was last
	// given, or why it was refused or ended.
	WaitReason string `csv:"WaitReason"`
}

// JobRows converts a result's jobs to rows, in arrival order.
func JobRows(r *sim.Result) []JobRow {
	rows := make([]JobRow, len(r.Jobs))
	x := newHostIndex(r.Cluster)
	for i, j := range r.Jobs {
		rows[i] = jobRow(r, x, j)
	}
	return rows
}

// jobRow is job j's row of jobs.csv.
// x is the cluster's node names in hostlist order.
func jobRow(r *sim.Result, x *hostIndex, j *sim.Job) JobRow {
	nm := r.Names
	row := JobRow{JobID: j.ID, User: nm.Users.Name(j.User), Group: nm.Groups.Name(j.Group),
		Account: nm.Accounts.Name(j.Account), Partition: r.Cluster.Parts[max(j.Part, 0)].Name,
		QOS: jobQOS(r, j), NCPUS: j.CPUs, Submit: j.Submit, Eligible: j.EligibleTime,
		Start: j.Start, End: j.End, Wait: j.QueueWait(), Elapsed: -1, TraceRuntime: j.Runtime,
		Timelimit: j.TimeLimit, State: j.State.String(), StartedBy: j.StartedBy.String(),
		Priority: j.Priority, Billing: round6(j.Billing), Preemptions: j.Preemptions,
		LostCoreSecs: j.LostCoreSecs, LostBilling: round6(j.LostBilling), Reason: j.Reason, WaitReason: j.WaitReason}
	if j.State == sim.Rejected || j.State == sim.Pending {
		row.Eligible = -1
	}
	if j.Start >= 0 {
		row.Elapsed = j.End - j.Start
		row.NNodes = len(j.Alloc)
		row.NCPUS = j.Alloc.Cores()
		row.MemMB = j.Alloc.MemMB()
		row.NodeType = r.Cluster.Types[j.NodeType].Name
		row.GPUs = r.Cluster.AllocGPUs(j.Alloc)
		tres := r.Cluster.JobTRES(j)
		row.AllocTRES = tres.SacctString()
		if len(j.Alloc) > 0 {
			row.NodeList = x.list(j.Alloc)
		}
	}
	return row
}

func round6(v float64) float64 {
	const k = 1e6
	if v < 0 {
		return -float64(int64(-v*k+0.5)) / k
	}
	return float64(int64(v*k+0.5)) / k
}

// WriteCSV writes rows (a slice of tagged structs) to dir/name, buffered.
func WriteCSV(dir, name string, rows any) error {
	return writeFile(filepath.Join(dir, name), func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<20)
		if err := gocsv.Marshal(rows, w); err != nil {
			return err
		}
		return w.Flush()
	})
}

// WriteRecords writes a header and records to dir/name as CSV, buffered,
// quoted as WriteCSV quotes, for files whose columns depend on the run.
func WriteRecords(dir, name string, head []string, recs [][]string) error {
	return writeFile(filepath.Join(dir, name), func(f io.Writer) error {
		bw := bufio.NewWriterSize(f, 1<<20)
		w := csv.NewWriter(bw)
		w.Write(head)
		w.WriteAll(recs)
		if err := w.Error(); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// writeFile creates path and writes it with write, then closes it,
// reporting the first error.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// jobQOS is the QOS a job ran (or waits) in: the policy's, which is the
// default QOS for a job that names none, else the one the trace names.
func jobQOS(r *sim.Result, j *sim.Job) string {
	if j.QOSIdx >= 0 && j.QOSIdx < len(r.QOSNames) {
		return r.QOSNames[j.QOSIdx]
	}
	return r.Names.QOS.Name(j.Job.QOS)
}
