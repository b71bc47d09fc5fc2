package policy

import (
	"errors"
	"fairsim/internal/shared"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A listing of some QOS only (sacctmgr show qos where name=...) may name
// others in Preempt: those entries are dropped with a warning, the rest
// kept. Ignored columns are reported only when a row holds a value.
func TestParseQOSFilePartialAndEmptyColumns(t *testing.T) {
	tests := []struct {
		name, in string
		preempt  map[string][]string
		warnings []string
	}{
		{"partial listing",
			"Name|Preempt|MaxWall|MaxTRESRunMinsPU|\nhigh|low,scavenger,Normal||cpu=4|\nlow|gone||\n",
			map[string][]string{"high": {"low"}, "low": nil},
			[]string{
				"q:2: column MaxTRESRunMinsPU holds values fairsim does not model; ignored",
				`q:2: field Preempt: QOS "scavenger" is not in this listing; QOS high preempts no job of it`,
				`q:2: field Preempt: QOS "normal" is not in this listing; QOS high preempts no job of it`,
				`q:3: field Preempt: QOS "gone" is not in this listing; QOS low preempts no job of it`,
			}},
		{"blank ignored columns are not reported",
			"Name|MaxWall|GrpTRES|MaxTRESRunMinsPU\nnormal|| |\nother|||cpu=1\n",
			map[string][]string{"normal": nil, "other": nil},
			[]string{"q:3: column MaxTRESRunMinsPU holds values fairsim does not model; ignored"}},
		{"nothing to report", "Name|UsageThres\nnormal|\n", map[string][]string{"normal": nil}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, warnings, err := ParseQOSFile(strings.NewReader(tc.in), "q")
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.preempt {
				i, ok := s.Index(name)
				if !ok {
					t.Fatalf("no QOS %s", name)
				}
				if got := s.QOS(i).Preempt; len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
					t.Errorf("%s preempts %q, want %q", name, got, want)
				}
			}
			if !reflect.DeepEqual(warnings, tc.warnings) {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(tc.warnings, "\n"))
			}
		})
	}
}

// realSitesDir is ../shared/real-sites beside the repository.
func realSitesDir() (string, bool) {
	d := shared.Dir()
	if d == "" {
		return "", false
	}
	return filepath.Join(d, "real-sites"), true
}

// huji.qos.txt (sacctmgr -p show qos, as the site has it) loads: 3 QOS,
// normal preempts gutter, rebug-accounta has DenyOnLimit,NoDecay and
// GrpTRESMins billing=2000; normal's MinTRES cpu=1 is read, and none of
// its unmodelled columns holds a value.
func TestRealSiteHujiQOS(t *testing.T) {
	dir, ok := realSitesDir()
	if !ok {
		t.Skip("no ../shared/real-sites beside the repository")
	}
	path := filepath.Join(dir, "huji.qos.txt")
	s, warnings, err := ReadQOSFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 3 {
		t.Fatalf("%d QOS, want 3", s.Len())
	}
	n, _ := s.Index("normal")
	g, _ := s.Index("gutter")
	r, ok := s.Index("rebug-accounta")
	if !ok || !s.CanPreempt(n, g) || s.CanPreempt(g, n) || s.QOS(n).Priority != 1000 {
		t.Errorf("normal: %+v", s.QOS(n))
	}
	if q := s.QOS(r); q.Flags != QOSDenyOnLimit|QOSNoDecay || !reflect.DeepEqual(q.GrpTRESMins, []TRESCount{{Name: "billing", Count: 2000}}) {
		t.Errorf("rebug-accounta: %+v", q)
	}
	if q := s.QOS(n); !reflect.DeepEqual(q.Limits.MinTRES, []TRESCount{{Name: "cpu", Count: 1}}) || q.Limits.MaxJobsPU != Unset {
		t.Errorf("normal's limits: %+v", q.Limits)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q, want none", warnings)
	}
}

// TestQOSPreemptionLoop: a Preempt list that leads back to its own QOS
// (itself, or round a chain) is refused as slurmdbd refuses it
// (as_mysql_qos.c _preemption_loop); a QOS preempting into a loop without
// being on it is not.
func TestQOSPreemptionLoop(t *testing.T) {
	_, _, err := ParseQOSFile(strings.NewReader("Name|Preempt\nself|self\na|b\nb|c\nc|a\nd|a\n"), "q")
	want := []string{
		"q:2: field Preempt: QOS self: a preemption loop (self -> self), which slurmdbd refuses",
		"q:3: field Preempt: QOS a: a preemption loop (a -> b -> c -> a), which slurmdbd refuses",
		"q:4: field Preempt: QOS b: a preemption loop (b -> c -> a -> b), which slurmdbd refuses",
		"q:5: field Preempt: QOS c: a preemption loop (c -> a -> b -> c), which slurmdbd refuses",
	}
	var el ErrorList
	if !errors.As(err, &el) || len(el) != len(want) {
		t.Fatalf("error %v; want %d errors", err, len(want))
	}
	for i, w := range want {
		if el[i].Error() != w {
			t.Errorf("error %d: %s\nwant %s", i, el[i].Error(), w)
		}
	}
	if _, _, err := ParseQOSFile(strings.NewReader("Name|Preempt\nhigh|normal,low\nnormal|low\nlow|\n"), "q"); err != nil {
		t.Errorf("a preemption order without a loop: %v", err)
	}
}
