package report

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// csvFile is a CSV file read whole, its columns found by name, so the
// report reads any results folder whose files have the columns it needs,
// in any order.
type csvFile struct {
	path  string
	head  map[string]int
	names []string // the header, in file order
	rows  [][]string
}

func readCSVFile(path string) (*csvFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = false
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty file, want a header line", path)
	}
	c := &csvFile{path: path, head: map[string]int{}, names: recs[0], rows: recs[1:]}
	for i, h := range recs[0] {
		if _, dup := c.head[h]; dup {
			return nil, fmt.Errorf("%s:1: column %q twice", path, h)
		}
		c.head[h] = i
	}
	return c, nil
}

// cols finds the named columns, failing with the first one missing.
func (c *csvFile) cols(names ...string) ([]int, error) {
	idx := make([]int, len(names))
	for i, n := range names {
		k, ok := c.head[n]
		if !ok {
			return nil, fmt.Errorf("%s:1: no column %q", c.path, n)
		}
		idx[i] = k
	}
	return idx, nil
}

// has reports whether the file has a column.
func (c *csvFile) has(name string) bool { _, ok := c.head[name]; return ok }

// cellErr names the file, line and column of a bad cell.
func (c *csvFile) cellErr(row, col int, want string) error {
	return fmt.Errorf("%s:%d: field %s: %q is not %s", c.path, row+2, c.names[col], c.rows[row][col], want)
}

func (c *csvFile) int64At(row, col int) (int64, error) {
	v, err := strconv.ParseInt(c.rows[row][col], 10, 64)
	if err != nil {
		return 0, c.cellErr(row, col, "a whole number")
	}
	return v, nil
}

// floatAt reads a number; ok is false for an empty cell.
func (c *csvFile) floatAt(row, col int) (float64, bool, error) {
	s := c.rows[row][col]
	if s == "" {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, c.cellErr(row, col, "a number")
	}
	return v, true, nil
}

// runJob is the part of a jobs.csv row the report uses.
type runJob struct {
	Account, Partition, State, NodeType, StartedBy string
	CPUs                                           int64
	Submit, Start, End, Wait, Elapsed              int64
	Billing                                        float64
	GPUs                                           int64 // 0 in files written before the GPUs column
}

// readJobs reads jobs.csv as `fairsim run` writes it.
func readJobs(path string) ([]runJob, error) {
	c, err := readCSVFile(path)
	if err != nil {
		return nil, err
	}
	idx, err := c.cols("Account", "Partition", "State", "NodeType", "StartedBy", "NCPUS", "Submit", "Start", "End", "Wait", "Elapsed", "Billing")
	if err != nil {
		return nil, err
	}
	jobs := make([]runJob, len(c.rows))
	for i, r := range c.rows {
		if len(r) != len(c.head) {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", path, i+2, len(r), len(c.head))
		}
		j := &jobs[i]
		j.Account, j.Partition, j.State, j.NodeType, j.StartedBy = r[idx[0]], r[idx[1]], r[idx[2]], r[idx[3]], r[idx[4]]
		ints := []*int64{&j.CPUs, &j.Submit, &j.Start, &j.End, &j.Wait, &j.Elapsed}
		for k, p := range ints {
			if k >= 2 && r[idx[5+k]] == "" {
				*p = -1 // never: a job that never started
				continue
			}
			if *p, err = c.int64At(i, idx[5+k]); err != nil {
				return nil, err
			}
		}
		if j.Billing, _, err = c.floatAt(i, idx[11]); err != nil {
			return nil, err
		}
		if g, ok := c.head["GPUs"]; ok {
			if j.GPUs, err = c.int64At(i, g); err != nil {
				return nil, err
			}
			if j.GPUs < 0 {
				return nil, c.cellErr(i, g, "a count of GPUs")
			}
		}
	}
	return jobs, nil
}

// fsRow is the part of a fairshare.csv row the report uses.
type fsRow struct {
	Time                 int64
	Account, User        string
	NormShares           float64
	FairShare            float64
	HasFairShare, IsUser bool
}

func readFairshare(path string) ([]fsRow, error) {
	c, err := readCSVFile(path)
	if err != nil {
		return nil, err
	}
	idx, err := c.cols("time", "Account", "User", "NormShares", "FairShare")
	if err != nil {
		return nil, err
	}
	rows := make([]fsRow, len(c.rows))
	for i, r := range c.rows {
		if len(r) != len(c.head) {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", path, i+2, len(r), len(c.head))
		}
		x := &rows[i]
		if x.Time, err = c.int64At(i, idx[0]); err != nil {
			return nil, err
		}
		x.Account, x.User, x.IsUser = r[idx[1]], r[idx[2]], r[idx[2]] != ""
		if x.NormShares, _, err = c.floatAt(i, idx[3]); err != nil {
			return nil, err
		}
		if r[idx[4]] == "inf" {
			continue
		}
		if x.FairShare, x.HasFairShare, err = c.floatAt(i, idx[4]); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// utilRow is one line of utilization.csv.
type utilRow struct {
	Time             int64
	Busy, Total      int64
	Running, Pending int64
	// BusyGPUs and TotalGPUs are 0, and ByKind nil, in a file without
	// GPU columns (a CPU-only cluster's).
	BusyGPUs, TotalGPUs int64
	ByKind              []int64 // busy GPUs per utilTable.kinds
}

// utilTable is utilization.csv: its rows and the GPU kinds of its per-kind
// columns (gpu, gpu:a100), in column order.
type utilTable struct {
	rows  []utilRow
	kinds []string
	gpus  bool // the file has GPU columns
}

func readUtil(path string) (utilTable, error) {
	c, err := readCSVFile(path)
	if err != nil {
		return utilTable{}, err
	}
	idx, err := c.cols("time", "busy_cores", "total_cores", "running_jobs", "pending_jobs")
	if err != nil {
		return utilTable{}, err
	}
	u := utilTable{gpus: c.has("busy_gpus") && c.has("total_gpus")}
	var gidx, kidx []int
	if u.gpus {
		gidx, _ = c.cols("busy_gpus", "total_gpus")
		// Per-kind columns are named as the kind; take them in file order.
		for k, n := range c.names {
			if n == "gpu" || strings.HasPrefix(n, "gpu:") {
				u.kinds = append(u.kinds, n)
				kidx = append(kidx, k)
			}
		}
	}
	u.rows = make([]utilRow, len(c.rows))
	for i, r := range c.rows {
		if len(r) != len(c.head) {
			return utilTable{}, fmt.Errorf("%s:%d: %d fields, the header has %d", path, i+2, len(r), len(c.head))
		}
		x := &u.rows[i]
		for k, p := range []*int64{&x.Time, &x.Busy, &x.Total, &x.Running, &x.Pending} {
			if *p, err = c.int64At(i, idx[k]); err != nil {
				return utilTable{}, err
			}
		}
		if !u.gpus {
			continue
		}
		if x.BusyGPUs, err = c.int64At(i, gidx[0]); err != nil {
			return utilTable{}, err
		}
		if x.TotalGPUs, err = c.int64At(i, gidx[1]); err != nil {
			return utilTable{}, err
		}
		x.ByKind = make([]int64, len(kidx))
		for k, col := range kidx {
			if x.ByKind[k], err = c.int64At(i, col); err != nil {
				return utilTable{}, err
			}
		}
	}
	return u, nil
}

// readSummary reads summary.csv as ordered metric/value pairs.
func readSummary(path string) ([][2]string, error) {
	c, err := readCSVFile(path)
	if err != nil {
		return nil, err
	}
	idx, err := c.cols("metric", "value")
	if err != nil {
		return nil, err
	}
	out := make([][2]string, 0, len(c.rows))
	for _, r := range c.rows {
		out = append(out, [2]string{r[idx[0]], r[idx[1]]})
	}
	return out, nil
}
