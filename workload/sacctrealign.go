package workload

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// colKind says what values a sacct column can hold, so that a line with
// more separators than the header has can be split back: only free text
// can hold the delimiter, and every other column must then read as its
// kind.
type colKind uint8

const (
	kAny      colKind = iota // a name: anything without the delimiter
	kFree                    // free text, which may hold the delimiter
	kCount                   // a non-negative number, maybe with a K/M suffix
	kDate                    // a time stamp
	kDuration                // [D-]HH:MM:SS, UNLIMITED, ...
	kExit                    // N:M
	kState                   // COMPLETED, CANCELLED by 0, ...
	kSize                    // 500M, 4Gn, 0
	kTRES                    // billing=1,cpu=1
	kJobID                   // 12, 12_3, 12_[1-4], 12.batch, 12+0
)

// sacctColKinds are the kinds of sacct's columns (src/sacct/sacct.c, the
// fields table, and the print routine each uses), by lower-case name.
// Free text is what a user or admin writes: names, comments, command
// lines, paths and constraint expressions ("a|b" is Slurm's OR).
var sacctColKinds = sync.OnceValue(func() map[string]colKind {
	m := map[string]colKind{}
	add := func(k colKind, names string) {
		for _, n := range strings.Fields(names) {
			m[strings.ToLower(n)] = k
		}
	}
	add(kFree, "AdminComment Comment Constraints Container Extra JobName StdErr StdIn StdOut SubmitLine "+
		"SystemComment WorkDir")
	add(kCount, "AllocCPUS AllocNodes AssocID CPUTimeRAW ConsumedEnergyRaw DBIndex ElapsedRaw GID "+
		"MaxDiskReadTask MaxDiskWriteTask MaxPagesTask MaxRSSTask MaxVMSizeTask MinCPUTask NCPUS NNodes NTasks "+
		"PlannedCPURAW Priority QOSRAW ReqCPUS ReqNodes ReservationId Restarts SegmentSize UID WCKeyID")
	add(kDate, "Eligible End Start Submit")
	add(kDuration, "AveCPU CPUTime Elapsed MinCPU Planned PlannedCPU Suspended SystemCPU Timelimit "+
		"TimelimitRaw TotalCPU UserCPU")
	add(kExit, "ExitCode DerivedExitCode")
	add(kState, "State")
	add(kSize, "AveDiskRead AveDiskWrite AvePages AveRSS AveVMSize MaxDiskRead MaxDiskWrite MaxPages MaxRSS "+
		"MaxVMSize ReqMem")
	add(kTRES, "AllocTRES ReqTRES TRESUsageInAve TRESUsageInMax TRESUsageInMaxNode TRESUsageInMaxTask "+
		"TRESUsageInMin TRESUsageInMinNode TRESUsageInMinTask TRESUsageInTot TRESUsageOutAve TRESUsageOutMax "+
		"TRESUsageOutMaxNode TRESUsageOutMaxTask TRESUsageOutMin TRESUsageOutMinNode TRESUsageOutMinTask "+
		"TRESUsageOutTot")
	add(kJobID, "JobID JobIDRaw")
	return m
})

func sacctColKind(name string) colKind {
	if i := strings.IndexByte(name, '%'); i >= 0 {
		name = name[:i]
	}
	return sacctColKinds()[strings.ToLower(strings.TrimSpace(name))]
}

// valid tells whether b can be a value of a column of kind k. It is
// lenient (every kind takes the empty value and sacct's Unknown, None,
// N/A): it only has to rule out the wrong splits of a line.
func (k colKind) valid(b []byte) bool {
	if len(b) == 0 || string(b) == "Unknown" || string(b) == "None" || string(b) == "N/A" || string(b) == "INVALID" {
		return true
	}
	switch k {
	case kCount:
		_, ok := parseCount(b)
		return ok
	case kDate:
		return isDigits(b) || (len(b) == 19 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':')
	case kDuration:
		if bytes.EqualFold(b, []byte("UNLIMITED")) || bytes.EqualFold(b, []byte("Partition_Limit")) || isDigits(b) {
			return true
		}
		_, _, ok := parseDuration(b)
		return ok
	case kExit:
		a, c, ok := bytes.Cut(b, []byte(":"))
		return ok && isDigits(a) && isDigits(c)
	case kState:
		for _, c := range b {
			if !(c >= 'A' && c <= 'Z' || c == '_' || c == ' ' || c == '+' || c >= '0' && c <= '9' || c == 'b' || c == 'y') {
				return false
			}
		}
		return b[0] >= 'A' && b[0] <= 'Z'
	case kSize:
		_, ok := parseSize(bytes.TrimRight(b, "cn"), 'M')
		return ok
	case kTRES:
		for kv := range bytes.SplitSeq(b, []byte(",")) {
			if bytes.IndexByte(kv, '=') <= 0 {
				return false
			}
		}
		return true
	case kJobID:
		return b[0] >= '0' && b[0] <= '9'
	}
	return true
}

// maxRealignSteps bounds the search for a split, so that a line of a
// thousand separators cannot stall the reader.
const maxRealignSteps = 100_000

// realign splits a line that has more fields than the header back into
// the header's columns, when exactly one assignment of the surplus
// separators to free-text columns leaves every other column valid. It
// returns the columns, the free-text columns that took a separator, or
// the problem.
func (r *SacctReader) realign(fields [][]byte) ([][]byte, []int, *sacctProblem) {
	var (
		sol, cur [][2]int // per column: first token, token count
		found    int
		steps    int
	)
	cur = make([][2]int, r.ncol)
	var walk func(col, tok int)
	walk = func(col, tok int) {
		if found > 1 || steps > maxRealignSteps {
			return
		}
		steps++
		if col == r.ncol {
			if tok == len(fields) || (r.noHeader && tok == len(fields)-1 && len(fields[tok]) == 0) {
				found++
				if found == 1 {
					sol = append(sol[:0], cur...)
				}
			}
			return
		}
		left := len(fields) - tok // tokens still to place
		cols := r.ncol - col
		if left < cols {
			return
		}
		k := r.kinds[col]
		if k != kFree {
			if k.valid(fields[tok]) {
				cur[col] = [2]int{tok, 1}
				walk(col+1, tok+1)
			}
			return
		}
		for n := 1; n <= left-(cols-1); n++ {
			cur[col] = [2]int{tok, n}
			walk(col+1, tok+n)
		}
	}
	walk(0, 0)
	var free []string
	for c, k := range r.kinds {
		if k == kFree {
			free = append(free, r.colNames[c])
		}
	}
	fail := func(reason, detail string) ([][]byte, []int, *sacctProblem) {
		p := &sacctProblem{field: -2, reason: reason, detail: detail}
		if len(free) > 0 {
			p.field, p.name = -3, strings.Join(free, "/")
		}
		return nil, nil, p
	}
	switch {
	case steps > maxRealignSteps:
		return fail("extra fields", fmt.Sprintf("%d fields, the header has %d: too many ways to read the '|' inside values", len(fields), r.ncol))
	case found == 0 && len(free) == 0:
		return fail("extra fields", fmt.Sprintf("%d fields, the header has %d, and no free-text column (JobName, SubmitLine, Comment, ...) could hold a '|'", len(fields), r.ncol))
	case found == 0:
		return fail("extra fields", fmt.Sprintf("%d fields, the header has %d; no way of putting the extra '|' in %s leaves the other columns valid",
			len(fields), r.ncol, strings.Join(free, ", ")))
	case found > 1:
		return fail("ambiguous '|'", fmt.Sprintf("%d fields, the header has %d; the extra '|' could belong to more than one of %s",
			len(fields), r.ncol, strings.Join(free, ", ")))
	}
	out := make([][]byte, r.ncol)
	var took []int
	for c, s := range sol {
		if s[1] == 1 {
			out[c] = fields[s[0]]
			continue
		}
		took = append(took, c)
		out[c] = bytes.Join(fields[s[0]:s[0]+s[1]], []byte{r.delim})
	}
	return out, took, nil
}
