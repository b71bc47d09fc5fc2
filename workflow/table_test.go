package workflow

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteTableLayout: parameters, the overall metrics in order, then
// each per-account metric for every account of any row (sorted), empty
// where a row lacks that account.
func TestWriteTableLayout(t *testing.T) {
	rows := []Row{
		{Index: 1, Params: []string{"1", "x,y"}, Fields: []Field{{"jobs", "5"}, {"jobs[b]", "5"}}},
		{Index: 0, Params: []string{"0", "z"}, Fields: []Field{{"jobs", "3"}, {"jobs[a]", "1"}, {"jobs[b]", "2"}, {"wait_mean_s[a]", "7.5"}}},
	}
	path := filepath.Join(t.TempDir(), "sweep.csv")
	if err := WriteTable(path, []string{"point", "K"}, rows); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	head := "point,K"
	for _, n := range OverallNames {
		head += "," + n
	}
	for _, m := range AccountNames {
		head += "," + m + "[a]," + m + "[b]"
	}
	empty := func(n int) string {
		s := ""
		for i := 0; i < n; i++ {
			s += ","
		}
		return s
	}
	nOver, nAcct := len(OverallNames), 2*len(AccountNames)
	// Row 0: jobs=3 then empty overall cells; jobs[a]=1, jobs[b]=2,
	// wait_mean_s[a]=7.5 and the rest empty. Row 1 quotes its comma.
	row0 := "0,z,3" + empty(nOver-1) + ",1,2,7.5" + empty(nAcct-3)
	row1 := "1,\"x,y\",5" + empty(nOver-1) + ",,5" + empty(nAcct-2)
	if want := head + "\n" + row0 + "\n" + row1 + "\n"; string(got) != want {
		t.Errorf("sweep.csv:\n%s\nwant:\n%s", got, want)
	}
	// Reading it back keeps the non-empty figures.
	cols, back, err := ReadTable(path, 2)
	if err != nil || len(cols) != 2 || len(back) != 2 || back[1].Index != 1 || len(back[0].Fields) != 4 {
		t.Errorf("ReadTable: %v %v %+v", err, cols, back)
	}
}

func TestReadTableErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"noheader.csv": "a,b\n1,2\n",
		"badindex.csv": "point,K,jobs\nx,1,2\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, _, err := ReadTable(p, 2); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzReadTable: any bytes either fail to read or read into rows that
// write back and read again to the same rows.
func FuzzReadTable(f *testing.F) {
	seed, err := os.ReadFile("testdata/sweep.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, 4)
	f.Add([]byte("point,K\n0,a\n"), 2)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 1 || n > 8 {
			return
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "sweep.csv")
		os.WriteFile(p, data, 0o644)
		cols, rows, err := ReadTable(p, n)
		if err != nil {
			return
		}
		seen := map[int]bool{}
		for _, r := range rows {
			if seen[r.Index] {
				return // duplicates are Merge's to refuse
			}
			seen[r.Index] = true
		}
		p2 := filepath.Join(dir, "again.csv")
		if err := WriteTable(p2, cols, rows); err != nil {
			t.Fatal(err)
		}
		_, rows2, err := ReadTable(p2, n)
		if err != nil || len(rows2) != len(rows) {
			t.Fatalf("rewritten table: %v, %d rows, had %d", err, len(rows2), len(rows))
		}
	})
}
