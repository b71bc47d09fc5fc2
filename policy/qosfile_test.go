package policy

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestReadQOSFileTestdata(t *testing.T) {
	s, warnings, err := ReadQOSFile("testdata/qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 5 {
		t.Fatalf("%d QOS, want 5", s.Len())
	}
	get := func(name string) *QOS {
		i, ok := s.Index(name)
		if !ok {
			t.Fatalf("QOS %s missing", name)
		}
		return s.QOS(i)
	}
	normal := get("normal")
	if normal.Priority != 100000 || normal.UsageFactor != 1 || normal.MaxJobsAccruePU != 4 || normal.MaxJobsAccruePA != 4 ||
		normal.GrpJobsAccrue != Unset || normal.PreemptMode != PreemptCluster || !reflect.DeepEqual(normal.Preempt, []string{"standby"}) ||
		normal.PreemptExemptTime != Unset || normal.GrpTRESMins != nil {
		t.Errorf("normal = %+v", *normal)
	}
	standby := get("standby")
	if standby.Priority != 0 || standby.UsageFactor != 0.5 || standby.GraceTime != 120 || standby.PreemptMode != PreemptRequeue ||
		standby.Flags != QOSNoReserve || standby.MaxJobsAccruePU != Unset {
		t.Errorf("standby = %+v", *standby)
	}
	debug := get("debug")
	if debug.PreemptExemptTime != 600 || debug.Flags != QOSDenyOnLimit || debug.Priority != 200000 {
		t.Errorf("debug = %+v", *debug)
	}
	credit := get("credit")
	// mem=2000000M is 2,000,000 MB-minutes.
	wantMins := []TRESCount{{"cpu", 1000000}, {"mem", 2000000}, {"gres/gpu", 5000}}
	if !reflect.DeepEqual(credit.GrpTRESMins, wantMins) || credit.Flags != QOSDenyOnLimit|QOSNoDecay {
		t.Errorf("credit = %+v", *credit)
	}
	high := get("high")
	if high.GrpJobsAccrue != 20 || high.UsageFactor != 2 || high.PreemptMode != PreemptSuspend|PreemptGang ||
		high.PreemptExemptTime != 3600 || high.MinPrioThreshold != 500000 || high.Flags != QOSOverPartQOS {
		t.Errorf("high = %+v", *high)
	}
	if s.MaxPriority() != 300000 {
		t.Errorf("MaxPriority %d", s.MaxPriority())
	}
	hi, _ := s.Index("high")
	st, _ := s.Index("standby")
	if !s.CanPreempt(hi, st) || s.CanPreempt(st, hi) {
		t.Error("preempt lists not resolved")
	}
	// debug's limits are read; the columns still not modelled (GrpWall,
	// GrpTRESRunMins, MaxTRESMins, MaxTRESPerNode, UsageThres) are blank,
	// so nothing is reported.
	debug = get("debug")
	wantLim := NoLimits()
	wantLim.GrpTRES = []TRESCount{{"cpu", 256}}
	wantLim.GrpJobs = 10
	wantLim.MaxTRES = []TRESCount{{"node", 8}}
	wantLim.MaxWall = 1800
	wantLim.MaxJobsPU = 2
	wantLim.MinTRES = []TRESCount{{"cpu", 1}}
	if !reflect.DeepEqual(debug.Limits, wantLim) {
		t.Errorf("debug's limits %+v, want %+v", debug.Limits, wantLim)
	}
	if credit.Limits.MaxWall != 2*86400 {
		t.Errorf("credit's MaxWall %d", credit.Limits.MaxWall)
	}
	var want []string
	if !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseQOSFileForms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []QOS
	}{
		{"name only", "Name\nnormal\n", []QOS{NewQOS("normal")}},
		{"any column order, any case, -p trailing bar, CRLF, comments",
			"# exported by hand\r\n\r\nmaxjobsaccruepu|PRIORITY|name|\r\n2|10|Normal|\r\n|0|Low|\r\n",
			[]QOS{qosWith("normal", func(q *QOS) { q.MaxJobsAccruePU, q.Priority = 2, 10 }), NewQOS("low")}},
		{"long column names",
			"Name|MaxJobsAccruePerUser|MaxJobsAccruePerAccount|MinPrioThreshold\na|1|2|3\n",
			[]QOS{qosWith("a", func(q *QOS) { q.MaxJobsAccruePU, q.MaxJobsAccruePA, q.MinPrioThreshold = 1, 2, 3 })}},
		{"-1 means unset, blank keeps defaults",
			"Name|GrpJobsAccrue|UsageFactor|GrpTRESMins|GraceTime\na|-1|||1-00:00:00\nb|0|0|cpu=-1,node=5|90\n",
			[]QOS{qosWith("a", func(q *QOS) { q.GraceTime = 86400 }),
				qosWith("b", func(q *QOS) {
					q.GrpJobsAccrue, q.UsageFactor, q.GraceTime = 0, 0, 5400
					q.GrpTRESMins = []TRESCount{{"node", 5}}
				})}},
		{"TRES-minute units",
			"Name|GrpTRESMins\na|mem=2G,cpu=3K,bb/cray=1T,mem=4096K\n", nil}, // mem twice: error case below
	}
	for _, tt := range tests {
		if tt.want == nil {
			continue
		}
		s, _, err := ParseQOSFile(strings.NewReader(tt.in), "x")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []QOS
		for i := 0; i < s.Len(); i++ {
			got = append(got, *s.QOS(i))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
	s, _, err := ParseQOSFile(strings.NewReader("Name|GrpTRESMins\na|mem=2G,cpu=3K,bb/cray=1T,gres/gpu:a100=7\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	want := []TRESCount{{"mem", 2048}, {"cpu", 3072}, {"bb/cray", 1 << 20}, {"gres/gpu:a100", 7}}
	if got := s.QOS(0).GrpTRESMins; !reflect.DeepEqual(got, want) {
		t.Errorf("GrpTRESMins with units = %v, want %v", got, want)
	}
}

func TestParseQOSFileErrors(t *testing.T) {
	in := strings.Join([]string{
		"Name|Priority|UsageFactor|MaxJobsAccruePU|MaxJobsAccruePA|GrpJobsAccrue|GrpTRESMins|Preempt|PreemptMode|Flags|GraceTime|PreemptExemptTime|MinPrioThres",
		"good|1|1|||||||||||",
		"p|abc|1||||||||||",            // line 3
		"u|1|-0.5||||||||||",           // line 4
		"a|1|1|x|-2|||||||||",          // line 5: two bad fields
		"t|1|1||||cpu=abc||||||",       // line 6
		"w|1|1",                        // line 7: field count is wrong
		"m|1|1|||||||Bogus|1:2:3:4||",  // line 8
		"good|1|1||||||||||",           // line 9: duplicate
		"r|1|1|||||nosuch|||||",        // line 10: undefined preempt target: a warning
		"|1|1||||||||||",               // line 11: empty name
		"s p|1|1||||||||||99999999999", // line 12: two bad fields
		"big|1|1e308||||||||||",        // line 13: usage × 1e308 overflowed and charged 0
	}, "\n")
	_, _, err := ParseQOSFile(strings.NewReader(in), "bad.txt")
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T), want an ErrorList", err, err)
	}
	want := []string{
		"bad.txt:3: field Priority: ",
		"bad.txt:4: field UsageFactor: ",
		"bad.txt:5: field MaxJobsAccruePU: ",
		"bad.txt:5: field MaxJobsAccruePA: ",
		"bad.txt:6: field GrpTRESMins: ",
		"bad.txt:7: 3 fields, header has 13",
		"bad.txt:8: field Flags: ",
		"bad.txt:8: field GraceTime: ",
		"bad.txt:9: field Name: ",
		"bad.txt:11: field Name: empty",
		"bad.txt:12: field Name: ",
		"bad.txt:12: field MinPrioThres: ",
		`bad.txt:13: field UsageFactor: "1e308": want at most 1e+06`,
	}
	if len(list) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(list), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(list[i].Error(), w) {
			t.Errorf("error %d = %q, want prefix %q", i, list[i].Error(), w)
		}
	}
	if !strings.Contains(list[8].Error(), `already defined on line 2`) {
		t.Errorf("message lacks detail: %q", list[8])
	}
	if !strings.Contains(err.Error(), "(and 3 more errors)") {
		t.Errorf("long list not summarised:\n%v", err)
	}
}

func TestParseQOSFileHeaderErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "h.txt:1: no header line"},
		{"\n# nothing\n", "h.txt:1: no header line"},
		{"Name|Priorty\nx|1\n", "h.txt:1: field Priorty: unknown column"},
		{"Priority|UsageFactor\n1|1\n", "h.txt:1: field Name: required column missing from header"},
		{"Name|Priority|priority\nx|1|1\n", "h.txt:1: field priority: column given twice"},
		{"Name|MaxJobsAccruePU|MaxJobsAccruePerUser\nx|1|1\n", "h.txt:1: field MaxJobsAccruePerUser: column given twice"},
		{"Name||Priority\nx||1\n", "h.txt:1: empty column name in header"},
		// A column name's ESC is quoted, not echoed to the terminal.
		{"Name|Pri\x1b[31mority\nx|1\n", `h.txt:1: field "Pri\x1b[31mority": unknown column`},
	}
	for _, tt := range tests {
		_, _, err := ParseQOSFile(strings.NewReader(tt.in), "h.txt")
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseQOSFile(%q) error %v, want %q", tt.in, err, tt.want)
		}
	}
	if _, _, err := ReadQOSFile("testdata/does-not-exist.txt"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if (ErrorList{}).Err() != nil || (ErrorList{}).Error() != "no errors" {
		t.Error("empty ErrorList must be no error")
	}
}

func TestFormatQOSFileRoundTrip(t *testing.T) {
	s, _, err := ReadQOSFile("testdata/qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := FormatQOSFile(s)
	back, warnings, err := ParseQOSFile(strings.NewReader(out), "formatted")
	if err != nil || len(warnings) != 0 {
		t.Fatalf("re-reading formatted file: %v, %v\n%s", err, warnings, out)
	}
	assertSameQOS(t, s, back)
	if !strings.Contains(out, "\nhigh|300000|2.000000|||20||normal,standby|SUSPEND,GANG|OverPartQOS|00:00:00|01:00:00|500000||||||||||||||||\n") {
		t.Errorf("unexpected format:\n%s", out)
	}
}

func assertSameQOS(t *testing.T, a, b *QOSSet) {
	t.Helper()
	if a.Len() != b.Len() {
		t.Fatalf("%d QOS vs %d", a.Len(), b.Len())
	}
	for i := 0; i < a.Len(); i++ {
		x, y := *a.QOS(i), *b.QOS(i)
		if len(x.Preempt) == 0 && len(y.Preempt) == 0 {
			x.Preempt, y.Preempt = nil, nil
		}
		if len(x.GrpTRESMins) == 0 && len(y.GrpTRESMins) == 0 {
			x.GrpTRESMins, y.GrpTRESMins = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("QOS %d differs:\n%+v\n%+v", i, x, y)
		}
	}
}

// FuzzQOSFile checks that no input panics, that every error is an
// ErrorList whose entries name the file and a line of it, and that an
// accepted file survives FormatQOSFile unchanged.
func FuzzQOSFile(f *testing.F) {
	seed, err := os.ReadFile("testdata/qos.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add("Name\nnormal\n")
	f.Add("Name|Priority|GrpTRESMins|GraceTime\r\nx|1|mem=2G,gres/gpu=3|1-02:03:04\r\n")
	f.Add("Name|Preempt|\nA|b|\nB||\n")
	if dir, ok := realSitesDir(); ok {
		if huji, err := os.ReadFile(dir + "/huji.qos.txt"); err == nil {
			f.Add(string(huji))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, _, err := ParseQOSFile(strings.NewReader(in), "fuzz")
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T) is not a non-empty ErrorList", err, err)
			}
			lines := strings.Count(in, "\n") + 1
			for _, e := range list {
				if e.File != "fuzz" || e.Line < 1 || e.Line > lines {
					t.Fatalf("error %q names line %d of %d", e, e.Line, lines)
				}
			}
			return
		}
		out := FormatQOSFile(s)
		back, _, err := ParseQOSFile(strings.NewReader(out), "formatted")
		if err != nil {
			t.Fatalf("formatted output rejected: %v\ninput %q\noutput %q", err, in, out)
		}
		assertSameQOS(t, s, back)
	})
}

// A row one field longer than its header whose last field is empty is
// read as sacctmgr -p's trailing '|'. When the header has no trailing
// '|' the row may be misaligned, as in this listing: its 27 fields put
// the "2" under MaxSubmitPU (field 22), not MaxJobsPU (field 21). It is
// read as written, with a warning naming the line and the last value; a
// row whose extra field holds a value is an error naming it.
func TestQOSFileTrailingField(t *testing.T) {
	const head = "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode|Flags|UsageThres|UsageFactor|GrpTRES|GrpTRESMins|GrpTRESRunMins|GrpJobs|GrpSubmit|GrpWall|MaxTRES|MaxTRESPerNode|MaxTRESMins|MaxWall|MaxTRESPU|MaxJobsPU|MaxSubmitPU|MaxTRESPA|MaxJobsPA|MaxSubmitPA|MinTRES"
	const row = "normal|0|00:00:00|||cluster|||1.000000|||||||||||||2|||||"
	qs, warns, err := ParseQOSFile(strings.NewReader(head+"\n"+row+"\n"), "q.txt")
	if err != nil {
		t.Fatal(err)
	}
	q := qs.QOS(0)
	if q.Limits.MaxSubmitPU != 2 || q.Limits.MaxJobsPU != -1 {
		t.Errorf("MaxSubmitPU %d, MaxJobsPU %d; want 2 and unset (-1)", q.Limits.MaxSubmitPU, q.Limits.MaxJobsPU)
	}
	want := "q.txt:2: 27 fields, header has 26: the last is empty and read as sacctmgr -p's trailing '|', but the header has none; if the row lacks a field before, its values are one column off (MaxSubmitPU=2 is its last value)"
	if !slices.Contains(warns, want) {
		t.Errorf("warnings %q, want %q", warns, want)
	}
	// sacctmgr -p: header and rows all end with '|': no warning.
	_, warns, err = ParseQOSFile(strings.NewReader(head+"|\n"+row+"\n"), "q.txt")
	if err != nil || len(warns) != 0 {
		t.Errorf("-p listing: %v, warnings %q; want neither", err, warns)
	}
	_, _, err = ParseQOSFile(strings.NewReader(head+"\n"+row+"x\n"), "q.txt")
	if err == nil || !strings.Contains(err.Error(), "q.txt:2: 27 fields, header has 26: field 27 (x) has no column") {
		t.Errorf("extra value: %v", err)
	}
}

// MaxTRESMins (and its long name MaxTRESMinsPerJob) is read as a TRES
// list of TRES-minutes.
func TestQOSFileMaxTRESMins(t *testing.T) {
	for _, col := range []string{"MaxTRESMins", "MaxTRESMinsPerJob"} {
		qs, warns, err := ParseQOSFile(strings.NewReader("Name|"+col+"\nq|cpu=6000,gres/gpu=120\n"), "q.txt")
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: %v %q", col, err, warns)
		}
		want := []TRESCount{{"cpu", 6000}, {"gres/gpu", 120}}
		if got := qs.QOS(0).Limits.MaxTRESMins; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", col, got, want)
		}
	}
}

// TestQOSFileUnmodelledFlags: a flag fairsim reads but does not simulate
// is named once, at the first QOS that sets it, with its line; the
// flags it simulates are not.
func TestQOSFileUnmodelledFlags(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"simulated flags", "Name|Flags\nnormal|DenyOnLimit,NoReserve,PartitionMaxNodes,PartitionMinNodes\n", nil},
		{"one unmodelled flag on two QOS", "Name|Flags\nnormal|\nrel|Relative\nrel2|Relative,NoDecay\n",
			[]string{"q.txt:3: field Flags: QOS rel: flag Relative is not simulated (its TRES limits are applied as counts, not as percentages of the cluster's or partition's TRES)"}},
		{"three", "Name|Flags|Priority\na|RequiresReservation|1\nb|EnforceUsageThreshold,PartitionMinNodes|2\n",
			[]string{
				"q.txt:2: field Flags: QOS a: flag RequiresReservation is not simulated (its jobs run outside advance reservations too)",
				"q.txt:3: field Flags: QOS b: flag EnforceUsageThreshold is not simulated (UsageThres is not modelled)",
			}},
	} {
		_, warns, err := ParseQOSFile(strings.NewReader(tc.file), "q.txt")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(warns, tc.want) {
			t.Errorf("%s: warnings\n%s\nwant\n%s", tc.name, strings.Join(warns, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}
