package workload

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"sync/atomic"
)

// openInput opens path ("-" for stdin, os.Stdin when nil) for a reader
// that sniffs gzip itself. The returned closer is nil for standard input,
// which is not ours to close.
func openInput(path string, stdin io.Reader) (io.Reader, io.Closer, error) {
	if path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		return stdin, nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	pos := &InputPos{}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		pos.Size = st.Size()
	}
	return &countingReader{r: f, pos: pos}, f, nil
}

// InputPos is how far a reader has read its input file, in bytes of the
// file as stored (compressed, for a gzipped trace): a progress display's
// measure, which holds where a header's job count does not (a cleaned
// trace keeps the original's MaxJobs).
//
// Read is atomic: the reader goroutines (inflating, reading ahead)
// advance it while the progress display reads it.
type InputPos struct {
	Read atomic.Int64 // bytes read so far
	Size int64        // the file's size; 0 when unknown (standard input, a pipe)
}

// countingReader counts the bytes read through it into pos.
type countingReader struct {
	r   io.Reader
	pos *InputPos
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.pos.Read.Add(int64(n))
	return n, err
}

// inputPos is the position openInput's reader counts, nil for others.
func inputPos(in io.Reader) *InputPos {
	if c, ok := in.(*countingReader); ok {
		return c.pos
	}
	return nil
}

// newLineReader buffers in, decompressing it when it starts with the gzip
// magic bytes: traces are recognised by content, not by name, so that
// stdin and oddly named files work too.
func newLineReader(in io.Reader, name string) (*lineReader, error) {
	br, err := bufferedInput(in, name)
	if err != nil {
		return nil, err
	}
	return &lineReader{r: br}, nil
}

// lineReader hands out lines without copying them; a line is valid until
// the next call.
type lineReader struct {
	r    *bufio.Reader
	line int // number of the line last returned, 1-based
	long []byte
}

// next returns the next line without its end, or nil at the end of input.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A very long line: gather it whole.
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = l.r.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if len(b) == 0 && err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, err
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	l.line++
	return bytes.TrimRight(b, "\r\n"), nil
}

// openReader opens path and builds a reader on it with mk, closing the
// file again when mk fails (a bad header), so every Open* reader handles
// files the same way. The closer is nil for standard input.
func openReader(path string, mk func(in io.Reader) error) (io.Closer, *InputPos, error) {
	f, c, err := openInput(path, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := mk(f); err != nil {
		if c != nil {
			c.Close()
		}
		return nil, nil, err
	}
	return c, inputPos(f), nil
}
