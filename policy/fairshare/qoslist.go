package fairshare

import (
	"fmt"
	"slices"
	"strings"
)

// parseQOSList checks an association's QOS option (sacctmgr's QOS=,
// QOS+= and QOS-= as a dump writes them): QOS names, or names each
// prefixed with + or - (changes to the parent's list); the two forms do
// not mix (sacctmgr refuses "normal,+high"). Names are lower-cased as
// sacctmgr stores them.
func parseQOSList(v string) (string, error) {
	var out []string
	deltas := 0
	for _, it := range strings.Split(v, ",") {
		it = strings.ToLower(strings.TrimSpace(it))
		name := strings.TrimLeft(it, "+-")
		if name == "" {
			return "", fmt.Errorf("%q: empty QOS name", clip(v))
		}
		if len(it)-len(name) > 1 {
			return "", fmt.Errorf("%q: one + or - before a QOS name", clip(it))
		}
		if strings.ContainsAny(name, " \t='\"+") {
			return "", fmt.Errorf("%q: not a QOS name", clip(it))
		}
		if it != name {
			deltas++
		}
		out = append(out, it)
	}
	if deltas != 0 && deltas != len(out) {
		return "", fmt.Errorf("%q: names and +/- changes do not mix", clip(v))
	}
	return strings.Join(out, ","), nil
}

// HasQOSLists reports whether any association lists QOS.
func (t *Tree) HasQOSLists() bool {
	for _, l := range t.limits {
		if l.QOS != "" {
			return true
		}
	}
	return false
}

// ValidQOS is the QOS association i may use, as slurmdbd resolves an
// association's QOS list (as_mysql_assoc.c: a list of its own, else its
// parent's, with its + and - changes applied), sorted; ok is false when
// no association up to the root has a list (nothing is allowed then:
// the association's valid_qos bitmap is empty, and job_mgr.c
// _determine_and_validate_qos refuses every QOS under
// AccountingStorageEnforce=qos).
func (t *Tree) ValidQOS(i int) (qos []string, ok bool) {
	if !t.valid(i) {
		return nil, false
	}
	var chain []int
	for k := i; k >= 0; k = t.Parent(k) {
		chain = append(chain, k)
		if l, has := t.limits[k]; has && l.QOS != "" && !strings.ContainsAny(l.QOS[:1], "+-") {
			break // a list of its own: nothing above it counts
		}
	}
	set := map[string]bool{}
	for idx := len(chain) - 1; idx >= 0; idx-- {
		l, has := t.limits[chain[idx]]
		if !has || l.QOS == "" {
			continue
		}
		ok = true
		for _, it := range strings.Split(l.QOS, ",") {
			switch it[0] {
			case '+':
				set[it[1:]] = true
			case '-':
				delete(set, it[1:])
			default:
				set[it] = true
			}
		}
	}
	for q := range set {
		qos = append(qos, q)
	}
	slices.Sort(qos)
	return qos, ok
}
