package fairshare

import (
	"fairsim/inputerr"
	"fairsim/slurmtext"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// listColumn is a column of `sacctmgr show assoc` that shapes the tree.
type listColumn int

const (
	lcIgnored listColumn = iota
	lcCluster
	lcAccount
	lcUser
	lcPartition
	lcShare
	lcPriority
	lcParentName
	lcParentID
	lcID
	lcLineage
)

// listColumns are the header names sacctmgr prints for the columns fairsim
// reads (sacctmgr/common.c _get_print_field), lower-cased. "fairshare"
// and "shares" are accepted for hand-written listings.
var listColumns = map[string]listColumn{
	"cluster": lcCluster, "account": lcAccount, "user": lcUser,
	"partition": lcPartition, "share": lcShare, "fairshare": lcShare,
	"shares": lcShare, "priority": lcPriority, "parentname": lcParentName,
	"parentid": lcParentID, "id": lcID, "lineage": lcLineage,
}

// listIgnored are the other association columns sacctmgr prints: limits,
// QOS and flags fairsim does not model. A value in one is reported in a
// warning.
var listIgnored = map[string]bool{
	"comment": true, "def qos": true, "flags": true, "grpcpumins": true,
	"grpcpurunmins": true, "grpcpus": true, "grpjobs": true,
	"grpjobsaccrue": true, "grpmem": true, "grpnodes": true,
	"grpsubmit": true, "grptres": true, "grptresmins": true,
	"grptresrunmins": true, "grpwall": true, "maxcpumins": true,
	"maxcpurunminspu": true, "maxcpus": true, "maxjobs": true,
	"maxjobsaccrue": true, "maxnodes": true, "maxsubmit": true,
	"maxtres": true, "maxtresmins": true, "maxtrespernode": true,
	"maxtresrunminspu": true, "maxwall": true, "minpriothres": true,
	"qos": true, "qos_raw": true,
}

// listRow is one data line of a listing, its names folded.
type listRow struct {
	line                         int
	cluster, account, user, part string
	parentName, lineage          string
	id, parentID                 string
	depth                        int // leading spaces of Account (the tree option)
	shares                       Shares
	prio                         *uint32
}

// ReadAssocList reads the association listing `sacctmgr -P show assoc`
// prints (also -p, which ends every line with '|'), with sacctmgr's
// default columns or any format=: a header line naming the columns, in any
// order, then one association per line. Account and User are required;
// Cluster, Partition, Share (default 1, "parent" for Fairshare=parent),
// Priority (blank: unset), ParentName, Lineage, ParentID and ID are read;
// sacctmgr's limit, QOS and flag columns are skipped, and those that hold
// a value are named in the warnings. Names are lower-cased as sacctmgr
// stores them.
//
// A user row (User set) belongs to its Account, with its Partition if
// any. An account row's parent is, in this order of preference: its
// ParentName; the next-to-last component of its Lineage
// ("/a1/a2/" is a2 under a1, as as_mysql_assoc.c _set_lineage builds
// it); the account row whose ID is its ParentID; the indentation of the
// Account column that `sacctmgr show assoc tree` prints (one space per
// level, slurmdb_tree_name_get). A listing with none of these does not
// say where an account hangs — its rows are sorted by lineage, but a
// sibling and a child look alike — so every account is then put under
// root and a warning says so. The root account row is the tree's root;
// rows may come in any order. The listing must hold one cluster.
//
// Every problem is reported as "file:line: field: message" and returned
// together as an ErrorList.
func ReadAssocList(filename string, r io.Reader) (*Tree, []string, error) {
	data, err := inputerr.ReadAll(r, filename, "association listing", inputerr.MaxAssocBytes)
	if err != nil {
		return nil, nil, err
	}
	data = slurmtext.TrimBOM(data)
	return readAssocList(filename, string(data))
}

func readAssocList(filename, data string) (*Tree, []string, error) {
	var (
		errs     ErrorList
		warnings []string
		cols     []listColumn
		headers  []string
		have     = map[listColumn]bool{}
		trailing bool
		used     []int // per column: first line holding a value (ignored columns)
		rows     []listRow
	)
	for n, line := range strings.Split(data, "\n") {
		lineNo := n + 1
		line = strings.TrimSuffix(line, "\r")
		if t := strings.TrimSpace(line); t == "" || (cols == nil && strings.HasPrefix(t, "#")) {
			continue
		}
		cells := strings.Split(line, "|")
		if cols == nil {
			if len(cells) > 1 && strings.TrimSpace(cells[len(cells)-1]) == "" {
				cells, trailing = cells[:len(cells)-1], true
			}
			bad := false
			for _, h := range cells {
				name := strings.TrimSpace(h)
				key := strings.ToLower(name)
				c, ok := listColumns[key]
				switch {
				case name == "":
					errs.Add(filename, lineNo, "header", "empty column name")
					bad = true
				case !ok && !listIgnored[key]:
					errs.Add(filename, lineNo, name, "unknown column (want sacctmgr show assoc's column names)")
					bad = true
				case ok && have[c]:
					errs.Add(filename, lineNo, name, "column given twice")
					bad = true
				}
				have[c] = true
				cols = append(cols, c)
				headers = append(headers, name)
			}
			for _, req := range []struct {
				c    listColumn
				name string
			}{{lcAccount, "Account"}, {lcUser, "User"}} {
				if !bad && !have[req.c] {
					errs.Add(filename, lineNo, req.name, "required column missing from header")
					bad = true
				}
			}
			if bad {
				return nil, nil, errs
			}
			used = make([]int, len(cols))
			continue
		}
		if trailing && len(cells) == len(cols)+1 && strings.TrimSpace(cells[len(cols)]) == "" {
			cells = cells[:len(cols)]
		}
		if len(cells) != len(cols) {
			errs.Add(filename, lineNo, "", fmt.Sprintf("%d fields, header has %d", len(cells), len(cols)))
			if len(errs) > maxErrors {
				break
			}
			continue
		}
		if row, ok := parseListRow(filename, lineNo, cells, cols, headers, used, &errs); ok {
			rows = append(rows, row)
		}
		if len(errs) > maxErrors {
			break
		}
	}
	if cols == nil {
		errs.Add(filename, 0, "header", "no header line (list with sacctmgr -P show assoc, without -n)")
		return nil, nil, errs
	}
	for k, first := range used {
		if first > 0 && cols[k] == lcIgnored {
			warnings = append(warnings, fmt.Sprintf("%s:%d: column %s holds values fairsim does not model; ignored", filename, first, headers[k]))
		}
	}
	if len(errs) > 0 {
		return nil, warnings, errs
	}
	t, w := buildListTree(filename, rows, &errs)
	warnings = append(warnings, w...)
	if len(errs) > 0 {
		return nil, warnings, errs
	}
	if err := t.Finalize(); err != nil {
		return nil, warnings, err
	}
	return t, warnings, nil
}

func parseListRow(file string, line int, cells []string, cols []listColumn, headers []string, used []int, errs *ErrorList) (listRow, bool) {
	row := listRow{line: line, shares: Shares{Raw: 1}}
	before := len(*errs)
	fail := func(k int, format string, args ...any) {
		errs.Add(file, line, headers[k], fmt.Sprintf(format, args...))
	}
	for k, c := range cols {
		raw := cells[k]
		v := strings.TrimSpace(raw)
		if v != "" && used[k] == 0 {
			used[k] = line
		}
		switch c {
		case lcCluster:
			row.cluster = strings.ToLower(v)
		case lcAccount:
			row.depth = len(raw) - len(strings.TrimLeft(raw, " "))
			row.account = strings.ToLower(v)
		case lcUser:
			row.user = strings.ToLower(v)
		case lcPartition:
			row.part = strings.ToLower(v)
		case lcShare:
			if v == "" {
				continue // as_mysql_assoc.c: no fairshare stored is 1
			}
			sh, err := parseShares(v)
			if err != nil {
				fail(k, "%v", err)
				continue
			}
			row.shares = sh
		case lcPriority:
			if v == "" {
				continue
			}
			p, set, err := parsePriority(v)
			if err != nil {
				fail(k, "%v", err)
				continue
			}
			if set {
				row.prio = &p
			}
		case lcParentName:
			row.parentName = strings.ToLower(v)
		case lcLineage:
			row.lineage = strings.ToLower(v)
		case lcID, lcParentID:
			if v != "" {
				if _, err := strconv.ParseUint(v, 10, 32); err != nil {
					fail(k, "%q is not an association id", clip(v))
					continue
				}
			}
			if c == lcID {
				row.id = v
			} else {
				row.parentID = v
			}
		}
	}
	if row.account == "" {
		errs.Add(file, line, "Account", "empty")
	}
	if row.user == "" && row.part != "" {
		errs.Add(file, line, "Partition", "only a user association can have a partition")
	}
	return row, len(*errs) == before
}

// buildListTree adds the rows' associations: accounts first, each once its
// parent is in, then users, in listing order.
func buildListTree(file string, rows []listRow, errs *ErrorList) (*Tree, []string) {
	var warnings []string
	t := NewTree()
	cluster := ""
	for _, r := range rows {
		if cluster == "" {
			cluster = r.cluster
		} else if r.cluster != "" && r.cluster != cluster {
			errs.Add(file, r.line, "Cluster", fmt.Sprintf("a second cluster %q (first %q): list one cluster (sacctmgr show assoc where cluster=NAME)", clip(r.cluster), clip(cluster)))
			return nil, nil
		}
	}
	t.SetCluster(cluster)

	byID := map[string]string{}
	idLine := map[string]int{}
	lineage := map[string]string{} // account -> its Lineage, when listed
	for _, r := range rows {
		if r.user == "" && r.lineage != "" {
			lineage[r.account] = r.lineage
		}
	}
	tree := false
	for _, r := range rows {
		if r.id != "" {
			// slurmdbd numbers each association once (id_assoc).
			if first, dup := idLine[r.id]; dup {
				errs.Add(file, r.line, "ID", fmt.Sprintf("association id %s also on line %d", r.id, first))
				continue
			}
			idLine[r.id] = r.line
		}
		if r.user == "" {
			if r.id != "" {
				byID[r.id] = r.account
			}
			tree = tree || r.depth > 0
		}
	}
	type pending struct {
		row    *listRow
		parent string
	}
	var accts []pending
	refused := map[string]bool{} // accounts whose row is an error: their users add none
	guessed := 0
	var stack []string // tree option: the account last seen at each depth
	for i := range rows {
		r := &rows[i]
		if r.user != "" {
			continue
		}
		if tree {
			stack = append(stack[:min(r.depth, len(stack))], r.account)
		}
		if r.account == RootName {
			continue
		}
		parent, ok, bad := listParent(r, byID, tree, stack)
		if bad != "" {
			errs.Add(file, r.line, bad, fmt.Sprintf("account %q: %s", clip(r.account), parentWhy(r, bad)))
			refused[r.account] = true
			continue
		}
		if !ok {
			parent = RootName
			guessed++
		}
		if pl, listed := lineage[parent]; listed && r.lineage != "" && r.lineage != pl+r.account+"/" {
			errs.Add(file, r.line, "Lineage", fmt.Sprintf("account %q: lineage %q, but its parent %q's is %q (want %q)", clip(r.account), clip(r.lineage), clip(parent), clip(pl), clip(pl+r.account+"/")))
			refused[r.account] = true
			continue
		}
		accts = append(accts, pending{r, parent})
	}
	if guessed > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %d account(s) without a parent in the listing (no ParentName, Lineage or ParentID column, nor the tree option's indentation) are put under root; list with format=...,ParentName to keep the hierarchy", file, guessed))
	}
	for progress := true; progress && len(accts) > 0; {
		progress = false
		rest := accts[:0]
		for _, a := range accts {
			if _, ok := t.Lookup(a.parent, ""); !ok {
				rest = append(rest, a)
				continue
			}
			if err := t.AddAccount(a.row.account, a.parent, a.row.shares, a.row.prio); err != nil {
				errs.Add(file, a.row.line, "Account", err.Error())
			}
			progress = true
		}
		accts = rest
	}
	// What is left never found its parent: a parent the listing lacks,
	// or accounts that are each other's ancestors.
	left := map[string]string{}
	for _, a := range accts {
		left[a.row.account] = a.parent
	}
	for _, a := range accts {
		if _, ok := left[a.parent]; !ok {
			errs.Add(file, a.row.line, "Account", fmt.Sprintf("account %q: parent %q is not an account of the listing", clip(a.row.account), clip(a.parent)))
			continue
		}
		// Follow the parents until one repeats: a loop, or a chain into
		// one (or to a missing parent, reported on its own row).
		path, seen := []string{a.row.account}, map[string]bool{a.row.account: true}
		for p, ok := a.parent, true; ok; p, ok = left[p] {
			path = append(path, p)
			if seen[p] {
				break
			}
			seen[p] = true
		}
		errs.Add(file, a.row.line, "Account", fmt.Sprintf("account %q: its parents never reach root (%s)", clip(a.row.account), clip(strings.Join(path, " -> "))))
	}
	for i := range rows {
		r := &rows[i]
		if r.user == "" {
			continue
		}
		if _, stuck := left[r.account]; stuck || refused[r.account] {
			continue // its account's error is the one to fix
		}
		if al, ok := lineage[r.account]; ok && r.lineage != "" {
			// A user's lineage is its account's, then 0-USER/ and its
			// partition: rows that disagree place one account twice.
			want := al + "0-" + r.user + "/"
			if r.part != "" {
				want += r.part + "/"
			}
			if r.lineage != want {
				errs.Add(file, r.line, "Lineage", fmt.Sprintf("user %q: lineage %q, but account %q's is %q (want %q)", clip(r.user), clip(r.lineage), clip(r.account), clip(al), clip(want)))
				continue
			}
		}
		if err := t.AddUserPartition(r.user, r.account, r.part, r.shares, r.prio); err != nil {
			errs.Add(file, r.line, "User", err.Error())
		}
		if len(*errs) > maxErrors {
			break
		}
	}
	return t, warnings
}

// listParent finds an account row's parent account; ok is false when the
// listing does not say. A non-empty bad names the column that is wrong.
func listParent(r *listRow, byID map[string]string, tree bool, stack []string) (parent string, ok bool, bad string) {
	if r.parentName != "" {
		return r.parentName, true, ""
	}
	if r.lineage != "" {
		parts := strings.Split(r.lineage, "/")
		// "/a1/a2/" splits into "", "a1", "a2", "".
		if len(parts) < 3 || parts[0] != "" || parts[len(parts)-1] != "" || parts[len(parts)-2] != r.account {
			return "", false, "Lineage"
		}
		if len(parts) == 3 {
			return RootName, true, ""
		}
		p := parts[len(parts)-3]
		if p == "" {
			return "", false, "Lineage"
		}
		return p, true, ""
	}
	if r.parentID != "" && r.parentID != "0" {
		p, found := byID[r.parentID]
		if !found {
			return "", false, "ParentID"
		}
		return p, true, ""
	}
	if tree {
		if r.depth == 0 || r.depth > len(stack)-1 {
			if r.depth == 0 {
				return RootName, true, ""
			}
			return "", false, "Account"
		}
		return stack[r.depth-1], true, ""
	}
	return "", false, ""
}

func parentWhy(r *listRow, col string) string {
	switch col {
	case "Lineage":
		return fmt.Sprintf("lineage %q does not end in /%s/ (want /PARENT/.../%s/)", clip(r.lineage), clip(r.account), clip(r.account))
	case "ParentID":
		return fmt.Sprintf("no account row has ID %s", r.parentID)
	default:
		return fmt.Sprintf("indented %d spaces, deeper than the account before it allows", r.depth)
	}
}

// dumpObject matches the first line of a sacctmgr dump: an object name and
// a dash ("Cluster - 'name'"). Compiled at the first association file
// read, not as every run starts (0.3 ms).
var dumpObject = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*[A-Za-z]+[ \t]*-`) })

// ReadAssocFile reads an association tree from either a `sacctmgr dump`
// file (ReadDump) or a `sacctmgr -P show assoc` listing (ReadAssocList),
// telling them apart by content: the first line that is neither blank
// nor a '#' comment is a dump object line ("Cluster - 'name'...") in a
// dump and the '|'-separated header in a listing. The warnings are the
// listing's (a dump has none).
func ReadAssocFile(filename string, r io.Reader) (*Tree, []string, error) {
	data, err := inputerr.ReadAll(r, filename, "sacctmgr dump or association listing", inputerr.MaxAssocBytes)
	if err != nil {
		return nil, nil, err
	}
	data = slurmtext.TrimBOM(data)
	s := string(data)
	for n, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if dumpObject().MatchString(line) {
			break
		}
		if strings.Contains(line, "|") {
			return readAssocList(filename, s)
		}
		var errs ErrorList
		errs.Add(filename, n+1, "line", fmt.Sprintf("%q is neither a sacctmgr dump line (\"Cluster - 'name'\") nor the header of a '|'-separated listing (sacctmgr -P show assoc)", clip(t)))
		return nil, nil, errs
	}
	tree, err := ReadDump(filename, strings.NewReader(s))
	return tree, nil, err
}
