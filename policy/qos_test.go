package policy

import (
	"math"
	"strings"
	"testing"
)

func TestParseQOSFlags(t *testing.T) {
	f, err := ParseQOSFlags("DenyOnLimit, nodecay,NoReserve,,UsageFactorSafe")
	if err != nil {
		t.Fatal(err)
	}
	if f != QOSDenyOnLimit|QOSNoDecay|QOSNoReserve|QOSUsageFactorSafe {
		t.Errorf("flags %#x", uint32(f))
	}
	if s := f.String(); s != "DenyOnLimit,NoDecay,NoReserve,UsageFactorSafe" {
		t.Errorf("String() = %q", s)
	}
	if f, err := ParseQOSFlags(""); err != nil || f != 0 {
		t.Errorf("empty: %v, %v", f, err)
	}
	if _, err := ParseQOSFlags("NoDecay,NoPreempt"); err == nil || !strings.Contains(err.Error(), `"NoPreempt"`) {
		t.Errorf("unknown flag error: %v", err)
	}
}

func TestParsePreemptMode(t *testing.T) {
	tests := []struct {
		in   string
		want PreemptMode
		str  string
	}{
		{"", PreemptCluster, "cluster"},
		{"cluster", PreemptCluster, "cluster"},
		{"OFF", PreemptOff, "OFF"},
		{"requeue", PreemptRequeue, "REQUEUE"},
		{"SUSPEND,GANG", PreemptSuspend | PreemptGang, "SUSPEND,GANG"},
		{"gang,suspend", PreemptSuspend | PreemptGang, "SUSPEND,GANG"},
		{"CANCEL,WITHIN,PRIORITY", PreemptCancel | PreemptWithin | PreemptPriority, "CANCEL,WITHIN,PRIORITY"},
	}
	for _, tt := range tests {
		got, err := ParsePreemptMode(tt.in)
		if err != nil || got != tt.want || got.String() != tt.str {
			t.Errorf("ParsePreemptMode(%q) = %v (%q), %v; want %v (%q)", tt.in, got, got.String(), err, tt.want, tt.str)
		}
	}
	for _, bad := range []string{"sometimes", "OFF,SUSPEND", "SUSPEND;GANG"} {
		if _, err := ParsePreemptMode(bad); err == nil {
			t.Errorf("ParsePreemptMode(%q): no error", bad)
		}
	}
}

func TestQOSSet(t *testing.T) {
	normal := NewQOS("Normal")
	normal.Priority = 100
	normal.Preempt = []string{"STANDBY"}
	standby := NewQOS("standby")
	standby.GrpTRESMins = []TRESCount{{"cpu", 1000}, {"gres/gpu", 50}}
	s, err := NewQOSSet([]QOS{normal, standby})
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || s.QOS(0).Name != "normal" {
		t.Fatalf("set: len %d, first %q", s.Len(), s.QOS(0).Name)
	}
	if i, ok := s.Index(" NORMAL "); !ok || i != 0 {
		t.Errorf("Index(NORMAL) = %d, %v", i, ok)
	}
	if _, ok := s.Index("nope"); ok {
		t.Error("Index found an undefined QOS")
	}
	if !s.CanPreempt(0, 1) || s.CanPreempt(1, 0) || s.CanPreempt(0, 0) || s.CanPreempt(-1, 0) || s.CanPreempt(5, 1) {
		t.Error("CanPreempt wrong")
	}
	if v, ok := s.QOS(1).GrpTRESMinsLimit("GRES/GPU"); !ok || v != 50 {
		t.Errorf("GrpTRESMinsLimit(gres/gpu) = %d, %v", v, ok)
	}
	if _, ok := s.QOS(0).GrpTRESMinsLimit("cpu"); ok {
		t.Error("normal has no GrpTRESMins")
	}
	if s.NormPriority(0) != 1 || s.NormPriority(1) != 0 || s.NormPriority(7) != 0 {
		t.Error("NormPriority wrong")
	}
	// Defaults.
	if q := NewQOS("x"); q.UsageFactor != 1 || q.MaxJobsAccruePU != Unset || q.MaxJobsAccruePA != Unset ||
		q.GrpJobsAccrue != Unset || q.PreemptExemptTime != Unset || q.PreemptMode != PreemptCluster {
		t.Errorf("NewQOS defaults: %+v", q)
	}

	bad := []struct {
		name string
		qs   []QOS
		want string
	}{
		{"empty name", []QOS{NewQOS(" ")}, "empty name"},
		{"duplicate", []QOS{NewQOS("a"), NewQOS("A")}, "defined twice"},
		{"undefined preempt", []QOS{qosWith("a", func(q *QOS) { q.Preempt = []string{"b"} })}, `undefined QOS "b"`},
		{"negative usage factor", []QOS{qosWith("a", func(q *QOS) { q.UsageFactor = -1 })}, "UsageFactor"},
		{"NaN usage factor", []QOS{qosWith("a", func(q *QOS) { q.UsageFactor = math.NaN() })}, "UsageFactor"},
		{"limit below -1", []QOS{qosWith("a", func(q *QOS) { q.MaxJobsAccruePU = -2 })}, "accrue limits"},
	}
	for _, tt := range bad {
		if _, err := NewQOSSet(tt.qs); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}
