package workload

import (
	"bufio"
	"io"
	"math"
	"strconv"
)

// SWFWriteOptions tunes the SWF writer.
type SWFWriteOptions struct {
	// Notes are provenance lines, written after the source's header lines
	// as "; Note: ...", so that a derived trace says where it came from.
	Notes []string
}

// SWFWriter writes jobs as Standard Workload Format records.
//
// Names become SWF numbers the way the SWF reader made them: user "u12" is
// 12, group "g3" is 3, partition "p2" is 2, QOS "q1" is queue 1; any other
// name is numbered by its interning order (id+1), so sacct users alice and
// bob become 1 and 2. Fields sacct does not carry (executable number,
// preceding job, think time) are written as the Job holds them.
type SWFWriter struct {
	w          *bufio.Writer
	names      *Names
	opts       SWFWriteOptions
	buf        []byte
	wroteHead  bool
	records    bool // a record was written
	users      swfNumbers
	groups     swfNumbers
	partitions swfNumbers
	queues     swfNumbers
}

// NewSWFWriter writes to w; names resolves the Job's name ids.
func NewSWFWriter(w io.Writer, names *Names, opts SWFWriteOptions) *SWFWriter {
	if names == nil {
		names = &Names{}
	}
	return &SWFWriter{w: bufio.NewWriterSize(w, 1<<16), names: names, opts: opts,
		users: swfNumbers{prefix: "u"}, groups: swfNumbers{prefix: "g"},
		partitions: swfNumbers{prefix: "p"}, queues: swfNumbers{prefix: "q"}}
}

// UseNames makes the writer resolve name ids in names from now on: a
// writer on its own goroutine reads a snapshot of tables the trace reader
// goes on growing.
func (w *SWFWriter) UseNames(names *Names) {
	if names != nil {
		w.names = names
	}
}

// WriteHeader writes the source's header lines (or, for a source without
// any, the few an SWF file needs), then the provenance notes. Write calls
// it with an empty header if it was not called first.
func (w *SWFWriter) WriteHeader(h *Header) error {
	w.wroteHead = true
	if h == nil {
		h = &Header{MaxNodes: Unset, MaxProcs: Unset}
	}
	line := func(s string) {
		w.w.WriteByte(';')
		w.w.WriteString(s)
		w.w.WriteByte('\n')
	}
	if len(h.Lines) > 0 {
		for _, l := range h.Lines {
			line(l)
		}
	} else {
		v := h.Version
		if v == "" {
			v = "2.2"
		}
		line(" Version: " + v)
		line(" UnixStartTime: " + strconv.FormatInt(h.UnixStartTime, 10))
		if h.TimeZoneString != "" {
			line(" TimeZoneString: " + h.TimeZoneString)
		}
		if h.MaxNodes > 0 {
			line(" MaxNodes: " + strconv.Itoa(h.MaxNodes))
		}
		if h.MaxProcs > 0 {
			line(" MaxProcs: " + strconv.Itoa(h.MaxProcs))
		}
	}
	for _, n := range w.opts.Notes {
		line(" Note: " + n)
	}
	_, err := w.w.Write(nil)
	return err
}

// WriteComments writes comment lines (Header.Comments) after the records
// written so far. With none written yet, a comment would read back as a
// header line, where "; MaxRecords: 0A0" is a malformed field: each is
// then written as a "; Comment: ..." line, which a reader keeps as a
// header line of its own.
func (w *SWFWriter) WriteComments(cs []string) error {
	for _, c := range cs {
		w.w.WriteByte(';')
		if !w.records {
			w.w.WriteString(" Comment: ")
		}
		w.w.WriteString(c)
		w.w.WriteByte('\n')
	}
	_, err := w.w.Write(nil)
	return err
}

// Write appends one job record.
func (w *SWFWriter) Write(j *Job) error {
	if !w.wroteHead {
		if err := w.WriteHeader(nil); err != nil {
			return err
		}
	}
	w.records = true
	b := w.buf[:0]
	queue := int64(j.Queue)
	if j.Queue == Unset && j.QOS != Unset {
		queue = w.queues.number(&w.names.QOS, j.QOS)
	}
	think := j.ThinkTime
	if j.Preceding == Unset {
		think = Unset
	}
	mem := int64(Unset)
	if j.MemPerCPU != Unset {
		mem = j.MemPerCPU * 1024
	}
	for _, v := range [...]int64{j.ID, j.Submit, j.Wait, j.Runtime, int64(j.AllocCPUs)} {
		b = append(strconv.AppendInt(b, v, 10), ' ')
	}
	b = append(appendSWFFloat(b, j.UsedCPU), ' ')
	b = appendSWFFloat(b, j.UsedMemKB)
	for _, v := range [...]int64{int64(j.CPUs), j.TimeLimit, mem, int64(j.Status),
		w.users.number(&w.names.Users, j.User), w.groups.number(&w.names.Groups, j.Group),
		int64(j.Executable), queue, w.partitions.number(&w.names.Partitions, j.Partition),
		j.Preceding, think} {
		b = strconv.AppendInt(append(b, ' '), v, 10)
	}
	b = append(b, '\n')
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// appendSWFFloat appends one of a record's two fractional fields (used
// CPU time and memory): a whole number without a fraction, others with
// the fewest digits that read back to the same value. The other sixteen
// fields are integers and are written as such.
func appendSWFFloat(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e18 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// Flush writes out what is buffered.
func (w *SWFWriter) Flush() error { return w.w.Flush() }

// WriteSWF copies a Source to SWF: the header once the first job is read
// (a sacct source knows its epoch only then), then every job. It returns
// the number of jobs written; a Source error is returned too.
func WriteSWF(out io.Writer, src Source, opts SWFWriteOptions) (int, error) {
	return copyJobs(NewSWFWriter(out, src.Names(), opts), src)
}

// jobWriter is what the SWF and sacct writers have in common.
type jobWriter interface {
	WriteHeader(*Header) error
	Write(*Job) error
	WriteComments([]string) error
	Flush() error
}

// copyJobs writes src's header once the first job is read, then every job,
// and flushes; it returns the jobs written and the Source's error.
func copyJobs(w jobWriter, src Source) (int, error) {
	n := 0
	var j Job
	for src.Next(&j) {
		if n == 0 {
			if err := w.WriteHeader(src.Header()); err != nil {
				return n, err
			}
		}
		if err := w.Write(&j); err != nil {
			return n, err
		}
		n++
	}
	if n == 0 {
		if err := w.WriteHeader(src.Header()); err != nil {
			return n, err
		}
	}
	if err := w.WriteComments(src.Header().Comments); err != nil {
		return n, err
	}
	if err := w.Flush(); err != nil {
		return n, err
	}
	return n, src.Err()
}

// swfNumbers turns interned names into SWF numbers, remembering them.
type swfNumbers struct {
	prefix string
	cache  []int64 // by name id; 0 = not yet computed
}

func (s *swfNumbers) number(t *Intern, id int32) int64 {
	if id < 0 || int(id) >= t.Len() {
		return Unset
	}
	if int(id) < len(s.cache) && s.cache[id] != 0 {
		return s.cache[id]
	}
	for len(s.cache) <= int(id) {
		s.cache = append(s.cache, 0)
	}
	v := swfNumber(t.Name(id), s.prefix, id)
	s.cache[id] = v
	return v
}

// swfNumber is n for a name spelled prefix+n (the SWF reader's names),
// else id+1.
func swfNumber(name, prefix string, id int32) int64 {
	if len(name) > len(prefix) && name[:len(prefix)] == prefix {
		digits := name[len(prefix):]
		if (digits == "0" || digits[0] != '0') && isDigits([]byte(digits)) {
			if v, ok := parseInt([]byte(digits)); ok {
				return v
			}
		}
	}
	return int64(id) + 1
}
