package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTyposSuggestTheNearestName: a mistyped command or flag fails and
// names the command or flag the user most likely meant.
func TestTyposSuggestTheNearestName(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fairsim", "sweeep"}, `unknown command "sweeep". Did you mean "sweep"?`},
		{[]string{"fairsim", "rnu"}, `Did you mean "run"?`},
		{[]string{"fairsim", "explian"}, `Did you mean "explain"?`},
		{[]string{"fairsim", "run", "--trac", "x"}, `Did you mean "--trace"?`},
		{[]string{"fairsim", "sshare", "--scenaro", "x"}, `Did you mean "--scenario"?`},
	} {
		app := newApp()
		var out bytes.Buffer
		app.Writer, app.ErrWriter = &out, &out
		err := app.Run(tc.args)
		if err == nil {
			t.Errorf("%v: no error", tc.args)
			continue
		}
		if got := err.Error() + "\n" + out.String(); !strings.Contains(got, tc.want) {
			t.Errorf("%v: %q does not contain %q", tc.args, got, tc.want)
		}
	}
}
