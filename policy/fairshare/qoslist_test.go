package fairshare

import (
	"slices"
	"strings"
	"testing"
)

// An association's QOS list as slurmdbd resolves it: its own list, else
// its parent's with its + and - changes.
//
//	root (Cluster line)  QOS='normal,Standby'     → normal, standby
//	a1                   (none)                   → root's: normal, standby
//	a1/u1                QOS='+high,-standby'     → normal + high − standby
//	a2                   QOS='debug'              → debug only
//	a2/u3                QOS='+normal'            → debug + normal
func TestValidQOS(t *testing.T) {
	tr, err := ReadDump("q.cfg", strings.NewReader(`Cluster - 'c':Fairshare=1:QOS='normal,Standby'
Parent - 'root'
Account - 'a1':Fairshare=1
Account - 'a2':Fairshare=1:QOS='debug'
Parent - 'a1'
User - 'u1':Fairshare=1:QOS='+high,-standby'
User - 'u2':Fairshare=1
Parent - 'a2'
User - 'u3':Fairshare=1:QOS='+normal'
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		acct, user string
		want       []string
	}{
		{"a1", "", []string{"normal", "standby"}},
		{"a1", "u1", []string{"high", "normal"}},
		{"a1", "u2", []string{"normal", "standby"}},
		{"a2", "", []string{"debug"}},
		{"a2", "u3", []string{"debug", "normal"}},
	} {
		i, _ := tr.Lookup(tc.acct, tc.user)
		got, ok := tr.ValidQOS(i)
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s/%s: %v %v, want %v", tc.acct, tc.user, got, ok, tc.want)
		}
	}
	// No list anywhere: nothing is valid, and the caller is told so.
	tr, err = ReadDump("q.cfg", strings.NewReader("Cluster - 'c'\nParent - 'root'\nAccount - 'a':Fairshare=1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := tr.Lookup("a", ""); func() bool { _, ok := tr.ValidQOS(i); return ok }() {
		t.Error("a tree without QOS lists reports one")
	}
	for _, bad := range []struct{ val, msg string }{
		{"normal,+high", `q.cfg:3: QOS: "normal,+high": names and +/- changes do not mix`},
		{"normal,,high", `q.cfg:3: QOS: "normal,,high": empty QOS name`},
		{"++high", `q.cfg:3: QOS: "++high": one + or - before a QOS name`},
	} {
		_, err := ReadDump("q.cfg", strings.NewReader("Cluster - 'c'\nParent - 'root'\nAccount - 'a':QOS='"+bad.val+"'\n"))
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("QOS=%s: %v, want %s", bad.val, err, bad.msg)
		}
	}
}
