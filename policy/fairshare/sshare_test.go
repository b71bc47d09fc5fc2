package fairshare

import (
	"math"
	"strings"
	"testing"
)

// slurm20Engine loads the Slurm 2.0 example tree with user1 200, user2 250 and
// user4 250 billing-seconds (root 700).
func slurm20Engine(t *testing.T, alg Algorithm) *Engine {
	e := newEngine(t, slurm20Tree(t), Config{Algorithm: alg, HalfLife: week})
	setUsage(t, e, "B", "user1", 200)
	setUsage(t, e, "C", "user2", 250)
	setUsage(t, e, "E", "user4", 250)
	e.Recalc()
	return e
}

func sshare(t *testing.T, rows []Row, o SshareOptions) string {
	t.Helper()
	var b strings.Builder
	if err := WriteSshare(&b, rows, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func diffLines(t *testing.T, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
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

// sshare -l -P under classic, Slurm 2.0 example tree. usage_norm = usage/700:
// A 450/700 = .642857, B .285714, C .357143, D .357143, E .357143.
// UE: A .642857, D .357143 (first tier); B = .285714 + (.642857 −
// .285714)·30/40 = .553571; C = .357143 + (.642857 − .357143)·10/40 =
// .428571; E = .357143; F = 0 + .357143·35/60 = .208333; user1 = .553571;
// user2 = .357143 + (.428571 − .357143)/2 = .392857; user3 = .428571/2 =
// .214286; user4 .357143; user5 .208333. FairShare = 2^(−UE/S) on every
// row: A 2^(−.642857/.4) = .328248, user2 2^(−.392857/.05) = .004313, …;
// root: S = 0 ⇒ 0. No LevelFS column under classic.
func TestSshareClassicLongParsable2(t *testing.T) {
	e := slurm20Engine(t, Classic)
	const tres = "cpu=0,mem=0,node=0,billing=0"
	want := strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins
root|||0.000000|700||1.000000|0.000000||@T
 A||40|0.400000|450|0.642857|0.642857|0.328248||@T
  B||30|0.300000|200|0.285714|0.553571|0.278309||@T
   B|user1|1|0.300000|200|0.285714|0.553571|0.278309||@T
  C||10|0.100000|250|0.357143|0.428571|0.051271||@T
   C|user2|1|0.050000|250|0.357143|0.392857|0.004313||@T
   C|user3|1|0.050000|0|0.000000|0.214286|0.051271||@T
 D||60|0.600000|250|0.357143|0.357143|0.661935||@T
  E||25|0.250000|250|0.357143|0.357143|0.371499||@T
   E|user4|1|0.250000|250|0.357143|0.357143|0.371499||@T
  F||35|0.350000|0|0.000000|0.208333|0.661935||@T
   F|user5|1|0.350000|0|0.000000|0.208333|0.661935||@T
`, "@T", tres)
	got := sshare(t, e.Rows(), SshareOptions{Algorithm: Classic, Long: true, Parsable2: true, All: true})
	diffLines(t, got, want)
}

// sshare -l -P under Fair Tree, same tree and usage. S per level (B 30/40
// = .75, E 25/60 = .416667, F .583333, users of C .5), U = usage/parent
// usage (B 200/450 = .444444, C .555556, E 250/250 = 1), LF = S/U: A
// .4/.642857 = .622222, D .6/.357143 = 1.68, B 1.6875, C .45, E .416667,
// F, user3, user5 inf. Ranking (5 users): D before A; in D, F (inf)
// before E: user5 rank 5 (1.0), user4 4 (.8); in A, B before C: user1 3
// (.6); in C user3 (inf) 2 (.4), user2 1 (.2). Accounts have no FairShare.
func TestSshareFairTreeLongParsable2(t *testing.T) {
	e := slurm20Engine(t, FairTree)
	const tres = "cpu=0,mem=0,node=0,billing=0"
	want := strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins
root|||0.000000|700||1.000000||||@T
 A||40|0.400000|450|0.642857|0.642857||0.622222||@T
  B||30|0.750000|200|0.285714|0.444444||1.687500||@T
   B|user1|1|1.000000|200|0.285714|1.000000|0.600000|1.000000||@T
  C||10|0.250000|250|0.357143|0.555556||0.450000||@T
   C|user2|1|0.500000|250|0.357143|1.000000|0.200000|0.500000||@T
   C|user3|1|0.500000|0|0.000000|0.000000|0.400000|inf||@T
 D||60|0.600000|250|0.357143|0.357143||1.680000||@T
  E||25|0.416667|250|0.357143|1.000000||0.416667||@T
   E|user4|1|1.000000|250|0.357143|1.000000|0.800000|1.000000||@T
  F||35|0.583333|0|0.000000|0.000000||inf||@T
   F|user5|1|1.000000|0|0.000000|0.000000|1.000000|inf||@T
`, "@T", tres)
	got := sshare(t, e.Rows(), SshareOptions{Algorithm: FairTree, Long: true, Parsable2: true, All: true})
	diffLines(t, got, want)
}

// The default fixed-width table (printf "%-20.20s ", "%10s ", "%11f ",
// "%11llu ", "%13f ", "%10f " …, every cell followed by a space), as C
// prints it; derived independently with C-format strings.
func TestSshareFairTreeTable(t *testing.T) {
	e := slurm20Engine(t, FairTree)
	want := "" +
		"Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare \n" +
		"-------------------- ---------- ---------- ----------- ----------- ------------- ---------- \n" +
		"root                                          0.000000         700      1.000000            \n" +
		" A                                      40    0.400000         450      0.642857            \n" +
		"  B                                     30    0.750000         200      0.444444            \n" +
		"   B                      user1          1    1.000000         200      1.000000   0.600000 \n" +
		"  C                                     10    0.250000         250      0.555556            \n" +
		"   C                      user2          1    0.500000         250      1.000000   0.200000 \n" +
		"   C                      user3          1    0.500000           0      0.000000   0.400000 \n" +
		" D                                      60    0.600000         250      0.357143            \n" +
		"  E                                     25    0.416667         250      1.000000            \n" +
		"   E                      user4          1    1.000000         250      1.000000   0.800000 \n" +
		"  F                                     35    0.583333           0      0.000000            \n" +
		"   F                      user5          1    1.000000           0      0.000000   1.000000 \n"
	diffLines(t, sshare(t, e.Rows(), SshareOptions{Algorithm: FairTree, All: true}), want)
}

func TestSshareParsableAndFilters(t *testing.T) {
	e := slurm20Engine(t, FairTree)
	rows := e.Rows()
	tests := []struct {
		name string
		o    SshareOptions
		want string
	}{
		{
			// -p: a '|' after every field, header included.
			name: "parsable with -A C -a",
			o:    SshareOptions{Algorithm: FairTree, Parsable: true, All: true, Accounts: []string{"c"}},
			// A is not printed, so C is not indented; its users are one
			// level deeper than C.
			want: "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare|\n" +
				"C||10|0.250000|250|0.555556||\n" +
				" C|user2|1|0.500000|250|1.000000|0.200000|\n" +
				" C|user3|1|0.500000|0|0.000000|0.400000|\n",
		},
		{
			// Without -a only the listed users' rows (case-insensitive)
			// appear next to every account row; --noheader.
			name: "user list, no header",
			o:    SshareOptions{Algorithm: FairTree, Parsable2: true, NoHeader: true, Users: []string{"USER4"}},
			want: "root|||0.000000|700|1.000000|\n" +
				" A||40|0.400000|450|0.642857|\n" +
				"  B||30|0.750000|200|0.444444|\n" +
				"  C||10|0.250000|250|0.555556|\n" +
				" D||60|0.600000|250|0.357143|\n" +
				"  E||25|0.416667|250|1.000000|\n" +
				"   E|user4|1|1.000000|250|1.000000|0.800000\n" +
				"  F||35|0.583333|0|0.000000|\n",
		},
		{
			// -U: users only; with no account rows nothing is indented.
			name: "users only",
			o:    SshareOptions{Algorithm: FairTree, Parsable2: true, NoHeader: true, All: true, UsersOnly: true, Accounts: []string{"B", "F"}},
			want: "B|user1|1|1.000000|200|1.000000|0.600000\n" +
				"F|user5|1|1.000000|0|0.000000|1.000000\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diffLines(t, sshare(t, rows, tc.o), tc.want)
		})
	}
}

// print_fields edge cases in a table: long names are cut with '+', +Inf
// prints "inf", a double wider than its column switches to %e narrowed to
// fit, NO_VAL doubles and NO_VAL64 integers print blank.
func TestSshareTableEdgeCases(t *testing.T) {
	rows := []Row{
		{Account: "a_very_long_account_name_x", ParentAccount: "root", RawShares: "parent",
			NormShares: 0.25, RawUsage: 12345678901234, EffectvUsage: math.Inf(1),
			FairShare: 0.5, HasFairShare: true, LevelFS: 50000, HasLevelFS: true,
			NormUsage: 4294967294, HasNormUsage: true},
		{Account: "b", ParentAccount: "root", IsUser: true, User: "someoneverylong",
			RawShares: "7", RawUsage: math.MaxUint64 - 1, LevelFS: 4294967294, HasLevelFS: true,
			EffectvUsage: 1234567.5, FairShare: 1, HasFairShare: true},
	}
	for k := range NumTRES {
		rows[0].GrpTRESMins[k] = NoLimit
		rows[1].GrpTRESMins[k] = NoLimit
	}
	rows[1].GrpTRESMins[TRESCPU] = 600
	rows[0].TRESRunMins = [NumTRES]uint64{123456789, 123456789, 123456789, 123456789}
	got := sshare(t, rows, SshareOptions{Algorithm: FairTree, Long: true, NoHeader: true, All: true})
	want := "" +
		// "%-20.20s " of a 26-char name: 19 chars + '+'; User NULL: 10
		// blanks; "parent" right-justified in 10; the 14-digit RawUsage
		// overflows its 11 columns (integers are never cut); NormUsage
		// NO_VAL: blank; +Inf: "inf"; 50000 in a 10-wide column: "%10f"
		// is 12 chars, "%10.10e" 16, so width 10−6 = 4 and "%4.4e" =
		// "5.0000e+04"; no limits: 30 blanks; TRES string cut at 30.
		"a_very_long_account+                parent    0.250000 12345678901234                       inf   0.500000 5.0000e+04                                cpu=123456789,mem=123456789,n+ \n" +
		// A user row prints its account name (no printed parent row, so
		// no indentation); the user name is cut to 10; NO_VAL64 usage
		// and NO_VAL LevelFS are blank; 1234567.5 needs 14 > 13 columns:
		// "%13.13e" is 19 chars, so "%7.7e" = "1.2345675e+06".
		"b                    someoneve+          7    0.000000                         1.2345675e+06   1.000000                                   cpu=600   cpu=0,mem=0,node=0,billing=0 \n"
	diffLines(t, got, want)
}

// No --format string may panic; a valid one prints one cell per field.
func FuzzSshareFormat(f *testing.F) {
	for _, s := range []string{"Account,User,GrpTRESRaw,GrpTRESMins,TRESRunMins", "acc%-6,u%4,grptresr%-40,cl",
		"A,User,P,RawShares,NormShares,RawUsage,NormUsage,Eff,Fairshare,LevelFS,GrpTRESMins,TRESRunMins", "ID", "%", ",", "n%99999999999"} {
		f.Add(s)
	}
	rows := []Row{{Account: "a", ParentAccount: "root", RawShares: "1", HasFairShare: true}}
	f.Fuzz(func(t *testing.T, format string) {
		var b strings.Builder
		if err := WriteSshare(&b, rows, SshareOptions{Format: format, All: true, Parsable2: true, NoHeader: true, SlurmTRES: true, TRESCount: NumTRES}); err != nil {
			return
		}
		if got, want := strings.Count(b.String(), "|"), len(strings.Split(format, ","))-1; got < want {
			t.Errorf("format %q: %d separators, want at least %d", format, got, want)
		}
	})
}
