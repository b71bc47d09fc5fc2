package slurmconf

import (
	"fmt"
	"strings"
)

// memPerCPUBit is Slurm's MEM_PER_CPU flag, kept in the top bit of the
// same 64-bit field as the size; a size that reaches it cannot be stored.
const memPerCPUBit = uint64(1) << 63

// memPair is one of the Def or Max memory settings: at most one of cpu
// and node is non-zero.
type memPair struct{ cpu, node uint64 }

// parseMem reads a memory size in MB as s_p_handle_uint64 does (base 0,
// k suffix). unlimited reports UNLIMITED or INFINITE.
func parseMem(v string) (mb uint64, unlimited bool, err error) {
	if strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") {
		return 0, true, nil
	}
	n, err := parseUint(v, 64, true)
	if err != nil {
		return 0, false, err
	}
	if n >= memPerCPUBit {
		return 0, false, fmt.Errorf("%q is too large (Slurm keeps memory sizes below 2^63 MB)", v)
	}
	return n, false, nil
}

// interpretMemory reads the cluster-wide memory keys as read_config.c
// _validate_and_set_defaults does: DefMemPerNode is looked up first and,
// when given, DefMemPerCPU is ignored with an error in the log (likewise
// MaxMemPerNode over MaxMemPerCPU).
func (p *parser) interpretMemory() {
	c := p.cfg
	def := p.topMemPair("DefMemPerNode", "DefMemPerCPU", false)
	c.DefMemPerCPU, c.DefMemPerNode = def.cpu, def.node
	maxm := p.topMemPair("MaxMemPerNode", "MaxMemPerCPU", true)
	c.MaxMemPerCPU, c.MaxMemPerNode = maxm.cpu, maxm.node
	for _, k := range []struct {
		name string
		dst  *uint64
	}{{"DefCPUPerGPU", &c.DefCPUPerGPU}, {"DefMemPerGPU", &c.DefMemPerGPU}} {
		if e, ok := p.topEntry(k.name); ok {
			if v, err := parseUint(e.value, 64, true); err != nil {
				p.errorf(e.pos, k.name, "%v", err)
			} else {
				*k.dst = v
			}
		}
	}
}

// topMemPair reads a per-node/per-CPU pair of top-level keys. A limit
// (isMax) may be UNLIMITED, which is what 0 already means; a default may
// not, since a default of unlimited memory would keep every job pending.
func (p *parser) topMemPair(nodeKey, cpuKey string, isMax bool) memPair {
	read := func(key string) (uint64, bool) {
		e, ok := p.topEntry(key)
		if !ok {
			return 0, false
		}
		v, unl, err := parseMem(e.value)
		switch {
		case err != nil:
			p.errorf(e.pos, key, "%v", err)
		case unl && !isMax:
			p.errorf(e.pos, key, "%q: a default memory size must be a number of MB", e.value)
		}
		return v, true
	}
	if v, ok := read(nodeKey); ok {
		if e, both := p.topEntry(cpuKey); both {
			p.warnf(e.pos, cpuKey, "ignored: %s is also set (at %s) and the two are mutually exclusive; Slurm logs the same", nodeKey, p.cfg.Source.Keys[nodeKey])
			delete(p.cfg.Source.Keys, cpuKey)
		}
		return memPair{node: v}
	}
	if v, ok := read(cpuKey); ok {
		return memPair{cpu: v}
	}
	return memPair{}
}

// partMemory resolves a partition's memory settings against the
// cluster's, as slurmctld does when a job is submitted (job_mgr.c
// _get_def_mem and _valid_pn_min_mem): the partition's value counts only
// when non-zero, except that MaxMemPerCPU=0 or UNLIMITED on a partition
// lifts the cluster's limit (0 with the per-CPU flag is non-zero there).
func (p *parser) partMemory(l *attrLine, key string, part *Partition) {
	c := p.cfg
	type side struct {
		nodeKey, cpuKey string
		cluster         memPair
		isMax           bool
		cpu, node       *uint64
	}
	for _, s := range []side{
		{"DefMemPerNode", "DefMemPerCPU", memPair{c.DefMemPerCPU, c.DefMemPerNode}, false, &part.DefMemPerCPU, &part.DefMemPerNode},
		{"MaxMemPerNode", "MaxMemPerCPU", memPair{c.MaxMemPerCPU, c.MaxMemPerNode}, true, &part.MaxMemPerCPU, &part.MaxMemPerNode},
	} {
		inherit := func() {
			*s.cpu, *s.node = s.cluster.cpu, s.cluster.node
			if s.cluster.cpu != 0 {
				c.Source.Keys[key+"."+s.cpuKey] = c.Source.Keys[s.cpuKey]
			}
			if s.cluster.node != 0 {
				c.Source.Keys[key+"."+s.nodeKey] = c.Source.Keys[s.nodeKey]
			}
		}
		e, byNode := l.get(strings.ToLower(s.nodeKey))
		if !byNode {
			e, _ = l.get(strings.ToLower(s.cpuKey))
		} else if other, both := l.get(strings.ToLower(s.cpuKey)); both {
			p.warnf(other.pos, key, "%s ignored: %s is also set and the two are mutually exclusive; Slurm logs the same", s.cpuKey, s.nodeKey)
		}
		if e.key == "" {
			inherit()
			continue
		}
		v, unl, err := parseMem(e.value)
		switch {
		case err != nil:
			p.errorf(e.pos, key, "%s: %v", e.key, err)
			continue
		case unl && !s.isMax:
			p.errorf(e.pos, key, "%s: %q: a default memory size must be a number of MB", e.key, e.value)
			continue
		}
		c.Source.Keys[key+"."+e.key] = e.pos
		switch {
		case unl || (s.isMax && !byNode && v == 0):
			*s.cpu, *s.node = 0, 0 // no limit, whatever the cluster's
		case v == 0:
			delete(c.Source.Keys, key+"."+e.key)
			inherit()
		case byNode:
			*s.node = v
		default:
			*s.cpu = v
		}
	}
	for _, k := range []struct {
		name    string
		cluster uint64
		dst     *uint64
	}{{"DefCPUPerGPU", c.DefCPUPerGPU, &part.DefCPUPerGPU}, {"DefMemPerGPU", c.DefMemPerGPU, &part.DefMemPerGPU}} {
		e, ok := l.get(strings.ToLower(k.name))
		if !ok {
			*k.dst = k.cluster
			if k.cluster != 0 {
				c.Source.Keys[key+"."+k.name] = c.Source.Keys[k.name]
			}
			continue
		}
		c.Source.Keys[key+"."+k.name] = e.pos
		if v, err := parseUint(e.value, 64, true); err != nil {
			p.errorf(e.pos, key, "%s: %v", e.key, err)
		} else {
			*k.dst = v
		}
	}
}

// accessList reads an Allow*/Deny* list as read_config.c
// _parse_partitionname keeps it: ALL means no list; account and QOS names
// are lower-cased (lower), group names are not.
func accessList(v string, lower bool) []string {
	if strings.EqualFold(strings.TrimSpace(v), "ALL") {
		return nil
	}
	if lower {
		v = strings.ToLower(v)
	}
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// partAccess reads the Allow/Deny lists and the attributes kept but not
// simulated (Hidden, RootOnly, ReqResv, ExclusiveUser, node counts).
func (p *parser) partAccess(l *attrLine, key string, part *Partition) {
	get := func(attr string) (entry, bool) {
		e, ok := l.get(strings.ToLower(attr))
		if ok {
			p.cfg.Source.Keys[key+"."+attr] = e.pos
		}
		return e, ok
	}
	list := func(attr string, lower bool) ([]string, entry) {
		e, ok := get(attr)
		if !ok {
			return nil, e
		}
		out := accessList(e.value, lower)
		if out == nil && !strings.EqualFold(strings.TrimSpace(e.value), "ALL") {
			p.warnf(e.pos, key, "%s is empty; read as no restriction (ALL)", e.key)
		}
		return out, e
	}
	part.AllowAccounts, _ = list("AllowAccounts", true)
	part.AllowQOS, _ = list("AllowQos", true)
	part.AllowGroups, _ = list("AllowGroups", false)
	var deny entry
	part.DenyAccounts, deny = list("DenyAccounts", true)
	if part.AllowAccounts != nil && deny.key != "" {
		p.warnf(deny.pos, key, "both AllowAccounts and DenyAccounts are given: Slurm ignores DenyAccounts (and logs an error), and so does fairsim")
		part.DenyAccounts = nil
	}
	part.DenyQOS, deny = list("DenyQos", true)
	if part.AllowQOS != nil && deny.key != "" {
		p.warnf(deny.pos, key, "both AllowQos and DenyQos are given: Slurm ignores DenyQos (and logs an error), and so does fairsim")
		part.DenyQOS = nil
	}
	boolean := func(attr string, dst *bool) {
		if e, ok := get(attr); ok {
			v, err := parseBool(e.value)
			if err != nil {
				p.errorf(e.pos, key, "%s: %v", e.key, err)
			}
			*dst = v
		}
	}
	boolean("Hidden", &part.Hidden)
	boolean("RootOnly", &part.RootOnly)
	boolean("ReqResv", &part.ReqResv)
	// ExclusiveUser counts only on the partition's own line: Slurm reads
	// it without the PartitionName=DEFAULT fallback.
	if e, ok := l.own["exclusiveuser"]; ok {
		p.cfg.Source.Keys[key+".ExclusiveUser"] = e.pos
		v, err := parseBool(e.value)
		if err != nil {
			p.errorf(e.pos, key, "%s: %v", e.key, err)
		}
		part.ExclusiveUser = v
	}
	u32 := func(attr string, dst *uint32) {
		if e, ok := get(attr); ok {
			if v, err := parseUint(e.value, 32, true); err != nil {
				p.errorf(e.pos, key, "%s: %v", e.key, err)
			} else {
				*dst = uint32(v)
			}
		}
	}
	u32("MinNodes", &part.MinNodes)
	u32("MaxNodes", &part.MaxNodes)
	if e, ok := get("MaxNodes"); ok && part.MaxNodes == 0 {
		// get_node_cnts would cap every job at 0 nodes, below its
		// minimum: the partition could run nothing.
		p.errorf(e.pos, key, "%s=0: no job could run in partition %s; give UNLIMITED or a count", e.key, part.Name)
	}
	u32("MaxCPUsPerNode", &part.MaxCPUsPerNode)
	if e, ok := get("MaxCPUsPerNode"); ok && part.MaxCPUsPerNode == 0 {
		// _allocate_sc would leave every job no CPU on any node.
		p.errorf(e.pos, key, "%s=0: no job could run in partition %s; give UNLIMITED or a count", e.key, part.Name)
	}
	p.partOverTime(get, key, part)
}

// partOverTime reads a partition's OverTimeLimit as read_config.c does:
// UNLIMITED or INFINITE, else strtol's leading number, a negative one
// ignored (with an error in Slurm's log), one above 0xfffe unlimited;
// absent, the cluster's.
func (p *parser) partOverTime(get func(string) (entry, bool), key string, part *Partition) {
	part.OverTimeLimit = p.cfg.OverTimeLimit
	e, ok := get("OverTimeLimit")
	if !ok {
		return
	}
	v := strings.TrimSpace(e.value)
	if strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") {
		part.OverTimeLimit = Infinite16
		return
	}
	n, rest := atoll(v)
	switch {
	case rest == v:
		p.warnf(e.pos, key, "%s=%s is not a number: Slurm reads it as 0", e.key, e.value)
	case rest != "":
		p.warnf(e.pos, key, "%s=%s: Slurm reads only the leading number %d and ignores %q", e.key, e.value, n, rest)
	}
	switch {
	case n < 0:
		p.warnf(e.pos, key, "%s=%s is negative: Slurm ignores it (and logs an error), so the cluster's %d applies", e.key, e.value, p.cfg.OverTimeLimit)
	case n > 0xfffe:
		part.OverTimeLimit = Infinite16
	default:
		part.OverTimeLimit = uint16(n)
	}
}
