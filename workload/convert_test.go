package workload

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConvertKTHThroughFiles(t *testing.T) {
	kth := tracePath(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	dir := t.TempDir()
	mid, out := filepath.Join(dir, "kth.sacct"), filepath.Join(dir, "kth.swf.gz")
	rep, err := Convert(kth, mid, ConvertOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.From != FormatSWF || rep.To != FormatSacct || rep.Jobs != 28476 {
		t.Errorf("report %+v", rep)
	}
	if !strings.Contains(rep.Summary(), "kept incomplete: processors unknown (-1 requested and allocated)") {
		t.Errorf("summary does not mention job 27313:\n%s", rep.Summary())
	}
	if rep, err = Convert(mid, out, ConvertOptions{}); err != nil || rep.From != FormatSacct || rep.Jobs != 28476 {
		t.Fatalf("%+v %v", rep, err)
	}
	r, err := OpenSWF(out, SWFOptions{KeepIncomplete: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	jobs := drain(r)
	if len(jobs) != 28476 || jobs[0].ID != 15 || jobs[0].Submit != 599850 || r.Header().UnixStartTime != 843480031 {
		t.Errorf("%d jobs, first %+v, header %+v", len(jobs), jobs[0], r.Header())
	}
	notes := strings.Join(r.Header().Notes, "\n")
	for _, n := range []string{"converted by fairsim convert from KTH-SP2-1996-2.1-cln.swf.gz (swf) to sacct",
		"converted by fairsim convert from kth.sacct (sacct) to swf"} {
		if !strings.Contains(notes, n) {
			t.Errorf("notes lack %q:\n%s", n, notes)
		}
	}
}

func TestConvertFixture(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fix.swf")
	rep, err := Convert(tracePath(t, "sacct/sacct-output-v2.txt"), out, ConvertOptions{From: "sacct", Fields: ParseSacctFields(fixtureFields)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Jobs != 483 || rep.Steps != 395 {
		t.Errorf("%d jobs, %d steps", rep.Jobs, rep.Steps)
	}
	if s := rep.Summary(); !strings.HasPrefix(s, "sacct -> swf: 483 jobs written (483 records read, 483 accepted), 395 job steps folded into their jobs\n") ||
		!strings.Contains(s, "       86  cancelled before start: kept, leaves the queue at End\n") {
		t.Errorf("summary:\n%s", s)
	}
}

const convertSWF = "; UnixStartTime: 0\n" +
	"1 0 0 100 2 -1 -1 2 200 -1 1 1 7 -1 -1 -1 -1 -1\n" +
	"2 100 0 100 2 -1 -1 2 200 -1 1 2 7 -1 -1 -1 -1 -1\n" +
	"3 200 0 100 4 -1 -1 4 200 -1 1 3 8 -1 -1 -1 -1 -1\n"

func TestConvertStdioTransformsAssoc(t *testing.T) {
	dir := t.TempDir()
	assoc := filepath.Join(dir, "assoc.cfg")
	ts, err := ParseTransforms([]string{"load=2", "limit-accuracy=exact"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep, err := Convert("-", "-", ConvertOptions{To: "swf", Stdin: strings.NewReader(convertSWF), Stdout: &out,
		Transforms: ts, Accounts: &AccountMap{By: "group"}, AssocOut: assoc, Shares: SharesUsage, Cluster: "kth"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.From != FormatSWF {
		t.Errorf("input sniffed as %q", rep.From)
	}
	// Submits halved, limits = run times; the notes say so.
	want := "; UnixStartTime: 0\n; Note: converted by fairsim convert from - (swf) to swf\n" +
		"; Note: fairsim transform load=2\n; Note: fairsim transform limit-accuracy=exact\n; Note: fairsim accounts by group\n" +
		"1 0 0 100 2 -1 -1 2 100 -1 1 1 7 -1 -1 -1 -1 -1\n" +
		"2 50 0 100 2 -1 -1 2 100 -1 1 2 7 -1 -1 -1 -1 -1\n" +
		"3 100 0 100 4 -1 -1 4 100 -1 1 3 8 -1 -1 -1 -1 -1\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	// g7 delivered 2x100 + 2x100 = 400 core seconds, g8 400: 500 thousandths each.
	dump, _ := os.ReadFile(assoc)
	wantDump := "# fairsim association dump: 2 accounts, shares usage\n# converted by fairsim convert from - (swf) to swf\n" +
		"Cluster - 'kth':Fairshare=1\nParent - 'root'\n" +
		"Account - 'g7':Description='g7':Organization='g7':Fairshare=500\n" +
		"Account - 'g8':Description='g8':Organization='g8':Fairshare=500\n" +
		"Parent - 'g7'\nUser - 'u1':DefaultAccount='g7':Fairshare=1\nUser - 'u2':DefaultAccount='g7':Fairshare=1\n" +
		"Parent - 'g8'\nUser - 'u3':DefaultAccount='g8':Fairshare=1\n"
	if string(dump) != wantDump {
		t.Errorf("dump\n%s\nwant\n%s", dump, wantDump)
	}
	if d := rep.Stats.Defaulted; d["load 2: submit time scaled"] != 3 || d["account: from group"] != 3 {
		t.Errorf("defaulted %v", d)
	}
}

func TestConvertGuessAndErrors(t *testing.T) {
	dir := t.TempDir()
	sacct := filepath.Join(dir, "dump.txt") // the name does not say: the content does
	if err := os.WriteFile(sacct, sacctInput(sacctTestHeader, map[string]string{}), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Convert(sacct, filepath.Join(dir, "out.swf"), ConvertOptions{})
	if err != nil || rep.From != FormatSacct || rep.Jobs != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	for name, want := range map[string]string{"a.swf": "swf", "a.SWF.gz": "swf", "b.sacct": "sacct", "b.psv.gz": "sacct", "c.txt": "", "-": ""} {
		if got := GuessFormat(name); got != want {
			t.Errorf("GuessFormat(%q) = %q, want %q", name, got, want)
		}
	}
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("1 0 0 1x 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "never.sacct")
	tests := []struct {
		in, out string
		opts    ConvertOptions
		want    string
	}{
		{sacct, filepath.Join(dir, "out.xyz"), ConvertOptions{}, `cannot tell the output format from "` + filepath.Join(dir, "out.xyz") + `": give --to swf or --to sacct`},
		{sacct, out, ConvertOptions{From: "csv"}, `unknown format "csv": want swf or sacct`},
		{bad, out, ConvertOptions{}, bad + `:1: field 4 (run time): not a number: "1x"`},
		{filepath.Join(dir, "missing.swf"), out, ConvertOptions{}, "open " + filepath.Join(dir, "missing.swf") + ": no such file or directory"},
	}
	for _, tc := range tests {
		if _, err := Convert(tc.in, tc.out, tc.opts); err == nil || err.Error() != tc.want {
			t.Errorf("Convert(%s, %s) = %v, want %s", tc.in, tc.out, err, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed conversion left %s behind", out)
	}
	// With SkipInvalid the bad record is counted and the file written.
	rep, err = Convert(bad, out, ConvertOptions{SkipInvalid: true})
	if err != nil || rep.Jobs != 0 || rep.Stats.Skipped[`invalid: run time: not a number: "1x"`] != 1 {
		t.Errorf("%+v %v", rep, err)
	}
}
