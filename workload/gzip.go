package workload

import (
	"bufio"
	"errors"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// bufferedInput buffers in, decompressing it when it starts with the gzip
// magic bytes: traces are recognised by content, not by name, so that
// stdin and oddly named files work too. name is for the error message.
// klauspost/compress inflates a quarter faster than compress/gzip
// (KTH-SP2: 5.8 ms instead of 7.8; CEA-Curie: 49-52 ms instead of 63-65).
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

// bufferedInputAhead is bufferedInput with gzip input decompressed on a
// goroutine of its own, a few chunks ahead of the reader, so that on a
// second core a replay does not wait for inflate (a sixth of reading
// CEA-Curie). stop ends that goroutine: call it when done with the
// reader (a reader read to its end needs none).
func bufferedInputAhead(in io.Reader, name string) (br *bufio.Reader, stop func(), err error) {
	br = bufio.NewReaderSize(in, 1<<16)
	if magic, _ := br.Peek(2); len(magic) != 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, func() {}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, nil, &Error{File: name, Msg: "gzip: " + err.Error()}
	}
	a := &inflateAhead{full: make(chan []byte, 2), free: make(chan []byte, 4), done: make(chan struct{})}
	go a.run(zr)
	return bufio.NewReaderSize(a, 1<<16), a.stop, nil
}

// inflateAhead hands over the chunks its goroutine inflates, in order.
type inflateAhead struct {
	full chan []byte   // inflated chunks; closed after the last
	free chan []byte   // chunks read out, for reuse
	done chan struct{} // closed by stop
	once sync.Once
	err  error // why the stream ended (io.EOF at its end); set before full is closed
	cur  []byte
	last []byte
}

// inflateChunk is the size of a chunk handed over. Every page of a new
// chunk is a page fault, 12 µs each on the 2-core VM of issue 13's
// figures: chunks of 256 KiB cost KTH-SP2 500 more faults, 6 ms of a
// 0.2 s run, and handing over four times as many chunks costs nothing
// that shows.
const inflateChunk = 1 << 16

func (a *inflateAhead) run(zr io.Reader) {
	defer close(a.full)
	for {
		var b []byte
		select {
		case b = <-a.free:
		default:
			b = make([]byte, inflateChunk)
		}
		n, err := fill(zr, b[:inflateChunk])
		if n > 0 {
			select {
			case a.full <- b[:n]:
			case <-a.done:
				return
			}
		}
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				err = errTruncated
			}
			a.err = err
			return
		}
	}
}

// Read implements io.Reader.
func (a *inflateAhead) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.last != nil {
			select {
			case a.free <- a.last[:cap(a.last)]:
			default:
			}
			a.last = nil
		}
		b, ok := <-a.full
		if !ok {
			return 0, a.err
		}
		a.cur, a.last = b, b
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// errTruncated is the inflater's io.ErrUnexpectedEOF: the compressed
// stream ends before its end marker and checksum, as a file cut short
// by a failed copy does (gzip -t: "unexpected end of file").
var errTruncated = errors.New("gzip: unexpected end of file: the compressed file is cut short")

// fill reads into b until it is full or the stream ends. Unlike
// io.ReadFull it keeps the reader's own io.ErrUnexpectedEOF, which
// says the stream was cut short, apart from a short last chunk (io.EOF):
// taking one for the other replayed a truncated trace as a shorter one.
func fill(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := r.Read(b[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (a *inflateAhead) stop() { a.once.Do(func() { close(a.done) }) }
