package workload

import (
	"bytes"
	"math"
	"strconv"
	"sync"

	"fairsim/slurmtime"
)

// The value syntax of sacct output: job ids, states, durations, sizes and
// TRES lists. Each parser takes the bytes of one field and allocates
// nothing on the common path.

type jobIDKind int

const (
	jobPlain      jobIDKind = iota // 123 (or 123+0, the leader of a heterogeneous job)
	jobArrayTask                   // 123_4
	jobArrayRange                  // 123_[1-3,7%2]: tasks still pending as one record
	jobHet                         // 123+1
)

// maxArrayTasks bounds the expansion of one pending array record, and
// maxArrayTasksTotal that of all records of one input. Slurm's own
// MaxArraySize limit is 4,000,001; a hundred thousand tasks on one line, or
// a million in one trace, is far beyond any real queue and keeps a
// malformed input from exhausting memory. (Variables, so that the fuzz
// test can lower them to keep each run short.)
var (
	maxArrayTasks      = 100_000
	maxArrayTasksTotal = 1_000_000
)

type jobIDParts struct {
	kind  jobIDKind
	base  int64
	sub   int64   // array task or heterogeneous offset
	tasks []int64 // for jobArrayRange
}

// key is the canonical text of the job (task sub, for ranges) that
// duplicates and steps are matched by.
func (p jobIDParts) key(sub int64) string {
	b := strconv.FormatInt(p.base, 10)
	switch p.kind {
	case jobArrayTask, jobArrayRange:
		return b + "_" + strconv.FormatInt(sub, 10)
	case jobHet:
		return b + "+" + strconv.FormatInt(sub, 10)
	}
	return b
}

// parseJobID reads the JobID forms sacct prints (without a step suffix),
// expanding at most limit array tasks. It returns a description of what
// is wrong, or "".
func parseJobID(b []byte, limit int) (jobIDParts, string) {
	var p jobIDParts
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	base, ok := parseInt(b[:i])
	if !ok {
		return p, "must start with the job number"
	}
	p.base = base
	rest := b[i:]
	switch {
	case len(rest) == 0:
		return p, ""
	case rest[0] == '+':
		off, ok := parseInt(rest[1:])
		if !ok {
			return p, "heterogeneous offset after '+' is not a number"
		}
		if off == 0 {
			return p, "" // the leader's id is the job id itself
		}
		p.kind, p.sub = jobHet, off
		return p, ""
	case rest[0] != '_':
		return p, "expected '_' (array task) or '+' (heterogeneous component) after the job number"
	}
	rest = rest[1:]
	if len(rest) > 0 && rest[0] == '[' {
		if rest[len(rest)-1] != ']' {
			return p, "array task list without ']' (cut at SLURM_BITSTR_LEN?)"
		}
		tasks, why := parseTaskList(rest[1:len(rest)-1], limit)
		if why != "" {
			return p, why
		}
		p.kind, p.tasks = jobArrayRange, tasks
		return p, ""
	}
	task, ok := parseInt(rest)
	if !ok {
		return p, "array task after '_' is not a number"
	}
	p.kind, p.sub = jobArrayTask, task
	return p, ""
}

// parseTaskList expands "1-3,7,10-20:5%4" (ranges, steps and a throttle)
// into at most limit tasks.
func parseTaskList(b []byte, limit int) ([]int64, string) {
	if i := bytes.IndexByte(b, '%'); i >= 0 {
		if _, ok := parseInt(b[i+1:]); !ok {
			return nil, "array throttle after '%' is not a number"
		}
		b = b[:i]
	}
	var tasks []int64
	for item := range bytes.SplitSeq(b, []byte{','}) {
		step := int64(1)
		if i := bytes.IndexByte(item, ':'); i >= 0 {
			s, ok := parseInt(item[i+1:])
			if !ok || s == 0 {
				return nil, "array step after ':' is not a positive number"
			}
			step, item = s, item[:i]
		}
		lo, hi := item, item
		if i := bytes.IndexByte(item, '-'); i >= 0 {
			lo, hi = item[:i], item[i+1:]
		}
		a, ok1 := parseInt(lo)
		z, ok2 := parseInt(hi)
		if !ok1 || !ok2 || z < a {
			return nil, "array task list item " + strconv.Quote(string(item)) + " is not N or N-M"
		}
		if (z-a)/step+1 > int64(limit-len(tasks)) {
			if limit < maxArrayTasks {
				return nil, "more pending array tasks than the " + strconv.Itoa(maxArrayTasksTotal) + " one input may expand to"
			}
			return nil, "array task list longer than " + strconv.Itoa(maxArrayTasks) + " tasks"
		}
		for t := a; t <= z; t += step {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return nil, "empty array task list"
	}
	return tasks, ""
}

// sacctStatuses maps Slurm job states to SWF status: any abnormal end is
// StatusFailed; Unset for states that are not an end.
var sacctStatuses = map[string]int{
	"COMPLETED": StatusCompleted, "CANCELLED": StatusCancelled,
	"FAILED": StatusFailed, "TIMEOUT": StatusFailed, "NODE_FAIL": StatusFailed, "OUT_OF_MEMORY": StatusFailed,
	"BOOT_FAIL": StatusFailed, "DEADLINE": StatusFailed, "PREEMPTED": StatusFailed,
	"PENDING": Unset, "RUNNING": Unset, "SUSPENDED": Unset, "REQUEUED": Unset,
	"REQUEUE_FED": Unset, "REQUEUE_HOLD": Unset, "RESIZING": Unset, "REVOKED": Unset,
	"SPECIAL_EXIT": Unset, "STOPPED": Unset, "SIGNALING": Unset, "STAGE_OUT": Unset,
	"COMPLETING": Unset, "CONFIGURING": Unset, "POWER_UP_NODE": Unset,
}

// sacctStateNames interns the state words so that reading one allocates
// nothing.
var sacctStateNames = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(sacctStatuses))
	for k := range sacctStatuses {
		m[k] = k
	}
	return m
})

// sacctStateWord is the state without what follows it: "CANCELLED by 1234"
// and the truncated display "CANCELLED+" are both CANCELLED.
func sacctStateWord(b []byte) string {
	end := 0
	for end < len(b) && b[end] != ' ' && b[end] != '+' {
		end++
	}
	if s, ok := sacctStateNames()[string(b[:end])]; ok {
		return s
	}
	return string(b[:end])
}

// sacctStatus gives the SWF status of a state word; known is false for a
// word Slurm does not print.
func sacctStatus(state string) (status int, known bool) {
	status, known = sacctStatuses[state]
	if !known {
		return Unset, false
	}
	return status, true
}

// sacctState is the inverse of sacctStatus for the writer.
func sacctState(status int) string {
	switch status {
	case StatusCompleted:
		return "COMPLETED"
	case StatusFailed:
		return "FAILED"
	case StatusCancelled:
		return "CANCELLED"
	}
	return "UNKNOWN"
}

// parseDuration reads an sacct duration: [D-]HH:MM:SS, MM:SS, the other
// Slurm time forms, each with an optional fraction (CPU times such as
// "01:07.402"). frac is the fraction of a second.
func parseDuration(b []byte) (secs int64, frac float64, ok bool) {
	if i := bytes.IndexByte(b, '.'); i >= 0 {
		f := b[i+1:]
		if len(f) == 0 || len(f) > 9 || !isDigits(f) {
			return 0, 0, false
		}
		n, _ := parseInt(f)
		frac = float64(n) / math.Pow10(len(f))
		b = b[:i]
	}
	// Fast path: [D-]H:MM:SS.
	days := int64(0)
	rest := b
	if i := bytes.IndexByte(b, '-'); i > 0 {
		d, ok := parseInt(b[:i])
		if ok {
			days, rest = d, b[i+1:]
		}
	}
	if n := len(rest); n >= 7 && rest[n-3] == ':' && rest[n-6] == ':' {
		h, ok1 := parseInt(rest[:n-6])
		m, ok2 := parseInt(rest[n-5 : n-3])
		s, ok3 := parseInt(rest[n-2:])
		if ok1 && ok2 && ok3 && h < 1e12 && days < 1e11 {
			if m >= 60 || s >= 60 || (days > 0 || len(rest) < len(b)) && h >= 24 {
				return 0, 0, false // 99:99:99 is no time sacct prints
			}
			return days*86400 + h*3600 + m*60 + s, frac, true
		}
	}
	if !clockFieldsInRange(b) {
		return 0, 0, false
	}
	v, err := slurmtime.ParseSeconds(string(b))
	if err != nil || v < 0 {
		return 0, 0, false
	}
	return v, frac, true
}

// clockFieldsInRange reports whether the minutes and seconds of a
// [D-]HH:MM:SS, MM:SS or D-HH[:MM] duration are below 60 and its hours
// below 24 when days are given: sacct prints durations normalised
// (secs2time_str in src/common/parse_time.c), so a field past its range
// is a damaged record, not a long duration.
func clockFieldsInRange(b []byte) bool {
	hasDays := false
	if i := bytes.IndexByte(b, '-'); i >= 0 {
		hasDays, b = true, b[i+1:]
	}
	for k, f := range bytes.Split(b, []byte{':'}) {
		n, ok := parseInt(f)
		if !ok {
			continue // not a number: ParseSeconds says why
		}
		if (k > 0 && n >= 60) || (k == 0 && hasDays && n >= 24) {
			return false
		}
	}
	return true
}

// isDigits reports whether b is one or more ASCII digits.
func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseInt reads an unsigned decimal number of at most 18 digits.
func parseInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// unitShift gives the power of 1024 of a K/M/G/T/P suffix relative to K.
func unitShift(c byte) (int, bool) {
	switch c {
	case 'K', 'k':
		return 0, true
	case 'M', 'm':
		return 1, true
	case 'G', 'g':
		return 2, true
	case 'T', 't':
		return 3, true
	case 'P', 'p':
		return 4, true
	}
	return 0, false
}

// parseDecimal reads digits with an optional fraction ("1.50"). Whole
// numbers take a path that allocates nothing; fractions go to strconv.
func parseDecimal(b []byte) (float64, bool) {
	if v, ok := parseInt(b); ok {
		return float64(v), true
	}
	if len(b) == 0 || len(b) > 40 {
		return 0, false
	}
	digits, dots := 0, 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return 0, false
		}
	}
	if digits == 0 || dots > 1 {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	return v, err == nil
}

// parseCount reads a count as sacct prints it: "4", or with a 1024-based
// suffix when large ("2K" nodes).
func parseCount(b []byte) (int64, bool) {
	if isDigits(b) {
		return parseInt(b)
	}
	if len(b) < 2 {
		return 0, false
	}
	shift, ok := unitShift(b[len(b)-1])
	if !ok {
		return 0, false
	}
	v, ok := parseDecimal(b[:len(b)-1])
	if !ok {
		return 0, false
	}
	v *= math.Pow(1024, float64(shift+1))
	if v > 1e15 {
		return 0, false
	}
	return int64(math.Round(v)), true
}

// parseSize reads a memory size in KB: a number with an optional K/M/G/T/P
// suffix, def giving the unit of a bare number.
func parseSize(b []byte, def byte) (float64, bool) {
	unit := def
	if len(b) > 0 {
		if _, ok := unitShift(b[len(b)-1]); ok {
			unit = b[len(b)-1]
			b = b[:len(b)-1]
		}
	}
	v, ok := parseDecimal(b)
	if !ok {
		return 0, false
	}
	shift, _ := unitShift(unit)
	v *= math.Pow(1024, float64(shift))
	if v > 1e18 {
		return 0, false
	}
	return v, true
}

// parseReqMem reads ReqMem in MB: "100M" (since Slurm 21.08: the job's
// total), "4000Mc" (older: per CPU) or "1.50Gn" (older: per node). per is
// 'c', 'n' or 0.
func parseReqMem(b []byte) (mb float64, per byte, ok bool) {
	if n := len(b); n > 1 && (b[n-1] == 'c' || b[n-1] == 'n') {
		per, b = b[n-1], b[:n-1]
	}
	kb, ok := parseSize(b, 'M')
	return kb / 1024, per, ok
}

// tresValue finds key= in a TRES list such as "billing=4,cpu=4,mem=16G".
func tresValue(b []byte, key string) ([]byte, bool) {
	for len(b) > 0 {
		item := b
		if i := bytes.IndexByte(b, ','); i >= 0 {
			item, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(item) > len(key) && item[len(key)] == '=' && string(item[:len(key)]) == key {
			return item[len(key)+1:], true
		}
	}
	return nil, false
}
