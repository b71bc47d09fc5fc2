package fairshare

import (
	"math"
	"strings"
	"testing"
)

// TestAddedAfterStart: associations added to a running controller (the
// harness runs sacctmgr add after slurmctld started) have fs_factor and
// level_fs 0 under Fair Tree until the first calc tick, because only
// fair_tree_decay (priority_multifactor.c _decay_thread) sets them and
// _get_fairshare_priority reads fs_factor as it stands. A real sprio on
// the harness showed every job at Priority 1 (all factors 0) until then.
func TestAddedAfterStart(t *testing.T) {
	tr, u, a := twoLevel(t)
	v := mustLookup(t, tr, "b", "v")
	cases := []struct {
		name      string
		alg       Algorithm
		added     bool
		fsBefore  float64 // user u before any tick
		lfsBefore float64 // account a before any tick
	}{
		// Fair Tree at a controller start: both users tie with no usage
		// (level_fs = shares/0 = inf for both), rank 2 of 2 users tied at
		// the top: fs = rank/users = 2/2 = 1.
		{"fair tree at start", FairTree, false, 1, math.Inf(1)},
		{"fair tree added after start", FairTree, true, 0, 0},
		// Classic computes on demand: 2^(-0/0.5) = 1 either way.
		{"classic added after start", Classic, true, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, tr, Config{Algorithm: c.alg, HalfLife: 60, AddedAfterStart: c.added})
			if got := e.FairShare(u); got != c.fsBefore {
				t.Errorf("FairShare before a tick = %v, want %v", got, c.fsBefore)
			}
			if c.alg == FairTree {
				if got := e.LevelFS(a); got != c.lfsBefore {
					t.Errorf("LevelFS before a tick = %v, want %v", got, c.lfsBefore)
				}
			}
			// The first tick computes every factor: with no usage both
			// users are tied, fs = 1 for each.
			e.BeginTick(100)
			e.EndTick(100)
			if e.FairShare(u) != 1 || e.FairShare(v) != 1 {
				t.Errorf("after the first tick: u %v v %v, want 1 and 1", e.FairShare(u), e.FairShare(v))
			}
		})
	}
}

// TestAddedAfterStartSshare: sshare -a -l -P of the reference harness
// before the first calc tick after its `sacctmgr add` (recorded in
// scenarios/testdata/slurm-ref/fairshare/run1/sshare-wave.txt, usage left
// out). The added associations were never computed: usage_norm is still
// slurmdb_create_assoc_usage's NO_VAL, which print_fields_double prints
// blank; usage_efctv, fs_factor and level_fs are still 0. root|root was
// computed by the tick at slurmctld's start with no usage anywhere:
// level_fs = S/0 = inf, one user ranked 1 of 1, fs = 1/1 = 1. Root's
// usage_efctv is 1 from the plugin's init. NormShares are the current
// ones (assoc_mgr recomputes them when associations are added):
// 1/(1+1+1+2) = .2 for root|root, a1, a2, and .4 for a3.
func TestAddedAfterStartSshare(t *testing.T) {
	tr := newBuilder(t).user("root", "root", 1).acct("a1", "root", 1).acct("a2", "root", 1).acct("a3", "root", 2).
		user("fsu1", "a1", 1).user("fsu2", "a2", 1).user("fsu3", "a3", 1).done()
	const tres = "cpu=0,mem=0,node=0,billing=0"
	want := strings.ReplaceAll(`Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins
root|||0.000000|0||1.000000||||@T
 root|root|1|0.200000|0|0.000000|0.000000|1.000000|inf||@T
 a1||1|0.200000|0||0.000000||0.000000||@T
  a1|fsu1|1|1.000000|0||0.000000|0.000000|0.000000||@T
 a2||1|0.200000|0||0.000000||0.000000||@T
  a2|fsu2|1|1.000000|0||0.000000|0.000000|0.000000||@T
 a3||2|0.400000|0||0.000000||0.000000||@T
  a3|fsu3|1|1.000000|0||0.000000|0.000000|0.000000||@T
`, "@T", tres)
	e := newEngine(t, tr, Config{Algorithm: FairTree, HalfLife: 60, AddedAfterStart: true})
	diffLines(t, sshare(t, e.Rows(), SshareOptions{Algorithm: FairTree, Long: true, Parsable2: true, All: true}), want)
	if u := e.NormUsage(mustLookup(t, tr, "a1", "fsu1")); !math.IsNaN(u) {
		t.Errorf("NormUsage of a1|fsu1 before a tick = %v, want NaN (not computed)", u)
	}
	// The first tick computes them all: usage_norm 0 with no usage.
	e.BeginTick(60)
	e.EndTick(60)
	if u := e.NormUsage(mustLookup(t, tr, "a1", "fsu1")); u != 0 {
		t.Errorf("NormUsage of a1|fsu1 after a tick = %v, want 0", u)
	}
}

// TestSetLastRan: a controller up before the trace ticked at T0 with no
// usage; the next tick decays by df^(T1-T0) what jobs ending between the
// two charged. HL 60 s: df = 1 - 0.693/60 = 0.98845. A job of billing 8
// running 0..20 and charged at its end: 20·df^20·8 = 126.86; the tick at
// 56 (T0 = -4) decays it by df^60 = 0.49822 to 63.21. Without SetLastRan
// the first tick decays nothing.
func TestSetLastRan(t *testing.T) {
	tr := newBuilder(t).acct("a", "root", 1).user("u", "a", 1).done()
	u := mustLookup(t, tr, "a", "u")
	df := 1 - 0.693/60
	charged := 20 * math.Pow(df, 20) * 8
	for _, c := range []struct {
		name  string
		phase bool
		want  float64
	}{
		{"controller ticked at -4", true, charged * math.Pow(df, 60)},
		{"no tick before the trace", false, charged},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, tr, Config{Algorithm: FairTree, HalfLife: 60})
			if c.phase {
				e.SetLastRan(-4)
			}
			e.ChargeAtEnd(u, 0, 20, 8, -1, TRES{})
			e.BeginTick(56)
			e.EndTick(56)
			if got := e.Usage(u); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("usage after the tick at 56 = %.6f, want %.6f", got, c.want)
			}
		})
	}
}
