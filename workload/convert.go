package workload

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Trace formats convert knows.
const (
	FormatSWF   = "swf"
	FormatSacct = "sacct"
)

// GuessFormat names the format a file name suggests (".swf", ".sacct",
// ".psv", each optionally ".gz"), or "" when it does not say.
func GuessFormat(name string) string {
	n := strings.ToLower(strings.TrimSuffix(strings.ToLower(name), ".gz"))
	switch filepath.Ext(n) {
	case ".swf":
		return FormatSWF
	case ".sacct", ".psv":
		return FormatSacct
	}
	return ""
}

// sniffFormat looks at the first line: SWF starts with ';' comments or
// numbers, sacct -P with a '|' separated header or a fairsim '#' preamble.
func sniffFormat(b []byte) string {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0:
			continue
		case t[0] == ';':
			return FormatSWF
		case t[0] == '#' || bytes.IndexByte(t, '|') >= 0:
			return FormatSacct
		}
		return FormatSWF
	}
	return ""
}

// ConvertOptions says how Convert reads, changes and writes a trace.
type ConvertOptions struct {
	From, To    string   // FormatSWF or FormatSacct; "" to guess from the names (and the input)
	Fields      []string // sacct --format list for output printed with --noheader
	SkipInvalid bool     // count malformed records instead of failing
	// Location is the zone of sacct time stamps, read and written. Nil:
	// reading uses the zone a fairsim preamble declares, else local time;
	// writing uses UTC.
	Location             *time.Location
	DropCancelledPending bool // leave out sacct jobs cancelled before they started
	Transforms           []Transform
	// Accounts, when set, gives jobs accounts (see AccountMap).
	Accounts *AccountMap
	// AssocOut, when set, is the file the association dump is written to,
	// with Shares and Cluster.
	AssocOut string
	Shares   ShareStrategy
	Cluster  string
	// Stdin and Stdout stand for "-"; nil means the process's own.
	Stdin  io.Reader
	Stdout io.Writer
}

// ConvertReport says what Convert did, for the summary on stderr.
type ConvertReport struct {
	From, To string
	Jobs     int // jobs written
	Stats    *ReadStats
	Steps    int      // sacct job steps folded into their jobs
	Unmapped []string // users or groups an account mapping did not cover
	Assoc    *AssocDump
}

// Convert reads the trace in (a path, or "-"), applies the transforms and
// writes it to out (a path ending in .gz is compressed; "-" is standard
// output). Records a simulation could not use (unknown run time or
// processors) are kept, so that a conversion loses nothing.
func Convert(in, out string, opts ConvertOptions) (*ConvertReport, error) {
	rep := &ConvertReport{From: opts.From, To: opts.To}
	if rep.To == "" {
		rep.To = GuessFormat(out)
		if rep.To == "" {
			return nil, fmt.Errorf("cannot tell the output format from %q: give --to swf or --to sacct", out)
		}
	}
	if rep.From == "" && in != "-" {
		f, err := DetectFormat(in) // the content says, not the name
		if err != nil {
			return nil, err
		}
		rep.From = f
	} else if rep.From == "" {
		rep.From = GuessFormat(in)
	}
	for _, f := range []string{rep.From, rep.To} {
		if f != "" && f != FormatSWF && f != FormatSacct {
			return nil, fmt.Errorf("unknown format %q: want swf or sacct", f)
		}
	}

	raw, closer, err := openInput(in, opts.Stdin)
	if err != nil {
		return nil, err
	}
	if closer != nil {
		defer closer.Close()
	}
	br, err := bufferedInput(raw, in)
	if err != nil {
		return nil, err
	}
	if rep.From == "" {
		head, _ := br.Peek(4096)
		rep.From = sniffFormat(head)
		if rep.From == "" {
			rep.From = FormatSWF
		}
	}

	var src Source
	var sacct *SacctReader
	switch rep.From {
	case FormatSWF:
		r, err := NewSWFReader(br, in, SWFOptions{SkipInvalid: opts.SkipInvalid, KeepIncomplete: true})
		if err != nil {
			return nil, err
		}
		src = r
	default:
		r, err := NewSacctReader(br, in, SacctOptions{Fields: opts.Fields, Location: opts.Location,
			SkipInvalid: opts.SkipInvalid, DropCancelledPending: opts.DropCancelledPending, KeepIncomplete: true})
		if err != nil {
			return nil, err
		}
		src, sacct = r, r
	}
	rep.Stats = src.Stats()
	src = Chain(src, opts.Transforms...)
	var accounts *AccountSource
	if opts.Accounts != nil {
		accounts = MapAccounts(src, opts.Accounts)
		src = accounts
	}
	var tally *AssocTally
	if opts.AssocOut != "" {
		tally = TallyAssoc(src)
		src = tally
	}

	notes := []string{fmt.Sprintf("converted by fairsim convert from %s (%s) to %s", filepath.Base(in), rep.From, rep.To)}
	for _, t := range opts.Transforms {
		notes = append(notes, "fairsim transform "+t.String())
	}
	if opts.Accounts != nil {
		notes = append(notes, "fairsim accounts by "+opts.Accounts.By)
	}

	err = writeFile(out, opts.Stdout, func(w io.Writer) error {
		var err error
		if rep.To == FormatSWF {
			rep.Jobs, err = WriteSWF(w, src, SWFWriteOptions{Notes: notes})
		} else {
			rep.Jobs, err = WriteSacct(w, src, SacctWriteOptions{Location: opts.Location, Notes: notes})
		}
		return err
	})
	if sacct != nil {
		rep.Steps = sacct.Steps()
	}
	if accounts != nil {
		rep.Unmapped = accounts.Unmapped()
	}
	if err != nil {
		return rep, err
	}
	if tally != nil {
		shares := opts.Shares
		if shares == "" {
			shares = SharesEqual
		}
		cluster := opts.Cluster
		if cluster == "" {
			cluster = "cluster"
		}
		rep.Assoc = tally.Dump(cluster, shares)
		rep.Assoc.Comment = append(rep.Assoc.Comment, notes[0])
		if err := writeFile(opts.AssocOut, opts.Stdout, func(w io.Writer) error {
			_, err := rep.Assoc.WriteTo(w)
			return err
		}); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// writeFile writes a file through fill ("-" for stdout), gzip-compressed
// when the name ends in .gz, and removes a partial file on error.
func writeFile(path string, stdout io.Writer, fill func(io.Writer) error) error {
	if path == "-" {
		if stdout == nil {
			stdout = os.Stdout
		}
		return fill(stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	err = fill(w)
	if zw != nil {
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// Summary says in a few lines what was read, skipped and filled in, so
// that nothing is dropped silently.
func (r *ConvertReport) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s -> %s: %d jobs written", r.From, r.To, r.Jobs)
	if r.Stats != nil {
		fmt.Fprintf(&b, " (%d records read, %d accepted)", r.Stats.Records, r.Stats.Accepted)
	}
	if r.Steps > 0 {
		fmt.Fprintf(&b, ", %d job steps folded into their jobs", r.Steps)
	}
	b.WriteByte('\n')
	if r.Stats != nil {
		b.WriteString(FormatStats(r.Stats))
	}
	if len(r.Unmapped) > 0 {
		fmt.Fprintf(&b, "not in the account mapping (account %q): %s\n", UnmappedAccount, strings.Join(r.Unmapped, ", "))
	}
	if r.Assoc != nil {
		fmt.Fprintf(&b, "association dump: %d accounts\n", len(r.Assoc.Accounts))
	}
	return b.String()
}

// FormatStats lists the skipped and defaulted counts, one reason a line,
// in sorted order.
func FormatStats(st *ReadStats) string {
	var b strings.Builder
	for _, t := range []struct {
		name  string
		tally Tally
	}{{"skipped", st.Skipped}, {"defaulted", st.Defaulted}} {
		if t.tally.Total() == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s %d:\n", t.name, t.tally.Total())
		for _, k := range t.tally.Keys() {
			fmt.Fprintf(&b, "  %7d  %s\n", t.tally[k], k)
		}
	}
	return b.String()
}
