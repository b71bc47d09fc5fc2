package report

import (
	"math"
	"reflect"
	"strconv"
	"unicode"
	"unicode/utf8"

	"fairsim/sim"
	"fairsim/workload"
)

// jobsHeader is jobs.csv's header line, from JobRow's csv tags, so the
// streamed rows and the struct that documents them name the same columns.
var jobsHeader = csvHeader[JobRow]()

// csvHeader is the header line of a CSV of T's rows, from T's csv tags.
func csvHeader[T any]() []byte {
	t := reflect.TypeFor[T]()
	var b []byte
	for i := range t.NumField() {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, t.Field(i).Tag.Get("csv"))
	}
	return append(b, '\n')
}

// appendFairshareRow appends a row of fairshare.csv as gocsv writes it.
func appendFairshareRow(b []byte, r *FairshareRow) []byte {
	b = strconv.AppendInt(b, r.Time, 10)
	for _, s := range [...]string{r.Account, r.User, r.RawShares} {
		b = appendCSVField(append(b, ','), s)
	}
	b = strconv.AppendFloat(append(b, ','), r.NormShares, 'f', -1, 64)
	b = strconv.AppendUint(append(b, ','), r.RawUsage, 10)
	b = strconv.AppendFloat(append(b, ','), r.EffectvUsage, 'f', -1, 64)
	b = appendCSVField(append(b, ','), r.FairShare)
	b = appendCSVField(append(b, ','), r.LevelFS)
	return append(b, '\n')
}

// appendJobRow appends a row of jobs.csv as gocsv (through encoding/csv)
// writes it: integers in decimal, floats in strconv's shortest 'f' form,
// strings quoted only when they must be.
func appendJobRow(b []byte, r *JobRow) []byte {
	b = strconv.AppendInt(b, r.JobID, 10)
	for _, s := range [...]string{r.User, r.Group, r.Account, r.Partition, r.QOS} {
		b = appendCSVField(append(b, ','), s)
	}
	for _, v := range [...]int64{int64(r.NCPUS), int64(r.NNodes), r.MemMB, r.Submit, r.Eligible} {
		b = strconv.AppendInt(append(b, ','), v, 10)
	}
	// Never (-1) is an empty cell, which pandas and R read as missing
	// (sacct prints Unknown): a -1 would drag every mean down.
	for _, v := range [...]int64{r.Start, r.End, r.Wait, r.Elapsed} {
		b = append(b, ',')
		if v >= 0 {
			b = strconv.AppendInt(b, v, 10)
		}
	}
	for _, v := range [...]int64{r.TraceRuntime, r.Timelimit} {
		b = strconv.AppendInt(append(b, ','), v, 10)
	}
	for _, s := range [...]string{r.State, r.NodeType, r.StartedBy} {
		b = appendCSVField(append(b, ','), s)
	}
	b = strconv.AppendUint(append(b, ','), uint64(r.Priority), 10)
	b = strconv.AppendFloat(append(b, ','), r.Billing, 'f', -1, 64)
	b = strconv.AppendInt(append(b, ','), int64(r.Preemptions), 10)
	b = strconv.AppendFloat(append(b, ','), r.LostCoreSecs, 'f', -1, 64)
	b = strconv.AppendFloat(append(b, ','), r.LostBilling, 'f', -1, 64)
	b = appendCSVField(append(b, ','), r.Reason)
	b = strconv.AppendInt(append(b, ','), int64(r.GPUs), 10)
	for _, s := range [...]string{r.AllocTRES, r.NodeList, r.WaitReason} {
		b = appendCSVField(append(b, ','), s)
	}
	return append(b, '\n')
}

// appendJob appends job j's row of jobs.csv: appendJobRow of jobRow,
// byte for byte, without making the row. It runs once per job on the
// stream's writer goroutine, which competes with the simulation for the
// second core: names are taken as ready cells from cc, and the
// allocation's TRES and node list are appended in place through scratch.
func appendJob(b []byte, r *sim.Result, x *hostIndex, cc *csvCells, scratch *[]byte, j *sim.Job) []byte {
	nm := r.Names
	if nm == nil {
		nm = &cc.none
	}
	c := r.Cluster
	started := j.Start >= 0
	b = strconv.AppendInt(b, j.ID, 10)
	b = append(append(b, ','), cc.intern(&cc.users, &nm.Users, j.User)...)
	b = append(append(b, ','), cc.intern(&cc.groups, &nm.Groups, j.Group)...)
	b = append(append(b, ','), cc.intern(&cc.accounts, &nm.Accounts, j.Account)...)
	part := max(j.Part, 0)
	b = append(append(b, ','), fixedCell(&cc.parts, part, c.Parts[part].Name)...)
	if j.QOSIdx >= 0 && j.QOSIdx < len(r.QOSNames) {
		b = append(append(b, ','), fixedCell(&cc.qosIdx, j.QOSIdx, r.QOSNames[j.QOSIdx])...)
	} else {
		b = append(append(b, ','), cc.intern(&cc.qos, &nm.QOS, j.Job.QOS)...)
	}
	ncpus, nnodes, mem := j.CPUs, 0, int64(0)
	if started {
		ncpus, nnodes, mem = j.Alloc.Cores(), len(j.Alloc), j.Alloc.MemMB()
	}
	eligible := j.EligibleTime
	if j.State == sim.Rejected || j.State == sim.Pending {
		eligible = -1
	}
	for _, v := range [...]int64{int64(ncpus), int64(nnodes), mem, j.Submit, eligible} {
		b = strconv.AppendInt(append(b, ','), v, 10)
	}
	elapsed := int64(-1)
	if started {
		elapsed = j.End - j.Start
	}
	for _, v := range [...]int64{j.Start, j.End, j.QueueWait(), elapsed} {
		b = append(b, ',')
		if v >= 0 {
			b = strconv.AppendInt(b, v, 10)
		}
	}
	b = strconv.AppendInt(append(b, ','), j.Runtime, 10)
	b = strconv.AppendInt(append(b, ','), j.TimeLimit, 10)
	b = append(append(b, ','), fixedCell(&cc.states, int(j.State), j.State.String())...)
	b = append(b, ',')
	if started {
		b = append(b, fixedCell(&cc.types, j.NodeType, c.Types[j.NodeType].Name)...)
	}
	b = append(append(b, ','), fixedCell(&cc.startedBy, int(j.StartedBy), j.StartedBy.String())...)
	b = strconv.AppendUint(append(b, ','), uint64(j.Priority), 10)
	b = appendShortest(append(b, ','), round6(j.Billing))
	b = strconv.AppendInt(append(b, ','), int64(j.Preemptions), 10)
	b = appendShortest(append(b, ','), j.LostCoreSecs)
	b = appendShortest(append(b, ','), round6(j.LostBilling))
	b = appendCSVField(append(b, ','), j.Reason)
	gpus := 0
	if started {
		gpus = c.AllocGPUs(j.Alloc)
	}
	b = strconv.AppendInt(append(b, ','), int64(gpus), 10)
	b = append(b, ',')
	if started && len(j.Alloc) > 0 {
		tres := c.JobTRES(j)
		*scratch = tres.AppendSacct((*scratch)[:0])
		b = appendCSVField(b, *scratch)
		*scratch = x.appendList((*scratch)[:0], j.Alloc)
		b = appendCSVField(append(b, ','), *scratch)
	} else {
		b = append(b, ',')
	}
	b = appendCSVField(append(b, ','), j.WaitReason)
	return append(b, '\n')
}

// csvCells are a run's names as jobs.csv cells, quoted where they must
// be, made the first time each is written: most rows repeat a few users,
// accounts and partitions.
type csvCells struct {
	users, groups, accounts, qos [][]byte // by name id
	parts, qosIdx, types         [][]byte // by index into the cluster's or result's names
	states, startedBy            [][]byte
	none                         workload.Names // the names of a result without any
}

// intern is the cell of name id of t (empty for an id it does not hold,
// as Intern.Name gives ""; not kept, as a later snapshot may hold it).
func (cc *csvCells) intern(cache *[][]byte, t *workload.Intern, id int32) []byte {
	if id < 0 || int(id) >= t.Len() {
		return nil
	}
	return fixedCell(cache, int(id), t.Name(id))
}

// fixedCell is the cell of name, the i-th of a list that does not change
// during a run, kept in cache.
func fixedCell(cache *[][]byte, i int, name string) []byte {
	if i < 0 {
		return appendCSVField(nil, name)
	}
	if i < len(*cache) {
		if v := (*cache)[i]; v != nil {
			return v
		}
	} else {
		*cache = append(*cache, make([][]byte, i+1-len(*cache))...)
	}
	v := appendCSVField(make([]byte, 0, len(name)), name)
	(*cache)[i] = v
	return v
}

// appendShortest appends v as strconv's shortest 'f' form, whole numbers
// through the integer path (the same digits: below 1e15 every shorter
// decimal is another float), which billing and lost work mostly are.
func appendShortest(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 && (v != 0 || !math.Signbit(v)) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// appendCSVField appends one field as encoding/csv's Writer does (comma
// separator, LF line ends): quoted when it holds a comma, quote, CR or LF,
// begins with a space, or is `\.`; quotes inside are doubled.
func appendCSVField[S string | []byte](b []byte, s S) []byte {
	if !csvNeedsQuotes(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// csvNeedsQuotes is encoding/csv's Writer.fieldNeedsQuotes for a comma
// separator.
func csvNeedsQuotes[S string | []byte](s S) bool {
	if len(s) == 0 {
		return false
	}
	if len(s) == 2 && s[0] == '\\' && s[1] == '.' {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' || c == '"' || c == ',' {
			return true
		}
	}
	if s[0] < utf8.RuneSelf {
		return unicode.IsSpace(rune(s[0]))
	}
	var r rune
	switch v := any(s).(type) {
	case string:
		r, _ = utf8.DecodeRuneInString(v)
	case []byte:
		r, _ = utf8.DecodeRune(v)
	}
	return unicode.IsSpace(r)
}
