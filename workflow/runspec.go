package workflow

import (
	"fmt"
	"path/filepath"
	"strings"

	"fairsim/config"
)

// RunSpec is what `fairsim run` is asked to simulate: a scenario file, a
// trace alone, or the embedded default, with the command line's
// overrides. It lives here rather than in the command so that the
// overrides apply the same way wherever a run is described.
type RunSpec struct {
	Scenario, Trace, Scheduler  string
	SkipInvalid, FailImpossible bool
	// Format, Fields and TimeZone say how to read the trace.
	Format, Fields, TimeZone string
	// The trace transforms, applied in the order convert applies them.
	Load                                    float64
	LimitAccuracy, Window, Partition, Queue string
	MaxJobs                                 int
	// Given reports whether a setting was given on the command line (by
	// its flag name: "load", "max-jobs", ...), since a zero value may be
	// meant; nil means none was.
	Given func(flag string) bool
}

// traceFlags are the settings that only a trace can use.
var traceFlags = []string{"format", "fields", "tz", "load", "limit-accuracy", "window", "max-jobs", "partition", "queue"}

func (s *RunSpec) given(flag string) bool { return s.Given != nil && s.Given(flag) }

// Resolve builds the scenario the spec asks for, applies the overrides
// and resolves it.
func (s *RunSpec) Resolve() (*config.Scenario, error) {
	var sc *config.Scenario
	var err error
	switch {
	case s.Scenario != "":
		sc, err = config.Load(s.Scenario)
	case s.Trace != "":
		name := filepath.Base(s.Trace)
		for _, ext := range []string{".gz", ".swf", ".txt", ".sacct"} {
			name = strings.TrimSuffix(name, ext)
		}
		sc = &config.Scenario{Name: name, Cluster: config.ClusterSpec{FromTraceHeader: true}}
	default:
		sc, err = config.Default()
	}
	if err != nil {
		return nil, err
	}
	if s.Trace != "" {
		sc.SetTrace(s.Trace)
	}
	if s.Scheduler != "" {
		sc.Scheduler = s.Scheduler
	}
	if t := sc.Trace; t != nil {
		t.SkipInvalid = t.SkipInvalid || s.SkipInvalid
		if s.Format != "" {
			t.Format = s.Format
		}
		if s.Fields != "" {
			t.Fields = s.Fields
		}
		if s.TimeZone != "" {
			t.TimeZone = s.TimeZone
		}
		if s.given("load") {
			t.Transforms = append(t.Transforms, fmt.Sprintf("load=%g", s.Load))
		}
		for _, kv := range [][2]string{{"limit-accuracy", s.LimitAccuracy}, {"window", s.Window}, {"partition", s.Partition}, {"queue", s.Queue}} {
			if kv[1] != "" {
				t.Transforms = append(t.Transforms, kv[0]+"="+kv[1])
			}
		}
		if s.given("max-jobs") {
			t.Transforms = append(t.Transforms, fmt.Sprintf("max-jobs=%d", s.MaxJobs))
		}
	} else {
		for _, name := range traceFlags {
			if s.given(name) {
				return nil, fmt.Errorf("--%s applies to a trace, and this scenario generates its workload", name)
			}
		}
	}
	if s.FailImpossible {
		sc.Sim.FailImpossible = true
	}
	return sc, sc.Resolve()
}
