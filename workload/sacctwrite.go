package workload

import (
	"bufio"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fairsim/slurmtime"
)

// SacctColumns are the columns the sacct writer prints: the fields a Job
// shares with sacct. The sacct reader reads them all back.
var SacctColumns = []string{"JobID", "User", "Group", "Account", "Partition", "QOS",
	"Submit", "Eligible", "Start", "End", "Elapsed", "Timelimit", "ReqCPUS", "NCPUS",
	"ReqNodes", "ReqMem", "State", "Constraints", "TotalCPU", "MaxRSS"}

// SacctGresColumns follow SacctColumns when the jobs' names hold any GRES
// request (Names.Gres): ReqTRES, a job's request as sacct's totals, and a
// SubmitLine carrying the scope a total cannot (--gres=gpu:2 per node,
// --gpus=4 per job). A trace without GRES keeps the columns it always had.
var SacctGresColumns = []string{"ReqTRES", "SubmitLine"}

// SacctWriteOptions tunes the sacct writer.
type SacctWriteOptions struct {
	// Location is the zone of the time stamps written. Nil means UTC,
	// which has no daylight-saving hour that happens twice, so that times
	// read back exactly; in a zone with daylight saving, a time in the
	// repeated autumn hour is ambiguous and may read back an hour off.
	Location *time.Location
	// NoPreamble leaves out the '#' lines before the header. They carry the
	// epoch, the time zone and the source's SWF header, which a round trip
	// back to SWF needs; a strict sacct consumer may not accept them.
	NoPreamble bool
	// Notes are provenance lines, carried in the preamble as SWF notes.
	Notes []string
}

// SacctWriter writes jobs as sacct --parsable2 output with a header line.
//
// How Job fields become sacct columns: Start = Submit + Wait, End = Start +
// Runtime; a job cancelled while pending gets Start = End, Elapsed 0 and
// State CANCELLED, as sacct shows one; Unset values print as Unknown (times)
// or empty; Timelimit Unset prints as Partition_Limit; ReqMem prints per
// CPU in the old explicit form ("4000Mc"); the SWF status becomes COMPLETED
// (1), FAILED (0), CANCELLED (5) or UNKNOWN; an SWF queue number n with no
// QOS becomes QOS "qn"; TotalCPU is UsedCPU times the processors; MaxRSS is
// UsedMemKB. With GRES (SacctGresColumns), ReqTRES lists cpu=, the GRES
// totals (a typed GRES also in its name's untyped total, as Slurm prints
// it), mem= (MemPerCPU x CPUs) and node= where the job gives them, items
// sorted; SubmitLine is "sbatch" with --gres for the per-node GRES and
// --gpus for the per-job GPUs, or empty for a job without GRES (a per-job
// GRES other than gpu has no sbatch option: ReqTRES alone carries it).
type SacctWriter struct {
	w         *bufio.Writer
	names     *Names
	opts      SacctWriteOptions
	loc       *time.Location
	epoch     int64
	buf       []byte
	wroteHead bool
	gres      bool // the GRES columns are written
}

// NewSacctWriter writes to w; names resolves the Job's name ids.
func NewSacctWriter(w io.Writer, names *Names, opts SacctWriteOptions) *SacctWriter {
	if names == nil {
		names = &Names{}
	}
	loc := opts.Location
	if loc == nil {
		loc = time.UTC
	}
	return &SacctWriter{w: bufio.NewWriterSize(w, 1<<16), names: names, opts: opts, loc: loc}
}

// WriteHeader writes the preamble and the column header. Job times are
// relative to h.UnixStartTime.
func (w *SacctWriter) WriteHeader(h *Header) error {
	w.wroteHead = true
	if h != nil {
		w.epoch = h.UnixStartTime
	}
	if !w.opts.NoPreamble {
		w.w.WriteString("#fairsim epoch=" + strconv.FormatInt(w.epoch, 10) + " tz=" + w.loc.String() + "\n")
		if h != nil {
			for _, l := range h.Lines {
				w.w.WriteString("#;" + l + "\n")
			}
		}
		for _, n := range w.opts.Notes {
			w.w.WriteString("#; Note: " + n + "\n")
		}
	}
	w.w.WriteString(strings.Join(SacctColumns, "|"))
	if w.names.Gres.Len() > 0 {
		w.gres = true
		w.w.WriteString("|" + strings.Join(SacctGresColumns, "|"))
	}
	_, err := w.w.WriteString("\n")
	return err
}

// Write appends one job line.
func (w *SacctWriter) Write(j *Job) error {
	if !w.wroteHead {
		if err := w.WriteHeader(nil); err != nil {
			return err
		}
	}
	b := w.buf[:0]
	sep := func() { b = append(b, '|') }
	name := func(t *Intern, id int32) {
		sep()
		b = append(b, t.Name(id)...)
	}
	b = strconv.AppendInt(b, j.ID, 10)
	name(&w.names.Users, j.User)
	name(&w.names.Groups, j.Group)
	name(&w.names.Accounts, j.Account)
	if j.PartitionList > 0 {
		sep()
		b = append(b, w.names.PartitionLists.Name(j.PartitionList-1)...)
	} else {
		name(&w.names.Partitions, j.Partition)
	}
	sep()
	if j.QOS != Unset {
		b = append(b, w.names.QOS.Name(j.QOS)...)
	} else if j.Queue != Unset {
		b = append(b, 'q')
		b = strconv.AppendInt(b, int64(j.Queue), 10)
	}

	submit := j.Submit
	start, end := int64(Unset), int64(Unset)
	if j.Wait != Unset {
		start = submit + j.Wait
		switch {
		case j.CancelledPending:
			end = start
		case j.Runtime != Unset:
			end = start + j.Runtime
		}
	}
	eligible := submit
	if j.Eligible != Unset {
		eligible = j.Eligible
	}
	for _, t := range [...]int64{submit, eligible, start, end} {
		sep()
		b = w.appendTime(b, t)
	}
	sep()
	switch {
	case j.CancelledPending:
		b = append(b, "00:00:00"...)
	case j.Runtime != Unset:
		b = append(b, slurmtime.Format(j.Runtime)...)
	}
	sep()
	if j.TimeLimit == Unset {
		b = append(b, "Partition_Limit"...)
	} else {
		b = append(b, slurmtime.Format(j.TimeLimit)...)
	}
	for _, v := range [...]int{j.CPUs, j.AllocCPUs, j.Nodes} {
		sep()
		if v != Unset {
			b = strconv.AppendInt(b, int64(v), 10)
		}
	}
	sep()
	if j.MemPerCPU != Unset {
		b = strconv.AppendInt(b, j.MemPerCPU, 10)
		b = append(b, "Mc"...)
	}
	sep()
	if j.CancelledPending {
		b = append(b, "CANCELLED"...)
	} else {
		b = append(b, sacctState(j.Status)...)
	}
	name(&w.names.Features, j.Feature)
	sep()
	procs := j.AllocCPUs
	if procs <= 0 {
		procs = j.CPUs
	}
	if j.UsedCPU >= 0 && procs > 0 {
		b = appendCPUTime(b, j.UsedCPU*float64(procs))
	}
	sep()
	if v := j.UsedMemKB; v >= 0 {
		if v == 0 {
			v = 0 // an SWF "-0" is -0.0, which would print "-0K", not a size
		}
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
		b = append(b, 'K')
	}
	if w.gres {
		reqs, err := w.names.GresOf(j)
		if err != nil {
			return err
		}
		sep()
		b = appendReqTRES(b, j, reqs)
		sep()
		b = appendGresSubmitLine(b, reqs)
	}
	b = append(b, '\n')
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// appendTime writes epoch+t as sacct does, or Unknown for Unset.
func (w *SacctWriter) appendTime(b []byte, t int64) []byte {
	if t == Unset {
		return append(b, "Unknown"...)
	}
	return time.Unix(w.epoch+t, 0).In(w.loc).AppendFormat(b, "2006-01-02T15:04:05")
}

// appendCPUTime writes seconds as [D-]HH:MM:SS with up to six decimals.
func appendCPUTime(b []byte, secs float64) []byte {
	whole := math.Floor(secs)
	micro := int64(math.Round((secs - whole) * 1e6))
	if micro >= 1e6 {
		whole++
		micro -= 1e6
	}
	b = append(b, slurmtime.Format(int64(whole))...)
	if micro > 0 {
		f := strconv.FormatInt(micro+1e6, 10)[1:] // six digits, zero padded
		b = append(b, '.')
		b = append(b, strings.TrimRight(f, "0")...)
	}
	return b
}

// WriteComments writes an SWF trace's comments amid its records
// (Header.Comments) after the records written so far, as "#;" lines,
// which a sacct reader passes over there; without the preamble, as
// plain sacct output, none (the header lines are left out too).
func (w *SacctWriter) WriteComments(cs []string) error {
	if w.opts.NoPreamble {
		return nil
	}
	for _, c := range cs {
		w.w.WriteString("#;" + c + "\n")
	}
	_, err := w.w.Write(nil)
	return err
}

// Flush writes out what is buffered.
func (w *SacctWriter) Flush() error { return w.w.Flush() }

// WriteSacct copies a Source to sacct -P: the header once the first job is
// read, then every job. It returns the number of jobs written; a Source
// error is returned too.
func WriteSacct(out io.Writer, src Source, opts SacctWriteOptions) (int, error) {
	return copyJobs(NewSacctWriter(out, src.Names(), opts), src)
}

// appendReqTRES writes the job's request as sacct's ReqTRES: totals over
// the job, items sorted as strings.
func appendReqTRES(b []byte, j *Job, reqs []GresReq) []byte {
	var items []string
	if j.CPUs > 0 {
		items = append(items, "cpu="+strconv.Itoa(j.CPUs))
	}
	tot := gresTotals(reqs, j.Nodes)
	byName := map[string]int64{}
	typed := map[string]bool{}
	for k, v := range tot {
		byName[k.name] += v
		if k.typ != "" {
			typed[k.name] = true
			items = append(items, "gres/"+k.name+":"+k.typ+"="+strconv.FormatInt(v, 10))
		}
	}
	for name, v := range byName {
		items = append(items, "gres/"+name+"="+strconv.FormatInt(v, 10))
	}
	if j.MemPerCPU > 0 && j.CPUs > 0 {
		items = append(items, "mem="+strconv.FormatInt(j.MemPerCPU*int64(j.CPUs), 10)+"M")
	}
	if j.Nodes > 0 {
		items = append(items, "node="+strconv.Itoa(j.Nodes))
	}
	slices.Sort(items)
	return append(b, strings.Join(items, ",")...)
}

// appendGresSubmitLine writes the sbatch options of a GRES request: the
// per-node items as --gres, the per-job GPUs as --gpus; nothing when
// neither is there.
func appendGresSubmitLine(b []byte, reqs []GresReq) []byte {
	var perNode, gpus []string
	for _, g := range reqs {
		c := strconv.FormatInt(g.Count, 10)
		switch {
		case g.Per == GresPerNode && g.Type != "":
			perNode = append(perNode, g.Name+":"+g.Type+":"+c)
		case g.Per == GresPerNode:
			perNode = append(perNode, g.Name+":"+c)
		case g.Name == "gpu" && g.Type != "":
			gpus = append(gpus, g.Type+":"+c)
		case g.Name == "gpu":
			gpus = append(gpus, c)
		}
	}
	if len(perNode) == 0 && len(gpus) == 0 {
		return b
	}
	b = append(b, "sbatch"...)
	if len(perNode) > 0 {
		b = append(b, " --gres="...)
		b = append(b, strings.Join(perNode, ",")...)
	}
	if len(gpus) > 0 {
		b = append(b, " --gpus="...)
		b = append(b, strings.Join(gpus, ",")...)
	}
	return b
}
