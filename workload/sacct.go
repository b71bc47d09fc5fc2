package workload

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fairsim/slurmtext"
)

// Sacct columns the reader uses; every other column is ignored. Priority is
// among the ignored ones: the simulator computes priorities itself, and a
// recorded priority means nothing outside its own site's weights.
type sacctField int

const (
	sfJobID sacctField = iota
	sfJobIDRaw
	sfUser
	sfUID
	sfGroup
	sfGID
	sfAccount
	sfPartition
	sfQOS
	sfSubmit
	sfEligible
	sfStart
	sfEnd
	sfElapsed
	sfElapsedRaw
	sfTimelimit
	sfTimelimitRaw
	sfReqCPUS
	sfNCPUS
	sfAllocCPUS
	sfReqMem
	sfReqNodes
	sfNNodes
	sfAllocNodes
	sfReqTRES
	sfAllocTRES
	sfState
	sfConstraints
	sfTotalCPU
	sfMaxRSS
	sfSubmitLine
	sfFlags
	sfNodeList
	sfReqReservation
	sfReqGRES
	sfAllocGRES
	sfNTasks
	// sfReservation is the reservation the job ran in or waits for
	// (22.05 has no ReqReservation; slurmdb job resv_name).
	sfReservation
	sfCount
)

// sacctFieldNames spells the columns as sacct --helpformat does; matching is
// case-insensitive, as sacct's --format is.
var sacctFieldNames = [sfCount]string{"JobID", "JobIDRaw", "User", "UID", "Group", "GID",
	"Account", "Partition", "QOS", "Submit", "Eligible", "Start", "End", "Elapsed",
	"ElapsedRaw", "Timelimit", "TimelimitRaw", "ReqCPUS", "NCPUS", "AllocCPUS", "ReqMem",
	"ReqNodes", "NNodes", "AllocNodes", "ReqTRES", "AllocTRES", "State", "Constraints",
	"TotalCPU", "MaxRSS", "SubmitLine", "Flags", "NodeList", "ReqReservation", "ReqGRES", "AllocGRES", "NTasks", "Reservation"}

// sacctRequired are the columns without which a line cannot be a job: a line
// cut short before one of them is truncated, whereas missing trailing
// optional columns (the fixture drops Partition on most lines) are defaulted.
var sacctRequired = [sfCount]bool{sfJobID: true, sfJobIDRaw: true, sfSubmit: true,
	sfStart: true, sfEnd: true, sfElapsed: true, sfElapsedRaw: true, sfState: true,
	sfReqCPUS: true, sfNCPUS: true, sfAllocCPUS: true}

// Durations beyond these are rejected as malformed: a run time or limit of
// three centuries, or a job's CPU time of thirty thousand CPU-years, is a
// corrupt field, and bounding them keeps every time the reader returns
// printable as a four-digit-year time stamp.
const (
	maxSacctSeconds    = 10_000_000_000
	maxSacctCPUSeconds = 1_000_000_000_000
)

// SacctFieldNames lists the sacct columns the reader understands, in the
// spelling of sacct --helpformat.
func SacctFieldNames() []string { return append([]string(nil), sacctFieldNames[:]...) }

func lookupSacctField(name string) (sacctField, bool) {
	if i := strings.IndexByte(name, '%'); i >= 0 { // "JobName%30": a display width
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	for i, n := range sacctFieldNames {
		if strings.EqualFold(n, name) {
			return sacctField(i), true
		}
	}
	return 0, false
}

// ParseSacctFields splits a --format style list ("State,JobID,Submit"),
// the way every other comma list is split.
func ParseSacctFields(list string) []string { return slurmtext.SplitList(list) }

// SacctOptions tunes the sacct reader.
type SacctOptions struct {
	// Fields is the --format list of output printed with --noheader. Leave
	// it empty when the input starts with the header line sacct -P prints;
	// when both are given, Fields rules and the header line is skipped.
	Fields []string
	// Location is the time zone of the time stamps. Nil means the zone a
	// fairsim preamble declares, else the local time zone: sacct prints
	// local time without saying which.
	Location *time.Location
	// Epoch is the Unix time that becomes time 0. Zero means the epoch a
	// fairsim preamble declares, else the first submit time.
	Epoch int64
	// SkipInvalid counts malformed lines by reason instead of failing.
	SkipInvalid bool
	// DropCancelledPending leaves out jobs cancelled before they started
	// (counted as skipped) instead of keeping them as submissions that
	// leave the queue when they were cancelled.
	DropCancelledPending bool
	// KeepIncomplete keeps jobs whose run time or processors are unknown,
	// with Unset there, for format conversion.
	KeepIncomplete bool
	// Delimiter separates fields; 0 means '|', sacct's default.
	Delimiter byte
}

// SacctReader reads sacct --parsable2 (or --parsable) output.
//
// sacct lists jobs by job id, not by submit time, so the reader loads the
// whole input on the first call to Next and sorts it by (submit, job id)
// before handing out the first job. That costs memory, about 200 bytes per
// job (60 MB for a 300,000-job year), where the SWF reader streams; a
// trace too large for that should be converted to SWF once and replayed
// from there.
//
// Defaults, each counted in Stats().Defaulted when used:
//   - a column missing from the input, or a short line lacking trailing
//     optional columns: no user (as SWF's -1), group, account, partition, QOS
//     or feature, eligible at submit, no time limit, no memory request,
//     nodes chosen by the scheduler, 1 CPU when no CPU column exists;
//   - Unknown/None/empty values: the same as a missing column;
//   - requested CPUs from allocated ones (NCPUS) when ReqCPUS is absent;
//   - Timelimit UNLIMITED, Partition_Limit and 0 (sbatch --time=0): no
//     time limit (Unset);
//   - a list of partitions: the first (Job holds one partition);
//   - array tasks and heterogeneous components without JobIDRaw: numbered
//     after the largest job id, in (job, task) order;
//   - jobs still running: their run time so far.
//
// Job steps (123.batch, 123.extern, 123.0) are folded into their job: they
// contribute their MaxRSS. A step whose job line is absent is counted as a
// skipped record. Jobs that never started are skipped (PENDING), or when
// cancelled kept with CancelledPending (see SacctOptions). Runtime is
// Elapsed, else End-Start; Wait is Start-Submit; UsedCPU is TotalCPU per
// allocated CPU and UsedMemKB the largest MaxRSS of the job and its steps.
//
// Lines starting with '#' before the header are a fairsim preamble, as
// SacctWriter writes it: "#fairsim epoch=N tz=ZONE" and SWF header lines
// prefixed "#;", which become Header().Lines. Other '#' lines are ignored.
//
// A malformed line is an error "file:line: field NAME: message" (up to 20
// are collected before reading stops), or with SkipInvalid a skip counted
// under "invalid: NAME: reason". An end before the start and a job id seen
// twice are malformed.
type SacctReader struct {
	file   string
	opts   SacctOptions
	in     *lineReader
	closer io.Closer
	delim  byte

	col      [sfCount]int // column of each field, -1 when absent
	ncol     int
	colNames []string  // the header's column names, for messages
	kinds    []colKind // what each column can hold, to split a '|' inside a value
	noHeader bool      // columns from SacctOptions.Fields: sacct -p may end lines with an extra '|'

	trailing bool   // sacct -p: each line ends with the delimiter
	first    []byte // first data line, read while looking for the header
	firstNo  int

	hdr         Header
	names       Names
	stats       *ReadStats
	errs        ErrorList
	err         error
	loc         *time.Location
	dst         dstZone
	preEpoch    int64 // epoch a fairsim preamble declares
	preEpochSet bool
	preTZ       string // time zone a fairsim preamble declares
	epoch       int64
	loaded      bool

	jobs  []Job
	next  int
	byKey map[string]int
	// requeued marks the jobs read so far whose last run read ended
	// requeued (mergeRun), by index in jobs.
	requeued   map[int]bool
	steps      []sacctStep
	noRaw      []sacctNoRaw
	nSteps     int
	tasks      int // pending array tasks expanded so far
	maxID      int64
	fields     [][]byte
	cache      [sfCount]map[string]int32
	absent     []string // Defaulted reasons for columns the input lacks
	defs       []string // scratch for sacctLine.defs
	defReasons map[defKey]string
}

type sacctStep struct {
	key    string
	line   int
	maxRSS float64
}

// sacctNoRaw is a job whose id must be made up: an array task or a
// heterogeneous component printed without JobIDRaw.
type sacctNoRaw struct {
	index     int
	base, sub int64
}

// OpenSacct opens path ("-" for standard input; gzip is recognised) and
// reads its header.
func OpenSacct(path string, opts SacctOptions) (*SacctReader, error) {
	var r *SacctReader
	c, pos, err := openReader(path, func(in io.Reader) (err error) {
		r, err = NewSacctReader(in, path, opts)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.closer, r.stats.Input = c, pos
	return r, nil
}

// NewSacctReader reads sacct output from in; name is used in messages.
func NewSacctReader(in io.Reader, name string, opts SacctOptions) (*SacctReader, error) {
	lr, err := newLineReader(in, name)
	if err != nil {
		return nil, err
	}
	r := &SacctReader{file: name, opts: opts, in: lr, delim: opts.Delimiter, stats: NewReadStats(),
		byKey: map[string]int{}, maxID: -1, defReasons: map[defKey]string{}}
	if r.delim == 0 {
		r.delim = '|'
	}
	r.hdr.MaxNodes, r.hdr.MaxProcs = Unset, Unset
	for i := range r.cache {
		r.cache[i] = map[string]int32{}
	}
	if err := r.readHeader(); err != nil {
		return nil, err
	}
	return r, nil
}

// Close releases the underlying file.
func (r *SacctReader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Header implements Source: UnixStartTime is the epoch, and Lines the SWF
// header lines a fairsim preamble carried. The epoch is known only once
// the whole input is read, so Header reads it (see Load).
func (r *SacctReader) Header() *Header {
	r.Load()
	return &r.hdr
}

// Names implements Source; like Header, it reads the input first, so that
// every name is there from the start.
func (r *SacctReader) Names() *Names {
	r.Load()
	return &r.names
}

// Stats implements Source.
func (r *SacctReader) Stats() *ReadStats { return r.stats }

// Err implements Source.
func (r *SacctReader) Err() error { return r.err }

// Epoch is the Unix time of time 0; it reads the input first.
func (r *SacctReader) Epoch() int64 {
	r.Load()
	return r.epoch
}

// Location is the time zone the time stamps were read in.
func (r *SacctReader) Location() *time.Location { return r.loc }

// Steps is the number of job step lines folded into their jobs.
func (r *SacctReader) Steps() int { return r.nSteps }

// Next implements Source; the first call reads the whole input.
func (r *SacctReader) Next(j *Job) bool {
	if !r.loaded {
		r.Load()
	}
	if r.err != nil || r.next >= len(r.jobs) {
		return false
	}
	*j = r.jobs[r.next]
	r.next++
	return true
}

// Load reads and sorts the whole input; Next calls it. It returns Err.
func (r *SacctReader) Load() error {
	if r.loaded {
		return r.err
	}
	r.loaded = true
	r.readAll()
	if r.err == nil && len(r.errs) > 0 {
		r.err = r.errs
	}
	if r.err != nil {
		r.jobs = nil
		return r.err
	}
	r.finish()
	return nil
}

// readHeader reads the fairsim preamble (lines starting with '#') and the
// column header, or takes the columns from the options.
func (r *SacctReader) readHeader() error {
	var line []byte
	for {
		l, err := r.in.next()
		if err != nil {
			return &Error{File: r.file, Line: r.in.line + 1, Msg: err.Error()}
		}
		if l == nil {
			break
		}
		if r.in.line == 1 {
			l = slurmtext.TrimBOM(l)
		}
		t := bytes.TrimSpace(l)
		if len(t) == 0 {
			continue
		}
		if t[0] == '#' {
			r.preambleLine(string(t[1:]))
			continue
		}
		line = l
		break
	}
	r.loc = r.opts.Location
	if r.loc == nil {
		r.loc = time.Local
		if r.preTZ != "" {
			if loc, err := time.LoadLocation(r.preTZ); err == nil {
				r.loc = loc
			}
		}
	}
	isHeader := line != nil && looksLikeSacctHeader(line, r.delim)
	var names []string
	headerLine := 0
	switch {
	case len(r.opts.Fields) > 0:
		names = r.opts.Fields
		r.noHeader = true
		if isHeader {
			line = nil // the header sacct printed, matching or not: the explicit list rules
		}
	case isHeader:
		names = strings.Split(string(line), string(r.delim))
		headerLine = r.in.line
		line = nil
	case line == nil:
		names = nil // empty input: no jobs, no error
	default:
		return &Error{File: r.file, Line: r.in.line, Msg: "no sacct header line (sacct -P prints one); " +
			"for --noheader output give the field list it was printed with (--fields, or trace.fields: sacct's --format list)"}
	}
	if len(names) > 0 && names[len(names)-1] == "" { // sacct -p ends every line with '|'
		r.trailing = true
		names = names[:len(names)-1]
	}
	for i := range r.col {
		r.col[i] = -1
	}
	for i, n := range names {
		if f, ok := lookupSacctField(n); ok && r.col[f] < 0 {
			r.col[f] = i
		}
	}
	r.ncol = len(names)
	r.colNames = names
	r.kinds = make([]colKind, len(names))
	for i, n := range names {
		r.kinds[i] = sacctColKind(n)
	}
	fieldErr := func(msg string) error {
		if headerLine > 0 {
			return &Error{File: r.file, Line: headerLine, Field: "header", Msg: msg}
		}
		return &Error{File: r.file, Field: "field list", Msg: msg}
	}
	if names != nil {
		switch {
		case r.col[sfJobID] < 0 && r.col[sfJobIDRaw] < 0:
			return fieldErr("no JobID or JobIDRaw column")
		case r.col[sfSubmit] < 0:
			return fieldErr("no Submit column: jobs cannot be placed in time")
		case r.col[sfElapsed] < 0 && r.col[sfElapsedRaw] < 0 && (r.col[sfStart] < 0 || r.col[sfEnd] < 0):
			return fieldErr("no run time: need Elapsed, ElapsedRaw, or Start and End")
		}
	}
	if line != nil {
		r.first = append([]byte(nil), line...)
		r.firstNo = r.in.line
	}
	r.noteAbsent()
	return nil
}

// looksLikeSacctHeader reports whether line names a JobID column, which
// no data line can.
func looksLikeSacctHeader(line []byte, delim byte) bool {
	for f := range bytes.SplitSeq(line, []byte{delim}) {
		if i := bytes.IndexByte(f, '%'); i >= 0 {
			f = f[:i]
		}
		f = bytes.TrimSpace(f)
		if bytes.EqualFold(f, []byte("JobID")) || bytes.EqualFold(f, []byte("JobIDRaw")) {
			return true
		}
	}
	return false
}

// preambleLine takes a '#' line: "#;..." carries an SWF header line, and
// "#fairsim key=value ..." the epoch and time zone of a fairsim export.
func (r *SacctReader) preambleLine(l string) {
	switch {
	case strings.HasPrefix(l, ";"):
		applySWFHeaderLine(&r.hdr, strings.TrimSpace(l)[1:])
	case strings.HasPrefix(l, "fairsim "):
		for _, kv := range strings.Fields(l[len("fairsim "):]) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				continue
			}
			switch k {
			case "epoch":
				if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
					r.preEpoch, r.preEpochSet = n, true
				}
			case "tz":
				r.preTZ = v
			}
		}
	}
}

// stepKey is the canonical key of the job a step line belongs to, or ""
// when its id cannot be a job's.
func stepKey(b []byte, raw bool) string {
	if raw {
		if v, ok := parseInt(b); ok {
			return strconv.FormatInt(v, 10)
		}
		return ""
	}
	p, err := parseJobID(b, 0)
	if err != "" || p.kind == jobArrayRange {
		return ""
	}
	return p.key(p.sub)
}

// applySWFHeaderLine parses one SWF header line (without its ';') into h,
// with the SWF reader's own rules so both readers agree.
func applySWFHeaderLine(h *Header, l string) {
	tmp := SWFReader{hdr: *h}
	tmp.headerLine(l)
	*h = tmp.hdr
}

// sacctProblem is what is wrong with one line: the field at fault (or -1
// for the whole line), a reason that does not depend on the value (it is
// the key skipped lines are counted under) and the detail for the message.
type sacctProblem struct {
	field  sacctField // -1: the whole line; -2: one field past the header; -3: the columns in name
	name   string     // the column(s) at fault when field is -3
	reason string
	detail string
}

func (p *sacctProblem) fieldName() string {
	if p.field == -3 {
		return p.name
	}
	if p.field < 0 {
		return ""
	}
	return sacctFieldNames[p.field]
}

// readAll reads every line after the header.
func (r *SacctReader) readAll() {
	for {
		var line []byte
		n := 0
		if r.first != nil {
			line, n, r.first = r.first, r.firstNo, nil
		} else {
			var err error
			line, err = r.in.next()
			if err != nil {
				r.errs.Add(r.file, r.in.line+1, "", err.Error())
				return
			}
			if line == nil {
				return
			}
			n = r.in.line
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if r.ncol == 0 {
			r.errs.Add(r.file, n, "", "no sacct header line (sacct -P prints one); for --noheader output give the field list it was printed with (--fields, or trace.fields: sacct's --format list)")
			return
		}
		if p := r.parseLine(t, n); p != nil {
			r.stats.Records++
			reason := p.reason
			if name := p.fieldName(); name != "" {
				reason = name + ": " + reason
			}
			if r.opts.SkipInvalid {
				r.stats.Skipped.Add("invalid: " + reason)
				continue
			}
			field := ""
			if p.field >= 0 || p.field == -3 {
				field = "field " + p.fieldName()
			} else if p.field == -2 {
				field = "field " + strconv.Itoa(r.ncol+1)
			}
			msg := p.reason
			if p.detail != "" {
				msg += ": " + p.detail
			}
			r.errs.Add(r.file, n, field, msg)
			if len(r.errs) >= maxErrors {
				return
			}
		}
	}
}

// sacctLine gives access to the fields of the line being parsed.
type sacctLine struct {
	r      *SacctReader
	fields [][]byte
	defs   []string      // Defaulted reasons, counted only if the job is kept
	bad    *sacctProblem // first malformed count or TRES value
	// requeued marks a run that ended requeued (State PREEMPTED,
	// REQUEUED or NODE_FAIL): with sacct -D its job's later run follows
	// under the same id.
	requeued bool
}

// Value states of a field on a line.
const (
	valOK      = iota
	valAbsent  // the input has no such column
	valShort   // the line ends before the column
	valUnknown // empty, Unknown or None
)

func (l *sacctLine) get(f sacctField) ([]byte, int) {
	c := l.r.col[f]
	if c < 0 {
		return nil, valAbsent
	}
	if c >= len(l.fields) {
		return nil, valShort
	}
	b := l.fields[c]
	if len(b) == 0 || string(b) == "Unknown" || string(b) == "None" || string(b) == "N/A" {
		return b, valUnknown
	}
	return b, valOK
}

// def records a default used for field f when its value is not there.
func (l *sacctLine) def(f sacctField, st int, what string) {
	if st == valAbsent {
		return // counted per job from r.absent
	}
	k := defKey{f, st, what}
	reason, ok := l.r.defReasons[k]
	if !ok {
		if st == valShort {
			reason = sacctFieldNames[f] + " missing on a short line: " + what
		} else {
			reason = sacctFieldNames[f] + " unknown: " + what
		}
		l.r.defReasons[k] = reason
	}
	l.defs = append(l.defs, reason)
}

// defKey names a default reason, built once and reused for every line.
type defKey struct {
	f    sacctField
	st   int
	what string
}

// parseLine handles one data line: a job (or a pending array range of
// jobs), or a step folded into its job later.
func (r *SacctReader) parseLine(t []byte, n int) *sacctProblem {
	if r.trailing && t[len(t)-1] == r.delim {
		t = t[:len(t)-1]
	}
	r.fields = r.fields[:0]
	for {
		i := bytes.IndexByte(t, r.delim)
		if i < 0 {
			r.fields = append(r.fields, t)
			break
		}
		r.fields = append(r.fields, t[:i])
		t = t[i+1:]
	}
	if r.noHeader && len(r.fields) == r.ncol+1 && len(r.fields[r.ncol]) == 0 {
		// sacct -p with --noheader: a '|' ends every line. (With a
		// header, the header shows it; here an empty last column after a
		// '|' inside a value would look the same, and -p is the likelier.)
		r.fields = r.fields[:r.ncol]
	}
	var realigned []int
	if len(r.fields) > r.ncol {
		fields, took, p := r.realign(r.fields)
		if p != nil {
			return p
		}
		r.fields, realigned = fields, took
	}
	l := sacctLine{r: r, fields: r.fields, defs: r.defs[:0]}
	for _, c := range realigned {
		l.defs = append(l.defs, r.colNames[c]+" holds a '|': columns realigned")
	}
	defer func() { r.defs = l.defs[:0] }()
	idField := sfJobID
	if r.col[sfJobIDRaw] >= 0 {
		idField = sfJobIDRaw
	}
	rawID, st := l.get(idField)
	if st == valShort {
		return r.truncated(idField, len(r.fields))
	}
	if st != valOK {
		return &sacctProblem{field: idField, reason: "no job id"}
	}
	jobID := rawID
	if idField == sfJobIDRaw {
		if b, st := l.get(sfJobID); st == valOK {
			jobID = b
		}
	}
	if dot := bytes.IndexByte(rawID, '.'); dot >= 0 || bytes.IndexByte(jobID, '.') >= 0 {
		if dot < 0 {
			dot = len(rawID)
		}
		step := sacctStep{key: stepKey(rawID[:dot], idField == sfJobIDRaw), line: n, maxRSS: Unset}
		if b, st := l.get(sfMaxRSS); st == valOK {
			if v, ok := parseSize(b, 'K'); ok {
				step.maxRSS = v
			}
		}
		r.steps = append(r.steps, step)
		return nil
	}
	for f := range sfCount {
		if sacctRequired[f] && r.col[f] >= len(r.fields) {
			return r.truncated(f, len(r.fields))
		}
	}
	var j Job
	skip, p := r.parseJob(&l, &j, n)
	// The tasks of a record skipped (a pending array: never started)
	// are only counted, so they do not count towards the input's cap on
	// the tasks it expands into jobs.
	limit := min(maxArrayTasks, maxArrayTasksTotal-r.tasks)
	if skip != "" {
		limit = maxArrayTasks
	}
	id, err := parseJobID(jobID, limit)
	if err != "" {
		return &sacctProblem{field: sfJobID, reason: "bad job id", detail: fmt.Sprintf("%q: %s", jobID, err)}
	}
	if p != nil {
		return p
	}
	if skip == "" {
		r.tasks += len(id.tasks)
	}
	// Keys are canonical ("007" is 7, "5+0" is 5) so that one job cannot
	// hide under two spellings.
	var key string
	if idField == sfJobIDRaw {
		v, ok := parseInt(rawID)
		if !ok {
			return &sacctProblem{field: sfJobIDRaw, reason: "bad job id", detail: fmt.Sprintf("%q is not a number", rawID)}
		}
		j.ID = v
		key = strconv.FormatInt(v, 10)
	} else {
		j.ID = id.base
		key = id.key(id.sub)
	}
	tasks := id.tasks
	if tasks == nil {
		tasks = []int64{id.sub}
	}
	for _, task := range tasks {
		r.stats.Records++
		k := key
		if id.kind == jobArrayRange {
			k = id.key(task)
		}
		jj := j
		if id.kind == jobArrayTask || id.kind == jobArrayRange {
			jj.ArrayJobID, jj.ArrayTaskID = id.base, int32(task)
		}
		if first, dup := r.byKey[k]; dup && skip == "" && r.mergeRun(first, &jj, l.requeued) {
			r.stats.Skipped.Add("earlier run of a requeued job (sacct -D): merged into its job")
			continue
		} else if dup {
			p := &sacctProblem{field: idField, reason: "duplicate job id",
				detail: fmt.Sprintf("%s also on line %d", k, r.jobs[first].Line)}
			if len(tasks) == 1 {
				r.stats.Records-- // counted by the caller
				return p
			}
			r.stats.Skipped.Add("invalid: " + sacctFieldNames[idField] + ": duplicate job id")
			continue
		}
		if skip != "" {
			r.stats.Skipped.Add(skip)
			continue
		}
		for _, d := range l.defs {
			r.stats.Defaulted.Add(d)
		}
		for _, d := range r.absent {
			r.stats.Defaulted.Add(d)
		}
		r.byKey[k] = len(r.jobs)
		if l.requeued {
			if r.requeued == nil {
				r.requeued = map[int]bool{}
			}
			r.requeued[len(r.jobs)] = true // its later run may follow (mergeRun)
		}
		if jj.CancelledPending {
			r.stats.CancelledPending++
		}
		if id.kind != jobPlain && (idField == sfJobID || id.kind == jobArrayRange) {
			r.noRaw = append(r.noRaw, sacctNoRaw{index: len(r.jobs), base: id.base, sub: task})
			r.stats.Defaulted.Add("job id: array task or het component without JobIDRaw, numbered after the largest id")
		} else if jj.ID > r.maxID {
			r.maxID = jj.ID
		}
		r.jobs = append(r.jobs, jj)
	}
	return nil
}

// mergeRun folds a run of a requeued job into the job already read under
// the same id, when one of the two ended requeued (l.requeued) and came
// first: sacct -D lists each run of a requeued job, the later ones
// submitted anew at the requeue (job_mgr.c resets submit_time). The job
// is its last run, submitted and eligible as its first was, so a replay
// submits it once, when the user did, and decides its preemptions
// itself. It reports false for two jobs that only share an id.
func (r *SacctReader) mergeRun(first int, j *Job, requeued bool) bool {
	e := &r.jobs[first]
	switch {
	case r.requeued[first] && j.Submit >= e.Submit:
		// The run read before was requeued; this one follows it.
		r.requeued[first] = requeued
		*e = fromFirstRun(*j, e)
	case requeued && j.Submit <= e.Submit:
		// An earlier run listed after its job's later one.
		*e = fromFirstRun(*e, j)
	default:
		return false
	}
	if !r.requeued[first] {
		delete(r.requeued, first)
	}
	return true
}

// fromFirstRun is run last with the submit and eligible times of its
// job's first run, and its wait counted from that submit.
func fromFirstRun(last Job, first *Job) Job {
	shift := last.Submit - first.Submit
	last.Submit = first.Submit
	last.Eligible = first.Eligible
	if last.Wait != Unset {
		last.Wait += shift
	}
	last.Line = first.Line
	return last
}

func (r *SacctReader) truncated(f sacctField, got int) *sacctProblem {
	return &sacctProblem{field: f, reason: "truncated line",
		detail: fmt.Sprintf("%d of %d fields", got, r.ncol)}
}

// noteAbsent lists the defaults every job gets from columns the input lacks.
func (r *SacctReader) noteAbsent() {
	if r.ncol == 0 {
		return
	}
	add := func(cond bool, s string) {
		if cond {
			r.absent = append(r.absent, s)
		}
	}
	c := &r.col
	add(c[sfUser] < 0 && c[sfUID] < 0, "User column missing: no user")
	add(c[sfGroup] < 0 && c[sfGID] < 0, "Group column missing: no group")
	add(c[sfAccount] < 0, "Account column missing: no account")
	add(c[sfPartition] < 0, "Partition column missing: no partition")
	add(c[sfQOS] < 0, "QOS column missing: no QOS")
	add(c[sfEligible] < 0, "Eligible column missing: eligible at submit")
	add(c[sfTimelimit] < 0 && c[sfTimelimitRaw] < 0, "Timelimit column missing: no time limit")
	add(c[sfReqMem] < 0 && c[sfReqTRES] < 0, "ReqMem column missing: no memory request")
	add(c[sfReqNodes] < 0 && c[sfReqTRES] < 0, "ReqNodes column missing: scheduler chooses nodes")
	add(c[sfReqCPUS] < 0 && c[sfReqTRES] < 0 && c[sfNCPUS] < 0 && c[sfAllocCPUS] < 0 && c[sfAllocTRES] < 0,
		"CPU columns missing: 1 CPU")
	add(c[sfState] < 0, "State column missing: status unknown")
}

// parseJob fills j from the fields of a job line. It returns a skip reason
// for a line that is well formed but not a job the simulator can replay,
// or the problem with a malformed one. Times are Unix times here; finish
// makes them relative to the epoch.
func (r *SacctReader) parseJob(l *sacctLine, j *Job, n int) (skip string, p *sacctProblem) {
	*j = Job{Line: n, Eligible: Unset, Wait: Unset, Nodes: Unset, MaxNodes: Unset, AllocNodes: Unset, MemPerCPU: Unset, TimeLimit: Unset,
		Status: Unset, AllocCPUs: Unset, Group: Unset, Account: Unset, Partition: Unset, QOS: Unset,
		User: Unset, Feature: Unset, Queue: Unset, Executable: Unset, UsedCPU: Unset, UsedMemKB: Unset, Preceding: Unset}
	state := r.parseState(l, j)
	l.requeued = state == "PREEMPTED" || state == "REQUEUED" || state == "NODE_FAIL"
	t, skip, p := r.parseTimes(l, j)
	if skip != "" || p != nil {
		return skip, p
	}
	elapsed, eKnown, p := r.parseElapsed(l)
	if p != nil {
		return "", p
	}
	if skip, p := r.setRunTime(l, j, state, t, elapsed, eKnown); skip != "" || p != nil {
		return skip, p
	}
	if skip, p := r.parseCPUs(l, j); skip != "" || p != nil {
		return skip, p
	}
	if p := r.parseNodesAndMemory(l, j); p != nil {
		return "", p
	}
	if p := r.parseTimeLimit(l, j); p != nil {
		return "", p
	}
	r.parseNames(l, j)
	sub := r.parseSubmitLine(l, j, t)
	if p := r.parseGres(l, j, sub); p != nil {
		return "", p
	}
	return "", r.parseUsage(l, j)
}

// parseState sets the SWF status from State and returns the state word,
// which decides below whether a job without a start ran at all.
func (r *SacctReader) parseState(l *sacctLine, j *Job) string {
	state := ""
	if b, st := l.get(sfState); st == valOK {
		state = sacctStateWord(b)
		status, known := sacctStatus(state)
		j.Status = status
		if !known {
			l.defs = append(l.defs, "State "+state+" not recognised: status unknown")
		}
	} else {
		l.def(sfState, st, "status unknown")
	}
	return state
}

// sacctTimes are a job line's Submit, Eligible, Start and End as Unix
// times, each with whether the line gave it.
type sacctTimes struct {
	v     [4]int64
	known [4]bool
}

// The indexes of sacctTimes.
const (
	tSubmit = iota
	tEligible
	tStart
	tEnd
)

// parseTimes reads the four time stamps, refuses an order no real job has
// (start before submit, end before start), and sets Submit and Eligible.
func (r *SacctReader) parseTimes(l *sacctLine, j *Job) (t sacctTimes, skip string, p *sacctProblem) {
	var later [4]int64
	repeated := false
	for i, f := range [...]sacctField{sfSubmit, sfEligible, sfStart, sfEnd} {
		b, st := l.get(f)
		if st != valOK {
			continue
		}
		v, ok := r.parseTime(b)
		if !ok {
			return t, "", &sacctProblem{field: f, reason: "not a time",
				detail: fmt.Sprintf("%q (want YYYY-MM-DDTHH:MM:SS, Unknown or None)", b)}
		}
		lo, hi, rep := v, v, false
		if !isDigits(b) { // Unix seconds (SLURM_TIME_FORMAT=%s) name one instant
			lo, hi, rep = r.dst.twin(r.loc, v)
		}
		t.v[i], t.known[i], later[i] = lo, true, hi
		repeated = repeated || rep
	}
	if repeated {
		elapsed, eKnown, _ := r.parseElapsed(l)
		if resolveDST(&t, &later, elapsed, eKnown) {
			l.defs = append(l.defs, "time in a repeated DST hour: the later instant, by the record's order or Elapsed")
		} else {
			l.defs = append(l.defs, "time in a repeated DST hour: the earlier instant")
		}
	}
	submit, start, end := t.v[tSubmit], t.v[tStart], t.v[tEnd]
	known := t.known
	if !known[tSubmit] {
		return t, "submit time unknown", nil
	}
	if known[tStart] && start < submit {
		return t, "", &sacctProblem{field: sfStart, reason: "start before submit",
			detail: fmt.Sprintf("start %s is %d s before submit", l.fields[r.col[sfStart]], submit-start)}
	}
	if known[tStart] && known[tEnd] && end < start {
		return t, "", &sacctProblem{field: sfEnd, reason: "end before start",
			detail: fmt.Sprintf("end %s is %d s before start %s", l.fields[r.col[sfEnd]], start-end, l.fields[r.col[sfStart]])}
	}
	if known[tStart] && known[tEnd] && end-start > maxSacctSeconds {
		// The bound every duration field has: sacct would print this run
		// as an Elapsed the reader refuses, so End - Start is refused too.
		return t, "", &sacctProblem{field: sfEnd, reason: "run time out of range",
			detail: fmt.Sprintf("end %s is %d s after start %s, more than the %d s (317 years) any Elapsed may be", l.fields[r.col[sfEnd]], end-start, l.fields[r.col[sfStart]], int64(maxSacctSeconds))}
	}
	if !known[tStart] && known[tEnd] && end < submit {
		return t, "", &sacctProblem{field: sfEnd, reason: "end before submit",
			detail: fmt.Sprintf("end %s is %d s before submit", l.fields[r.col[sfEnd]], submit-end)}
	}
	j.Submit = submit
	if known[tEligible] && t.v[tEligible] > submit {
		j.Eligible = t.v[tEligible]
	}
	return t, "", nil
}

// parseElapsed reads the run time sacct measured, Elapsed or else
// ElapsedRaw, which is preferred to End - Start (suspended time).
func (r *SacctReader) parseElapsed(l *sacctLine) (elapsed int64, known bool, p *sacctProblem) {
	if b, st := l.get(sfElapsed); st == valOK {
		v, _, ok := parseDuration(b)
		if !ok || v > maxSacctSeconds {
			return 0, false, &sacctProblem{field: sfElapsed, reason: "not a duration", detail: fmt.Sprintf("%q (want [D-]HH:MM:SS)", b)}
		}
		return v, true, nil
	}
	if b, st := l.get(sfElapsedRaw); st == valOK {
		v, ok := parseInt(b)
		if !ok || v > maxSacctSeconds {
			return 0, false, &sacctProblem{field: sfElapsedRaw, reason: "not a number", detail: fmt.Sprintf("%q", b)}
		}
		return v, true, nil
	}
	return 0, false, nil
}

// setRunTime decides the job's wait and run time from what the line
// knows: a job cancelled while pending is kept (it still occupied the
// queue), one that never started is skipped, and a missing run time is
// taken from End - Start or, when allowed, left unknown.
func (r *SacctReader) setRunTime(l *sacctLine, j *Job, state string, t sacctTimes, elapsed int64, eKnown bool) (skip string, p *sacctProblem) {
	submit, start, end := t.v[tSubmit], t.v[tStart], t.v[tEnd]
	known := t.known
	switch {
	case state == "CANCELLED" && r.neverRan(l, t, elapsed, eKnown):
		if r.opts.DropCancelledPending {
			return "cancelled before start", nil
		}
		leave := submit
		switch {
		case known[tEnd]:
			leave = end
		case known[tStart]:
			leave = start
		default:
			l.defs = append(l.defs, "cancelled before start with no End: leaves the queue at submit")
		}
		j.Wait = leave - submit
		j.Runtime = 0
		j.CancelledPending = true
		l.defs = append(l.defs, "cancelled before start: kept, leaves the queue at End")
	case !known[tStart]:
		if state == "PENDING" || !eKnown {
			if state == "" {
				state = "no State"
			}
			return "never started (" + state + ")", nil
		}
		j.Runtime = elapsed
		l.defs = append(l.defs, "Start unknown: wait unknown")
	default:
		j.Wait = start - submit
		if b, st := l.get(sfNodeList); st == valOK && len(b) > 0 && string(b) != "None assigned" {
			if _, seen := r.names.NodeLists.Lookup(string(b)); !seen {
				// Each list is checked once: slurmdbd stores what
				// slurmctld printed, always a valid hostlist.
				if _, err := slurmtext.Expand(string(b)); err != nil {
					return "", &sacctProblem{field: sfNodeList, reason: "not a hostlist", detail: err.Error()}
				}
			}
			j.AllocNodeList = 1 + r.names.NodeLists.ID(string(b))
		}
		switch {
		case eKnown:
			j.Runtime = elapsed
			if !known[tEnd] {
				l.defs = append(l.defs, "End unknown (still running?): run time so far")
			}
		case known[tEnd]:
			j.Runtime = end - start
		default:
			if !r.opts.KeepIncomplete {
				return "run time unknown", nil
			}
			j.Runtime = Unset
			l.defs = append(l.defs, "kept incomplete: run time unknown")
		}
	}
	return "", nil
}

// neverRan tells whether a cancelled job never started. slurmctld cancels
// a pending job with start = end = now (job_mgr.c, job_signal), but the
// database keeps the time_start it was sent earlier
// (as_mysql_job.c: as_mysql_job_complete updates only time_end), and for a
// pending job that is the scheduler's expected start: a job held, given an
// expected start and then cancelled shows Start before End and an Elapsed
// it never ran. So besides no Start, or Start == End with no Elapsed, a
// job counts as never started when its Flags say no scheduler started it
// (SchedNotSet, slurmdb_defs.c) or its NodeList is slurmdbd's
// "None assigned" (as_mysql_job.c, a job that got no nodes).
func (r *SacctReader) neverRan(l *sacctLine, t sacctTimes, elapsed int64, eKnown bool) bool {
	known := t.known
	if (!eKnown || elapsed == 0) && (!known[tStart] || (known[tEnd] && t.v[tStart] == t.v[tEnd])) {
		return true
	}
	if b, st := l.get(sfFlags); st == valOK && bytes.Contains(b, []byte("SchedNotSet")) {
		return true
	}
	if b, st := l.get(sfNodeList); st == valOK && string(b) == "None assigned" {
		return true
	}
	return false
}

// parseCPUs sets the requested processors (from the request, else the
// allocation) and the allocated ones, which conversions and comparisons
// keep apart.
func (r *SacctReader) parseCPUs(l *sacctLine, j *Job) (skip string, p *sacctProblem) {
	req, reqOK := l.count(sfReqCPUS)
	if !reqOK {
		req, reqOK = l.tres(sfReqTRES, "cpu")
	}
	alloc, allocOK := l.count(sfNCPUS)
	if !allocOK {
		alloc, allocOK = l.count(sfAllocCPUS)
	}
	if !allocOK {
		alloc, allocOK = l.tres(sfAllocTRES, "cpu")
	}
	if p := l.bad; p != nil {
		return "", p
	}
	if allocOK {
		j.AllocCPUs = int(alloc)
	}
	noCPUColumns := r.col[sfReqCPUS] < 0 && r.col[sfReqTRES] < 0 && r.col[sfNCPUS] < 0 &&
		r.col[sfAllocCPUS] < 0 && r.col[sfAllocTRES] < 0
	switch {
	case reqOK && req > 0:
		j.CPUs = int(req)
	case allocOK && alloc > 0:
		j.CPUs = int(alloc)
		l.defs = append(l.defs, "requested CPUs from allocated")
	case noCPUColumns:
		j.CPUs = 1
	case r.opts.KeepIncomplete:
		j.CPUs = Unset
		l.defs = append(l.defs, "kept incomplete: processors unknown")
	default:
		return "processors unknown", nil
	}
	return "", nil
}

// parseNodesAndMemory sets the requested node count and the memory per
// CPU. ReqNodes is the job's minimum node count: sacct prints the node=
// count of the job's TRES request (print.c, PRINT_REQ_NODES), which
// slurmctld sets from the minimum, so "sbatch -n 64" on 48-core nodes
// shows ReqNodes 1 and NNodes 2. The allocated node count is kept for
// comparison and to spread a per-node memory request over the CPUs.
func (r *SacctReader) parseNodesAndMemory(l *sacctLine, j *Job) *sacctProblem {
	if v, ok := l.count(sfReqNodes); ok && v > 0 {
		j.Nodes = int(v)
	} else if v, ok := l.tres(sfReqTRES, "node"); ok && v > 0 {
		j.Nodes = int(v)
	}
	allocNodes, ok := l.count(sfNNodes)
	if !ok {
		allocNodes, ok = l.count(sfAllocNodes)
	}
	if !ok {
		allocNodes, ok = l.tres(sfAllocTRES, "node")
	}
	if p := l.bad; p != nil {
		return p
	}
	if ok && allocNodes > 0 && allocNodes <= math.MaxInt32 {
		j.AllocNodes = int(allocNodes)
	}

	// Memory, per CPU.
	if b, st := l.get(sfReqMem); st == valOK {
		mb, per, ok := parseReqMem(b)
		if !ok {
			return &sacctProblem{field: sfReqMem, reason: "not a memory size",
				detail: fmt.Sprintf("%q (want a number with K, M, G or T, optionally c or n)", b)}
		}
		j.MemPerCPU = r.memPerCPU(l, j, mb, per, allocNodes)
	} else if mb, ok := l.tresMem(sfReqTRES); ok {
		j.MemPerCPU = r.memPerCPU(l, j, mb, 0, allocNodes)
	} else if st != valAbsent {
		l.def(sfReqMem, st, "no memory request")
	}
	return l.bad
}

// parseTimeLimit sets the requested wall time; UNLIMITED and
// Partition_Limit leave it unset, for the partition's limit to apply.
func (r *SacctReader) parseTimeLimit(l *sacctLine, j *Job) *sacctProblem {
	if b, st := l.get(sfTimelimit); st == valOK {
		switch {
		case bytes.EqualFold(b, []byte("Partition_Limit")):
			l.defs = append(l.defs, "Timelimit Partition_Limit: no time limit")
		case bytes.EqualFold(b, []byte("UNLIMITED")) || bytes.EqualFold(b, []byte("INFINITE")):
			l.defs = append(l.defs, "Timelimit UNLIMITED: no time limit")
		default:
			v, _, ok := parseDuration(b)
			if !ok || v > maxSacctSeconds {
				return &sacctProblem{field: sfTimelimit, reason: "not a time limit",
					detail: fmt.Sprintf("%q (want [D-]HH:MM:SS, UNLIMITED or Partition_Limit)", b)}
			}
			if v == 0 {
				// sbatch --time=0: "no time limit be imposed". Kept as
				// 0 it was the simulator's own "unlimited", which no
				// partition MaxTime or default applied to.
				l.defs = append(l.defs, "Timelimit 0: no time limit")
				break
			}
			j.TimeLimit = v
		}
	} else if b, st2 := l.get(sfTimelimitRaw); st2 == valOK {
		if v, ok := parseInt(b); ok && v == 0 {
			l.defs = append(l.defs, "Timelimit 0: no time limit")
		} else if ok && v <= maxSacctSeconds/60 {
			j.TimeLimit = v * 60
		} else if !bytes.EqualFold(b, []byte("UNLIMITED")) && !bytes.EqualFold(b, []byte("Partition_Limit")) {
			return &sacctProblem{field: sfTimelimitRaw, reason: "not a number", detail: fmt.Sprintf("%q", b)}
		}
	} else if st != valAbsent {
		l.def(sfTimelimit, st, "no time limit")
	}
	return nil
}

// parseNames interns user, group, account, partition(s), QOS and
// constraints; a numeric UID or GID stands in for a missing name.
func (r *SacctReader) parseNames(l *sacctLine, j *Job) {
	if b, st := l.get(sfUser); st == valOK {
		j.User = r.intern(sfUser, &r.names.Users, b)
	} else if b, st2 := l.get(sfUID); st2 == valOK && isDigits(b) {
		j.User = r.intern(sfUID, &r.names.Users, append([]byte("u"), b...))
	} else {
		l.def(sfUser, st, "no user")
		j.User = Unset
	}
	if b, st := l.get(sfGroup); st == valOK {
		j.Group = r.intern(sfGroup, &r.names.Groups, b)
	} else if b, st2 := l.get(sfGID); st2 == valOK && isDigits(b) {
		j.Group = r.intern(sfGID, &r.names.Groups, append([]byte("g"), b...))
	} else {
		l.def(sfGroup, st, "no group")
	}
	if b, st := l.get(sfAccount); st == valOK {
		j.Account = r.intern(sfAccount, &r.names.Accounts, b)
	} else {
		l.def(sfAccount, st, "no account")
	}
	if b, st := l.get(sfPartition); st == valOK {
		first := b
		if i := bytes.IndexByte(b, ','); i >= 0 {
			first = b[:i]
			l.defs = append(l.defs, "Partition list: several partitions")
			for _, p := range bytes.Split(b, []byte(",")) {
				if len(p) > 0 {
					r.intern(sfPartition, &r.names.Partitions, p)
				}
			}
			j.PartitionList = 1 + r.names.PartitionLists.ID(string(b))
		}
		j.Partition = r.intern(sfPartition, &r.names.Partitions, first)
	} else {
		l.def(sfPartition, st, "no partition")
	}
	if b, st := l.get(sfQOS); st == valOK {
		j.QOS = r.intern(sfQOS, &r.names.QOS, b)
	} else {
		l.def(sfQOS, st, "no QOS")
	}
	if b, st := l.get(sfConstraints); st == valOK {
		j.Feature = r.intern(sfConstraints, &r.names.Features, b)
	}
}

// parseUsage reads the CPU time and peak memory the job used, for
// comparison and SWF fields 6 and 7.
func (r *SacctReader) parseUsage(l *sacctLine, j *Job) *sacctProblem {
	if b, st := l.get(sfTotalCPU); st == valOK {
		secs, frac, ok := parseDuration(b)
		if !ok || secs > maxSacctCPUSeconds {
			return &sacctProblem{field: sfTotalCPU, reason: "not a duration", detail: fmt.Sprintf("%q", b)}
		}
		procs := j.AllocCPUs
		if procs <= 0 {
			procs = j.CPUs
		}
		if procs > 0 {
			j.UsedCPU = math.Round((float64(secs)+frac)/float64(procs)*100) / 100
		}
	}
	if b, st := l.get(sfMaxRSS); st == valOK {
		v, ok := parseSize(b, 'K')
		if !ok {
			return &sacctProblem{field: sfMaxRSS, reason: "not a memory size", detail: fmt.Sprintf("%q", b)}
		}
		j.UsedMemKB = v
	}
	return nil
}

// memPerCPU turns a memory request into MB per CPU, rounded up. per is 'c'
// (old sacct: per CPU), 'n' (old sacct: per node) or 0: since Slurm 21.08
// sacct prints ReqMem without a suffix, from the job's TRES request, which
// is the job's total memory.
func (r *SacctReader) memPerCPU(l *sacctLine, j *Job, mb float64, per byte, allocNodes int64) int64 {
	if mb <= 0 {
		l.defs = append(l.defs, "ReqMem 0: no memory request")
		return Unset
	}
	total := mb
	switch per {
	case 'c':
		return int64(math.Ceil(mb - 1e-9))
	case 'n':
		nodes := int64(j.Nodes)
		if nodes <= 0 {
			nodes = allocNodes
		}
		if nodes <= 0 {
			nodes = 1
			l.defs = append(l.defs, "ReqMem per node with no node count: 1 node")
		}
		total = mb * float64(nodes)
	}
	if j.CPUs <= 0 {
		l.defs = append(l.defs, "ReqMem with no CPU count: no memory request")
		return Unset
	}
	return int64(math.Ceil(total/float64(j.CPUs) - 1e-9))
}

// count reads a non-negative count column ("4", "2K"); ok is false when the
// value is not there. A malformed value is kept in l.bad.
func (l *sacctLine) count(f sacctField) (int64, bool) {
	b, st := l.get(f)
	if st != valOK {
		return 0, false
	}
	v, ok := parseCount(b)
	if !ok {
		if l.bad == nil {
			l.bad = &sacctProblem{field: f, reason: "not a number", detail: fmt.Sprintf("%q", b)}
		}
		return 0, false
	}
	return v, true
}

// tres reads one count ("cpu", "node") from a TRES list such as
// "billing=4,cpu=4,mem=16G,node=1".
func (l *sacctLine) tres(f sacctField, key string) (int64, bool) {
	b, st := l.get(f)
	if st != valOK {
		return 0, false
	}
	v, found := tresValue(b, key)
	if !found {
		return 0, false
	}
	n, ok := parseCount(v)
	if !ok {
		if l.bad == nil {
			l.bad = &sacctProblem{field: f, reason: "not a TRES list", detail: fmt.Sprintf("%s=%q", key, v)}
		}
		return 0, false
	}
	return n, true
}

// tresMem reads mem= of a TRES list in MB (the job's total).
func (l *sacctLine) tresMem(f sacctField) (float64, bool) {
	b, st := l.get(f)
	if st != valOK {
		return 0, false
	}
	v, found := tresValue(b, "mem")
	if !found {
		return 0, false
	}
	mb, ok := parseSize(v, 'M')
	if !ok {
		if l.bad == nil {
			l.bad = &sacctProblem{field: f, reason: "not a TRES list", detail: fmt.Sprintf("mem=%q", v)}
		}
		return 0, false
	}
	return mb / 1024, true
}

// intern maps a name through a per-column cache, so that repeated names
// cost a map lookup and no allocation.
func (r *SacctReader) intern(f sacctField, t *Intern, b []byte) int32 {
	c := r.cache[f]
	if id, ok := c[string(b)]; ok {
		return id
	}
	s := string(b)
	id := t.ID(s)
	c[s] = id
	return id
}

// throttledEligible gives each task of a throttled array (--array=...%N)
// its array's eligible time, the earliest of its tasks': sacct's Eligible
// of a task the throttle held is the time it let the task go
// (job_array_start_test zeroes begin_time, job_independent sets it
// then), while the task aged from its array's accrue time all along.
func (r *SacctReader) throttledEligible() {
	elig := func(j *Job) int64 {
		if j.Eligible == Unset || j.Eligible < j.Submit {
			return j.Submit
		}
		return j.Eligible
	}
	var first map[int64]int64
	for i := range r.jobs {
		if j := &r.jobs[i]; j.ArrayMaxRun > 0 && j.ArrayJobID != 0 {
			if first == nil {
				first = map[int64]int64{}
			}
			if e, ok := first[j.ArrayJobID]; !ok || elig(j) < e {
				first[j.ArrayJobID] = elig(j)
			}
		}
	}
	for i := range r.jobs {
		if j := &r.jobs[i]; j.ArrayMaxRun > 0 && j.ArrayJobID != 0 {
			if e := first[j.ArrayJobID]; elig(j) > e {
				j.Eligible = e
				if e <= j.Submit {
					j.Eligible = Unset // eligible at submit, as the reader keeps it
				}
				r.stats.Defaulted.Add("eligible of a throttled array's task: its array's (sacct's is its release by the throttle)")
			}
		}
	}
}

// finish folds the steps into their jobs, numbers the jobs that have no
// id of their own, fixes the epoch and sorts by submit time.
func (r *SacctReader) finish() {
	for _, s := range r.steps {
		i, ok := r.byKey[s.key]
		if !ok {
			r.stats.Records++
			r.stats.Skipped.Add("step without its job line")
			continue
		}
		r.nSteps++
		if s.maxRSS > r.jobs[i].UsedMemKB {
			r.jobs[i].UsedMemKB = s.maxRSS
		}
	}
	r.steps = nil
	slices.SortFunc(r.noRaw, func(a, b sacctNoRaw) int {
		return cmp.Or(cmp.Compare(a.base, b.base), cmp.Compare(a.sub, b.sub))
	})
	next := r.maxID + 1
	for _, nr := range r.noRaw {
		r.jobs[nr.index].ID = next
		next++
	}
	r.noRaw = nil
	r.throttledEligible()

	minSubmit := int64(math.MaxInt64)
	for i := range r.jobs {
		minSubmit = min(minSubmit, r.jobs[i].Submit)
	}
	epoch, declared := r.opts.Epoch, r.opts.Epoch != 0
	if !declared && r.preEpochSet {
		epoch, declared = r.preEpoch, true
	}
	if len(r.jobs) > 0 && (!declared || epoch > minSubmit) {
		if declared {
			r.stats.Defaulted.Add("epoch after the first submit: first submit used")
		}
		epoch = minSubmit
	}
	r.epoch = epoch
	for i := range r.jobs {
		j := &r.jobs[i]
		j.Submit -= epoch
		if j.Eligible != Unset {
			j.Eligible -= epoch
		}
	}
	slices.SortStableFunc(r.jobs, func(a, b Job) int {
		return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
	})
	r.byKey, r.requeued = nil, nil
	r.stats.Accepted = len(r.jobs)
	r.hdr.UnixStartTime = epoch
	if r.hdr.TimeZoneString == "" {
		r.hdr.TimeZoneString = r.loc.String()
	}
}

// parseTime reads a sacct time stamp in the reader's zone: the default
// YYYY-MM-DDTHH:MM:SS, or Unix seconds (SLURM_TIME_FORMAT=%s) up to 11
// digits, so that every time read has a four-digit year when written.
func (r *SacctReader) parseTime(b []byte) (int64, bool) {
	if isDigits(b) && len(b) <= 11 {
		v, ok := parseInt(b)
		return v, ok
	}
	if len(b) != 19 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	num := func(i, n int) int {
		v := 0
		for k := i; k < i+n; k++ {
			c := b[k]
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, s := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)
	if y < 1970 || mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60 {
		return 0, false
	}
	if r.loc == time.UTC {
		return unixUTC(y, mo, d, h, mi, s), true
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, 0, r.loc).Unix(), true
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// unixUTC is time.Date(...).Unix() for UTC without the time package's
// zone lookup (days from civil, H. Hinnant's algorithm).
func unixUTC(y, m, d, h, mi, s int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := int64(era)*146097 + int64(doe) - 719468
	return days*86400 + int64(h)*3600 + int64(mi)*60 + int64(s)
}

// XDMoDSacctFields is the --format list of Open XDMoD's Slurm shredder
// (xdmod-slurm-helper), whose logs are sacct -P --noheader output: give
// it as SacctOptions.Fields to read them.
var XDMoDSacctFields = []string{"JobID", "JobIDRaw", "Cluster", "Partition", "QOS", "Account", "Group", "GID",
	"User", "UID", "Submit", "Eligible", "Start", "End", "Elapsed", "ExitCode", "State", "NNodes", "NCPUS",
	"ReqCPUS", "ReqMem", "ReqTRES", "AllocTRES", "Timelimit", "NodeList", "JobName"}
