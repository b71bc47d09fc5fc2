package report

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWritersReportAFullDisk writes each kind of output into /dev/full,
// whose every write fails with ENOSPC as on a full disk: the writer must
// return that error (from a write, a flush or the close), never succeed
// and leave a short or empty file behind.
func TestWritersReportAFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	for _, name := range []string{"a.csv", "b.csv"} {
		if err := os.Symlink("/dev/full", filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	type row struct {
		JobID int `csv:"JobID"`
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"WriteCSV", WriteCSV(dir, "a.csv", []row{{1}, {2}})},
		{"WriteRecords", WriteRecords(dir, "b.csv", []string{"t", "util"}, [][]string{{"0", "0.5"}})},
	} {
		if !errors.Is(tc.err, syscall.ENOSPC) {
			t.Errorf("%s into a full disk returned %v, want ENOSPC", tc.name, tc.err)
		}
	}
}
