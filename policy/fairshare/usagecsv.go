package fairshare

import (
	"encoding/csv"
	"errors"
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

// ReadUsageCSV reads a static usage table for sshare views:
//
//	account,user,rawusage
//	physics,alice,123456.5
//
// The header is required (names case-insensitive). Only user rows are
// accepted: an account's usage is by definition the sum of its users'
// (Slurm computes it that way at load), so a blank user is an error rather
// than a second source of truth. rawusage is decayed billing-seconds, a
// finite number >= 0. Every (account, user) must exist in t and appear
// once. All problems are returned together as an ErrorList; apply the
// result with Engine.LoadUsage.
func ReadUsageCSV(filename string, r io.Reader, t *Tree) ([]UsageEntry, error) {
	var errs ErrorList
	if t == nil || !t.Finalized() {
		errs.Add(filename, 0, "", "tree is not finalized")
		return nil, errs
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	var out []UsageEntry
	seen := map[int]int{}
	header := false
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				errs.Add(filename, pe.Line, "", pe.Err.Error())
				if len(errs) > maxErrors {
					break
				}
				continue // the reader resumes at the next record
			}
			errs.Add(filename, 0, "", err.Error())
			break
		}
		line := 0
		if len(rec) > 0 {
			line, _ = cr.FieldPos(0)
		}
		if !header {
			header = true
			if len(rec) != 3 || !strings.EqualFold(strings.TrimSpace(rec[0]), "account") ||
				!strings.EqualFold(strings.TrimSpace(rec[1]), "user") ||
				!strings.EqualFold(strings.TrimSpace(rec[2]), "rawusage") {
				errs.Add(filename, line, "header", `want "account,user,rawusage"`)
				break
			}
			continue
		}
		if len(rec) != 3 {
			errs.Add(filename, line, "", fmt.Sprintf("want 3 fields, got %d", len(rec)))
			continue
		}
		acct, user := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		if user == "" {
			errs.Add(filename, line, "user", "blank: only user rows are accepted (account usage is the sum of its users)")
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[2]), 64)
		if err != nil || !finite(v) || v < 0 {
			errs.Add(filename, line, "rawusage", fmt.Sprintf("%q is not a finite number >= 0", clip(rec[2])))
			continue
		}
		i, ok := t.Lookup(acct, user)
		if !ok {
			errs.Add(filename, line, "user", fmt.Sprintf("no association (%s, %s)", clip(acct), clip(user)))
			continue
		}
		if prev, dup := seen[i]; dup {
			errs.Add(filename, line, "user", fmt.Sprintf("(%s, %s) already given on line %d", clip(acct), clip(user), prev))
			continue
		}
		seen[i] = line
		out = append(out, UsageEntry{Assoc: i, RawUsage: v})
	}
	if !header && len(errs) == 0 {
		errs.Add(filename, 0, "header", `missing "account,user,rawusage" header`)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
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
