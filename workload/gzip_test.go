package workload

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestInflateAheadReadsWhatGzipReads reads plain and gzip input of 0
// bytes to four chunks and a bit through bufferedInputAhead and wants
// the bytes gzip itself gives; a corrupt stream gives gzip's error.
func TestInflateAheadReadsWhatGzipReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 4095, inflateChunk - 1, inflateChunk, inflateChunk + 1, 4*inflateChunk + 77} {
		want := make([]byte, n)
		for i := range want {
			want[i] = "0123456789 ;\n"[rng.IntN(13)]
		}
		for _, in := range [][]byte{want, gz(t, want)} {
			br, stop, err := bufferedInputAhead(bytes.NewReader(in), "t")
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(br)
			stop()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%d bytes (input %d): got %d bytes, err %v", n, len(in), len(got), err)
			}
		}
	}
	bad := gz(t, bytes.Repeat([]byte("1 2 3\n"), 100000))
	bad[len(bad)-5] ^= 0xff // the checksum
	br, stop, err := bufferedInputAhead(bytes.NewReader(bad), "t")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := io.ReadAll(br); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("corrupt stream: err %v, want gzip's checksum error", err)
	}
}

// TestInflateAheadTruncated: a gzip stream cut short, at any point from
// inside its first block to just before its checksum, is an error, never
// a shorter input; the cut at a line's end was replayed as a shorter
// trace (io.ReadFull's ErrUnexpectedEOF taken for a short last chunk).
func TestInflateAheadTruncated(t *testing.T) {
	var plain []byte
	for i := 1; i <= 20000; i++ {
		plain = fmt.Appendf(plain, "%d %d 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n", i, i)
	}
	full := gz(t, plain)
	for _, cut := range []int{len(full) / 3, len(full) / 2, len(full) - 9, len(full) - 1} {
		br, stop, err := bufferedInputAhead(bytes.NewReader(full[:cut]), "t")
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(br)
		stop()
		if err == nil || !strings.Contains(err.Error(), "cut short") {
			t.Errorf("cut at %d of %d bytes: %d of %d bytes read, err %v; want the cut reported", cut, len(full), len(got), len(plain), err)
		}
	}
	// A file cut on a line's end, through the SWF reader.
	path := t.TempDir() + "/cut.swf.gz"
	if err := os.WriteFile(path, full[:len(full)-9], 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenSWF(path, SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var j Job
	for r.Next(&j) {
	}
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "cut.swf.gz:") || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("SWF reader: err %v, want the file and the cut named", err)
	}
}

// TestInflateAheadStops: a reader left before its end ends its goroutine
// once stopped (SWFReader.Close does).
func TestInflateAheadStops(t *testing.T) {
	in := gz(t, bytes.Repeat([]byte("1 2 3 4 5 6 7 8 9\n"), 1<<17)) // many chunks
	before := runtime.NumGoroutine()
	for range 20 {
		br, stop, err := bufferedInputAhead(bytes.NewReader(in), "t")
		if err != nil {
			t.Fatal(err)
		}
		br.ReadByte()
		stop()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after stopping 20 readers, %d before", n, before)
	}
}
