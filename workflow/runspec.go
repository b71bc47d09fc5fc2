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
	Scenario, Trace, Scheduler string
	// SlurmConf, Assoc and QOS are a site's own files (slurm.conf, a
	// sacctmgr dump or `sacctmgr -P show assoc`, `sacctmgr show qos -P`):
	// with SlurmConf and no Scenario they alone describe the run.
	SlurmConf, Assoc, QOS string
	// Events is a site events file (node and partition state changes).
	Events string
	// CPUTypes are HOSTLIST=TYPE settings naming nodes' CPU types.
	CPUTypes                    []string
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
	sc, err := s.Unresolved()
	if err != nil {
		return nil, err
	}
	return sc, sc.Resolve()
}

// Unresolved is the scenario the spec asks for with its overrides applied,
// before Resolve fills in defaults (a sweep edits it first).
func (s *RunSpec) Unresolved() (*config.Scenario, error) {
	var sc *config.Scenario
	var err error
	switch {
	case s.Scenario != "":
		sc, err = config.Load(ScenarioFile(s.Scenario))
	case s.SlurmConf != "":
		// A site's slurm.conf alone: Slurm's scheduler and priority, and
		// without a trace a workload drawn to fit its partitions.
		sc = &config.Scenario{Name: siteName(s.SlurmConf), Scheduler: "slurm"}
		if s.Trace == "" {
			sc.Generate = &config.GenSpec{Seed: 1, FitCluster: true}
		}
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
		if s.SlurmConf != "" {
			sc.Cluster.FromTraceHeader = false // the nodes are slurm.conf's
		}
	}
	for _, f := range []struct {
		flag, val string
		dst       *string
	}{{"slurm-conf", s.SlurmConf, &sc.SlurmConf}, {"assoc", s.Assoc, &sc.Assoc}, {"qos", s.QOS, &sc.QOS}, {"events", s.Events, &sc.Events}} {
		if f.val == "" {
			continue
		}
		abs, err := filepath.Abs(f.val)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", f.flag, err)
		}
		*f.dst = abs
	}
	if s.TimeZone != "" && sc.FairShare.TimeZone == "" {
		sc.FairShare.TimeZone = s.TimeZone // the site's zone: usage resets fall there too
	}
	for _, ct := range s.CPUTypes {
		hosts, typ, ok := strings.Cut(ct, "=")
		if !ok || hosts == "" || typ == "" {
			return nil, fmt.Errorf("--cpu-type %q: want HOSTLIST=TYPE, e.g. c[01-40]=skylake", ct)
		}
		if sc.Cluster.CPUTypes == nil {
			sc.Cluster.CPUTypes = map[string]config.CPUTypeSpec{}
		}
		o := sc.Cluster.CPUTypes[typ]
		if o.Nodes != "" {
			hosts = o.Nodes + "," + hosts
		}
		o.Nodes = hosts
		sc.Cluster.CPUTypes[typ] = o
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
	return sc, nil
}

// siteName names a run after its slurm.conf: the file name without
// ".conf" and ".slurm", or the folder's name for a plain slurm.conf
// ("slac/slurm.conf" is slac).
func siteName(path string) string {
	base := filepath.Base(path)
	if strings.EqualFold(base, "slurm.conf") {
		if d := filepath.Base(filepath.Dir(path)); d != "." && d != string(filepath.Separator) {
			return d
		}
	}
	name := strings.TrimSuffix(strings.TrimSuffix(base, ".conf"), ".slurm")
	if name == "" {
		return "site"
	}
	return name
}
