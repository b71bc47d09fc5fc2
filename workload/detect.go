package workload

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
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
	br, err := bufferedInput(raw, path)
	if err != nil {
		return "", err
	}
	head, err := br.Peek(detectPeek)
	if err != nil && err != io.EOF && len(head) == 0 {
		return "", &Error{File: path, Msg: err.Error()}
	}
	return DetectFormatBytes(path, head)
}

// DetectFormatBytes is DetectFormat on the first bytes of an input
// (already decompressed); name is used in the error. A last line cut off
// by the end of head is judged as it stands.
func DetectFormatBytes(name string, head []byte) (string, error) {
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
			return FormatSWF, nil
		case bytes.HasPrefix(t, []byte("#;")) || bytes.HasPrefix(t, []byte("#fairsim")):
			// SacctWriter's preamble: SWF header lines carried in a sacct file.
			return FormatSacct, nil
		case t[0] == '#':
			continue // a comment the sacct reader skips; the data decides
		case looksLikeSacctHeader(t, '|'):
			return FormatSacct, nil
		case isSWFJobLine(t):
			return FormatSWF, nil
		case bytes.IndexByte(t, '|') >= 0:
			return FormatSacct, nil // sacct --noheader: the reader needs the field list
		}
		return "", &Error{File: name, Line: n, Msg: fmt.Sprintf("cannot tell the trace format from %s: "+
			"want a sacct header line (JobID|... or JobIDRaw|...), '|'-separated sacct --noheader lines, "+
			"SWF ';' header lines or SWF job lines of 18 numbers; give the format explicitly", describeLine(t))}
	}
	return "", &Error{File: name, Msg: "cannot tell the trace format: no lines (an empty file); give the format explicitly"}
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
