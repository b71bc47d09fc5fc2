package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runApp runs the fairsim CLI in-process and returns stdout, stderr and
// the error main would print.
func runApp(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errb
	err := app.Run(append([]string{"fairsim"}, args...))
	return out.String(), errb.String(), err
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, err := runApp(t, args...)
	if err != nil {
		t.Fatalf("fairsim %s: %v\n%s", strings.Join(args, " "), err, errs)
	}
	return out
}

func diffText(t *testing.T, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, gl, wl)
		}
	}
}

// tresZero is a TRES column with no usage as Slurm's sshare prints it: every
// TRES of DEFAULT_ACCOUNTING_TRES (read_config.c) in id order.
const tresZero = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0"

// The tree of the classic fair-share example in Slurm 2.0's
// doc/html/priority_multifactor.shtml, with usage in its proportions:
// user1 200, user2 250, user4 250 billing-seconds (root 700).
//
// Classic (NO_FAIR_TREE). NormShares, the product of shares/level_shares
// down the tree: A .4, B .4·30/40 = .3, C .4·10/40 = .1, D .6, E .6·25/60
// = .25, F .6·35/60 = .35; users user1 .3, user2 .05, user3 .05, user4
// .25, user5 .35, as in the example. NormUsage = usage/700: A 450/700 = .642857,
// B 2/7 = .285714, C, D, E 5/14 = .357143. EffectvUsage: first tier = own
// (A 9/14, D 5/14), below U + (UE_parent − U)·S/S_siblings: B 2/7 +
// (9/14 − 2/7)·3/4 = 31/56 = .553571, C 5/14 + (4/14)/4 = 3/7 = .428571,
// E 5/14, F 0 + 5/14·35/60 = 5/24 = .208333; user1 31/56, user2 5/14 +
// (3/7 − 5/14)/2 = 11/28 = .392857, user3 3/14 = .214286, user4 5/14,
// user5 5/24. FairShare = 2^(−UE/S) on every row: A 2^(−(9/14)/.4) =
// .328248, B and user1 2^(−(31/56)/.3) = .278309, C 2^(−(3/7)/.1) =
// .051271, user2 2^(−(11/28)/.05) = .004313, user3 2^(−(3/14)/.05) =
// .051271, D 2^(−(5/14)/.6) = .661935, E and user4 2^(−(5/14)/.25) =
// .371499, F and user5 2^(−(5/24)/.35) = .661935; root has no share: 0.
// No LevelFS column under classic.
var workedClassic = strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins
root|||0.000000|700||1.000000|0.000000||@T
 a||40|0.400000|450|0.642857|0.642857|0.328248||@T
  b||30|0.300000|200|0.285714|0.553571|0.278309||@T
   b|user1|1|0.300000|200|0.285714|0.553571|0.278309||@T
  c||10|0.100000|250|0.357143|0.428571|0.051271||@T
   c|user2|1|0.050000|250|0.357143|0.392857|0.004313||@T
   c|user3|1|0.050000|0|0.000000|0.214286|0.051271||@T
 d||60|0.600000|250|0.357143|0.357143|0.661935||@T
  e||25|0.250000|250|0.357143|0.357143|0.371499||@T
   e|user4|1|0.250000|250|0.357143|0.357143|0.371499||@T
  f||35|0.350000|0|0.000000|0.208333|0.661935||@T
   f|user5|1|0.350000|0|0.000000|0.208333|0.661935||@T
`, "@T", tresZero)

// Fair Tree (the default) on the same tree and usage. NormShares per level:
// A .4, D .6, B 30/40 = .75, C .25, E 25/60 = .416667, F .583333, users 1
// (user2, user3 .5). EffectvUsage = usage / parent's usage: A .642857, D
// .357143, B 200/450 = .444444, C .555556, E 1, F 0, user1 1, user2 1,
// user3 0, user4 1, user5 0. LevelFS = S/U: A .622222, D 1.68, B 1.6875, C
// .45, E .416667, F, user3, user5 inf (no usage), user1 1, user2 .5,
// user4 1. Ranking, highest LevelFS first at each level: D before A; in D,
// F before E; in A, B before C; in C, user3 before user2. So user5, user4,
// user1, user3, user2 get 5/5, 4/5, 3/5, 2/5, 1/5. Accounts and root have
// no FairShare; root and nothing else has no LevelFS.
var workedFairTree = strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins
root|||0.000000|700||1.000000||||@T
 a||40|0.400000|450|0.642857|0.642857||0.622222||@T
  b||30|0.750000|200|0.285714|0.444444||1.687500||@T
   b|user1|1|1.000000|200|0.285714|1.000000|0.600000|1.000000||@T
  c||10|0.250000|250|0.357143|0.555556||0.450000||@T
   c|user2|1|0.500000|250|0.357143|1.000000|0.200000|0.500000||@T
   c|user3|1|0.500000|0|0.000000|0.000000|0.400000|inf||@T
 d||60|0.600000|250|0.357143|0.357143||1.680000||@T
  e||25|0.416667|250|0.357143|1.000000||0.416667||@T
   e|user4|1|1.000000|250|0.357143|1.000000|0.800000|1.000000||@T
  f||35|0.583333|0|0.000000|0.000000||inf||@T
   f|user5|1|1.000000|0|0.000000|0.000000|1.000000|inf||@T
`, "@T", tresZero)

// The same tree plus an account "other" with Fairshare=0 whose user "idle"
// has the remaining 300 billing-seconds, so root's usage (1000) is the
// whole machine and NormUsage is the example's fraction of it: user1 .20, user2
// .25, user4 .25, A .45, D .25. No share moves (0 shares). EffectvUsage
// is then the example's table exactly: A .45, D .25, B .2 + .25·30/40 = .3875, C
// .25 + .2·10/40 = .3, E .25, F .25·35/60 = .145833, user1 .3875, user2
// .25 + .05/2 = .275, user3 .15, user4 .25, user5 .145833; other and idle
// .3. Classic FairShare 2^(−UE/S): A 2^(−1.125) = .458502, B and user1
// 2^(−.3875/.3) = .408479, C 2^(−3) = .125, user2 2^(−5.5) = .022097,
// user3 2^(−3) = .125, D 2^(−.416667) = .749154, E and user4 2^(−1) = .5,
// F and user5 2^(−.416667) = .749154; no share: 0.
var workedOtherClassic = strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins
root|||0.000000|1000||1.000000|0.000000||@T
 a||40|0.400000|450|0.450000|0.450000|0.458502||@T
  b||30|0.300000|200|0.200000|0.387500|0.408479||@T
   b|user1|1|0.300000|200|0.200000|0.387500|0.408479||@T
  c||10|0.100000|250|0.250000|0.300000|0.125000||@T
   c|user2|1|0.050000|250|0.250000|0.275000|0.022097||@T
   c|user3|1|0.050000|0|0.000000|0.150000|0.125000||@T
 d||60|0.600000|250|0.250000|0.250000|0.749154||@T
  e||25|0.250000|250|0.250000|0.250000|0.500000||@T
   e|user4|1|0.250000|250|0.250000|0.250000|0.500000||@T
  f||35|0.350000|0|0.000000|0.145833|0.749154||@T
   f|user5|1|0.350000|0|0.000000|0.145833|0.749154||@T
 other||0|0.000000|300|0.300000|0.300000|0.000000||@T
  other|idle|1|0.000000|300|0.300000|0.300000|0.000000||@T
`, "@T", tresZero)

// The Slurm 2.0 formula F = (S − UE + 1)/2 on the same rows gives the example's
// factors: user1 (.3 − .3875 + 1)/2 = .45625, user2 (.05 − .275 + 1)/2 =
// .3875, user3 .45, user4 .5, user5 (.35 − .145833 + 1)/2 = .602083 (the
// doc's .6021); accounts A .475, B .45625, C .4, D .675, E .5, F .602083,
// other and idle (0 − .3 + 1)/2 = .35; root (0 − 1 + 1)/2 = 0.
var workedOtherSlurm20 = strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins
root|||0.000000|1000||1.000000|0.000000||@T
 a||40|0.400000|450|0.450000|0.450000|0.475000||@T
  b||30|0.300000|200|0.200000|0.387500|0.456250||@T
   b|user1|1|0.300000|200|0.200000|0.387500|0.456250||@T
  c||10|0.100000|250|0.250000|0.300000|0.400000||@T
   c|user2|1|0.050000|250|0.250000|0.275000|0.387500||@T
   c|user3|1|0.050000|0|0.000000|0.150000|0.450000||@T
 d||60|0.600000|250|0.250000|0.250000|0.675000||@T
  e||25|0.250000|250|0.250000|0.250000|0.500000||@T
   e|user4|1|0.250000|250|0.250000|0.250000|0.500000||@T
  f||35|0.350000|0|0.000000|0.145833|0.602083||@T
   f|user5|1|0.350000|0|0.000000|0.145833|0.602083||@T
 other||0|0.000000|300|0.300000|0.300000|0.350000||@T
  other|idle|1|0.000000|300|0.300000|0.300000|0.350000||@T
`, "@T", tresZero)

// accountRows drops the user rows (they have a User field).
func accountRows(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if f := strings.Split(l, "|"); len(f) > 1 && f[1] != "" && f[1] != "User" {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

func TestSshareStaticWorkedExample(t *testing.T) {
	const (
		dump  = "testdata/worked1.cfg"
		usage = "testdata/worked1-usage.csv"
		odump = "testdata/worked1-other.cfg"
		ouse  = "testdata/worked1-other-usage.csv"
	)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"classic -a -l -P", []string{"--assoc", dump, "--usage", usage, "--flags", "NO_FAIR_TREE", "-a", "-l", "-P"}, workedClassic},
		{"classic -alP, algorithm name", []string{"--assoc", dump, "--usage", usage, "--algorithm", "classic", "-alP"}, workedClassic},
		// sshare without -a lists the accounts only (plus the invoking
		// user, whom fairsim does not have).
		{"classic -l -P", []string{"--assoc", dump, "--usage", usage, "--flags", "NO_FAIR_TREE", "-l", "-P"}, accountRows(workedClassic)},
		{"fair tree -a -l -P", []string{"--assoc", dump, "--usage", usage, "-a", "-l", "-P"}, workedFairTree},
		{"fair tree -u user3", []string{"--assoc", dump, "--usage", usage, "-u", "user3", "-l", "-P"},
			accountRows(workedFairTree)[:strings.Index(accountRows(workedFairTree), " d|")] +
				"   c|user3|1|0.500000|0|0.000000|0.000000|0.400000|inf||" + tresZero + "\n" +
				accountRows(workedFairTree)[strings.Index(accountRows(workedFairTree), " d|"):]},
		{"zero-share rest, classic", []string{"--assoc", odump, "--usage", ouse, "--flags", "NO_FAIR_TREE", "-alP"}, workedOtherClassic},
		{"zero-share rest, slurm20", []string{"--assoc", odump, "--usage", ouse, "--algorithm", "slurm20", "-alP"}, workedOtherSlurm20},
		{"-p ends every field", []string{"--assoc", dump, "--usage", usage, "--flags", "NO_FAIR_TREE", "-a", "-p", "-A", "e", "--noheader"},
			// sshare indents a row only below a printed parent row.
			"e||25|0.250000|250|0.357143|0.371499|\n e|user4|1|0.250000|250|0.357143|0.371499|\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diffText(t, mustRun(t, append([]string{"sshare"}, tt.args...)...), tt.want)
		})
	}
}

// The consequence the example asserts: with fair-share the only factor, the
// Slurm 2.0 order is user5, user4, user1, user3, user2.
func TestSshareSlurm20Order(t *testing.T) {
	out := mustRun(t, "sshare", "--assoc", "testdata/worked1-other.cfg", "--usage", "testdata/worked1-other-usage.csv",
		"--algorithm", "slurm20", "-U", "-a", "-P", "--noheader")
	type uf struct {
		user string
		f    float64
	}
	var got []uf
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(l, "|")
		v, err := strconv.ParseFloat(f[6], 64)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if f[1] != "idle" {
			got = append(got, uf{f[1], v})
		}
	}
	if len(got) != 5 {
		t.Fatalf("want the 5 users of the example, got %v", got)
	}
	order := []string{"user5", "user4", "user1", "user3", "user2"}
	f := map[string]float64{}
	for _, g := range got {
		f[g.user] = g.f
	}
	for i := 1; i < len(order); i++ {
		if !(f[order[i-1]] > f[order[i]]) {
			t.Errorf("%s (%v) should rank above %s (%v)", order[i-1], f[order[i-1]], order[i], f[order[i]])
		}
	}
}

func TestSshareErrors(t *testing.T) {
	dir := t.TempDir()
	badUsage := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(badUsage, []byte("account,user,rawusage\nb,user1,200\nc,nobody,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // in the error
	}{
		{"nothing to show", nil, "give --assoc"},
		{"missing dump", []string{"--assoc", "testdata/none.cfg"}, "none.cfg"},
		{"usage names an unknown user", []string{"--assoc", "testdata/worked1.cfg", "--usage", badUsage}, "bad.csv:3"},
		{"unknown flag", []string{"--assoc", "testdata/worked1.cfg", "--flags", "NO_FAIR_TEE"}, "--flags"},
		{"unknown algorithm", []string{"--assoc", "testdata/worked1.cfg", "--algorithm", "fair"}, "--algorithm"},
		{"--at without scenario", []string{"--assoc", "testdata/worked1.cfg", "--at", "1-0"}, "--at needs --scenario"},
		{"scenario without --at", []string{"--scenario", "../../workflow/testdata/sprio-mixed.yaml"}, "needs --at"},
		{"scenario and static flags", []string{"--scenario", "../../workflow/testdata/sprio-mixed.yaml", "--at", "1-0", "--flags", "NO_FAIR_TREE"}, "--flags is for static views"},
		{"unknown scenario", []string{"--scenario", "testdata/nope.yaml", "--at", "1-0"}, "nope.yaml"},
		{"after the end", []string{"--scenario", "../../workflow/testdata/sprio-mixed.yaml", "--at", "60-0"}, "after the end of the run"},
		{"malformed time", []string{"--scenario", "../../workflow/testdata/sprio-mixed.yaml", "--at", "1:0:0:0"}, "--at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runApp(t, append([]string{"sshare"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// At a simulated time, sshare shows the run's fair-share engine: the
// account usages add up over the tree, and each user's FairShare is the
// factor behind the FAIRSHARE term sprio shows for that user's jobs at the
// same moment (sprio -n prints it unweighted).
func TestSshareAtScenarioMatchesSprio(t *testing.T) {
	const sc = "../../workflow/testdata/sprio-mixed.yaml"
	out := mustRun(t, "sshare", "--scenario", sc, "--at", "1-0", "-a", "-l", "-P")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|") {
		t.Fatalf("header %q: want Fair Tree's long columns", lines[0])
	}
	fs := map[string]float64{} // user -> FairShare
	var rootUsage, topUsage, userUsage uint64
	for _, l := range lines[1:] {
		f := strings.Split(l, "|")
		raw, err := strconv.ParseUint(f[4], 10, 64)
		if err != nil {
			t.Fatalf("%q: RawUsage: %v", l, err)
		}
		switch {
		case f[0] == "root":
			rootUsage = raw
		case f[1] != "":
			v, err := strconv.ParseFloat(f[7], 64)
			if err != nil {
				t.Fatalf("%q: FairShare: %v", l, err)
			}
			fs[f[1]] = v
			userUsage += raw
		case strings.Count(f[0], " ") == 1: // first-level accounts
			topUsage += raw
		}
	}
	if rootUsage == 0 {
		t.Fatal("no usage after a busy day")
	}
	// RawUsage is truncated per row, so sums may fall short by one per row.
	if d := float64(rootUsage) - float64(topUsage); d < 0 || d > float64(len(lines)) {
		t.Errorf("root usage %d, accounts add up to %d", rootUsage, topUsage)
	}
	if d := float64(rootUsage) - float64(userUsage); d < 0 || d > float64(len(lines)) {
		t.Errorf("root usage %d, users add up to %d", rootUsage, userUsage)
	}

	sp := mustRun(t, "sprio", "--scenario", sc, "--at", "1-0", "-l", "-n")
	sl := strings.Split(strings.TrimSpace(sp), "\n")
	checked := 0
	for _, l := range sl[1:] {
		f := strings.Fields(l)
		// JOBID PARTITION USER ACCOUNT PRIORITY AGE ASSOC FAIRSHARE ...
		v, err := strconv.ParseFloat(f[7], 64)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		want, ok := fs[f[2]]
		if !ok {
			t.Fatalf("sprio lists user %s, sshare has no row for it", f[2])
		}
		if math.Abs(v-want) > 1e-6 {
			t.Errorf("job %s of %s: sprio fair-share %v, sshare %v", f[0], f[2], v, want)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d pending jobs to compare", checked)
	}
}
