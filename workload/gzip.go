package workload

import (
	"bufio"
	"compress/gzip"
	"io"
)

// bufferedInput buffers in, decompressing it when it starts with the gzip
// magic bytes: traces are recognised by content, not by name, so that
// stdin and oddly named files work too. name is for the error message.
func bufferedInput(in io.Reader, name string) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(in, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Msg: "gzip: " + err.Error()}
		}
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	return br, nil
}
