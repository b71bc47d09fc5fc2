package slurmtext

import (
	"bufio"
	"bytes"
	"io"
)

// bom is UTF-8's byte-order mark, which Windows editors put at the start
// of a text file.
var bom = []byte{0xEF, 0xBB, 0xBF}

// TrimBOM drops a byte-order mark from the start of a file's text: it
// carries no meaning in UTF-8, and every reader takes a file saved with
// one as it takes the same file without.
func TrimBOM(b []byte) []byte { return bytes.TrimPrefix(b, bom) }

// TrimBOMString is TrimBOM for a string.
func TrimBOMString(s string) string { return string(TrimBOM([]byte(s))) }

// SkipBOM is r without a byte-order mark at its start, for readers that
// stream (CSV files saved by a spreadsheet begin with one).
func SkipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(bom)); err == nil && bytes.Equal(b, bom) {
		br.Discard(len(bom))
	}
	return br
}
