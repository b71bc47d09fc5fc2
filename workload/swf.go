package workload

import (
	"bufio"
	"bytes"
	"fairsim/slurmtext"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// SWF field numbers (1-based, as the Parallel Workloads Archive numbers them).
const (
	swfJob = iota + 1
	swfSubmit
	swfWait
	swfRun
	swfAllocProcs
	swfAvgCPU
	swfUsedMem
	swfReqProcs
	swfReqTime
	swfReqMem
	swfStatus
	swfUser
	swfGroup
	swfExe
	swfQueue
	swfPartition
	swfPreceding
	swfThink
	swfFields = swfThink
)

var swfFieldNames = [...]string{"", "job number", "submit time", "wait time", "run time",
	"allocated processors", "average CPU time used", "used memory", "requested processors",
	"requested time", "requested memory", "status", "user id", "group id",
	"executable number", "queue number", "partition number", "preceding job number",
	"think time from preceding job"}

// SWFFieldName names SWF field n (1..18) for messages and column headers.
func SWFFieldName(n int) string {
	if n < 1 || n >= len(swfFieldNames) {
		return fmt.Sprintf("field %d", n)
	}
	return swfFieldNames[n]
}

// Header is the metadata a trace carries in its header (SWF `; Key: value`
// comment lines). Every raw line is kept so that derived traces can carry
// the original header, as the archive asks.
type Header struct {
	Version        string
	MaxJobs        int64
	MaxRecords     int64
	MaxNodes       int // Unset when absent
	MaxProcs       int // Unset when absent
	UnixStartTime  int64
	TimeZone       int64 // seconds east of UTC, from the TimeZone line
	TimeZoneString string
	Notes          []string
	Lines          []string // every header line as read, without the leading ';'
	// Comments are the comment lines amid the records, without the
	// leading ';'. They are not header lines: a writer puts them after
	// the records, where a reader takes them as comments again, rather
	// than into a header that reads "; MaxRecords: 0A0" as a field.
	Comments []string
}

// Value returns the value of the first `Key:` line, or "".
func (h *Header) Value(key string) string {
	for _, l := range h.Lines {
		k, v, ok := strings.Cut(l, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// SWFOptions tunes the SWF reader.
type SWFOptions struct {
	// SkipInvalid counts malformed lines by reason instead of failing.
	SkipInvalid bool
	// FailImpossible makes impossible records (negative run time) errors
	// instead of counted skips.
	FailImpossible bool
	// KeepIncomplete keeps records whose run time or processors are unknown
	// (-1), with Unset there, counting them in Defaulted instead of Skipped:
	// a format conversion must not lose them, a simulation cannot use them.
	KeepIncomplete bool
}

// maxErrors bounds how many problems a strict read collects before it stops.
const maxErrors = 20

// SWFReader streams jobs from a Standard Workload Format file, plain or gzip
// (detected by its magic bytes, not its name).
type SWFReader struct {
	seen   idSet // job numbers read, to refuse a second record of one
	file   string
	opts   SWFOptions
	r      *bufio.Reader
	closer io.Closer
	stop   func() // ends the inflating goroutine of a gzip input
	line   int
	hdr    Header
	names  Names
	stats  *ReadStats
	errs   ErrorList
	err    error
	fields [swfFields + 1][]byte
	peeked []byte // first job line, read while scanning the header
	num    [swfFields + 1]float64
	userID map[int64]int32
	grpID  map[int64]int32
	partID map[int64]int32
}

// OpenSWF opens path ("-" for standard input) and reads its header.
func OpenSWF(path string, opts SWFOptions) (*SWFReader, error) {
	var r *SWFReader
	c, pos, err := openReader(path, func(in io.Reader) (err error) {
		r, err = NewSWFReader(in, path, opts)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.closer, r.stats.Input = c, pos
	return r, nil
}

// NewSWFReader reads an SWF stream; name is used in error messages.
func NewSWFReader(in io.Reader, name string, opts SWFOptions) (*SWFReader, error) {
	br, stop, err := bufferedInputAhead(in, name)
	if err != nil {
		return nil, err
	}
	s := &SWFReader{file: name, opts: opts, r: br, stop: stop, stats: NewReadStats(),
		userID: map[int64]int32{}, grpID: map[int64]int32{}, partID: map[int64]int32{}}
	s.hdr.MaxNodes, s.hdr.MaxProcs = Unset, Unset
	if err := s.readHeader(); err != nil {
		stop()
		return nil, err
	}
	return s, nil
}

// Close releases the underlying file.
func (s *SWFReader) Close() error {
	if s.stop != nil {
		s.stop()
	}
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// Header implements Source.
func (s *SWFReader) Header() *Header { return &s.hdr }

// Names implements Source.
func (s *SWFReader) Names() *Names { return &s.names }

// Stats implements Source.
func (s *SWFReader) Stats() *ReadStats { return s.stats }

// Err implements Source.
func (s *SWFReader) Err() error { return s.err }

// readLine returns the next line without its end, or nil at EOF.
func (s *SWFReader) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A very long line: gather it whole.
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = s.r.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	if len(line) == 0 && err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, err
	}
	s.line++
	line = bytes.TrimRight(line, "\r\n")
	if s.line == 1 {
		line = slurmtext.TrimBOM(line)
	}
	return line, nil
}

func (s *SWFReader) readHeader() error {
	for {
		line, err := s.readLine()
		if err != nil {
			return &Error{File: s.file, Line: s.line + 1, Msg: err.Error()}
		}
		if line == nil {
			return nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if t[0] != ';' {
			s.peeked = append([]byte(nil), line...)
			return nil
		}
		if err := s.headerLine(string(t[1:])); err != nil {
			return err
		}
	}
}

// headerLine reads one header comment. A numeric field whose number runs
// into other characters ("1e999", "2.5") is an error rather than its
// leading digits: a cluster size read wrong builds another cluster.
func (s *SWFReader) headerLine(l string) error {
	s.hdr.Lines = append(s.hdr.Lines, l)
	k, v, ok := strings.Cut(l, ":")
	if !ok {
		return nil
	}
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	var bad error
	lead := func() int64 { // "338 (batch partition; 512 total)" -> 338
		end := 0
		for end < len(v) && (v[end] >= '0' && v[end] <= '9' || (end == 0 && v[end] == '-')) {
			end++
		}
		if end == 0 {
			return Unset // no number: a text note such as "unknown"
		}
		n, err := strconv.ParseInt(v[:end], 10, 64)
		if err != nil || end < len(v) && v[end] != ' ' && v[end] != '\t' && v[end] != '(' && v[end] != ',' && v[end] != ';' {
			bad = &Error{File: s.file, Line: s.line, Field: "header " + k, Msg: fmt.Sprintf("%q is not a whole number", v)}
			return Unset
		}
		return n
	}
	switch strings.ToLower(k) {
	case "version":
		s.hdr.Version = v
	case "maxjobs":
		s.hdr.MaxJobs = lead()
	case "maxrecords":
		s.hdr.MaxRecords = lead()
	case "maxnodes", "maxprocs":
		// The cluster is built from these two: a number that is no
		// size (0, -1), or a second line, was silently dropped or won,
		// and the cluster was built from the other one. A text note
		// with no number ("unknown") still leaves the size unknown.
		dst := &s.hdr.MaxNodes
		if strings.EqualFold(k, "maxprocs") {
			dst = &s.hdr.MaxProcs
		}
		switch n := lead(); {
		case bad != nil:
		case n == Unset && (v == "" || v[0] < '0' || v[0] > '9') && !strings.HasPrefix(v, "-"):
			// No number: a text note ("unknown") says the size is not known.
		case *dst != Unset:
			bad = &Error{File: s.file, Line: s.line, Field: "header " + k, Msg: "given twice"}
		case n <= 0 || n > math.MaxInt32:
			bad = &Error{File: s.file, Line: s.line, Field: "header " + k, Msg: fmt.Sprintf("%q is not a size of the machine (a whole number, at least 1)", v)}
		default:
			*dst = int(n)
		}
	case "unixstarttime":
		if n := lead(); n >= 0 {
			s.hdr.UnixStartTime = n
		}
	case "timezone":
		if n := lead(); n != Unset {
			s.hdr.TimeZone = n
		}
	case "timezonestring":
		s.hdr.TimeZoneString = v
	case "note":
		s.hdr.Notes = append(s.hdr.Notes, v)
	}
	return bad
}

// Next implements Source.
func (s *SWFReader) Next(j *Job) bool {
	if s.err != nil {
		return false
	}
	for {
		var line []byte
		if s.peeked != nil {
			line, s.peeked = s.peeked, nil
		} else {
			var err error
			line, err = s.readLine()
			if err != nil {
				s.errs.Add(s.file, s.line+1, "", err.Error())
				s.err = s.errs
				return false
			}
			if line == nil {
				s.err = s.errs.Err()
				return false
			}
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if t[0] == ';' {
			// A comment amid the records: kept, but not as a header line.
			s.hdr.Comments = append(s.hdr.Comments, string(t[1:]))
			continue
		}
		s.stats.Records++
		ok, field, msg := s.parse(t, j)
		if ok && s.seen.add(j.ID) {
			ok, field, msg = false, 1, fmt.Sprintf("job number %d appears twice", j.ID)
		}
		if ok {
			s.stats.Accepted++
			return true
		}
		if field == 0 && msg != "" {
			// A skip by the archive's rules (a -1 that cannot be filled in).
			s.stats.Skipped.Add(msg)
			continue
		}
		if field < 0 { // impossible record
			if s.opts.FailImpossible {
				s.errs.Add(s.file, s.line, "field "+strconv.Itoa(-field)+" ("+SWFFieldName(-field)+")", msg)
				s.err = s.errs
				return false
			}
			s.stats.Skipped.Add("impossible: " + msg)
			continue
		}
		if s.opts.SkipInvalid {
			s.stats.Skipped.Add("invalid: " + SWFFieldName(field) + ": " + msg)
			continue
		}
		s.errs.Add(s.file, s.line, "field "+strconv.Itoa(field)+" ("+SWFFieldName(field)+")", msg)
		if len(s.errs) >= maxErrors {
			s.err = s.errs
			return false
		}
	}
}

// parse turns one record into j. It returns ok, or the 1-based field at
// fault with a message; field 0 with a message is a counted skip, a negative
// field an impossible record.
func (s *SWFReader) parse(t []byte, j *Job) (ok bool, field int, msg string) {
	n := 0
	for i := 0; i < len(t); {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		if i >= len(t) {
			break
		}
		start := i
		for i < len(t) && t[i] != ' ' && t[i] != '\t' {
			i++
		}
		n++
		if n > swfFields {
			return false, n, fmt.Sprintf("extra field %q: a record has %d fields", t[start:i], swfFields)
		}
		s.fields[n] = t[start:i]
	}
	if n < swfFields {
		return false, n + 1, fmt.Sprintf("truncated record: %d of %d fields", n, swfFields)
	}
	for f := 1; f <= swfFields; f++ {
		v, good := parseNum(s.fields[f])
		if !good {
			return false, f, fmt.Sprintf("not a number: %q", s.fields[f])
		}
		if v < 0 && v != -1 {
			if f == swfRun {
				return false, -f, fmt.Sprintf("negative run time %s", s.fields[f])
			}
			return false, f, fmt.Sprintf("negative value %s (only -1 means unknown)", s.fields[f])
		}
		s.num[f] = v
	}
	num := &s.num
	iv := func(f int) int64 { // whole seconds, counts: round half up
		v := num[f]
		if v < 0 {
			return Unset
		}
		return int64(v + 0.5)
	}
	*j = Job{Line: s.line}
	j.ID = iv(swfJob)
	j.Submit = iv(swfSubmit)
	if j.Submit == Unset {
		return false, 0, "submit time unknown (-1)"
	}
	j.Runtime = iv(swfRun)
	if j.Runtime == Unset {
		if !s.opts.KeepIncomplete {
			return false, 0, "run time unknown (-1)"
		}
		s.stats.Defaulted.Add("kept incomplete: run time unknown (-1)")
	}
	j.AllocCPUs = int(iv(swfAllocProcs))
	j.CPUs = int(iv(swfReqProcs))
	if j.CPUs <= 0 {
		j.CPUs = int(iv(swfAllocProcs))
		if j.CPUs <= 0 {
			// -1 is the archive's unknown; 0 (seen for jobs cancelled
			// before they ran) is a record of no processors at all.
			what := "processors unknown (-1 requested and allocated)"
			if num[swfReqProcs] == 0 || num[swfAllocProcs] == 0 {
				what = "no processors (0 requested or allocated, none known)"
			}
			if !s.opts.KeepIncomplete {
				return false, 0, what
			}
			j.CPUs = Unset
			s.stats.Defaulted.Add("kept incomplete: " + what)
		} else {
			s.stats.Defaulted.Add("requested processors from allocated")
		}
	}
	j.Wait = iv(swfWait)
	j.Eligible = Unset
	j.Nodes = Unset
	j.TimeLimit = iv(swfReqTime)
	if j.TimeLimit == 0 {
		j.TimeLimit = Unset
	}
	if mem := num[swfReqMem]; mem > 0 {
		j.MemPerCPU = int64(mem/1024 + 0.999999) // KB per processor -> MB, rounded up
	} else {
		j.MemPerCPU = Unset
	}
	j.Status = int(iv(swfStatus))
	j.UsedCPU = num[swfAvgCPU]
	j.UsedMemKB = num[swfUsedMem]
	j.Executable = int(iv(swfExe))
	j.Queue = int(iv(swfQueue))
	j.Preceding = iv(swfPreceding)
	if j.Preceding == 0 {
		j.Preceding = Unset
	}
	j.ThinkTime = iv(swfThink)
	if j.ThinkTime < 0 {
		j.ThinkTime = 0
	}
	j.User = s.intern(&s.names.Users, s.userID, iv(swfUser), "u")
	j.Group = s.intern(&s.names.Groups, s.grpID, iv(swfGroup), "g")
	j.Account, j.QOS, j.Feature = Unset, Unset, Unset
	j.Partition = Unset
	if p := iv(swfPartition); p != Unset {
		j.Partition = s.intern(&s.names.Partitions, s.partID, p, "p")
	}
	return true, 0, ""
}

// intern names SWF's numeric ids: user 12 becomes "u12", so that sshare
// and sacct views look like user names and round-trip back to numbers.
func (s *SWFReader) intern(t *Intern, cache map[int64]int32, id int64, prefix string) int32 {
	if id == Unset {
		return Unset
	}
	if v, ok := cache[id]; ok {
		return v
	}
	v := t.ID(prefix + strconv.FormatInt(id, 10))
	cache[id] = v
	return v
}

// parseNum parses an SWF number: an optional '-', digits, an optional
// fraction. It avoids strconv for the common all-digit case.
func parseNum(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	if b[0] == '-' {
		neg = true
		i = 1
	}
	if i >= len(b) {
		return 0, false
	}
	var n int64
	start := i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if n > 1e15 {
			return 0, false
		}
		n = n*10 + int64(b[i]-'0')
	}
	v := float64(n)
	if i < len(b) {
		if b[i] != '.' {
			return 0, false
		}
		i++
		scale := 0.1
		digits := 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			v += float64(b[i]-'0') * scale
			scale /= 10
			digits++
		}
		if i < len(b) || (digits == 0 && i-start == 1) {
			return 0, false
		}
	} else if i == start {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}
