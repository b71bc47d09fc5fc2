package config

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// keyLines maps each key of a scenario file, as a dotted path
// ("generate.days", "cluster.nodes[0].RealMemory"), to its line, so that
// an error about a value can name the line it was written on, and a key
// written with a zero value can be told from one left out.
type keyLines map[string]int

// scanKeys records the line of every mapping key under n.
func scanKeys(n *yaml.Node, path string, into keyLines) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			scanKeys(c, path, into)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				continue // "key:" with no value reads as left out
			}
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if _, dup := into[p]; !dup {
				into[p] = k.Line
			}
			scanKeys(n.Content[i+1], p, into)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			into[p] = c.Line
			scanKeys(c, p, into)
		}
	}
}

// has reports whether the file wrote key (a dotted path).
func (sc *Scenario) has(key string) bool {
	_, ok := sc.lines[key]
	return ok
}

// where is "file:line" of key when the file wrote it, else the file
// (also for a key only --set wrote).
func (sc *Scenario) where(key string) string {
	if l := sc.lines[key]; l > 0 {
		return fmt.Sprintf("%s:%d", sc.file, l)
	}
	return sc.file
}

// whereIn is where for an error err about a value under section: the
// deepest key of the file its message starts by naming ("nodes[0]
// c[01-04]: RealMemory: ..." under cluster is cluster.nodes[0].RealMemory;
// "limit factor 0.5: ..." under generate is generate.limit_factor).
func (sc *Scenario) whereIn(section string, err error) string {
	best := section
	for _, seg := range strings.SplitN(err.Error(), ": ", 4) {
		words := strings.Fields(seg)
		found := ""
		for n := min(len(words), 3); n >= 1 && found == ""; n-- {
			name := strings.Join(words[:n], "_")
			for _, p := range []string{best + "." + name, best + "." + strings.ToLower(name)} {
				if sc.has(p) {
					found = p
					break
				}
			}
		}
		if found == "" {
			break
		}
		best = found
	}
	return sc.where(best)
}
