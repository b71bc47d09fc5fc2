package workflow

import (
	"strings"
	"testing"
)

// checkErr fails t unless err is what a table case wants: nil when want is
// "", else an error containing want. It reports whether an error was
// wanted, so that the case stops there.
func checkErr(t *testing.T, err error, want string) bool {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatal(err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("err = %v, want one containing %q", err, want)
	}
	return want != ""
}
