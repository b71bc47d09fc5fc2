package fairshare

import (
	"encoding/csv"
	"fairsim/inputerr"
	"fairsim/slurmtext"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// UsageEntry is one user association's raw usage from a usage CSV.
type UsageEntry struct {
	Assoc    int
	RawUsage float64
}

// maxRawUsage bounds one row's usage so that the tree's sums and ratios
// stay finite: 1e308 in two rows summed to +Inf and printed nan.
const maxRawUsage = 1e18

// ReadUsageCSV reads a static usage table for sshare views:
//
//	account,user,rawusage
//	physics,alice,123456.5
//
// The header is required; its names match case-insensitively and may come
// in any order. An optional fourth column, partition, names a
// per-partition association (blank: the partition-less one). Only user
// rows are accepted: an account's usage is by definition the sum of its
// users' (Slurm computes it that way at load), so a blank user is an error
// rather than a second source of truth. rawusage is decayed
// billing-seconds, a finite number >= 0. Names match the tree's
// case-insensitively, as sacctmgr stores them lower-cased
// (Tree.LookupExact). Every association must exist in t and appear once.
// All problems are returned together as an ErrorList; apply the result
// with Engine.LoadUsage.
func ReadUsageCSV(filename string, r io.Reader, t *Tree) ([]UsageEntry, error) {
	var errs ErrorList
	if t == nil || !t.Finalized() {
		errs.Add(filename, 0, "", "tree is not finalized")
		return nil, errs
	}
	cr := csv.NewReader(slurmtext.SkipBOM(r))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	var out []UsageEntry
	seen := map[int]int{}
	header := false
	var col usageColumns
	inputerr.EachCSV(cr, filename, &errs, maxErrors, func(line int, rec []string) bool {
		if !header {
			if len(errs) > 0 {
				return false // the header was malformed: this record is data
			}
			header = true
			var ok bool
			if col, ok = parseUsageHeader(rec); !ok {
				errs.Add(filename, line, "header", `want "account,user,rawusage" and optionally "partition", in any order`)
				return false
			}
			return true
		}
		if len(rec) != col.n {
			errs.Add(filename, line, "", fmt.Sprintf("want %d fields, got %d", col.n, len(rec)))
			return true
		}
		acct, user := strings.TrimSpace(rec[col.account]), strings.TrimSpace(rec[col.user])
		part := ""
		if col.partition >= 0 {
			part = strings.TrimSpace(rec[col.partition])
		}
		if user == "" {
			errs.Add(filename, line, "user", "blank: only user rows are accepted (account usage is the sum of its users)")
			return true
		}
		raw := rec[col.rawusage]
		v, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil || !finite(v) || v < 0 {
			errs.Add(filename, line, "rawusage", fmt.Sprintf("%q is not a finite number >= 0", clip(raw)))
			return true
		}
		if v > maxRawUsage {
			errs.Add(filename, line, "rawusage", fmt.Sprintf("%q is above %g billing-seconds (a million billing units for 31,000 years): the tree's sums would overflow into NaN", clip(raw), maxRawUsage))
			return true
		}
		name := fmt.Sprintf("(%s, %s)", clip(acct), clip(user))
		if part != "" {
			name = fmt.Sprintf("(%s, %s, partition %s)", clip(acct), clip(user), clip(part))
		}
		i, ok := t.LookupExact(acct, user, part)
		if !ok {
			errs.Add(filename, line, "user", "no association "+name)
			return true
		}
		if prev, dup := seen[i]; dup {
			errs.Add(filename, line, "user", fmt.Sprintf("%s already given on line %d", name, prev))
			return true
		}
		seen[i] = line
		out = append(out, UsageEntry{Assoc: i, RawUsage: v})
		return true
	})
	if !header && len(errs) == 0 {
		errs.Add(filename, 0, "header", `missing "account,user,rawusage" header`)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// usageColumns are the positions of a usage CSV's columns; partition is -1
// when absent.
type usageColumns struct {
	account, user, rawusage, partition, n int
}

func parseUsageHeader(rec []string) (usageColumns, bool) {
	c := usageColumns{account: -1, user: -1, rawusage: -1, partition: -1, n: len(rec)}
	for k, h := range rec {
		var p *int
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "account":
			p = &c.account
		case "user":
			p = &c.user
		case "rawusage":
			p = &c.rawusage
		case "partition":
			p = &c.partition
		default:
			return c, false
		}
		if *p >= 0 {
			return c, false
		}
		*p = k
	}
	return c, c.account >= 0 && c.user >= 0 && c.rawusage >= 0
}

// LoadUsage applies usage entries with SetUsage and recomputes every
// factor, giving a static view of a usage snapshot.
func (e *Engine) LoadUsage(entries []UsageEntry) error {
	for _, u := range entries {
		if err := e.SetUsage(u.Assoc, u.RawUsage); err != nil {
			return err
		}
	}
	e.Recalc()
	return nil
}
