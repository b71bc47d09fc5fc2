package report

import (
	"bufio"
	"os"
	"path/filepath"

	"github.com/gocarina/gocsv"

	"fairsim/sim"
)

// JobRow is one line of jobs.csv. Times are seconds since the trace epoch;
// -1 means never (a job that never started).
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
}

// JobRows converts a result's jobs to rows, in arrival order.
func JobRows(r *sim.Result) []JobRow {
	rows := make([]JobRow, len(r.Jobs))
	nm := r.Names
	for i, j := range r.Jobs {
		row := &rows[i]
		*row = JobRow{JobID: j.ID, User: nm.Users.Name(j.User), Group: nm.Groups.Name(j.Group),
			Account: nm.Accounts.Name(j.Account), Partition: r.Cluster.Parts[max(j.Part, 0)].Name,
			QOS: nm.QOS.Name(j.Job.QOS), NCPUS: j.CPUs, Submit: j.Submit, Eligible: j.EligibleTime,
			Start: j.Start, End: j.End, Wait: j.QueueWait(), Elapsed: -1, TraceRuntime: j.Runtime,
			Timelimit: j.TimeLimit, State: j.State.String(), StartedBy: j.StartedBy.String(),
			Priority: j.Priority, Billing: round6(j.Billing), Preemptions: j.Preemptions,
			LostCoreSecs: j.LostCoreSecs, LostBilling: round6(j.LostBilling), Reason: j.Reason}
		if j.State == sim.Rejected || j.State == sim.Pending {
			row.Eligible = -1
		}
		if j.Start >= 0 {
			row.Elapsed = j.End - j.Start
			row.NNodes = len(j.Alloc)
			row.NCPUS = j.Alloc.Cores()
			row.MemMB = j.Alloc.MemMB()
			row.NodeType = r.Cluster.Types[j.NodeType].Name
		}
	}
	return rows
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
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := gocsv.Marshal(rows, w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
