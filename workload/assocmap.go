package workload

import (
	"encoding/csv"
	"fairsim/inputerr"
	"fairsim/slurmtext"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// AccountMap gives accounts to the jobs of a trace that has none (SWF
// traces, sacct output without an Account column), so that fair-share has
// a tree to work on. Slurm keeps account names in lower case, so mapped
// names are lowered.
type AccountMap struct {
	// By is "group" (one account per group, named after it), "user" (one
	// account per user) or "csv" (a mapping file).
	By string
	// Override replaces accounts the trace has; by default a job keeps its
	// own account and only jobs without one are mapped.
	Override bool
	byUser   map[string]string
	byGroup  map[string]string
}

// UnmappedAccount is the account of jobs whose user or group a CSV mapping
// does not list; AccountSource.Unmapped names them.
const UnmappedAccount = "unmapped"

// NoGroupAccount is the account of jobs without a group under By "group".
const NoGroupAccount = "nogroup"

// ParseAccountMap reads a mapping spec: "group", "user", or the path of a
// CSV file (see ReadAccountCSV) opened with open (nil: os.Open).
func ParseAccountMap(spec string, open func(string) (io.ReadCloser, error)) (*AccountMap, error) {
	if open == nil {
		open = func(p string) (io.ReadCloser, error) { return os.Open(p) }
	}
	switch spec {
	case "group", "user":
		return &AccountMap{By: spec}, nil
	case "":
		return nil, fmt.Errorf("empty account mapping: want group, user or a CSV file")
	}
	f, err := open(spec)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAccountCSV(f, spec)
}

// ReadAccountCSV reads a mapping whose header names the columns
// "user,account" or "group,account" (in either order, other columns
// ignored), as CSV: fields may be quoted; blank lines and lines starting
// with '#' are ignored. A name listed twice is an error, as is a header
// naming both user and group (which one keys the mapping would be a
// guess).
func ReadAccountCSV(r io.Reader, name string) (*AccountMap, error) {
	cr := csv.NewReader(slurmtext.SkipBOM(r))
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	m := &AccountMap{By: "csv", byUser: map[string]string{}, byGroup: map[string]string{}}
	var errs ErrorList
	keyCol, acctCol := -1, -1
	var target map[string]string
	where := map[string]int{}
	var bad error // a header that leaves nothing to read
	inputerr.EachCSV(cr, name, &errs, maxErrors, func(line int, cells []string) bool {
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) == 1 && cells[0] == "" {
			return true
		}
		if keyCol < 0 {
			if len(errs) > 0 {
				return false // the header was malformed: this record is data
			}
			user, group := -1, -1
			for i, c := range cells {
				switch strings.ToLower(c) {
				case "user":
					user = i
				case "group":
					group = i
				case "account":
					acctCol = i
				}
			}
			switch {
			case user >= 0 && group >= 0:
				bad = &Error{File: name, Line: line, Field: "header",
					Msg: fmt.Sprintf("names both user and group (%q): keep the one that picks the account", strings.Join(cells, ","))}
				return false
			case user >= 0:
				keyCol, target = user, m.byUser
			case group >= 0:
				keyCol, target = group, m.byGroup
			}
			if keyCol < 0 || acctCol < 0 {
				bad = &Error{File: name, Line: line, Field: "header",
					Msg: fmt.Sprintf("want columns user,account or group,account, got %q", strings.Join(cells, ","))}
				return false
			}
			return true
		}
		if len(cells) <= max(keyCol, acctCol) {
			errs.Add(name, line, "", fmt.Sprintf("%d columns, the header has more", len(cells)))
			return true
		}
		k, a := cells[keyCol], strings.ToLower(cells[acctCol])
		if k == "" || a == "" {
			errs.Add(name, line, "", "empty name or account")
			return true
		}
		if first, dup := where[k]; dup {
			errs.Add(name, line, "", fmt.Sprintf("%q mapped twice (first on line %d)", k, first))
			return true
		}
		where[k] = line
		target[k] = a
		return true
	})
	if bad != nil {
		return nil, bad
	}
	if keyCol < 0 && len(errs) == 0 {
		return nil, &Error{File: name, Msg: "empty mapping: want a header user,account or group,account"}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// AccountSource wraps a Source and sets each job's account by a mapping.
type AccountSource struct {
	Source
	m        *AccountMap
	ids      map[string]int32
	unmapped map[string]bool
}

// MapAccounts applies m to the jobs of src as they stream by; counts go to
// Stats().Defaulted.
func MapAccounts(src Source, m *AccountMap) *AccountSource {
	return &AccountSource{Source: src, m: m, ids: map[string]int32{}, unmapped: map[string]bool{}}
}

// Next implements Source.
func (s *AccountSource) Next(j *Job) bool {
	if !s.Source.Next(j) {
		return false
	}
	if j.Account != Unset && !s.m.Override {
		return true
	}
	names := s.Names()
	var acct, why string
	switch s.m.By {
	case "group":
		if j.Group == Unset {
			acct, why = NoGroupAccount, "account: no group: "+NoGroupAccount
		} else {
			acct, why = strings.ToLower(names.Groups.Name(j.Group)), "account: from group"
		}
	case "user":
		acct, why = strings.ToLower(names.Users.Name(j.User)), "account: from user"
	default:
		user, group := names.Users.Name(j.User), names.Groups.Name(j.Group)
		var ok bool
		if acct, ok = s.m.byUser[user]; ok {
			why = "account: from the mapping (user)"
		} else if acct, ok = s.m.byGroup[group]; ok && j.Group != Unset {
			why = "account: from the mapping (group)"
		} else {
			acct, why = UnmappedAccount, "account: not in the mapping: "+UnmappedAccount
			if len(s.m.byUser) > 0 {
				s.unmapped["user "+user] = true
			} else {
				s.unmapped["group "+group] = true
			}
		}
	}
	id, ok := s.ids[acct]
	if !ok {
		id = names.Accounts.ID(acct)
		s.ids[acct] = id
	}
	j.Account = id
	s.Stats().Defaulted.Add(why)
	return true
}

// Unmapped lists the users or groups a CSV mapping did not cover, sorted.
func (s *AccountSource) Unmapped() []string {
	out := make([]string, 0, len(s.unmapped))
	for k := range s.unmapped {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ShareStrategy decides each account's Fairshare in a generated dump.
type ShareStrategy string

// Share strategies: every account alike, or in proportion to the core
// seconds its jobs were delivered in the trace (so that a replay starts
// from the shares the site's usage suggests).
const (
	SharesEqual ShareStrategy = "equal"
	SharesUsage ShareStrategy = "usage"
)

// ParseShareStrategy accepts "equal" or "usage".
func ParseShareStrategy(s string) (ShareStrategy, error) {
	switch ShareStrategy(s) {
	case SharesEqual, SharesUsage:
		return ShareStrategy(s), nil
	}
	return "", fmt.Errorf("unknown share strategy %q: want equal or usage", s)
}

// AssocTally wraps a Source and records, as jobs stream by, which users
// run in which account and the core seconds each account was delivered.
type AssocTally struct {
	Source
	usage map[string]map[string]float64 // account -> user -> core seconds
}

// TallyAssoc starts recording the associations of src's jobs.
func TallyAssoc(src Source) *AssocTally {
	return &AssocTally{Source: src, usage: map[string]map[string]float64{}}
}

// Next implements Source.
func (t *AssocTally) Next(j *Job) bool {
	if !t.Source.Next(j) {
		return false
	}
	names := t.Names()
	acct := names.Accounts.Name(j.Account)
	if j.Account == Unset {
		acct = UnmappedAccount
	}
	user := names.Users.Name(j.User)
	if j.User == Unset {
		user = "unknown"
	}
	u := t.usage[acct]
	if u == nil {
		u = map[string]float64{}
		t.usage[acct] = u
	}
	u[user] += coreSeconds(j)
	return true
}

// coreSeconds is what a job was delivered: allocated (else requested)
// processors times its run time; nothing for jobs that never ran.
func coreSeconds(j *Job) float64 {
	if j.CancelledPending || j.Runtime <= 0 {
		return 0
	}
	procs := j.AllocCPUs
	if procs <= 0 {
		procs = j.CPUs
	}
	if procs <= 0 {
		return 0
	}
	return float64(procs) * float64(j.Runtime)
}

// AssocDump is an association tree in sacctmgr dump form: a cluster, its
// accounts under root, and users under their accounts.
type AssocDump struct {
	Cluster  string
	Comment  []string // written as '#' lines at the top
	Accounts []AssocAccount
	defaults map[string]string // user -> default account; nil: the account listed under
}

// AssocAccount is one account of a dump.
type AssocAccount struct {
	Name        string
	Fairshare   int
	CoreSeconds float64  // delivered in the trace
	Users       []string // sorted
}

// Dump builds the association tree seen so far. Under SharesUsage an
// account's Fairshare is its part of the delivered core seconds in
// thousandths, at least 1 (equal shares when nothing ran). A user in
// several accounts gets the one with the most core seconds (ties: the
// first name) as DefaultAccount.
func (t *AssocTally) Dump(cluster string, shares ShareStrategy) *AssocDump {
	d := &AssocDump{Cluster: cluster}
	total := 0.0
	for name, users := range t.usage {
		a := AssocAccount{Name: name, Fairshare: 1}
		for u, cs := range users {
			a.Users = append(a.Users, u)
			a.CoreSeconds += cs
		}
		slices.Sort(a.Users)
		total += a.CoreSeconds
		d.Accounts = append(d.Accounts, a)
	}
	slices.SortFunc(d.Accounts, func(a, b AssocAccount) int { return strings.Compare(a.Name, b.Name) })
	if shares == SharesUsage && total > 0 {
		for i := range d.Accounts {
			d.Accounts[i].Fairshare = max(1, int(math.Round(1000*d.Accounts[i].CoreSeconds/total)))
		}
	}
	d.Comment = append(d.Comment, fmt.Sprintf("fairsim association dump: %d accounts, shares %s", len(d.Accounts), shares))
	d.defaults = t.defaultAccounts()
	return d
}

// defaultAccounts picks each user's default account.
func (t *AssocTally) defaultAccounts() map[string]string {
	best := map[string]string{}
	bestCS := map[string]float64{}
	for acct, users := range t.usage {
		for u, cs := range users {
			cur, ok := best[u]
			if !ok || cs > bestCS[u] || (cs == bestCS[u] && acct < cur) {
				best[u], bestCS[u] = acct, cs
			}
		}
	}
	return best
}

// WriteTo writes the dump in sacctmgr dump format, which `sacctmgr load`
// and fairsim's configuration read.
func (d *AssocDump) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, c := range d.Comment {
		b.WriteString("# " + c + "\n")
	}
	fmt.Fprintf(&b, "Cluster - '%s':Fairshare=1\n", dumpName(d.Cluster))
	b.WriteString("Parent - 'root'\n")
	for _, a := range d.Accounts {
		n := dumpName(a.Name)
		fmt.Fprintf(&b, "Account - '%s':Description='%s':Organization='%s':Fairshare=%d\n", n, n, n, a.Fairshare)
	}
	for _, a := range d.Accounts {
		if len(a.Users) == 0 {
			continue
		}
		fmt.Fprintf(&b, "Parent - '%s'\n", dumpName(a.Name))
		for _, u := range a.Users {
			def := a.Name
			if d.defaults != nil && d.defaults[u] != "" {
				def = d.defaults[u]
			}
			fmt.Fprintf(&b, "User - '%s':DefaultAccount='%s':Fairshare=1\n", dumpName(u), dumpName(def))
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// dumpName keeps a name from breaking the dump's quoting and ':' fields.
func dumpName(s string) string {
	if s == "" {
		return "none"
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\'', ':', '\n', '\r':
			return '_'
		}
		return r
	}, s)
}
