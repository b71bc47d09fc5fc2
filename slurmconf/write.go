package slurmconf

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"fairsim/slurmtime"
)

// Write renders c as slurm.conf text that Parse reads back to an Equal
// Config. Every simulated setting is written explicitly, defaults included,
// so the output documents the configuration actually in force (for
// scenario.resolved.yaml audits); NodeName=DEFAULT lines are not used.
//
// It fails only for values the file syntax cannot express, or times that
// are not whole minutes (slurm.conf cannot hold seconds).
func (c *Config) Write(w io.Writer) error {
	var cw confWriter
	cw.b.WriteString("# slurm.conf as resolved by fairsim: every simulated setting, defaults included.\n")
	if c.ClusterName != "" {
		cw.put("ClusterName", c.ClusterName)
	}
	c.writePriority(&cw)
	c.writeScheduling(&cw)
	c.writeExtra(&cw)
	c.writeNodes(&cw)
	c.writePartitions(&cw)
	if len(cw.errs) > 0 {
		return fmt.Errorf("slurmconf: cannot write configuration: %s", strings.Join(cw.errs, "; "))
	}
	_, err := w.Write(cw.b.Bytes())
	return err
}

// confWriter builds slurm.conf text and collects every value that cannot
// be written, so Write reports them all at once instead of emitting a
// file Parse would read differently.
type confWriter struct {
	b    bytes.Buffer
	errs []string
}

// put writes one Key=Value line.
func (cw *confWriter) put(key, value string) {
	q, ok := quoteValue(value)
	if !ok {
		cw.errs = append(cw.errs, fmt.Sprintf("%s: value %q cannot be written in slurm.conf syntax", key, value))
		return
	}
	fmt.Fprintf(&cw.b, "%s=%s\n", key, q)
}

// putTime writes a duration kept in seconds as slurm.conf's minutes, or
// UNLIMITED; a duration that is not whole minutes cannot be written.
func (cw *confWriter) putTime(key string, secs int64) {
	switch {
	case secs == UnlimitedPrioritySeconds:
		cw.put(key, "UNLIMITED")
	case secs < 0 || secs%60 != 0:
		cw.errs = append(cw.errs, fmt.Sprintf("%s: %d seconds is not a whole number of minutes", key, secs))
	default:
		cw.put(key, minutesString(secs/60))
	}
}

// line writes one NodeName=, NodeSet= or PartitionName= line of
// Key Value pairs; the first pair names the line in errors.
func (cw *confWriter) line(pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		q, ok := quoteValue(pairs[i+1])
		if !ok {
			cw.errs = append(cw.errs, fmt.Sprintf("%s=%s %s: value %q cannot be written in slurm.conf syntax", pairs[0], pairs[1], pairs[i], pairs[i+1]))
			return
		}
		if i > 0 {
			cw.b.WriteByte(' ')
		}
		fmt.Fprintf(&cw.b, "%s=%s", pairs[i], q)
	}
	cw.b.WriteByte('\n')
}

// writePriority writes the multifactor settings, the ones a fair-share
// study changes most, first.
func (c *Config) writePriority(cw *confWriter) {
	cw.b.WriteString("\n# Job priority\n")
	cw.put("PriorityType", c.PriorityType)
	if c.PriorityFlags != "" {
		cw.put("PriorityFlags", c.PriorityFlags)
	}
	cw.put("PriorityWeightAge", itoa(int64(c.PriorityWeightAge)))
	cw.put("PriorityWeightAssoc", itoa(int64(c.PriorityWeightAssoc)))
	cw.put("PriorityWeightFairshare", itoa(int64(c.PriorityWeightFairshare)))
	cw.put("PriorityWeightJobSize", itoa(int64(c.PriorityWeightJobSize)))
	cw.put("PriorityWeightPartition", itoa(int64(c.PriorityWeightPartition)))
	cw.put("PriorityWeightQOS", itoa(int64(c.PriorityWeightQOS)))
	if c.PriorityWeightTRES != "" {
		cw.put("PriorityWeightTRES", c.PriorityWeightTRES)
	}
	cw.putTime("PriorityMaxAge", c.PriorityMaxAge)
	cw.putTime("PriorityDecayHalfLife", c.PriorityDecayHalfLife)
	cw.putTime("PriorityCalcPeriod", c.PriorityCalcPeriod)
	cw.put("PriorityUsageResetPeriod", string(c.PriorityUsageResetPeriod))
	cw.put("PriorityFavorSmall", yesNo(c.PriorityFavorSmall))
	cw.put("FairShareDampeningFactor", itoa(int64(c.FairShareDampeningFactor)))
}

// writeScheduling writes the scheduler, selection, preemption and timing
// settings the simulation honours.
func (c *Config) writeScheduling(cw *confWriter) {
	cw.b.WriteString("\n# Scheduling\n")
	cw.put("SchedulerType", c.SchedulerType)
	cw.put("SchedulerParameters", c.SchedulerParameters.String(c.MessageTimeout))
	cw.put("SelectType", c.SelectType)
	if c.AccountingStorageTRES != "" {
		cw.put("AccountingStorageTRES", c.AccountingStorageTRES)
	}
	if c.GresTypes != "" {
		cw.put("GresTypes", c.GresTypes)
	}
	if c.SelectTypeParameters != "" {
		cw.put("SelectTypeParameters", c.SelectTypeParameters)
	}
	cw.put("PreemptType", c.PreemptType)
	cw.put("PreemptMode", formatPreemptMode(c.PreemptMode))
	if s := c.AccountingStorageEnforce.String(); s != "" {
		cw.put("AccountingStorageEnforce", s)
	}
	c.writeMemory(cw)
	cw.put("KillWait", itoa(int64(c.KillWait)))
	cw.put("OverTimeLimit", overTimeText(c.OverTimeLimit))
	cw.put("CompleteWait", itoa(int64(c.CompleteWait)))
	cw.put("MessageTimeout", itoa(int64(c.MessageTimeout)))
}

// writeExtra writes the keys fairsim does not simulate, sorted, so the
// resolved file still says everything the input said.
func (c *Config) writeExtra(cw *confWriter) {
	if len(c.Extra) == 0 {
		return
	}
	cw.b.WriteString("\n# Not simulated, kept for reference\n")
	keys := make([]string, 0, len(c.Extra))
	for k := range c.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		cw.put(k, c.Extra[k])
	}
}

// writeNodes writes the node lines, then the node sets, which follow the
// nodes they may name by feature; order does not matter to Parse, which
// resolves sets after all nodes.
func (c *Config) writeNodes(cw *confWriter) {
	if len(c.NodeSets)+len(c.Nodes) > 0 {
		cw.b.WriteString("\n# Nodes\n")
	}
	for _, g := range c.Nodes {
		pairs := []string{"NodeName", g.Names,
			"CPUs", itoa(int64(g.CPUs)), "Sockets", itoa(int64(g.Sockets)),
			"CoresPerSocket", itoa(int64(g.CoresPerSocket)), "ThreadsPerCore", itoa(int64(g.ThreadsPerCore)),
			"RealMemory", fmt.Sprint(g.RealMemory), "Weight", itoa(int64(g.Weight)), "State", g.State}
		if len(g.Features) > 0 {
			pairs = append(pairs, "Features", strings.Join(g.Features, ","))
		}
		if g.Gres != "" {
			pairs = append(pairs, "Gres", g.Gres)
		}
		if g.Reason != "" {
			pairs = append(pairs, "Reason", g.Reason)
		}
		cw.line(pairs...)
	}
	for _, d := range c.DownNodes {
		cw.line("DownNodes", d.Names, "State", d.State, "Reason", d.Reason)
	}
	for _, s := range c.NodeSets {
		pairs := []string{"NodeSet", s.Name}
		if s.Nodes != "" {
			pairs = append(pairs, "Nodes", s.Nodes)
		}
		if s.Feature != "" {
			pairs = append(pairs, "Feature", s.Feature)
		}
		cw.line(pairs...)
	}
}

// writePartitions writes one line per partition with every attribute the
// simulation uses, leaving out the unset optional ones.
func (c *Config) writePartitions(cw *confWriter) {
	if len(c.Partitions) > 0 {
		cw.b.WriteString("\n# Partitions\n")
	}
	for _, p := range c.Partitions {
		pairs := []string{"PartitionName", p.Name}
		if p.Nodes != "" {
			pairs = append(pairs, "Nodes", p.Nodes)
		}
		pairs = append(pairs, "Default", yesNo(p.Default),
			"PriorityTier", itoa(int64(p.PriorityTier)), "PriorityJobFactor", itoa(int64(p.PriorityJobFactor)),
			"MaxTime", minutesString(p.MaxTime))
		if p.DefaultTime != Unset {
			pairs = append(pairs, "DefaultTime", minutesString(p.DefaultTime))
		}
		pairs = append(pairs, "OverSubscribe", p.OverSubscribe.String())
		if p.PreemptMode.IsSet() {
			pairs = append(pairs, "PreemptMode", formatPreemptMode(p.PreemptMode))
		}
		if p.TRESBillingWeights != "" {
			pairs = append(pairs, "TRESBillingWeights", p.TRESBillingWeights)
		}
		if p.QOS != "" {
			pairs = append(pairs, "QOS", p.QOS)
		}
		pairs = append(pairs, "State", p.State)
		pairs = append(pairs, c.partitionMemory(&p)...)
		pairs = append(pairs, partitionAccess(&p)...)
		cw.line(pairs...)
	}
}

// String returns the Write rendering, or an error note in its place.
func (c *Config) String() string {
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		return "# " + err.Error() + "\n"
	}
	return b.String()
}

// minutesString writes a minute count in the form a human expects:
// "0", "UNLIMITED", or D-HH:MM:SS.
func minutesString(mins int64) string {
	if mins == 0 {
		return "0"
	}
	return slurmtime.FormatMinutes(mins)
}

func yesNo(v bool) string {
	if v {
		return "YES"
	}
	return "NO"
}

// writeMemory writes the cluster-wide memory settings that are set.
func (c *Config) writeMemory(cw *confWriter) {
	for _, kv := range []struct {
		key string
		v   uint64
	}{
		{"DefMemPerCPU", c.DefMemPerCPU}, {"DefMemPerNode", c.DefMemPerNode},
		{"MaxMemPerCPU", c.MaxMemPerCPU}, {"MaxMemPerNode", c.MaxMemPerNode},
		{"DefCPUPerGPU", c.DefCPUPerGPU}, {"DefMemPerGPU", c.DefMemPerGPU},
	} {
		if kv.v != 0 {
			cw.put(kv.key, fmt.Sprint(kv.v))
		}
	}
}

// partitionMemory writes a partition's resolved memory settings where
// they differ from the cluster's, so Parse resolves them back the same:
// a partition without a limit under a cluster limit says UNLIMITED.
func (c *Config) partitionMemory(p *Partition) []string {
	var pairs []string
	if p.DefMemPerCPU != c.DefMemPerCPU || p.DefMemPerNode != c.DefMemPerNode {
		switch {
		case p.DefMemPerNode != 0:
			pairs = append(pairs, "DefMemPerNode", fmt.Sprint(p.DefMemPerNode))
		default: // both zero cannot differ from a cluster default: Parse inherits it
			pairs = append(pairs, "DefMemPerCPU", fmt.Sprint(p.DefMemPerCPU))
		}
	}
	if p.MaxMemPerCPU != c.MaxMemPerCPU || p.MaxMemPerNode != c.MaxMemPerNode {
		switch {
		case p.MaxMemPerNode != 0:
			pairs = append(pairs, "MaxMemPerNode", fmt.Sprint(p.MaxMemPerNode))
		case p.MaxMemPerCPU != 0:
			pairs = append(pairs, "MaxMemPerCPU", fmt.Sprint(p.MaxMemPerCPU))
		default:
			pairs = append(pairs, "MaxMemPerNode", "UNLIMITED")
		}
	}
	if p.DefCPUPerGPU != c.DefCPUPerGPU {
		pairs = append(pairs, "DefCPUPerGPU", fmt.Sprint(p.DefCPUPerGPU))
	}
	if p.DefMemPerGPU != c.DefMemPerGPU {
		pairs = append(pairs, "DefMemPerGPU", fmt.Sprint(p.DefMemPerGPU))
	}
	if p.OverTimeLimit != c.OverTimeLimit {
		pairs = append(pairs, "OverTimeLimit", overTimeText(p.OverTimeLimit))
	}
	return pairs
}

// overTimeText writes an OverTimeLimit: minutes, or UNLIMITED.
func overTimeText(m uint16) string {
	if m == Infinite16 {
		return "UNLIMITED"
	}
	return fmt.Sprint(m)
}

// partitionAccess writes the access lists and the kept attributes that
// differ from Slurm's defaults.
func partitionAccess(p *Partition) []string {
	var pairs []string
	for _, l := range []struct {
		key   string
		items []string
	}{
		{"AllowAccounts", p.AllowAccounts}, {"DenyAccounts", p.DenyAccounts},
		{"AllowQos", p.AllowQOS}, {"DenyQos", p.DenyQOS}, {"AllowGroups", p.AllowGroups},
	} {
		if l.items != nil {
			pairs = append(pairs, l.key, strings.Join(l.items, ","))
		}
	}
	for _, b := range []struct {
		key string
		on  bool
	}{{"Hidden", p.Hidden}, {"RootOnly", p.RootOnly}, {"ReqResv", p.ReqResv}, {"ExclusiveUser", p.ExclusiveUser}} {
		if b.on {
			pairs = append(pairs, b.key, "YES")
		}
	}
	if p.MinNodes != 0 {
		pairs = append(pairs, "MinNodes", fmt.Sprint(p.MinNodes))
	}
	if p.MaxNodes != Infinite32 {
		pairs = append(pairs, "MaxNodes", fmt.Sprint(p.MaxNodes))
	}
	if p.MaxCPUsPerNode != Infinite32 {
		pairs = append(pairs, "MaxCPUsPerNode", fmt.Sprint(p.MaxCPUsPerNode))
	}
	return pairs
}
