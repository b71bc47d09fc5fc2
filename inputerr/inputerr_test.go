package inputerr

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestError(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{"a.swf", 12, "field 4 (run time)", "not a number"}, "a.swf:12: field 4 (run time): not a number"},
		{Error{"a.swf", 0, "", "gzip: bad header"}, "a.swf: gzip: bad header"},
		{Error{"q.txt", 3, "", "no header line"}, "q.txt:3: no header line"},
		{Error{"", 3, "Key", "bad"}, "line 3: Key: bad"},
	}
	for _, tc := range tests {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	var l List
	if l.Err() != nil || l.Error() != "no errors" {
		t.Fatal("an empty list is no error")
	}
	for i := 1; i <= 13; i++ {
		l.Addf("f", i, "x", "bad %d", i)
	}
	err := l.Err()
	var got List
	if !errors.As(err, &got) || got.Len() != 13 {
		t.Fatalf("Err() = %v", err)
	}
	lines := strings.Split(err.Error(), "\n")
	// Ten problems spelled out, then how many more.
	if len(lines) != 11 || lines[0] != "f:1: x: bad 1" || lines[10] != "(and 3 more errors)" {
		t.Errorf("Error() = %q", err.Error())
	}
	for i := l.Len(); i < MaxErrors+5; i++ {
		l.Add("f", i, "", "more")
	}
	if l.Len() != MaxErrors+1 || l[MaxErrors].Msg != "too many errors" {
		t.Errorf("list of %d, last %q: want %d with a marker", l.Len(), l[l.Len()-1].Msg, MaxErrors+1)
	}
}

// TestSort: problems come out by file, line, field and message whatever
// order they were found in; equal ones keep their order.
func TestSort(t *testing.T) {
	l := List{
		{"b", 1, "", "x"}, {"a", 9, "K", "m"}, {"a", 2, "Z", "m"}, {"a", 2, "A", "n"}, {"a", 2, "A", "m"},
	}
	l.Sort()
	var got []string
	for _, e := range l {
		got = append(got, e.Error())
	}
	want := "a:2: A: m|a:2: A: n|a:2: Z: m|a:9: K: m|b:1: x"
	if strings.Join(got, "|") != want {
		t.Errorf("sorted %q, want %q", strings.Join(got, "|"), want)
	}
}

// A field name or value read from a hostile file must not reach the
// terminal as raw control bytes: an ESC in a QOS header's column name is
// quoted whole, as %q would; one in a message is escaped in place, and
// newlines and tabs of a message stay.
func TestErrorQuotesControlBytes(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{"q.txt", 1, "Pri\x1b[31mority", "unknown column"}, `q.txt:1: "Pri\x1b[31mority": unknown column`},
		{Error{"q\x07.txt", 2, "Name", "bad"}, `"q\a.txt":2: Name: bad`},
		{Error{"q.txt", 3, "Name", "value \x1b[2J\xff here\n\tnext line"}, "q.txt:3: Name: value \\x1b[2J\\xff here\n\tnext line"},
		{Error{"q.txt", 4, "Nämé", "ünïcode is fine"}, "q.txt:4: Nämé: ünïcode is fine"},
	}
	for _, tc := range tests {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.e.Field, got, tc.want)
		}
	}
}

// TestReadAllCap: a file up to the cap is read whole; one byte more is an
// error naming the file and what it was read as, before the rest is read.
func TestReadAllCap(t *testing.T) {
	const max = 3 << 20
	data, err := ReadAll(strings.NewReader(strings.Repeat("x", max)), "a.conf", "slurm.conf", max)
	if err != nil || len(data) != max {
		t.Fatalf("at the cap: %d bytes, %v; want %d and no error", len(data), err, max)
	}
	r := &countingReader{n: max + 1 + 64<<20}
	_, err = ReadAll(r, "a.conf", "slurm.conf", max)
	if err == nil || err.Error() != "a.conf: more than 3 MiB: too large for a slurm.conf" {
		t.Errorf("over the cap: %v", err)
	}
	if r.read > max+1<<20 {
		t.Errorf("read %d bytes of an oversized input; want to stop soon after %d", r.read, max)
	}
}

// countingReader yields n zero bytes, counting what was read.
type countingReader struct{ n, read int }

func (c *countingReader) Read(p []byte) (int, error) {
	if c.read >= c.n {
		return 0, io.EOF
	}
	k := min(len(p), c.n-c.read)
	clear(p[:k])
	c.read += k
	return k, nil
}
