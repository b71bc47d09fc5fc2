package config

import (
	"fmt"
	"strconv"
	"strings"

	"fairsim/scheduler"
	"fairsim/sim"
	"fairsim/slurmconf"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// Run is a scenario made ready to simulate.
type Run struct {
	Scenario  *Scenario
	Cluster   *sim.Cluster
	Scheduler sim.Scheduler
	Policy    sim.Policy
	Source    workload.Source
	Options   sim.Options
	closer    func() error
}

// Close releases the trace file.
func (r *Run) Close() error {
	if r.closer != nil {
		return r.closer()
	}
	return nil
}

// Simulate runs the simulation.
func (r *Run) Simulate() (*sim.Result, error) {
	return sim.New(r.Cluster, r.Scheduler, r.Policy, r.Source, r.Options).Run()
}

// Resolve fills every unset setting with its default, so the scenario
// written to scenario.resolved.yaml shows everything in force.
func (sc *Scenario) Resolve() error {
	if sc.Name == "" {
		sc.Name = "unnamed"
	}
	if sc.Scheduler == "" {
		sc.Scheduler = "easy"
	}
	if _, err := scheduler.New(sc.Scheduler); err != nil {
		return fmt.Errorf("%s: scheduler: %w", sc.file, err)
	}
	if sc.Trace == nil && sc.Generate == nil {
		return fmt.Errorf("%s: the scenario names neither a trace nor a generated workload", sc.file)
	}
	if sc.Trace != nil && sc.Generate != nil {
		return fmt.Errorf("%s: the scenario names both a trace and a generated workload: keep one", sc.file)
	}
	if sc.Trace != nil && sc.Trace.Format == "" {
		sc.Trace.Format = "swf"
	}
	cl := &sc.Cluster
	if cl.ReferenceCPU == "" {
		cl.ReferenceCPU = sim.ReferenceCPU
	}
	if cl.ScaleRuntime == nil {
		on := true
		cl.ScaleRuntime = &on
	}
	if len(cl.Nodes) == 0 && !cl.FromTraceHeader {
		if sc.Trace == nil {
			return fmt.Errorf("%s: cluster: no nodes given (a generated workload needs a cluster)", sc.file)
		}
		cl.FromTraceHeader = true
	}
	if cl.FromTraceHeader && cl.MemPerCore == "" {
		cl.MemPerCore = "4G"
	}
	if cl.FromTraceHeader && len(cl.Partitions) == 0 {
		// HeaderCluster makes "batch"; nothing to resolve.
	}
	for i := range cl.Partitions {
		p := &cl.Partitions[i]
		if p.PriorityTier == 0 {
			p.PriorityTier = 1
		}
		if p.PriorityJobFactor == 0 {
			p.PriorityJobFactor = 1
		}
		if p.MaxTime == "" {
			p.MaxTime = "UNLIMITED"
		}
		if p.DefaultTime == "" {
			p.DefaultTime = "UNLIMITED"
		}
		if p.OverSubscribe == "" {
			p.OverSubscribe = "NO"
		}
		if p.Nodes == "" {
			p.Nodes = "ALL"
		}
	}
	if sc.Sim.MissingTimeLimit == "" {
		sc.Sim.MissingTimeLimit = "runtime"
	}
	if sc.Sim.SampleInterval == "" {
		sc.Sim.SampleInterval = "1:00:00"
	}
	return nil
}

// Build makes a scenario ready to run. Resolve must have been called.
func (sc *Scenario) Build() (*Run, error) {
	run := &Run{Scenario: sc}
	var err error
	run.Scheduler, err = scheduler.New(sc.Scheduler)
	if err != nil {
		return nil, err
	}
	switch {
	case sc.Trace != nil:
		if err := sc.openTrace(run); err != nil {
			return nil, err
		}
	case sc.Generate != nil:
		return nil, fmt.Errorf("%s: generated workloads are not built yet", sc.file)
	}
	run.Cluster, err = sc.buildCluster(run.Source.Header())
	if err != nil {
		run.Close()
		return nil, fmt.Errorf("%s: cluster: %w", sc.file, err)
	}
	sample, err := slurmtime.ParseSeconds(sc.Sim.SampleInterval)
	if err != nil || sample <= 0 {
		run.Close()
		return nil, fmt.Errorf("%s: sim.sample_interval %q: want a positive Slurm time string", sc.file, sc.Sim.SampleInterval)
	}
	run.Options = sim.Options{MissingLimit: sc.Sim.MissingTimeLimit, FailImpossible: sc.Sim.FailImpossible,
		IgnoreDependencies: sc.Sim.IgnoreDependencies, SampleInterval: sample}
	if sc.Trace != nil {
		run.Options.File = sc.Trace.File
	}
	return run, nil
}

func (sc *Scenario) openTrace(run *Run) error {
	t := sc.Trace
	switch t.Format {
	case "swf":
		r, err := workload.OpenSWF(sc.path(t.File), workload.SWFOptions{SkipInvalid: t.SkipInvalid, FailImpossible: sc.Sim.FailImpossible})
		if err != nil {
			return err
		}
		run.Source, run.closer = r, r.Close
		return nil
	default:
		return fmt.Errorf("%s: trace.format %q: want swf or sacct", sc.file, t.Format)
	}
}

func (sc *Scenario) buildCluster(h *workload.Header) (*sim.Cluster, error) {
	cl := &sc.Cluster
	if cl.FromTraceHeader {
		mem, err := ParseMemMB(cl.MemPerCore)
		if err != nil {
			return nil, fmt.Errorf("mem_per_core: %w", err)
		}
		c, err := sim.HeaderCluster(h.MaxNodes, h.MaxProcs, cl.ReferenceCPU, mem)
		if err != nil {
			return nil, err
		}
		c.ScaleRuntime = *cl.ScaleRuntime
		return c, nil
	}
	// Only the CPU types in use are the cluster's, in registry order
	// (slowest first) so CSV and plots list them stably.
	used := map[string]bool{}
	var specs []sim.NodeSpec
	for i, g := range cl.Nodes {
		t, err := sim.LookupCPUType(g.Feature)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %s: Feature: %w", i, g.NodeName, err)
		}
		used[t.Name] = true
		names, err := slurmconf.Expand(g.NodeName)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d]: NodeName: %w", i, err)
		}
		mem, err := ParseMemMB(g.RealMemory)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d] %s: RealMemory: %w", i, g.NodeName, err)
		}
		specs = append(specs, sim.NodeSpec{Names: names, Type: t.Name, Cores: g.CPUs, MemMB: mem, Weight: max(g.Weight, 1)})
	}
	var types []sim.CPUType
	for _, name := range sim.CPUTypeNames() {
		if !used[name] {
			continue
		}
		t, _ := sim.LookupCPUType(name)
		if o, ok := cl.CPUTypes[name]; ok {
			if o.Weight > 0 {
				t.Weight = o.Weight
			}
			if o.Speed > 0 {
				t.Speed = o.Speed
			}
		}
		types = append(types, t)
	}
	for name := range cl.CPUTypes {
		if _, err := sim.LookupCPUType(name); err != nil {
			return nil, fmt.Errorf("cpu_types: %w", err)
		}
	}
	var parts []sim.PartitionSpec
	for i, ps := range cl.Partitions {
		p := sim.Partition{Name: ps.PartitionName, Default: ps.Default, PriorityTier: ps.PriorityTier,
			PriorityJobFactor: ps.PriorityJobFactor, PreemptMode: ps.PreemptMode, QOS: ps.QOS,
			BillingWeights: ps.TRESBillingWeights}
		var err error
		if p.MaxTime, err = limit(ps.MaxTime); err != nil {
			return nil, fmt.Errorf("partitions[%d] %s: MaxTime: %w", i, ps.PartitionName, err)
		}
		if p.DefaultTime, err = limit(ps.DefaultTime); err != nil {
			return nil, fmt.Errorf("partitions[%d] %s: DefaultTime: %w", i, ps.PartitionName, err)
		}
		switch strings.ToUpper(strings.SplitN(ps.OverSubscribe, ":", 2)[0]) {
		case "EXCLUSIVE":
			p.Exclusive = true
		case "NO", "YES", "FORCE":
		default:
			return nil, fmt.Errorf("partitions[%d] %s: OverSubscribe %q: want NO, YES, FORCE or EXCLUSIVE", i, ps.PartitionName, ps.OverSubscribe)
		}
		spec := sim.PartitionSpec{Partition: p}
		if !strings.EqualFold(ps.Nodes, "ALL") {
			if spec.NodeNames, err = slurmconf.Expand(ps.Nodes); err != nil {
				return nil, fmt.Errorf("partitions[%d] %s: Nodes: %w", i, ps.PartitionName, err)
			}
		}
		parts = append(parts, spec)
	}
	return sim.NewCluster(types, specs, parts, cl.ReferenceCPU, *cl.ScaleRuntime)
}

// limit parses a partition time limit (minutes, rounded up as slurm.conf
// does) into seconds, or sim.Unlimited.
func limit(s string) (int64, error) {
	m, err := slurmtime.ParseMinutes(s)
	if err != nil {
		return 0, err
	}
	if m == slurmtime.Infinite {
		return sim.Unlimited, nil
	}
	return m * 60, nil
}

// ParseMemMB parses a memory size in Slurm's style: a number of MB, or a
// number with a K, M, G or T suffix (binary units, as Slurm uses).
func ParseMemMB(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty memory size")
	}
	mult := 1.0
	switch strings.ToUpper(t[len(t)-1:]) {
	case "K":
		mult = 1.0 / 1024
	case "M":
		mult = 1
	case "G":
		mult = 1024
	case "T":
		mult = 1024 * 1024
	}
	if mult != 1 || strings.ToUpper(t[len(t)-1:]) == "M" {
		t = t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("memory size %q: want a number of MB or a size like 128G", s)
	}
	return int64(v*mult + 0.5), nil
}
