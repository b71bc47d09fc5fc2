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
	var b bytes.Buffer
	var errs []string
	put := func(key, value string) {
		q, ok := quoteValue(value)
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: value %q cannot be written in slurm.conf syntax", key, value))
			return
		}
		fmt.Fprintf(&b, "%s=%s\n", key, q)
	}
	putTime := func(key string, secs int64) {
		switch {
		case secs == UnlimitedPrioritySeconds:
			put(key, "UNLIMITED")
		case secs < 0 || secs%60 != 0:
			errs = append(errs, fmt.Sprintf("%s: %d seconds is not a whole number of minutes", key, secs))
		default:
			put(key, minutesString(secs/60))
		}
	}

	b.WriteString("# slurm.conf as resolved by fairsim: every simulated setting, defaults included.\n")
	if c.ClusterName != "" {
		put("ClusterName", c.ClusterName)
	}
	b.WriteString("\n# Job priority\n")
	put("PriorityType", c.PriorityType)
	if c.PriorityFlags != "" {
		put("PriorityFlags", c.PriorityFlags)
	}
	put("PriorityWeightAge", itoa(int64(c.PriorityWeightAge)))
	put("PriorityWeightAssoc", itoa(int64(c.PriorityWeightAssoc)))
	put("PriorityWeightFairshare", itoa(int64(c.PriorityWeightFairshare)))
	put("PriorityWeightJobSize", itoa(int64(c.PriorityWeightJobSize)))
	put("PriorityWeightPartition", itoa(int64(c.PriorityWeightPartition)))
	put("PriorityWeightQOS", itoa(int64(c.PriorityWeightQOS)))
	if c.PriorityWeightTRES != "" {
		put("PriorityWeightTRES", c.PriorityWeightTRES)
	}
	putTime("PriorityMaxAge", c.PriorityMaxAge)
	putTime("PriorityDecayHalfLife", c.PriorityDecayHalfLife)
	putTime("PriorityCalcPeriod", c.PriorityCalcPeriod)
	put("PriorityUsageResetPeriod", string(c.PriorityUsageResetPeriod))
	put("PriorityFavorSmall", yesNo(c.PriorityFavorSmall))
	put("FairShareDampeningFactor", itoa(int64(c.FairShareDampeningFactor)))

	b.WriteString("\n# Scheduling\n")
	put("SchedulerType", c.SchedulerType)
	put("SchedulerParameters", c.SchedulerParameters.String(c.MessageTimeout))
	put("SelectType", c.SelectType)
	if c.SelectTypeParameters != "" {
		put("SelectTypeParameters", c.SelectTypeParameters)
	}
	put("PreemptType", c.PreemptType)
	put("PreemptMode", formatPreemptMode(c.PreemptMode))
	if s := c.AccountingStorageEnforce.String(); s != "" {
		put("AccountingStorageEnforce", s)
	}
	put("KillWait", itoa(int64(c.KillWait)))
	put("OverTimeLimit", itoa(int64(c.OverTimeLimit)))
	put("CompleteWait", itoa(int64(c.CompleteWait)))
	put("MessageTimeout", itoa(int64(c.MessageTimeout)))

	if len(c.Extra) > 0 {
		b.WriteString("\n# Not simulated, kept for reference\n")
		keys := make([]string, 0, len(c.Extra))
		for k := range c.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			put(k, c.Extra[k])
		}
	}

	if len(c.NodeSets)+len(c.Nodes) > 0 {
		b.WriteString("\n# Nodes\n")
	}
	line := func(pairs ...string) {
		for i := 0; i+1 < len(pairs); i += 2 {
			q, ok := quoteValue(pairs[i+1])
			if !ok {
				errs = append(errs, fmt.Sprintf("%s=%s %s: value %q cannot be written in slurm.conf syntax", pairs[0], pairs[1], pairs[i], pairs[i+1]))
				return
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s=%s", pairs[i], q)
		}
		b.WriteByte('\n')
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
		line(pairs...)
	}
	// Node sets follow the nodes they may name by feature; order does not
	// matter to Parse, which resolves them after all nodes.
	for _, s := range c.NodeSets {
		pairs := []string{"NodeSet", s.Name}
		if s.Nodes != "" {
			pairs = append(pairs, "Nodes", s.Nodes)
		}
		if s.Feature != "" {
			pairs = append(pairs, "Feature", s.Feature)
		}
		line(pairs...)
	}

	if len(c.Partitions) > 0 {
		b.WriteString("\n# Partitions\n")
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
		line(pairs...)
	}

	if len(errs) > 0 {
		return fmt.Errorf("slurmconf: cannot write configuration: %s", strings.Join(errs, "; "))
	}
	_, err := w.Write(b.Bytes())
	return err
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
