package fairshare

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fairsim/slurmtext"
	"fairsim/slurmtime"
)

// maxDumpLine bounds one physical line of a dump file.
const maxDumpLine = 1 << 20

// dumpIgnored are the options sacctmgr writes (or accepts) that do not
// affect fair-share; they are checked for syntax only.
var dumpIgnored = map[string]bool{
	"adminlevel": true, "classification": true, "comment": true,
	"coordinator": true, "defaultaccount": true, "defaultqos": true,
	"defaultwckey": true, "description": true, "flags": true,
	"maxcpumins": true, "maxcpuminsperjob": true,
	"maxtresmins":       true,
	"maxtresminsperjob": true,
	"maxtresrunmins":    true, "maxwall": true, "maxwallduration": true,
	"maxwalldurationperjob": true, "minpriothresh": true, "minpriothreshold": true,
	"organization": true, "wckeys": true,
}

// dumpOpts is one parsed "Object - 'name':Key=Value:..." line.
type dumpOpts struct {
	name      string
	partition string
	shares    Shares
	prio      *uint32
	hasName   bool
	limits    Limits
}

type dumpReader struct {
	file    string
	errs    ErrorList
	tree    *Tree
	cluster bool
	parent  string
}

// ReadDump reads a `sacctmgr dump` file as Slurm writes it and returns the
// finalized association tree. It follows load_sacctmgr_cfg_file:
//
//	QOS - 'normal':Description='Normal QOS default'
//	Cluster - 'name':Fairshare=1:QOS='normal'
//	Parent - 'root'
//	User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
//	Account - 'physics':Description='physics':Organization='physics':Fairshare=100
//	Parent - 'physics'
//	User - 'alice':DefaultAccount='physics':Fairshare=parent:Priority=10
//
// Options come in any order, values may be single- or double-quoted (and
// then contain ':'), '#' starts a comment outside quotes, a trailing '\'
// continues a line, blank lines are skipped. Machine and Project are
// accepted for Cluster and Account; QOS lines (before Cluster) are
// skipped. Fairshare is a number or "parent"
// (also 2147483647, Slurm's stored value for it); the default is 1.
// Names, and every option value, are lowercased as sacctmgr stores them
// (_parse_options; user names keep their case only under slurmdbd's
// PreserveCaseUser, which fairsim does not model). Partition= on a User
// line makes a per-partition association (AddUserPartition), as sacctmgr
// dump writes one for each. Limits and other options are syntax-checked
// and ignored.
//
// Every problem is reported as "file:line: field: message"; the reader goes
// on after an error and returns all of them as an ErrorList.
func ReadDump(filename string, r io.Reader) (*Tree, error) {
	d := &dumpReader{file: filename, tree: NewTree()}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxDumpLine)
	var logical strings.Builder
	lineNo, start := 0, 0
	for sc.Scan() {
		lineNo++
		if logical.Len() == 0 {
			start = lineNo
		}
		text, cont := stripDumpLine(strings.TrimRight(sc.Text(), "\r"))
		logical.WriteString(text)
		if cont {
			continue
		}
		d.line(start, slurmtext.Unescape(logical.String()))
		logical.Reset()
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			d.errs.Add(filename, lineNo+1, "", fmt.Sprintf("line longer than %d bytes", maxDumpLine))
		} else {
			d.errs.Add(filename, lineNo, "", err.Error())
		}
	}
	if logical.Len() > 0 {
		d.line(start, slurmtext.Unescape(logical.String()))
	}
	if !d.cluster && len(d.errs) == 0 {
		d.errs.Add(filename, 0, "Cluster", "no \"Cluster - 'name'\" line")
	}
	if err := d.errs.Err(); err != nil {
		return nil, err
	}
	if err := d.tree.Finalize(); err != nil {
		return nil, err
	}
	return d.tree, nil
}

// stripDumpLine removes a comment ('#' outside quotes and not escaped) and
// reports a continuation: an odd number of trailing backslashes, of which
// the last is removed (_strip_continuation).
func stripDumpLine(s string) (string, bool) {
	var quote byte
	bs := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			bs++
			continue
		case bs%2 == 1:
			// escaped character: no special meaning
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#':
			s = s[:i]
		}
		bs = 0
	}
	t := strings.TrimRight(s, " \t")
	n := len(t) - len(strings.TrimRight(t, "\\"))
	if n%2 == 1 {
		return t[:len(t)-1], true
	}
	return s, false
}

func (d *dumpReader) errorf(line int, field, format string, args ...any) {
	d.errs.Add(d.file, line, field, fmt.Sprintf(format, args...))
}

func (d *dumpReader) line(n int, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	dash := strings.IndexByte(s, '-')
	if dash < 0 {
		d.errorf(n, "line", "misformatted line %q: want \"Object - 'name':options\"", clip(s))
		return
	}
	object := strings.TrimSpace(s[:dash])
	rest := strings.TrimLeft(s[dash+1:], " \t")
	if rest == "" {
		d.errorf(n, object, "nothing after object name")
		return
	}
	kind := strings.ToLower(object)
	switch kind {
	case "machine", "cluster":
		kind = "cluster"
	case "project", "account":
		kind = "account"
	case "parent", "user":
	case "qos":
		// QOS definitions (newer dumps) precede the Cluster line; they do
		// not shape the association tree.
		if d.cluster {
			d.errorf(n, "QOS", "QOS lines must come before the Cluster line")
		} else if _, err := splitQuoted(rest); err != nil {
			d.errorf(n, "QOS", "%v", err)
		}
		return
	default:
		d.errorf(n, "line", "unknown object %q: want QOS, Cluster, Parent, Account or User", clip(object))
		return
	}
	o, ok := d.options(n, rest)
	if !ok && !o.hasName {
		return
	}
	if o.partition != "" && kind != "user" {
		d.errorf(n, "Partition", "only a User line can name a partition")
		return
	}
	if kind != "cluster" && !d.cluster {
		d.errorf(n, object, "a \"Cluster - 'name'\" line must come first")
	}
	switch kind {
	case "cluster":
		if d.cluster {
			d.errorf(n, "Cluster", "only one cluster per file (already %q)", d.tree.Cluster())
			return
		}
		d.cluster = true
		d.tree.SetCluster(o.name)
	case "parent":
		if _, ok := d.tree.Lookup(o.name, ""); !ok {
			d.errorf(n, "Parent", "account %q must be added before it is used as a parent", o.name)
			return
		}
		d.parent = o.name
	case "account":
		if err := d.tree.AddAccount(o.name, d.parent, o.shares, o.prio); err != nil {
			d.errorf(n, "Account", "%v", err)
		} else if i, ok := d.tree.Lookup(o.name, ""); ok {
			d.tree.SetLimits(i, o.limits)
		}
	case "user":
		if err := d.tree.AddUserPartition(o.name, d.parent, o.partition, o.shares, o.prio); err != nil {
			d.errorf(n, "User", "%v", err)
		} else if i, ok := d.tree.LookupExact(d.parent, o.name, o.partition); ok {
			d.tree.SetLimits(i, o.limits)
		}
	}
	if kind == "cluster" {
		d.tree.SetLimits(0, o.limits) // the Cluster line's limits are root's
	}
}

// options is _parse_options: the name, then Key=Value pairs split on ':'
// outside quotes. ok is false when any option was bad; the name and good
// options are still returned so that later lines do not cascade errors.
func (d *dumpReader) options(n int, s string) (o dumpOpts, ok bool) {
	o.shares = Shares{Raw: 1}
	o.limits = NoLimits()
	ok = true
	toks, err := splitQuoted(s)
	if err != nil {
		d.errorf(n, "line", "%v", err)
		return o, false
	}
	for _, tok := range toks {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			continue
		}
		eq := strings.IndexByte(tok, '=')
		if eq < 0 || (len(tok) > 0 && (tok[0] == '\'' || tok[0] == '"') && !o.hasName) {
			if o.hasName {
				d.errorf(n, clip(tok), "option must be Key=Value")
				ok = false
				continue
			}
			name := strings.ToLower(unquote(tok))
			if name == "" {
				d.errorf(n, "name", "empty name")
				return o, false
			}
			o.name, o.hasName = name, true
			continue
		}
		key := strings.TrimSpace(tok[:eq])
		val := unquote(strings.TrimSpace(tok[eq+1:]))
		if !o.hasName {
			d.errorf(n, key, "the name must come before the options")
			ok = false
		}
		if val == "" {
			continue // sacctmgr: "blank field given ... discarding"
		}
		switch lk := strings.ToLower(key); {
		case lk == "fairshare" || lk == "shares":
			sh, err := parseShares(val)
			if err != nil {
				d.errorf(n, key, "%v", err)
				ok = false
				continue
			}
			o.shares = sh
		case lk == "priority":
			p, set, err := parsePriority(val)
			if err != nil {
				d.errorf(n, key, "%v", err)
				ok = false
				continue
			}
			if set {
				o.prio = &p
			} else {
				o.prio = nil
			}
		case lk == "qos":
			q, err := parseQOSList(val)
			if err != nil {
				d.errorf(n, key, "%v", err)
				ok = false
				continue
			}
			o.limits.QOS = q
		case lk == "partition":
			if strings.ContainsAny(val, ", \t") {
				d.errorf(n, key, "%q: one partition name per User line", clip(val))
				ok = false
				continue
			}
			o.partition = strings.ToLower(val)
		case o.limits.count(lk) != nil:
			v, err := strconv.Atoi(val)
			if err != nil || v < -1 {
				d.errorf(n, key, "%q is not a job count", clip(val))
				ok = false
				continue
			}
			*o.limits.count(lk) = v
		case o.limits.tresList(lk) != nil:
			if err := checkTRESList(val); err != nil {
				d.errorf(n, key, "%v", err)
				ok = false
				continue
			}
			p := o.limits.tresList(lk)
			*p = addTRES(*p, val)
		case lk == "grpcpus" || lk == "grpnodes" || lk == "grpmem":
			o.limits.GrpTRES = addTRES(o.limits.GrpTRES, oldTRES[lk]+"="+val)
		case lk == "grpcpumins":
			o.limits.GrpTRESMins = addTRES(o.limits.GrpTRESMins, "cpu="+val)
		case lk == "grpcpurunmins":
			o.limits.GrpTRESRunMins = addTRES(o.limits.GrpTRESRunMins, "cpu="+val)
		case lk == "grpwall" || lk == "grpwallduration":
			if o.limits.GrpWall, err = wallSeconds(val); err != nil {
				d.errorf(n, key, "%v", err)
				ok = false
			}
		case lk == "maxcpus" || lk == "maxcpusperjob" || lk == "maxnodes" || lk == "maxnodesperjob":
			o.limits.MaxTRES = addTRES(o.limits.MaxTRES, oldTRES[lk]+"="+val)
		case lk == "maxwall" || lk == "maxwalldurationperjob":
			if o.limits.MaxWall, err = wallSeconds(val); err != nil {
				d.errorf(n, key, "%v", err)
				ok = false
			}
		case dumpIgnored[lk]:
		default:
			d.errorf(n, key, "unknown option")
			ok = false
		}
	}
	if !o.hasName {
		d.errorf(n, "name", "no name given")
		return o, false
	}
	return o, ok
}

// splitQuoted splits s on ':' outside single or double quotes.
func splitQuoted(s string) ([]string, error) {
	var out []string
	var quote byte
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ':':
			out = append(out, s[last:i])
			last = i + 1
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	return append(out, s[last:]), nil
}

// unquote is strip_quotes: a value that starts with a quote ends at the
// matching quote.
func unquote(s string) string {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return s
	}
	if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
		return s[1 : 1+j]
	}
	return s[1:]
}

// parseShares reads Fairshare=: a number below 2^31-1, or "parent"
// (2147483647 being the value Slurm stores for parent).
func parseShares(v string) (Shares, error) {
	if strings.EqualFold(v, "parent") {
		return Shares{Parent: true}, nil
	}
	u, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return Shares{}, fmt.Errorf("%q is neither a number nor \"parent\"", clip(v))
	}
	switch {
	case u == UseParentShares:
		return Shares{Parent: true}, nil
	case u > UseParentShares:
		return Shares{}, fmt.Errorf("%d is out of range (max %d)", u, UseParentShares-1)
	}
	return Shares{Raw: uint32(u)}, nil
}

// parsePriority reads Priority=: a uint32; -1 and INFINITE mean unset.
func parsePriority(v string) (uint32, bool, error) {
	if v == "-1" {
		return 0, false, nil
	}
	u, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return 0, false, fmt.Errorf("%q is not a number", clip(v))
	}
	switch {
	case u == 0xffffffff:
		return 0, false, nil
	case u >= 0xfffffffe:
		return 0, false, fmt.Errorf("%d is out of range", u)
	}
	return uint32(u), true, nil
}

// clip shortens text quoted in an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// oldTRES names the TRES of the limits sacctmgr wrote before TRES lists
// (GrpCPUs=8 is GrpTRES=cpu=8).
var oldTRES = map[string]string{"grpcpus": "cpu", "grpnodes": "node", "grpmem": "mem",
	"maxcpus": "cpu", "maxcpusperjob": "cpu", "maxnodes": "node", "maxnodesperjob": "node"}

// addTRES adds TRES list items to a list, a later item replacing an
// earlier one of the same TRES (GrpCPUs=16 after GrpTRES=cpu=8 is cpu=16,
// as sacctmgr sets one limit through either name).
func addTRES(list, items string) string {
	var out []string
	newNames := map[string]bool{}
	for _, it := range strings.Split(items, ",") {
		name, _, _ := strings.Cut(it, "=")
		newNames[strings.ToLower(strings.TrimSpace(name))] = true
	}
	for _, it := range strings.Split(list, ",") {
		name, _, _ := strings.Cut(it, "=")
		if it != "" && !newNames[strings.ToLower(strings.TrimSpace(name))] {
			out = append(out, it)
		}
	}
	return strings.Join(append(out, items), ",")
}

// tresTypes are the TRES types a limit may name (slurmdb TRES types).
var tresTypes = map[string]bool{"cpu": true, "mem": true, "energy": true, "node": true, "billing": true,
	"fs": true, "vmem": true, "pages": true, "gres": true, "license": true, "bb": true, "ic": true}

// checkTRESList checks a TRES limit list's form, TRES=COUNT items with a
// whole count, memory with a unit (-1 clears a limit in sacctmgr).
func checkTRESList(v string) error {
	for _, it := range strings.Split(v, ",") {
		name, cnt, ok := strings.Cut(it, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("%q: want TRES=count", clip(it))
		}
		typ, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(name)), "/")
		if !tresTypes[typ] {
			return fmt.Errorf("%q: unknown TRES type %q", clip(it), typ)
		}
		cnt = strings.TrimSpace(cnt)
		if k := len(cnt); k > 1 && strings.ContainsRune("KMGTPkmgtp", rune(cnt[k-1])) {
			cnt = cnt[:k-1] // mem=256G
		}
		if n, err := strconv.ParseInt(cnt, 10, 64); err != nil || n < -1 {
			return fmt.Errorf("%q: count is not a whole number", clip(it))
		}
	}
	return nil
}

// wallSeconds reads a dump's wall-time limit (Slurm minutes or a time
// string) as seconds, -1 for UNLIMITED.
func wallSeconds(val string) (int64, error) {
	m, err := slurmtime.ParseMinutes(val)
	if err != nil {
		return -1, err
	}
	if m == slurmtime.Infinite {
		return -1, nil
	}
	return m * 60, nil
}
