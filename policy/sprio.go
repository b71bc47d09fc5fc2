package policy

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// SprioRow is one line of sprio: a pending job in one of its partitions.
type SprioRow struct {
	ID      int64
	Part    string
	User    string
	Account string
	QOS     string
	F       Factors
	// Priority is the job's stored priority (what the scheduler sorts by);
	// the PRIORITY column is the sum of F, like sprio's.
	Priority uint32
}

// SprioWeights are what sprio -w prints and -n divides by.
type SprioWeights struct {
	W    Weights
	TRES TRESWeights
	Raw  string // PriorityWeightTRES as configured
}

// SprioOptions are the sprio switches that shape the table.
type SprioOptions struct {
	Long, Norm, Weights, NoHeader bool
	UserColumn                    bool // -u was given: the short format shows USER
}

// sprioCol is one output column: a header, sprio's width and
// justification, the cell of a job and the cell of the "Weights" line.
type sprioCol struct {
	head   string
	width  int
	right  bool
	job    func(r *SprioRow) string
	weight string
}

// sprioCell prints s as sprio's _print_str does with cut_output: cut to
// width bytes, then padded to width, right- or left-justified.
func sprioCell(s string, width int, right bool) string {
	if width == 0 {
		return s
	}
	if len(s) > width {
		s = s[:width]
	}
	pad := strings.Repeat(" ", width-len(s))
	if right {
		return pad + s
	}
	return s + pad
}

// fmtInt is C's "%.0f" (round half to even on the exact binary value).
func fmtInt(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }

// fmtNorm is C's "%.7lf".
func fmtNorm(x float64) string { return strconv.FormatFloat(x, 'f', 7, 64) }

func weightStr(w uint32) string { return strconv.FormatUint(uint64(w), 10) }

// norm divides a weighted term by its weight; 0 when the weight is 0, as
// sprio -n shows it.
func norm(term float64, w uint32) string {
	if w == 0 {
		return fmtNorm(0)
	}
	return fmtNorm(term / float64(w))
}

func orNull(s string) string {
	if s == "" {
		return "(null)" // what sprio's printf prints for a missing name
	}
	return s
}

// sprioPriority is sprio's PRIORITY: the sum of the terms, at least 1
// (Slurm's get_priority_from_factors), truncated for the integer column.
func sprioPriority(f *Factors) float64 {
	return max(f.Sum(), 1)
}

// sprioColumns builds the column list sprio.c chooses: the fixed long
// formats "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P
// %.10n %.10Q %.11N %.20T" (weighted) and "%.15i %9r %.8u %.8o %10y %10a
// %10b %10f %10j %10p %10n %10q %20t" (-n), or the short ones that keep
// only the factors with a non-zero weight (and USER only with -u).
func sprioColumns(sw SprioWeights, o SprioOptions) []sprioCol {
	w := sw.W
	id := sprioCol{"JOBID", 15, true, func(r *SprioRow) string { return strconv.FormatInt(r.ID, 10) }, "Weights"}
	part := sprioCol{"PARTITION", 9, false, func(r *SprioRow) string { return orNull(r.Part) }, ""}
	user := sprioCol{"USER", 8, true, func(r *SprioRow) string { return orNull(r.User) }, ""}
	acct := sprioCol{"ACCOUNT", 8, true, func(r *SprioRow) string { return orNull(r.Account) }, ""}
	// QOSNAME is "%.10n" in the weighted long format, "%10n" with -n.
	qosName := sprioCol{"QOSNAME", 10, !o.Norm, func(r *SprioRow) string { return orNull(r.QOS) }, ""}
	type factor struct {
		head string
		w    uint32
		term func(f *Factors) float64
	}
	factors := []factor{
		{"AGE", w.Age, func(f *Factors) float64 { return f.Age }},
		{"ASSOC", w.Assoc, func(f *Factors) float64 { return f.Assoc }},
		{"FAIRSHARE", w.Fairshare, func(f *Factors) float64 { return f.FairShare }},
		{"JOBSIZE", w.JobSize, func(f *Factors) float64 { return f.JobSize }},
		{"PARTITION", w.Partition, func(f *Factors) float64 { return f.Partition }},
		{"QOS", w.QOS, func(f *Factors) float64 { return f.QOS }},
	}
	factorCol := func(fc factor) sprioCol {
		if o.Norm {
			return sprioCol{fc.head, 10, false, func(r *SprioRow) string { return norm(fc.term(&r.F), fc.w) }, weightStr(fc.w)}
		}
		return sprioCol{fc.head, 10, true, func(r *SprioRow) string { return fmtInt(fc.term(&r.F)) }, weightStr(fc.w)}
	}
	var prio, tres sprioCol
	if o.Norm {
		prio = sprioCol{"PRIORITY", 10, false, func(r *SprioRow) string {
			return fmt.Sprintf("%16.14f", sprioPriority(&r.F)/float64(uint32(0xffffffff)))
		}, ""}
		tres = sprioCol{"TRES", 20, false, func(r *SprioRow) string { return tresCell(r, sw.TRES, true) }, ""}
	} else {
		prio = sprioCol{"PRIORITY", 10, true, func(r *SprioRow) string {
			return strconv.FormatInt(int64(sprioPriority(&r.F)), 10)
		}, ""}
		tres = sprioCol{"TRES", 20, true, func(r *SprioRow) string { return tresCell(r, sw.TRES, false) }, sw.Raw}
	}
	site := sprioCol{"SITE", 10, true, func(r *SprioRow) string { return fmtInt(r.F.Site) }, "1"}
	nice := sprioCol{"NICE", 11, true, func(r *SprioRow) string { return fmtInt(r.F.Nice) }, ""}

	cols := []sprioCol{id, part}
	switch {
	case o.Long:
		cols = append(cols, user, acct, prio)
		if !o.Norm {
			cols = append(cols, site)
		}
		for i, fc := range factors {
			cols = append(cols, factorCol(fc))
			if i == 4 {
				cols = append(cols, qosName)
			}
		}
		if !o.Norm {
			cols = append(cols, nice)
		}
		return append(cols, tres)
	default:
		if o.UserColumn {
			cols = append(cols, user)
		}
		cols = append(cols, prio)
		if !o.Norm {
			cols = append(cols, site)
		}
		for _, fc := range factors {
			if fc.w != 0 {
				cols = append(cols, factorCol(fc))
			}
		}
		if sw.Raw != "" {
			cols = append(cols, tres)
		}
		return cols
	}
}

// tresCell lists the non-zero TRES terms as name=value ("%.0f" weighted,
// "%.2f" of term/weight with -n), comma-separated, like sprio's TRES column.
func tresCell(r *SprioRow, ws TRESWeights, normalised bool) string {
	var b strings.Builder
	for i := 0; i < r.F.NTRES && i < len(ws); i++ {
		t := r.F.TRES[i]
		if t == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(ws[i].Name)
		b.WriteByte('=')
		if normalised {
			b.WriteString(strconv.FormatFloat(t/ws[i].Weight, 'f', 2, 64))
		} else {
			b.WriteString(fmtInt(t))
		}
	}
	return b.String()
}

// WriteSprio prints rows as Slurm's sprio prints them, byte for byte, so
// fairsim's view can be diffed against a real cluster's: the header, then
// the Weights line (-w) or one line per row; every cell is followed by a
// space except the last, as sprio's format strings put them.
func WriteSprio(w io.Writer, rows []SprioRow, sw SprioWeights, o SprioOptions) error {
	cols := sprioColumns(sw, o)
	var b strings.Builder
	line := func(cell func(c *sprioCol) string) {
		for i := range cols {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(sprioCell(cell(&cols[i]), cols[i].width, cols[i].right))
		}
		b.WriteByte('\n')
	}
	if !o.NoHeader {
		line(func(c *sprioCol) string { return c.head })
	}
	if o.Weights {
		line(func(c *sprioCol) string { return c.weight })
	} else {
		for i := range rows {
			r := &rows[i]
			line(func(c *sprioCol) string { return c.job(r) })
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
