package workload

import (
	"bufio"
	"bytes"
	"fairsim/slurmtext"
	"fmt"
	"io"
	"strconv"

	"github.com/klauspost/compress/gzip"
)

// detectPeek is how much of the (decompressed) input DetectFormat looks
// at: enough for SWF's long comment header, bounded so that detection
// never reads a whole trace.
const detectPeek = 1 << 16

// DetectFormat names the trace format of path from its content, not its
// name: FormatSacct for a sacct header line ("JobID|..." or
// "JobIDRaw|..."), '|'-separated lines without a header (sacct -P
// --noheader, whose --format list must then be given to the reader) or a
// fairsim '#' preamble; FormatSWF for ';' header lines or job lines of 18
// whitespace-separated numbers. Gzip input is decompressed first. A file
// that shows neither is an error naming the file, the line and what it
// holds. path "-" is refused: standard input cannot be read twice, so a
// caller peeks it with DetectFormatBytes.
func DetectFormat(path string) (string, error) {
	if path == "-" {
		return "", fmt.Errorf("-: cannot detect the format of standard input by reopening it: give the format")
	}
	raw, closer, err := openInput(path, nil)
	if err != nil {
		return "", err
	}
	defer closer.Close()
	br := bufio.NewReaderSize(raw, detectFirst)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return "", &Error{File: path, Msg: "gzip: " + err.Error()}
		}
		in = zr
	}
	// The first line that is neither blank nor a '#' comment decides,
	// and it is nearly always in the first few KB: reading detectPeek at
	// once cost a run 1.2-3.9 ms of start-up (inflating, and the buffers'
	// first pages). A first read that holds a deciding whole line gives
	// what the whole peek would; otherwise the peek goes on to
	// detectPeek, as before.
	head := make([]byte, detectPeek)
	n := 0
	for _, upTo := range [...]int{detectFirst, detectPeek} {
		k, err := io.ReadFull(in, head[n:upTo])
		n += k
		end := err == io.EOF || err == io.ErrUnexpectedEOF
		if n == 0 && err != nil && err != io.EOF {
			// Nothing read: a cut-off gzip stream says ErrUnexpectedEOF
			// itself, which is the cause to report, not an empty file.
			return "", &Error{File: path, Msg: err.Error()}
		}
		if end || err != nil || upTo == detectPeek {
			return DetectFormatBytes(path, head[:n])
		}
		if f, decided, err := detectLines(path, head[:bytes.LastIndexByte(head[:n], '\n')+1]); decided {
			return f, err
		}
	}
	panic("unreachable")
}

// detectFirst is the part of the input DetectFormat reads first.
const detectFirst = 4 << 10

// DetectFormatBytes is DetectFormat on the first bytes of an input
// (already decompressed); name is used in the error. A last line cut off
// by the end of head is judged as it stands.
func DetectFormatBytes(name string, head []byte) (string, error) {
	f, _, err := detectLines(name, head)
	return f, err
}

// detectLines is DetectFormatBytes that also says whether a line decided:
// false when head holds only blank and '#' comment lines.
func detectLines(name string, head []byte) (string, bool, error) {
	head = slurmtext.TrimBOM(head)
	n := 0
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		n++
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0:
			continue
		case t[0] == ';':
			return FormatSWF, true, nil
		case bytes.HasPrefix(t, []byte("#;")) || bytes.HasPrefix(t, []byte("#fairsim")):
			// SacctWriter's preamble: SWF header lines carried in a sacct file.
			return FormatSacct, true, nil
		case t[0] == '#':
			continue // a comment the sacct reader skips; the data decides
		case looksLikeSacctHeader(t, '|'):
			return FormatSacct, true, nil
		case isSWFJobLine(t):
			return FormatSWF, true, nil
		case bytes.IndexByte(t, '|') >= 0:
			return FormatSacct, true, nil // sacct --noheader: the reader needs the field list
		}
		return "", true, &Error{File: name, Line: n, Msg: fmt.Sprintf("cannot tell the trace format from %s: "+
			"want a sacct header line (JobID|... or JobIDRaw|...), '|'-separated sacct --noheader lines, "+
			"SWF ';' header lines or SWF job lines of 18 numbers; give the format explicitly", describeLine(t))}
	}
	return "", false, &Error{File: name, Msg: "cannot tell the trace format: no lines (an empty file); give the format explicitly"}
}

// isSWFJobLine reports whether t has the shape of an SWF job line: 18
// whitespace-separated fields, no '|', the first a number. A typo in a
// later field still makes it SWF, so that the SWF reader names the field.
func isSWFJobLine(t []byte) bool {
	fields := bytes.Fields(t)
	if len(fields) != 18 || bytes.IndexByte(t, '|') >= 0 {
		return false
	}
	_, err := strconv.ParseFloat(string(fields[0]), 64)
	return err == nil
}

// describeLine quotes the start of a line and says how it splits, so that
// the error shows what was seen.
func describeLine(t []byte) string {
	q := t
	if len(q) > 80 {
		q = q[:80]
	}
	return fmt.Sprintf("line %q (%d whitespace-separated fields, no '|')", q, len(bytes.Fields(t)))
}
