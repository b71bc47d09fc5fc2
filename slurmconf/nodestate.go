package slurmconf

import (
	"fairsim/slurmtext"
	"strings"
)

// NormalizeNodeState reads a node State= value as node_conf.c
// state_str2int does: first the base state names exactly
// (case-insensitive), then CLOUD, EXTERNAL, DRAIN and FAIL as prefixes, so
// "FAILING" is FAIL and "DRAINED" is DRAIN. It returns the name from
// NodeStates, or false when Slurm would call the state invalid (there is
// no "+" syntax: "DOWN+DRAIN" is invalid, "DRAIN+X" is DRAIN).
func NormalizeNodeState(v string) (string, bool) {
	for _, s := range NodeStates[:7] { // UNKNOWN … FUTURE: matched whole
		if strings.EqualFold(v, s) {
			return s, true
		}
	}
	u := strings.ToUpper(v)
	for _, s := range []string{"CLOUD", "EXTERNAL", "DRAIN", "FAIL"} {
		if strings.HasPrefix(u, s) {
			return s, true
		}
	}
	return "", false
}

// interpretDownNodes reads the DownNodes lines once the nodes are known,
// as slurmctld's read_config.c _handle_downnodes_line does after building
// the node table: an invalid state or an undefined node is logged there
// and skipped, so here it is a warning and the rest of the line applies.
func (p *parser) interpretDownNodes() {
	idx := p.hostIndex()
	for _, l := range p.downs {
		key := "DownNodes=" + l.name
		d := DownNodes{Names: l.name, State: "DOWN", Reason: "Set in slurm.conf"}
		if e, ok := l.own["state"]; ok {
			s, ok := NormalizeNodeState(e.value)
			if !ok {
				p.warnf(l.pos, key, "State: invalid node state %q; Slurm logs an error and ignores the line", e.value)
				continue
			}
			d.State = s
		}
		if e, ok := l.own["reason"]; ok {
			d.Reason = e.value
		}
		hosts, err := slurmtext.Expand(l.name)
		if err != nil {
			p.errorf(l.pos, key, "%v", err)
			continue
		}
		var missing []string
		for _, h := range hosts {
			if _, ok := idx[h]; ok {
				d.Hosts = append(d.Hosts, h)
			} else {
				missing = append(missing, h)
			}
		}
		if len(missing) > 0 {
			p.warnf(l.pos, key, "no NodeName line defines %s; Slurm logs an error and skips %s", strings.Join(missing, ","), plural(len(missing), "it", "them"))
		}
		if d.Hosts == nil {
			d.Hosts = []string{}
		}
		p.cfg.Source.Keys[key] = l.pos
		p.cfg.DownNodes = append(p.cfg.DownNodes, d)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
