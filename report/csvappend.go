package report

import (
	"reflect"
	"strconv"
	"unicode"
	"unicode/utf8"
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

// appendCSVField appends one field as encoding/csv's Writer does (comma
// separator, LF line ends): quoted when it holds a comma, quote, CR or LF,
// begins with a space, or is `\.`; quotes inside are doubled.
func appendCSVField(b []byte, s string) []byte {
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
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' || c == '"' || c == ',' {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
