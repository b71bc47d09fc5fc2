package policy

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"fairsim/inputerr"
	"fairsim/slurmtext"
	"fairsim/slurmtime"
)

// FileError is one problem found in an input file: "file:line: field
// NAME: message", the field part left out when the problem is not tied to
// one column.
type FileError = inputerr.Error

// ErrorList collects every problem in a file so one run reports them all.
type ErrorList = inputerr.List

// addf records a problem of column col ("" for the whole line).
func addf(l *ErrorList, file string, line int, col, format string, args ...any) {
	field := ""
	if col != "" {
		field = "field " + inputerr.Quote(col) // a header may hold control bytes
	}
	l.Addf(file, line, field, format, args...)
}

// qosColumn identifies a column fairsim reads from a QOS file.
type qosColumn int

const (
	colIgnored qosColumn = iota
	colName
	colPriority
	colUsageFactor
	colMaxJobsAccruePU
	colMaxJobsAccruePA
	colGrpJobsAccrue
	colGrpTRESMins
	colPreempt
	colPreemptMode
	colFlags
	colGraceTime
	colPreemptExemptTime
	colMinPrioThres
	colGrpJobs
	colGrpSubmit
	colGrpTRES
	colMaxJobsPU
	colMaxJobsPA
	colMaxSubmitPU
	colMaxSubmitPA
	colMaxTRES
	colMaxTRESPU
	colMaxTRESPA
	colMaxWall
	colMinTRES
	colGrpTRESRunMins
	colGrpWall
	colMaxTRESPN
	colMaxTRESMins
	numQOSColumns
)

// qosColumnNames are the header spellings sacctmgr prints, indexed by
// qosColumn; FormatQOSFile writes them in this order.
var qosColumnNames = [numQOSColumns]string{
	"", "Name", "Priority", "UsageFactor", "MaxJobsAccruePU", "MaxJobsAccruePA",
	"GrpJobsAccrue", "GrpTRESMins", "Preempt", "PreemptMode", "Flags",
	"GraceTime", "PreemptExemptTime", "MinPrioThres",
	"GrpJobs", "GrpSubmit", "GrpTRES", "MaxJobsPU", "MaxJobsPA", "MaxSubmitPU",
	"MaxSubmitPA", "MaxTRES", "MaxTRESPU", "MaxTRESPA", "MaxWall", "MinTRES",
	"GrpTRESRunMins", "GrpWall", "MaxTRESPerNode", "MaxTRESMins",
}

// qosColumnAliases are the long format= names, accepted for hand-written files.
var qosColumnAliases = map[string]qosColumn{
	"maxjobsaccrueperuser":    colMaxJobsAccruePU,
	"maxjobsaccrueperaccount": colMaxJobsAccruePA,
	"minpriothreshold":        colMinPrioThres,
	"grpsubmitjobs":           colGrpSubmit,
	"maxjobsperuser":          colMaxJobsPU,
	"maxjobsperaccount":       colMaxJobsPA,
	"maxsubmitjobsperuser":    colMaxSubmitPU,
	"maxsubmitjobsperaccount": colMaxSubmitPA,
	"maxtresperjob":           colMaxTRES,
	"maxtresperuser":          colMaxTRESPU,
	"maxtresperaccount":       colMaxTRESPA,
	"maxwalldurationperjob":   colMaxWall,
	"mintresperjob":           colMinTRES,
	"grpwallduration":         colGrpWall,
	"maxtrespn":               colMaxTRESPN,
	"maxtresminsperjob":       colMaxTRESMins,
}

// ignoredQOSColumns are real sacctmgr QOS columns fairsim does not model.
var ignoredQOSColumns = []string{
	"ID", "Descr", "Description", "LimitFactor",
	"MaxTRESRunMinsPA", "MaxTRESRunMinsPU",
	"MaxTRESRunMinsPerAccount", "MaxTRESRunMinsPerUser", "UsageThres", "UsageThreshold",
}

func lookupQOSColumn(h string) (qosColumn, bool) {
	for c := colName; c < numQOSColumns; c++ {
		if strings.EqualFold(h, qosColumnNames[c]) {
			return c, true
		}
	}
	if c, ok := qosColumnAliases[strings.ToLower(h)]; ok {
		return c, true
	}
	for _, n := range ignoredQOSColumns {
		if strings.EqualFold(h, n) {
			return colIgnored, true
		}
	}
	return 0, false
}

// ReadQOSFile reads a QOS file; see ParseQOSFile.
func ReadQOSFile(path string) (*QOSSet, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ParseQOSFile(f, path)
}

// ParseQOSFile reads QOS definitions in the form `sacctmgr show qos -P`
// prints them: a header line of '|'-separated column names, then one line
// per QOS. Columns may come in any order and match case-insensitively; only
// Name is required. A blank cell means unset, as sacctmgr prints unset
// limits. Trailing '|' (sacctmgr -p), blank lines, lines starting with '#'
// and CRLF line ends are accepted.
//
// Columns read: Name, Priority, UsageFactor, MaxJobsAccruePU,
// MaxJobsAccruePA, GrpJobsAccrue, GrpTRESMins (e.g. cpu=1000,mem=2000),
// Preempt, PreemptMode, Flags, GraceTime, PreemptExemptTime, MinPrioThres,
// and the limits GrpJobs, GrpSubmit, MaxJobsPU, MaxJobsPA, MaxSubmitPU,
// MaxSubmitPA (counts), GrpTRES, MaxTRES, MaxTRESPU, MaxTRESPA, MinTRES
// (TRES lists), GrpTRESRunMins and MaxTRESMins (TRES-minutes), MaxWall
// and GrpWall (times). MaxTRESRunMinsPU and MaxTRESRunMinsPA are skipped:
// Slurm 22.05 stores them but acct_policy.c enforces neither.
// Other real sacctmgr columns are skipped; those that hold a value in some
// row are named in the warnings (a blank column limits nothing). An
// unknown column is an error. A Preempt entry naming a QOS the file does
// not define (a partial listing, e.g. sacctmgr show qos where name=...) is
// dropped with a warning: no job can run in a QOS the simulation does not
// have, so there is nothing for it to preempt. Every error in the file is
// collected and returned at once as an ErrorList of "file:line: field
// NAME: message".
func ParseQOSFile(r io.Reader, filename string) (*QOSSet, []string, error) {
	data, err := inputerr.ReadAll(r, filename, "QOS file", inputerr.MaxConfBytes)
	if err != nil {
		return nil, nil, err
	}
	data = slurmtext.TrimBOM(data)
	var (
		errs     ErrorList
		warnings []string
		cols     []qosColumn
		headers  []string
		qs       []QOS
		lines    []int // line of each QOS, for cross-reference warnings
		seen     = map[string]int{}
		used     []int // per column: the first line holding a value
		// headTrail: the header ended with '|' (sacctmgr -p); trailWarned:
		// a row's trailing '|' without one was reported.
		headTrail, trailWarned bool
	)
	for n, line := range strings.Split(string(data), "\n") {
		lineNo := n + 1
		line = strings.TrimSuffix(line, "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		cells := strings.Split(line, "|")
		if cols == nil {
			cols, headers = parseQOSHeader(cells, filename, lineNo, &errs)
			headTrail = len(cells) > 1 && strings.TrimSpace(cells[len(cells)-1]) == ""
			if cols == nil {
				break
			}
			used = make([]int, len(cols))
			continue
		}
		if len(cells) == len(cols)+1 && strings.TrimSpace(cells[len(cols)]) == "" {
			// sacctmgr -p ends every line with '|'. A row that does while
			// its header does not may be one column off: say so once,
			// with the last value and where it is read.
			cells = cells[:len(cols)]
			if !headTrail && !trailWarned {
				trailWarned = true
				warnings = append(warnings, fmt.Sprintf("%s:%d: %d fields, header has %d: the last is empty and read as sacctmgr -p's trailing '|', but the header has none; if the row lacks a field before, its values are one column off (%s)",
					filename, lineNo, len(cols)+1, len(cols), lastValue(cells, headers)))
			}
		}
		if len(cells) != len(cols) {
			extra := ""
			if len(cells) > len(cols) {
				extra = fmt.Sprintf(": field %d (%s) has no column", len(cols)+1, inputerr.Quote(clipQOS(cells[len(cols)])))
			}
			addf(&errs, filename, lineNo, "", "%d fields, header has %d%s", len(cells), len(cols), extra)
			continue
		}
		for k, c := range cells {
			if used[k] == 0 && strings.TrimSpace(c) != "" {
				used[k] = lineNo
			}
		}
		q, ok := parseQOSLine(cells, cols, headers, filename, lineNo, &errs)
		if q.Name != "" {
			if first, dup := seen[q.Name]; dup {
				addf(&errs, filename, lineNo, headers[indexOfColumn(cols, colName)], "QOS %q already defined on line %d", q.Name, first)
				continue
			}
			seen[q.Name] = lineNo
		}
		if ok {
			qs = append(qs, q)
			lines = append(lines, lineNo)
		}
	}
	if cols == nil && len(errs) == 0 {
		addf(&errs, filename, 1, "", "no header line")
	}
	for k, first := range used {
		if first > 0 && cols[k] == colIgnored {
			warnings = append(warnings, fmt.Sprintf("%s:%d: column %s holds values fairsim does not model; ignored", filename, first, headers[k]))
		}
	}
	if fc := indexOfColumn(cols, colFlags); fc >= 0 {
		warnings = append(warnings, unmodelledFlags(qs, lines, filename, headers[fc])...)
	}
	if preemptCol := indexOfColumn(cols, colPreempt); preemptCol >= 0 && len(errs) == 0 {
		for i := range qs {
			keep := qs[i].Preempt[:0]
			for _, p := range qs[i].Preempt {
				if _, ok := seen[p]; ok {
					keep = append(keep, p)
					continue
				}
				warnings = append(warnings, fmt.Sprintf("%s:%d: field %s: QOS %q is not in this listing; QOS %s preempts no job of it",
					filename, lines[i], headers[preemptCol], p, qs[i].Name))
			}
			qs[i].Preempt = keep
		}
		preemptLoops(qs, func(i int, msg string) { addf(&errs, filename, lines[i], headers[preemptCol], "%s", msg) })
	}
	if len(errs) > 0 {
		return nil, warnings, errs
	}
	set, err := NewQOSSet(qs)
	if err != nil {
		return nil, warnings, ErrorList{{File: filename, Line: 1, Msg: err.Error()}}
	}
	return set, warnings, nil
}

// lastValue names a row's last non-empty field and its column, as
// "MaxSubmitPU=2 is its last value".
func lastValue(cells, headers []string) string {
	for k := len(cells) - 1; k >= 0; k-- {
		if v := strings.TrimSpace(cells[k]); v != "" {
			return fmt.Sprintf("%s=%s is its last value", headers[k], inputerr.Quote(clipQOS(v)))
		}
	}
	return "it holds no value"
}

// clipQOS shortens a field quoted in a message.
func clipQOS(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func indexOfColumn(cols []qosColumn, c qosColumn) int {
	for i, x := range cols {
		if x == c {
			return i
		}
	}
	return -1
}

func parseQOSHeader(cells []string, file string, line int, errs *ErrorList) (cols []qosColumn, headers []string) {
	if len(cells) > 1 && strings.TrimSpace(cells[len(cells)-1]) == "" {
		cells = cells[:len(cells)-1] // sacctmgr -p ends every line with '|'
	}
	bad := false
	have := map[qosColumn]bool{}
	seen := map[string]bool{}
	for _, h := range cells {
		h = strings.TrimSpace(h)
		c, ok := lookupQOSColumn(h)
		switch {
		case h == "":
			addf(errs, file, line, "", "empty column name in header")
			bad = true
		case !ok:
			addf(errs, file, line, h, "unknown column")
			bad = true
		case seen[strings.ToLower(h)] || (c != colIgnored && have[c]):
			addf(errs, file, line, h, "column given twice")
			bad = true
		}
		seen[strings.ToLower(h)] = true
		have[c] = true
		cols = append(cols, c)
		headers = append(headers, h)
	}
	if !bad && !have[colName] {
		addf(errs, file, line, "Name", "required column missing from header")
		bad = true
	}
	if bad {
		return nil, nil
	}
	return cols, headers
}

func parseQOSLine(cells []string, cols []qosColumn, headers []string, file string, line int, errs *ErrorList) (QOS, bool) {
	q := NewQOS("")
	before := len(*errs)
	fail := func(i int, format string, args ...any) {
		addf(errs, file, line, headers[i], format, args...)
	}
	for i, c := range cols {
		v := strings.TrimSpace(cells[i])
		switch c {
		case colName:
			if v == "" {
				fail(i, "empty")
			} else if strings.ContainsAny(v, ", \t") || strings.HasPrefix(v, "#") {
				fail(i, "%q: a QOS name cannot contain commas or spaces, or start with '#'", v)
			} else {
				q.Name = strings.ToLower(v)
			}
		case colPriority:
			if v != "" {
				p, err := strconv.ParseUint(v, 10, 32)
				if err != nil {
					fail(i, "%q: want an integer in [0, %d]", v, uint32(math.MaxUint32))
				}
				q.Priority = uint32(p)
			}
		case colUsageFactor:
			if v != "" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || !(f >= 0) || math.IsInf(f, 0) {
					fail(i, "%q: want a non-negative number", v)
				} else if f > MaxUsageFactor {
					fail(i, "%q: want at most %g (a larger factor overflows the usage charged, which then counted 0)", v, float64(MaxUsageFactor))
				} else {
					q.UsageFactor = f
				}
			}
		case colMaxJobsAccruePU, colMaxJobsAccruePA, colGrpJobsAccrue:
			n, err := parseLimit(v)
			if err != nil {
				fail(i, "%v", err)
			}
			switch c {
			case colMaxJobsAccruePU:
				q.MaxJobsAccruePU = n
			case colMaxJobsAccruePA:
				q.MaxJobsAccruePA = n
			default:
				q.GrpJobsAccrue = n
			}
		case colGrpTRESMins:
			t, err := parseTRESCounts(v)
			if err != nil {
				fail(i, "%v", err)
			}
			q.GrpTRESMins = t
		case colGrpJobs, colGrpSubmit, colMaxJobsPU, colMaxJobsPA, colMaxSubmitPU, colMaxSubmitPA:
			n, err := parseLimit(v)
			if err != nil {
				fail(i, "%v", err)
			}
			*q.Limits.count(c) = n
		case colGrpTRES, colMaxTRES, colMaxTRESPU, colMaxTRESPA, colMinTRES, colGrpTRESRunMins, colMaxTRESPN, colMaxTRESMins:
			t, err := parseTRESCounts(v)
			if err != nil {
				fail(i, "%v", err)
			}
			*q.Limits.tres(c) = t
		case colMaxWall, colGrpWall:
			if v == "" || v == "-1" || strings.EqualFold(v, "UNLIMITED") {
				continue
			}
			d, err := parseDuration(v)
			if err != nil {
				fail(i, "%v", err)
			}
			if c == colGrpWall {
				q.Limits.GrpWall = d
			} else {
				q.Limits.MaxWall = d
			}
		case colPreempt:
			for _, p := range slurmtext.SplitList(v) {
				q.Preempt = append(q.Preempt, strings.ToLower(p))
			}
		case colPreemptMode:
			m, err := ParsePreemptMode(v)
			if err != nil {
				fail(i, "%v", err)
			}
			q.PreemptMode = m
		case colFlags:
			f, err := ParseQOSFlags(v)
			if err != nil {
				fail(i, "%v", err)
			}
			q.Flags = f
		case colGraceTime, colPreemptExemptTime:
			if v == "" {
				continue
			}
			d, err := parseDuration(v)
			if err != nil {
				fail(i, "%v", err)
			}
			if c == colGraceTime {
				q.GraceTime = d
			} else {
				q.PreemptExemptTime = d
			}
		case colMinPrioThres:
			if v != "" {
				p, err := strconv.ParseUint(v, 10, 32)
				if err != nil {
					fail(i, "%q: want an integer in [0, %d]", v, uint32(math.MaxUint32))
				}
				q.MinPrioThreshold = uint32(p)
			}
		}
	}
	return q, len(*errs) == before
}

// parseLimit reads a job-count limit: blank or -1 is Unset.
func parseLimit(v string) (int, error) {
	if v == "" {
		return Unset, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n < Unset {
		return Unset, fmt.Errorf("%q: want a count >= 0, or blank for no limit", v)
	}
	return int(n), nil
}

// parseTRESCounts reads a TRES limit list such as "cpu=1000,mem=2000M,
// gres/gpu=50" as sacctmgr prints GrpTRESMins. Memory may carry a unit
// (base MB); other TRES may carry K…P as powers of 1024, as sacctmgr's
// exact unit conversion can print them. A value of -1 means no limit for
// that TRES and is dropped. Blank means no limits (nil).
func parseTRESCounts(v string) ([]TRESCount, error) {
	var out []TRESCount
	for _, item := range slurmtext.SplitList(v) {
		key, val, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want TRES=count", item)
		}
		typ, name, named := strings.Cut(strings.TrimSpace(key), "/")
		kind, known := lookupTRESKind(typ)
		switch {
		case !known:
			return nil, fmt.Errorf("%q: unknown TRES type %q", item, typ)
		case kind.Named() && (!named || name == ""):
			return nil, fmt.Errorf("%q: TRES type %s needs a name", item, kind)
		case !kind.Named() && named:
			return nil, fmt.Errorf("%q: TRES type %s takes no name", item, kind)
		}
		canon := kind.String()
		if named {
			canon += "/" + strings.ToLower(name)
		}
		val = strings.TrimSpace(val)
		if val == "-1" {
			continue
		}
		n, err := parseTRESAmount(val, kind.baseUnitMega())
		if err != nil {
			return nil, fmt.Errorf("%q: %v", item, err)
		}
		for _, c := range out {
			if c.Name == canon {
				return nil, fmt.Errorf("%q: TRES %s given twice", item, canon)
			}
		}
		out = append(out, TRESCount{Name: canon, Count: n})
	}
	return out, nil
}

// parseTRESAmount reads an unsigned count with an optional K/M/G/T/P unit,
// relative to a base of MB (megaBase) or of one item.
func parseTRESAmount(v string, megaBase bool) (uint64, error) {
	num := strings.TrimRight(v, "KMGTPkmgtp")
	unit := v[len(num):]
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || len(unit) > 1 {
		return 0, fmt.Errorf("amount %q: want a non-negative integer with an optional K, M, G, T or P", v)
	}
	if unit == "" {
		return n, nil
	}
	pow := strings.IndexByte("KMGTP", upper(unit[0])) + 1
	if megaBase {
		pow -= 2
	}
	for ; pow < 0; pow++ { // e.g. K on memory: 1024 K = 1 MB
		if n%1024 != 0 {
			return 0, fmt.Errorf("amount %q is not a whole number of MB", v)
		}
		n /= 1024
	}
	for ; pow > 0; pow-- {
		if n > math.MaxUint64/1024 {
			return 0, fmt.Errorf("amount %q is too large", v)
		}
		n *= 1024
	}
	return n, nil
}

// parseDuration reads a Slurm time string in seconds (time_str2secs): M,
// M:S, H:M:S, D-H, D-H:M or D-H:M:S. It accepts only finite values, since
// GraceTime and PreemptExemptTime are plain second counts.
func parseDuration(v string) (int64, error) {
	bad := fmt.Errorf("%q: want a time such as 00:05:00 or 2-00:00:00", v)
	var days int64
	rest := v
	hasDays := false
	if d, r, ok := strings.Cut(v, "-"); ok {
		n, err := parseSmallUint(d)
		if err != nil {
			return 0, bad
		}
		days, rest, hasDays = n, r, true
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return 0, bad
	}
	var f [3]int64
	for i, p := range parts {
		n, err := parseSmallUint(p)
		if err != nil {
			return 0, bad
		}
		f[i] = n
	}
	var secs int64
	switch {
	case hasDays && len(parts) == 1: // D-H
		secs = f[0] * 3600
	case hasDays && len(parts) == 2: // D-H:M
		secs = f[0]*3600 + f[1]*60
	case len(parts) == 3: // [D-]H:M:S
		secs = f[0]*3600 + f[1]*60 + f[2]
	case len(parts) == 2: // M:S
		secs = f[0]*60 + f[1]
	default: // M
		secs = f[0] * 60
	}
	return days*86400 + secs, nil
}

// parseSmallUint reads a non-negative decimal below 10^9, so no time
// computation built from it can overflow.
func parseSmallUint(s string) (int64, error) {
	if s == "" || len(s) > 9 {
		return 0, fmt.Errorf("bad number %q", s)
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, fmt.Errorf("bad number %q", s)
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, nil
}

// FormatQOSFile writes s in the format ParseQOSFile reads, with every
// column fairsim models, so a scenario's QOS can be saved and reloaded.
func FormatQOSFile(s *QOSSet) string {
	var b strings.Builder
	b.WriteString(strings.Join(qosColumnNames[colName:], "|"))
	b.WriteByte('\n')
	for i := range s.list {
		q := &s.list[i]
		cells := make([]string, 0, numQOSColumns-1)
		cells = append(cells,
			q.Name,
			strconv.FormatUint(uint64(q.Priority), 10),
			formatUsageFactor(q.UsageFactor),
			formatLimit(q.MaxJobsAccruePU),
			formatLimit(q.MaxJobsAccruePA),
			formatLimit(q.GrpJobsAccrue),
			formatTRESCounts(q.GrpTRESMins),
			strings.Join(q.Preempt, ","),
			q.PreemptMode.String(),
			q.Flags.String(),
			slurmtime.Format(q.GraceTime),
		)
		if q.PreemptExemptTime == Unset {
			cells = append(cells, "")
		} else {
			cells = append(cells, slurmtime.Format(q.PreemptExemptTime))
		}
		if q.MinPrioThreshold == 0 {
			cells = append(cells, "")
		} else {
			cells = append(cells, strconv.FormatUint(uint64(q.MinPrioThreshold), 10))
		}
		l := &q.Limits
		for c := colGrpJobs; c < numQOSColumns; c++ {
			switch {
			case l.count(c) != nil:
				cells = append(cells, formatLimit(*l.count(c)))
			case l.tres(c) != nil:
				cells = append(cells, formatTRESCounts(*l.tres(c)))
			default:
				w := l.MaxWall
				if c == colGrpWall {
					w = l.GrpWall
				}
				if w == Unset {
					cells = append(cells, "")
				} else {
					cells = append(cells, slurmtime.Format(w))
				}
			}
		}
		b.WriteString(strings.Join(cells, "|"))
		b.WriteByte('\n')
	}
	return b.String()
}

// count is the count limit a column holds, nil for other columns.
func (l *QOSLimits) count(c qosColumn) *int {
	switch c {
	case colGrpJobs:
		return &l.GrpJobs
	case colGrpSubmit:
		return &l.GrpSubmit
	case colMaxJobsPU:
		return &l.MaxJobsPU
	case colMaxJobsPA:
		return &l.MaxJobsPA
	case colMaxSubmitPU:
		return &l.MaxSubmitPU
	case colMaxSubmitPA:
		return &l.MaxSubmitPA
	}
	return nil
}

// tres is the TRES limit a column holds, nil for other columns.
func (l *QOSLimits) tres(c qosColumn) *[]TRESCount {
	switch c {
	case colGrpTRES:
		return &l.GrpTRES
	case colMaxTRES:
		return &l.MaxTRES
	case colMaxTRESPU:
		return &l.MaxTRESPU
	case colMaxTRESPA:
		return &l.MaxTRESPA
	case colMinTRES:
		return &l.MinTRES
	case colGrpTRESRunMins:
		return &l.GrpTRESRunMins
	case colMaxTRESPN:
		return &l.MaxTRESPN
	case colMaxTRESMins:
		return &l.MaxTRESMins
	}
	return nil
}

// MaxUsageFactor bounds a QOS UsageFactor: usage is billing × seconds ×
// factor, and at 1e308 the product overflowed to +Inf, which the ledger
// drops as non-finite, so the QOS charged nothing. A million times the
// normal charge is beyond any site's pricing.
const MaxUsageFactor = 1e6

// formatUsageFactor prints sacctmgr's %f form when it is exact, else the
// shortest form that reads back to the same value.
func formatUsageFactor(f float64) string {
	s := strconv.FormatFloat(f, 'f', 6, 64)
	if back, err := strconv.ParseFloat(s, 64); err == nil && back == f {
		return s
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func formatLimit(n int) string {
	if n == Unset {
		return ""
	}
	return strconv.Itoa(n)
}

func formatTRESCounts(c []TRESCount) string {
	parts := make([]string, len(c))
	for i, t := range c {
		parts[i] = t.Name + "=" + strconv.FormatUint(t.Count, 10)
	}
	return strings.Join(parts, ",")
}

// preemptLoops reports each QOS whose Preempt list leads back to it, as
// slurmdbd refuses such a list (as_mysql_qos.c _preemption_loop:
// ESLURM_QOS_PREEMPTION_LOOP): the listing was edited by hand. report
// gets the QOS's index and the loop, once per QOS on a loop, in order.
func preemptLoops(qs []QOS, report func(i int, msg string)) {
	idx := make(map[string]int, len(qs))
	for i := range qs {
		idx[strings.ToLower(qs[i].Name)] = i
	}
	for i := range qs {
		// Breadth-first from i's preemptees, keeping each QOS's
		// predecessor, until i comes back: the shortest loop.
		from := make(map[int]int, len(qs))
		queue := []int{}
		for _, p := range qs[i].Preempt {
			if k, ok := idx[p]; ok {
				if _, seen := from[k]; !seen {
					from[k] = i
					queue = append(queue, k)
				}
			}
		}
		for len(queue) > 0 {
			k := queue[0]
			queue = queue[1:]
			if k == i {
				var path []string
				for n := from[i]; ; n = from[n] {
					path = append(path, qs[n].Name)
					if n == i {
						break
					}
				}
				slices.Reverse(path)
				report(i, fmt.Sprintf("QOS %s: a preemption loop (%s -> %s), which slurmdbd refuses", qs[i].Name, strings.Join(path, " -> "), qs[i].Name))
				break
			}
			for _, p := range qs[k].Preempt {
				if n, ok := idx[p]; ok {
					if _, seen := from[n]; !seen {
						from[n] = k
						queue = append(queue, n)
					}
				}
			}
		}
	}
}

// unmodelledQOSFlags are the QOS flags fairsim reads but does not
// simulate, with what that means for a run.
var unmodelledQOSFlags = []struct {
	flag QOSFlags
	what string
}{
	{QOSRelative, "its TRES limits are applied as counts, not as percentages of the cluster's or partition's TRES"},
	{QOSRequiresReservation, "its jobs run outside advance reservations too"},
	{QOSEnforceUsageThreshold, "UsageThres is not modelled"},
}

// unmodelledFlags warns once per flag that fairsim does not simulate, at
// the first QOS that sets it: the run would otherwise differ from the
// site's in silence.
func unmodelledFlags(qs []QOS, lines []int, filename, header string) []string {
	var out []string
	for _, u := range unmodelledQOSFlags {
		for i := range qs {
			if qs[i].Flags&u.flag != 0 {
				out = append(out, fmt.Sprintf("%s:%d: field %s: QOS %s: flag %s is not simulated (%s)", filename, lines[i], header, qs[i].Name, u.flag, u.what))
				break
			}
		}
	}
	return out
}
