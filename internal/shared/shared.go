// Package shared finds the project's shared material (../shared beside the
// repository: real sites' files, traces) for tests, so that every package
// looks in the same place and skips with the same message when it is
// absent.
package shared

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the shared folder: ../shared beside the repository root (found
// from the working directory by go.mod), or "" when there is none.
func Dir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			s := filepath.Join(d, "..", "shared")
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				return s
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// RealSites is ../shared/real-sites; without it the test is skipped,
// saying so.
func RealSites(t testing.TB) string {
	t.Helper()
	d := Dir()
	if d == "" {
		t.Skip("no ../shared beside the repository: the real-sites tests need it")
	}
	return filepath.Join(d, "real-sites")
}

// RealSite reads one real-site file for fuzz seeds; nil when the shared
// folder is absent.
func RealSite(name string) []byte {
	d := Dir()
	if d == "" {
		return nil
	}
	b, _ := os.ReadFile(filepath.Join(d, "real-sites", name))
	return b
}
