package inputerr

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

func TestEachCSV(t *testing.T) {
	type got struct {
		lines []int
		errs  []string // "line:msg prefix"
	}
	for _, tc := range []struct {
		name, in string
		max      int
		stopAt   int // each returns false on this line (0: never)
		want     got
	}{
		{name: "clean", in: "a,b\n\n1,2\n", max: 5,
			want: got{lines: []int{1, 3}}},
		{name: "bad quote skipped, the rest read", in: "a,b\n1,\"x\"y\n3,4\n", max: 5,
			want: got{lines: []int{1, 3}, errs: []string{"2:extraneous"}}},
		{name: "fault inside a multi-line record named at its line", in: "a,b\n1,\"x\n\"y\n5,6\n", max: 5,
			want: got{lines: []int{1, 4}, errs: []string{"3:extraneous"}}},
		{name: "stops after more than max problems", in: "\"a\"b\n\"c\"d\n\"e\"f\n7,8\n", max: 1,
			want: got{errs: []string{"1:extraneous", "2:extraneous"}}},
		{name: "each stops", in: "a\nb\nc\n", max: 5, stopAt: 2,
			want: got{lines: []int{1, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs List
			var g got
			EachCSV(csv.NewReader(strings.NewReader(tc.in)), "f.csv", &errs, tc.max, func(line int, rec []string) bool {
				g.lines = append(g.lines, line)
				return line != tc.stopAt
			})
			for _, e := range errs {
				if e.File != "f.csv" {
					t.Errorf("file %q", e.File)
				}
				g.errs = append(g.errs, strconv.Itoa(e.Line)+":"+e.Msg)
			}
			if len(g.lines) != len(tc.want.lines) || len(g.errs) != len(tc.want.errs) {
				t.Fatalf("got lines %v errors %q, want lines %v errors %q", g.lines, g.errs, tc.want.lines, tc.want.errs)
			}
			for i := range g.lines {
				if g.lines[i] != tc.want.lines[i] {
					t.Errorf("line %d: got %d, want %d", i, g.lines[i], tc.want.lines[i])
				}
			}
			for i := range g.errs {
				if !strings.HasPrefix(g.errs[i], tc.want.errs[i]) {
					t.Errorf("error %d: got %q, want prefix %q", i, g.errs[i], tc.want.errs[i])
				}
			}
		})
	}
}

// A reader's own failure ends the read, named at the line after the last
// record read.
func TestEachCSVReaderError(t *testing.T) {
	var errs List
	r := io.MultiReader(strings.NewReader("a,b\n1,2\n"), errReader{})
	n := 0
	EachCSV(csv.NewReader(r), "f.csv", &errs, 5, func(int, []string) bool { n++; return true })
	if n != 2 || len(errs) != 1 || errs[0].Line != 3 || errs[0].Msg != "disk gone" {
		t.Fatalf("records %d, errors %v; want 2 records and disk gone on line 3", n, errs)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk gone") }
