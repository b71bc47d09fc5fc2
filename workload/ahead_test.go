package workload

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// aheadTrace is an SWF trace of n jobs whose users and groups keep
// appearing for the first time all along (so every batch brings new
// names), with a comment amid the records and, when bad > 0, a
// malformed line there.
func aheadTrace(n, bad int) string {
	var b strings.Builder
	b.WriteString("; MaxJobs: 9999\n; MaxProcs: 64\n")
	for i := 1; i <= n; i++ {
		if i == n/2 {
			b.WriteString("; a note amid the records\n")
		}
		if i == bad {
			b.WriteString("oops\n")
			continue
		}
		user := i%7 + (i/50)*10
		fmt.Fprintf(&b, "%d %d -1 %d 4 -1 -1 4 %d -1 1 %d %d -1 %d -1 -1 -1\n", i, 10*i, 60+i%100, 3600, user, user%13, 1+i%3)
	}
	return b.String()
}

type aheadItem struct{ j Job }

func itemJob(t *aheadItem) *Job { return &t.j }

// readTaking reads every job of src with Next, and the names each job
// refers to as they stood right after it was read.
func readTaking(t *testing.T, next func() (*Job, bool), names func() *Names) (jobs []Job, users []string) {
	t.Helper()
	for {
		j, ok := next()
		if !ok {
			return jobs, users
		}
		jobs = append(jobs, *j)
		users = append(users, names().Users.Name(j.User)+"/"+names().Groups.Name(j.Group))
	}
}

// TestAheadReadsAsTheSource: a trace read ahead gives the same jobs, each
// with its user's and group's names known when it is taken, the same name
// tables (so the same ids), the same counts, header lines (a comment amid
// the records included) and error as the reader read directly, in both
// modes, and for an error amid the records the jobs before it.
func TestAheadReadsAsTheSource(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, bad int
	}{{"clean", 1000, 0}, {"short", 3, 0}, {"error at job 700", 1000, 700}, {"error first", 10, 1}} {
		trace := aheadTrace(tc.n, tc.bad)
		open := func() *SWFReader {
			r, err := NewSWFReader(strings.NewReader(trace), "t.swf", SWFOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		ref := open()
		var rj Job
		wantJobs, wantUsers := readTaking(t, func() (*Job, bool) { return &rj, ref.Next(&rj) }, ref.Names)
		if tc.bad > 0 && ref.Err() == nil {
			t.Fatalf("%s: the direct reader found no error", tc.name)
		}
		for _, direct := range []bool{false, true} {
			a := ReadAhead(Source(open()), itemJob)
			if direct {
				a.Direct()
			}
			gotJobs, gotUsers := readTaking(t, func() (*Job, bool) {
				it, ok := a.Take()
				if !ok {
					return nil, false
				}
				return &it.j, true
			}, a.Names)
			a.Close()
			what := fmt.Sprintf("%s (direct %v)", tc.name, direct)
			if !reflect.DeepEqual(gotJobs, wantJobs) {
				t.Errorf("%s: %d jobs, want %d, or they differ", what, len(gotJobs), len(wantJobs))
			}
			if !reflect.DeepEqual(gotUsers, wantUsers) {
				t.Errorf("%s: names as jobs were taken differ", what)
			}
			if fmt.Sprint(a.Err()) != fmt.Sprint(ref.Err()) {
				t.Errorf("%s: Err %v, want %v", what, a.Err(), ref.Err())
			}
			for i, tab := range a.Names().tables() {
				if want := ref.Names().tables()[i].All(); !reflect.DeepEqual(tab.All(), want) {
					t.Errorf("%s: names table %d %q, want %q", what, i, tab.All(), want)
				}
			}
			if g, w := a.Stats(), ref.Stats(); g.Records != w.Records || g.Accepted != w.Accepted ||
				!reflect.DeepEqual(g.Skipped, w.Skipped) || !reflect.DeepEqual(g.Defaulted, w.Defaulted) {
				t.Errorf("%s: stats %+v, want %+v", what, *g, *w)
			}
			if !reflect.DeepEqual(a.Header().Lines, ref.Header().Lines) || !reflect.DeepEqual(a.Header().Comments, ref.Header().Comments) {
				t.Errorf("%s: header lines %q and comments %q, want %q and %q", what, a.Header().Lines, a.Header().Comments, ref.Header().Lines, ref.Header().Comments)
			}
		}
	}
}

// TestAheadDirectCountsAsRead: read directly, the counts after each job
// are the source's own, not a goroutine's position; Direct after reading
// began is refused.
func TestAheadDirectCountsAsRead(t *testing.T) {
	trace := aheadTrace(600, 0)
	ref, _ := NewSWFReader(strings.NewReader(trace), "t.swf", SWFOptions{})
	src, _ := NewSWFReader(strings.NewReader(trace), "t.swf", SWFOptions{})
	a := ReadAhead(Source(src), itemJob)
	a.Direct()
	var j Job
	for k := 0; k < 300; k++ {
		ref.Next(&j)
		a.Take()
		if g, w := a.Stats().Records, ref.Stats().Records; g != w {
			t.Fatalf("after %d jobs: %d records counted, want %d", k+1, g, w)
		}
	}
	b := ReadAhead(Source(ref), itemJob)
	b.Take()
	defer b.Close()
	defer func() {
		if recover() == nil {
			t.Error("Direct after the first Take did not panic")
		}
	}()
	b.Direct()
}

// TestAheadCloseStopsReader: Close amid a long trace stops the reader
// goroutine and returns only once it has let go of the source.
func TestAheadCloseStopsReader(t *testing.T) {
	before := runtime.NumGoroutine()
	src, err := NewSWFReader(strings.NewReader(aheadTrace(5000, 0)), "t.swf", SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := ReadAhead(Source(src), itemJob)
	for range 10 {
		if _, ok := a.Take(); !ok {
			t.Fatal("no job")
		}
	}
	a.Close()
	a.Close() // twice is fine
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i > 100 {
			t.Fatalf("%d goroutines after Close, %d before reading", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
	if recs := src.Stats().Records; recs >= 5000 {
		t.Errorf("the reader read all %d records after Close", recs)
	}
}

// TestAheadTakeAfterClose: after Close, started or not, Take finds no
// more jobs at once and no reader goroutine is left.
func TestAheadTakeAfterClose(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, started := range []bool{false, true} {
		src, _ := NewSWFReader(strings.NewReader(aheadTrace(2000, 0)), "t.swf", SWFOptions{})
		a := ReadAhead(Source(src), itemJob)
		if started {
			a.Take()
		}
		a.Close()
		done := make(chan bool)
		go func() { _, ok := a.Take(); done <- ok }()
		select {
		case ok := <-done:
			if ok {
				t.Errorf("started %v: Take after Close gave a job", started)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("started %v: Take after Close blocks", started)
		}
	}
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i > 100 {
			t.Fatalf("%d goroutines after Close, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}
