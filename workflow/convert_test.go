package workflow

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fairsim/workload"
)

// given reports the named flags as set, as the command line would.
func given(flags ...string) func(string) bool {
	return func(f string) bool {
		for _, g := range flags {
			if g == f {
				return true
			}
		}
		return false
	}
}

func TestConvertSpecOptions(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "map.csv")
	if err := os.WriteFile(csv, []byte("user,account\nu1,a1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	all := ConvertSpec{Window: "0..7-0", Partition: "batch", Queue: "1,2", MaxJobs: 10, Load: 1.5,
		LimitAccuracy: "exact", Shares: "equal"}
	for _, tc := range []struct {
		name       string
		spec       ConvertSpec
		given      []string
		transforms []string // in the order they apply
		accounts   string   // AccountMap.By, "" for none
		override   bool
		shares     workload.ShareStrategy
		zone       string // Location's name, "" for nil
		fields     []string
		err        string
	}{
		{name: "nothing given", spec: ConvertSpec{Shares: "equal"}, shares: workload.SharesEqual},
		{name: "values without flags are not transforms", spec: all, shares: workload.SharesEqual},
		{name: "fixed order whatever the flags' order", spec: all,
			given:      []string{"limit-accuracy", "load", "max-jobs", "queue", "partition", "window"},
			transforms: []string{"window=0..7-0", "partition=batch", "queue=1,2", "max-jobs=10", "load=1.5", "limit-accuracy=exact"},
			shares:     workload.SharesEqual},
		{name: "a zero given is kept", spec: ConvertSpec{Shares: "equal"}, given: []string{"max-jobs"},
			transforms: []string{"max-jobs=0"}, shares: workload.SharesEqual},
		{name: "sacct reading", spec: ConvertSpec{From: "sacct", Fields: "JobID, State,,Submit", TimeZone: "Europe/Stockholm", Shares: "usage"},
			fields: []string{"JobID", "State", "Submit"}, zone: "Europe/Stockholm", shares: workload.SharesUsage},
		{name: "dump without mapping maps by group", spec: ConvertSpec{AssocOut: "a.cfg", Shares: "equal"},
			accounts: "group", shares: workload.SharesEqual},
		{name: "mapping by user, overriding", spec: ConvertSpec{Accounts: "user", AccountsOverride: true, AssocOut: "a.cfg", Shares: "equal"},
			accounts: "user", override: true, shares: workload.SharesEqual},
		{name: "mapping from a file", spec: ConvertSpec{Accounts: csv, Shares: "equal"},
			accounts: "csv", shares: workload.SharesEqual},
		{name: "override alone maps nothing", spec: ConvertSpec{AccountsOverride: true, Shares: "equal"}, shares: workload.SharesEqual},
		{name: "bad zone", spec: ConvertSpec{TimeZone: "Nowhere/Bogus", Shares: "equal"}, err: `--tz "Nowhere/Bogus"`},
		{name: "bad load", spec: ConvertSpec{Load: -1, Shares: "equal"}, given: []string{"load"}, err: "load factor -1"},
		{name: "bad shares", spec: ConvertSpec{Shares: "bogus"}, err: `unknown share strategy "bogus"`},
		{name: "missing mapping file", spec: ConvertSpec{Accounts: filepath.Join(t.TempDir(), "none.csv"), Shares: "equal"}, err: "none.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, out := strings.NewReader(""), &bytes.Buffer{}
			spec := tc.spec
			spec.Given = given(tc.given...)
			opts, err := spec.Options(in, out)
			if checkErr(t, err, tc.err) {
				return
			}
			var ts []string
			for _, tr := range opts.Transforms {
				ts = append(ts, tr.String())
			}
			if !reflect.DeepEqual(ts, tc.transforms) {
				t.Errorf("transforms %q, want %q", ts, tc.transforms)
			}
			switch {
			case tc.accounts == "" && opts.Accounts != nil:
				t.Errorf("accounts mapped by %q, want no mapping", opts.Accounts.By)
			case tc.accounts != "" && (opts.Accounts == nil || opts.Accounts.By != tc.accounts || opts.Accounts.Override != tc.override):
				t.Errorf("accounts %+v, want by %q override %v", opts.Accounts, tc.accounts, tc.override)
			}
			zone := ""
			if opts.Location != nil {
				zone = opts.Location.String()
			}
			if zone != tc.zone || opts.Shares != tc.shares || !reflect.DeepEqual(opts.Fields, tc.fields) {
				t.Errorf("zone %q shares %q fields %q, want %q %q %q", zone, opts.Shares, opts.Fields, tc.zone, tc.shares, tc.fields)
			}
			if opts.From != spec.From || opts.AssocOut != spec.AssocOut || opts.Stdin != in || opts.Stdout != out {
				t.Errorf("options %+v do not carry the spec's from, assoc-out, stdin and stdout", opts)
			}
		})
	}
}
