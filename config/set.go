package config

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"fairsim/policy"
	"fairsim/sim"
	"fairsim/slurmconf"
)

// Set changes one setting by the name a Slurm admin or the scenario file
// uses, for sweeps and command-line overrides:
//   - a SchedulerParameters option slurmconf models (bf_window=2880,
//     sched_interval=30) is merged into SchedulerParameters;
//   - partition.NAME.Attr (partition.serial_requeue.PriorityTier=2) and
//     qos.NAME.Attr (qos.normal.Priority=1000) are recorded and applied to
//     the built cluster and QOS table, where unknown names and attributes
//     are errors;
//   - a dotted scenario key (generate.jobs=2000, fairshare.algorithm=classic,
//     scheduler=easy) sets that key of the scenario YAML;
//   - anything else is a slurm.conf key (PriorityWeightAge=1000,
//     PriorityDecayHalfLife=14-0), checked when the scenario is built.
func (sc *Scenario) Set(key, value string) error {
	lower := strings.ToLower(key)
	switch {
	case slices.Contains(slurmconf.SchedulerParameterNames(), lower):
		return sc.setSchedParam(lower, value)
	case strings.HasPrefix(lower, "partition."), strings.HasPrefix(lower, "qos."):
		parts := strings.SplitN(key, ".", 3)
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
			return fmt.Errorf("--set %s: want %s.NAME.Attribute", key, parts[0])
		}
		m := &sc.PartitionSet
		if strings.HasPrefix(lower, "qos.") {
			m = &sc.QOSSet
		}
		if *m == nil {
			*m = map[string]map[string]string{}
		}
		if (*m)[parts[1]] == nil {
			(*m)[parts[1]] = map[string]string{}
		}
		(*m)[parts[1]][parts[2]] = value
		return nil
	case strings.Contains(key, ".") || isScenarioKey(key):
		return sc.setYAML(key, value)
	}
	if key == "" || strings.ContainsAny(key, "= \t#") {
		return fmt.Errorf("--set %q: not a setting name", key)
	}
	if sc.Slurm == nil {
		sc.Slurm = map[string]string{}
	}
	for k := range sc.Slurm { // keys are case-insensitive: replace, don't add
		if strings.EqualFold(k, key) {
			delete(sc.Slurm, k)
		}
	}
	sc.Slurm[key] = value
	return nil
}

func isScenarioKey(key string) bool {
	switch key {
	case "name", "description", "scheduler", "slurm_conf", "assoc", "qos", "default_qos":
		return true
	}
	return false
}

// setSchedParam merges one option into the SchedulerParameters in force
// (the scenario's inline value, else the slurm.conf file's), replacing an
// earlier value of the same option.
func (sc *Scenario) setSchedParam(key, value string) error {
	cur := ""
	for k, v := range sc.Slurm {
		if strings.EqualFold(k, "SchedulerParameters") {
			cur = v
			delete(sc.Slurm, k)
		}
	}
	if cur == "" && sc.SlurmConf != "" {
		conf, err := sc.slurmConfig()
		if err != nil {
			return err
		}
		for _, line := range strings.Split(conf.String(), "\n") {
			if v, ok := strings.CutPrefix(line, "SchedulerParameters="); ok {
				cur = v
			}
		}
	}
	var opts []string
	for _, o := range strings.Split(cur, ",") {
		name, _, _ := strings.Cut(o, "=")
		if o != "" && !strings.EqualFold(name, key) {
			opts = append(opts, o)
		}
	}
	opts = append(opts, key+"="+value)
	if sc.Slurm == nil {
		sc.Slurm = map[string]string{}
	}
	sc.Slurm["SchedulerParameters"] = strings.Join(opts, ",")
	return nil
}

// setYAML sets a dotted key of the scenario by editing its YAML form, so
// every scenario key is reachable without a hand-written table.
func (sc *Scenario) setYAML(key, value string) error {
	data, err := yaml.Marshal(sc)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	node := doc.Content[0]
	path := strings.Split(key, ".")
	for i, p := range path {
		if node.Kind != yaml.MappingNode {
			return fmt.Errorf("--set %s: %s is not a section", key, strings.Join(path[:i], "."))
		}
		var next *yaml.Node
		for k := 0; k+1 < len(node.Content); k += 2 {
			if node.Content[k].Value == p {
				next = node.Content[k+1]
			}
		}
		if next == nil {
			next = &yaml.Node{Kind: yaml.ScalarNode}
			if i < len(path)-1 {
				next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			}
			node.Content = append(node.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: p}, next)
		}
		node = next
	}
	var val yaml.Node
	if err := yaml.Unmarshal([]byte(value), &val); err != nil || len(val.Content) == 0 {
		*node = yaml.Node{Kind: yaml.ScalarNode, Value: value}
	} else {
		*node = *val.Content[0]
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return err
	}
	fresh, err := Parse(out, sc.file)
	if err != nil {
		return fmt.Errorf("--set %s=%s: %w", key, value, err)
	}
	fresh.dir = sc.dir
	// The keys are the file's, at the lines it gave them, and the one set
	// here (no line): the re-marshalled text writes every field, zeros
	// too, which must not read as written.
	lines := keyLines{}
	if val.Kind != 0 && len(val.Content) > 0 && !(val.Content[0].Kind == yaml.ScalarNode && val.Content[0].Tag == "!!null") {
		lines[key] = 0 // an empty or null value leaves the key out, as in a file
	} else if val.Kind == 0 && value != "" {
		lines[key] = 0
	}
	for k, l := range sc.lines {
		if _, ok := fresh.lines[k]; ok {
			lines[k] = l
		}
	}
	fresh.lines = lines
	*sc = *fresh
	return nil
}

// MarshalCompact renders the scenario as it was given (for sweep points).
func (sc *Scenario) MarshalCompact() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	err := enc.Encode(sc)
	return b.Bytes(), err
}

// applyPartitionSet applies partition.NAME.Attr overrides to the cluster.
func (sc *Scenario) applyPartitionSet(c *sim.Cluster) error {
	names := sortedKeys(sc.PartitionSet)
	for _, name := range names {
		pi, ok := c.Partition(name)
		if !ok {
			return fmt.Errorf("%s: partition.%s: no such partition", sc.file, name)
		}
		p := &c.Parts[pi]
		for _, attr := range sortedKeys(sc.PartitionSet[name]) {
			v := sc.PartitionSet[name][attr]
			bad := func(err error) error {
				return fmt.Errorf("%s: partition.%s.%s=%s: %w", sc.file, name, attr, v, err)
			}
			switch strings.ToLower(attr) {
			case "prioritytier", "priorityjobfactor":
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 65533 {
					return bad(fmt.Errorf("want a whole number 0..65533"))
				}
				if strings.EqualFold(attr, "PriorityTier") {
					p.PriorityTier = n
				} else {
					p.PriorityJobFactor = n
				}
			case "maxtime", "defaulttime":
				t, err := limit(v)
				if err != nil {
					return bad(err)
				}
				if strings.EqualFold(attr, "MaxTime") {
					p.MaxTime = t
				} else {
					p.DefaultTime = t
				}
			case "maxnodes":
				if strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") {
					p.MaxNodes = 0
					break
				}
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 1<<24 {
					return bad(fmt.Errorf("want a count of nodes from 1, or UNLIMITED"))
				}
				p.MaxNodes = n
			case "minnodes":
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 1<<24 {
					return bad(fmt.Errorf("want a count of nodes (0 and 1 set no floor)"))
				}
				p.MinNodes = n
			case "maxcpuspernode":
				n := 0
				if !strings.EqualFold(v, "UNLIMITED") && !strings.EqualFold(v, "INFINITE") {
					k, err := strconv.Atoi(v)
					if err != nil || k < 1 || k > 1<<24 {
						return bad(fmt.Errorf("want a count of CPUs from 1, or UNLIMITED"))
					}
					n = k
				}
				if err := c.SetMaxCPUsPerNode(pi, n); err != nil {
					return bad(err)
				}
			case "preemptmode":
				m, err := slurmconf.ParsePreemptMode(v)
				if err != nil {
					return bad(err)
				}
				p.PreemptMode = m
			case "tresbillingweights":
				p.BillingWeights = v
			default:
				return bad(fmt.Errorf("not a partition attribute fairsim can set (PriorityTier, PriorityJobFactor, MaxTime, MaxNodes, MinNodes, MaxCPUsPerNode, DefaultTime, PreemptMode, TRESBillingWeights)"))
			}
		}
	}
	return nil
}

// applyQOSSet applies qos.NAME.Attr overrides by editing the QOS table in
// its sacctmgr form and reading it again, so that every attribute the QOS
// reader knows is settable and checked the same way.
func (sc *Scenario) applyQOSSet(qs *policy.QOSSet) (*policy.QOSSet, error) {
	if len(sc.QOSSet) == 0 {
		return qs, nil
	}
	if qs == nil {
		return nil, fmt.Errorf("%s: qos.*: the scenario has no QOS file", sc.file)
	}
	lines := strings.Split(strings.TrimRight(policy.FormatQOSFile(qs), "\n"), "\n")
	header := strings.Split(lines[0], "|")
	col := func(attr string) int {
		for i, h := range header {
			if strings.EqualFold(h, attr) {
				return i
			}
		}
		return -1
	}
	for _, name := range sortedKeys(sc.QOSSet) {
		row := -1
		for i, l := range lines[1:] {
			if strings.EqualFold(strings.Split(l, "|")[0], name) {
				row = i + 1
			}
		}
		if row < 0 {
			return nil, fmt.Errorf("%s: qos.%s: no such QOS", sc.file, name)
		}
		cells := strings.Split(lines[row], "|")
		for _, attr := range sortedKeys(sc.QOSSet[name]) {
			k := col(attr)
			if k < 0 {
				return nil, fmt.Errorf("%s: qos.%s.%s: not a QOS column (%s)", sc.file, name, attr, strings.Join(header, ", "))
			}
			cells[k] = sc.QOSSet[name][attr]
		}
		lines[row] = strings.Join(cells, "|")
	}
	out, warns, err := policy.ParseQOSFile(strings.NewReader(strings.Join(lines, "\n")+"\n"), sc.file+" qos_set")
	_ = warns
	return out, err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// CheckSet reads the scenario's slurm.conf settings with the --set keys
// applied and fails on what slurmctld would only warn about for those
// keys: an unknown key, or a SchedulerParameters option Slurm ignores. A
// sweep over a misspelt key would otherwise run identical points.
func (sc *Scenario) CheckSet(keys []string) error {
	conf, err := sc.slurmConfig()
	if err != nil {
		return err
	}
	for _, w := range conf.Warnings {
		for _, k := range keys {
			switch {
			case strings.EqualFold(w.Key, k) && strings.HasPrefix(w.Msg, "unknown key"):
				return fmt.Errorf("--set %s: not a slurm.conf key, SchedulerParameters option, partition.NAME.Attr, qos.NAME.Attr or scenario key", k)
			case strings.EqualFold(w.Key, k):
				return fmt.Errorf("--set %s: %s", k, w.Msg)
			case strings.EqualFold(w.Key, "SchedulerParameters") && strings.HasPrefix(strings.ToLower(w.Msg), strings.ToLower(k)+"="):
				return fmt.Errorf("--set %s: %s", k, w.Msg)
			}
		}
	}
	return nil
}
