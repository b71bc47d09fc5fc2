package scenarios

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The heavy scenarios (testdata/heavy-classic.yaml, heavy-fairtree.yaml,
// sharing testdata/heavy/) are issue 4's "fairshare.png shows a heavy
// account's factor falling while it runs and recovering with the
// half-life after it stops", with the numbers behind the plot checked
// here. The setup, all of it hand-written:
//
//   - 4 Broadwell nodes of 16 cores, partition batch with
//     TRESBillingWeights=CPU=1.0: billing = allocated cores.
//   - Accounts heavy and light, Fairshare=100 each, one user each (u1,
//     u2), no root user: NormShares 0.5 for both accounts and both users
//     (classic: 100/200 × 1/1).
//   - PriorityDecayHalfLife=1-0 (HL = 86,400 s), PriorityCalcPeriod=5
//     (ticks every 300 s from the first submit), fairshare.sample_interval
//     1:00:00 (a csv row per association every 12th tick).
//   - light: a 4-core job of 7,200 s every 7,200 s for 14 days (168 jobs),
//     so 4 cores are always busy from time 3 to day 14.
//   - heavy: three 16-core jobs of 172,800 s submitted on day 2 (172,800
//     s), started by the full pass of that second, ending on day 4
//     (345,600): 48 cores for two days, then nothing.
//   - 52 of 64 cores are the most ever asked for: nothing waits, and the
//     schedule (so the usage) is the same under both algorithms.
//
// Decay is Slurm's, not the exact exponential: f = 1 - 0.693/HL per
// second = 0.999991979166667, and one half-life multiplies usage by
// f^86400 = 0.500072206 (2^-1 would be 0.5), ten by f^864000 =
// 0.000977974 (2^-10 = 0.000976563). For rough figures below, continuous
// decay λ = ln 2/HL, 1/λ = 124,649 s: light's usage after t seconds is
// 4/λ × (1 - 2^(-t/HL)) (373,947 on day 2, 467,433 on day 4, 498,595 at
// most); heavy's after τ seconds of its burst 48/λ × (1 - 2^(-τ/HL))
// (4,487,359 on day 4).
const (
	heavyHL     = 86400
	heavyPeriod = 300
	heavyStart  = 172800 // heavy's three jobs start (day 2) ...
	heavyStop   = 345600 // ... and end (day 4)
)

// fsSample is one fairshare.csv time for the two accounts.
type fsSample struct {
	t int64
	// by account: the account row's RawUsage, EffectvUsage and LevelFS,
	// and its user's FairShare.
	raw map[string]uint64
	ue  map[string]float64
	lf  map[string]string
	fs  map[string]float64
}

// readFairshareCSV reads fairshare.csv into samples in time order.
func readFairshareCSV(t *testing.T, path string) []fsSample {
	t.Helper()
	rows := readCSV(t, path)
	h := rows[0]
	cT, cA, cU, cRaw, cUE, cFS, cLF := index(h, "time"), index(h, "Account"), index(h, "User"),
		index(h, "RawUsage"), index(h, "EffectvUsage"), index(h, "FairShare"), index(h, "LevelFS")
	var out []fsSample
	for _, r := range rows[1:] {
		tm, err := strconv.ParseInt(r[cT], 10, 64)
		if err != nil {
			t.Fatalf("%s: time %q: %v", path, r[cT], err)
		}
		if len(out) == 0 || out[len(out)-1].t != tm {
			if len(out) > 0 && tm < out[len(out)-1].t {
				t.Fatalf("%s: time goes back from %d to %d", path, out[len(out)-1].t, tm)
			}
			out = append(out, fsSample{t: tm, raw: map[string]uint64{}, ue: map[string]float64{},
				lf: map[string]string{}, fs: map[string]float64{}})
		}
		s := &out[len(out)-1]
		acct := r[cA]
		if r[cU] == "" {
			raw, err := strconv.ParseUint(r[cRaw], 10, 64)
			if err != nil {
				t.Fatalf("%s: RawUsage %q: %v", path, r[cRaw], err)
			}
			s.raw[acct] = raw
			s.ue[acct] = parseF(t, r[cUE])
			s.lf[acct] = r[cLF]
			continue
		}
		s.fs[acct] = parseF(t, r[cFS])
	}
	return out
}

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// ledgerJob is what the usage model needs of a jobs.csv row.
type ledgerJob struct {
	acct       string
	start, end int64
	billing    float64
}

func readLedgerJobs(t *testing.T, path string) []ledgerJob {
	t.Helper()
	rows := readCSV(t, path)
	h := rows[0]
	cA, cS, cE, cB := index(h, "Account"), index(h, "Start"), index(h, "End"), index(h, "Billing")
	var out []ledgerJob
	for _, r := range rows[1:] {
		out = append(out, ledgerJob{acct: r[cA], start: int64(atoi(t, r[cS])), end: int64(atoi(t, r[cE])),
			billing: parseF(t, r[cB])})
	}
	return out
}

// slurmUsage replays Slurm's decay thread (slurm-semantics.md §2.1–§2.3)
// over the run's jobs, independently of the engine: ticks every period
// from time 0; a job ending in (T-period, T] is charged at its end for
// d = end - max(T-period, start) seconds as d·f^d·billing, before the tick
// (the sim orders ends before ticks); the tick at T then multiplies all
// usage by f^period and charges each job running across T for d = T -
// max(T-period, start). It returns each account's usage after the tick at
// every multiple of period up to until.
func slurmUsage(jobs []ledgerJob, hl, period, until int64) map[int64]map[string]float64 {
	f := 1 - 0.693/float64(hl)
	slice := func(d int64) float64 { return float64(d) * math.Pow(f, float64(d)) }
	u := map[string]float64{}
	out := map[int64]map[string]float64{}
	for T := period; T <= until; T += period {
		last := T - period
		for _, j := range jobs {
			if j.end > last && j.end <= T && j.end > j.start {
				u[j.acct] += slice(j.end-max(last, j.start)) * j.billing
			}
		}
		for a := range u {
			u[a] *= math.Pow(f, float64(period))
		}
		for _, j := range jobs {
			if j.start < T && j.end > T {
				u[j.acct] += slice(T-max(last, j.start)) * j.billing
			}
		}
		snap := map[string]float64{}
		for a, v := range u {
			snap[a] = v
		}
		out[T] = snap
	}
	return out
}

// sampleAt finds the sample at time tm.
func sampleAt(t *testing.T, ss []fsSample, tm int64) *fsSample {
	t.Helper()
	for i := range ss {
		if ss[i].t == tm {
			return &ss[i]
		}
	}
	t.Fatalf("fairshare.csv has no sample at %d", tm)
	return nil
}

// TestFairshareHeavyAccountRecovers runs both heavy scenarios through the
// CLI and checks fairshare.csv: the usage ledger against a replay of
// Slurm's decay thread, heavy's usage halving (by 0.500072) every
// half-life after it stops, and each algorithm's factor falling while
// heavy runs and recovering after.
func TestFairshareHeavyAccountRecovers(t *testing.T) {
	f := 1 - 0.693/float64(heavyHL)
	perHL := math.Pow(f, heavyHL)     // 0.500072206
	perHour := math.Pow(f, 3600)      // 0.971537787: twelve ticks of f^300
	series := map[string][]fsSample{} // by scenario
	for _, name := range []string{"heavy-classic", "heavy-fairtree"} {
		out := t.TempDir()
		cli(t, "run", "--scenario", filepath.Join("testdata", name+".yaml"), "--out", out, "--quiet")
		png, err := os.ReadFile(filepath.Join(out, "fairshare.png"))
		if err != nil || len(png) < 1000 || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s: fairshare.png missing, tiny or not a PNG (%d bytes, %v)", name, len(png), err)
		}
		ss := readFairshareCSV(t, filepath.Join(out, "fairshare.csv"))
		series[name] = ss
		jobs := readLedgerJobs(t, filepath.Join(out, "jobs.csv"))

		// The schedule the comments assume.
		nHeavy := 0
		for _, j := range jobs {
			if j.acct == "heavy" {
				nHeavy++
				if j.start != heavyStart || j.end != heavyStop || j.billing != 16 {
					t.Fatalf("%s: heavy job %+v, want %d to %d, billing 16", name, j, heavyStart, heavyStop)
				}
			}
		}
		if len(jobs) != 171 || nHeavy != 3 {
			t.Fatalf("%s: %d jobs, %d of heavy; want 3 + 168", name, len(jobs), nHeavy)
		}
		// Samples every hour: 0, 3600, ..., 1,209,600 (14 days; the last
		// light job ends then).
		if len(ss) != 337 || ss[0].t != 0 || ss[1].t != 3600 || ss[336].t != 14*86400 {
			t.Fatalf("%s: %d samples from %d to %d, want 337 hourly from 0 to 1209600", name, len(ss), ss[0].t, ss[len(ss)-1].t)
		}

		// 1. The ledger: every sample's RawUsage is Slurm's decayed
		// billing-seconds, truncated to an integer (sshare's (uint64)).
		model := slurmUsage(jobs, heavyHL, heavyPeriod, ss[len(ss)-1].t)
		for _, s := range ss[1:] {
			for _, a := range []string{"heavy", "light"} {
				want := model[s.t][a]
				if got := float64(s.raw[a]); math.Abs(got-want) > 1+1e-9*want {
					t.Errorf("%s: t=%d %s RawUsage %d, Slurm's decay thread gives %.3f", name, s.t, a, s.raw[a], want)
				}
			}
		}

		// 2. Decay after heavy stops. Its jobs end at 345,600, on a tick:
		// the end charges the last 300 s slice (300·f^300·48), then the
		// tick decays it once more. The sample at 345,600 shows 4,482,429,
		// and from there heavy's usage only decays, at ticks: f^300 per
		// tick, f^3600 = 0.971537787 per sample (4,482,429.x × f^3600 =
		// 4,354,849 at 349,200), f^86400 = 0.500072206 per half-life
		// whatever the tick count: Slurm's 1-0.693/HL approximation,
		// 7.2e-5 above an exact halving.
		for i := range ss[1:] {
			a, b := ss[i], ss[i+1]
			if a.t < heavyStop {
				continue
			}
			if want := (float64(a.raw["heavy"]) + 0.5) * perHour; math.Abs(float64(b.raw["heavy"])-want) > 1.5 {
				t.Errorf("%s: heavy RawUsage %d at %d, %d an hour later, want ×f^3600 = %.1f", name, a.raw["heavy"], a.t, b.raw["heavy"], want)
			}
		}
		for _, t0 := range []int64{heavyStop, heavyStop + 3600, heavyStop + heavyHL, heavyStop + 2*heavyHL} {
			r0, r1 := sampleAt(t, ss, t0).raw["heavy"], sampleAt(t, ss, t0+heavyHL).raw["heavy"]
			ratio := float64(r1) / float64(r0)
			// RawUsage is truncated: 1 in ~10^6..10^5 at most.
			if tol := 1/float64(r1) + 1/float64(r0); math.Abs(ratio-perHL) > tol {
				t.Errorf("%s: heavy RawUsage %d at %d, %d one half-life later: ratio %.7f, want f^86400 = %.7f ± %.1g",
					name, r0, t0, r1, ratio, perHL, tol)
			}
			if math.Abs(ratio-0.5) < 5e-5 {
				t.Errorf("%s: heavy usage halves exactly (%.7f): Slurm's decay is 1-0.693/HL per second, 0.500072 per half-life", name, ratio)
			}
		}
		// Ten half-lives: 4,482,429 × f^864000 = 4,383.7 on day 14 (an
		// exact 2^-10 would leave 4,377.4).
		r0, r10 := sampleAt(t, ss, heavyStop).raw["heavy"], sampleAt(t, ss, heavyStop+10*heavyHL).raw["heavy"]
		if want := float64(r0) * math.Pow(f, 10*heavyHL); math.Abs(float64(r10)-want) > 1.5 {
			t.Errorf("%s: heavy RawUsage ten half-lives after %d: %d, want %d × f^864000 = %.1f", name, heavyStop, r10, r0, want)
		}
	}

	// Both algorithms see the same usage: nothing ever waited, so the
	// schedule is the same.
	cl, ft := series["heavy-classic"], series["heavy-fairtree"]
	for i := range cl {
		if cl[i].raw["heavy"] != ft[i].raw["heavy"] || cl[i].raw["light"] != ft[i].raw["light"] {
			t.Fatalf("t=%d: RawUsage classic %v, Fair Tree %v: the schedules differ", cl[i].t, cl[i].raw, ft[i].raw)
		}
	}

	// When heavy's usage overtakes light's, and when it drops back below.
	// Overtaking: 48/λ(1 - 2^(-τ/HL)) = 4/λ(1 - 2^(-(2 days + τ)/HL)) at
	// τ = 8,222 s, so the first sample with heavy ahead is 3 h into the
	// burst, 183,600 (495,984 vs 383,837; 335,406 vs 380,490 at 2 h).
	// Dropping back: 4,487,359 × 2^-x = 498,595 × (1 - 2^-(4+x)) gives
	// 2^-x = 0.1103, x = 3.180 half-lives after the stop, t ≈ 620,344
	// (hour 172.3): the first sample with heavy below is 622,800.
	over, under := int64(-1), int64(-1)
	for _, s := range cl {
		if over < 0 && s.raw["heavy"] > s.raw["light"] {
			over = s.t
		}
		if over >= 0 && under < 0 && s.raw["heavy"] < s.raw["light"] {
			under = s.t
		}
	}
	if over != heavyStart+3*3600 || under < 619200 || under > 626400 {
		t.Fatalf("heavy's usage passes light's at %d and drops back at %d, want 183,600 and within an hour of 620,344", over, under)
	}

	t.Run("classic", func(t *testing.T) {
		// Classic: UE of a first-tier account = its usage / root's (the
		// usage as it stood before the tick's decay and charge, §2.2 step
		// 2); a one-user account's user inherits it (S_user/S_siblings =
		// 1), and FairShare = 2^(-UE/0.5).
		for _, s := range cl {
			for _, a := range []string{"heavy", "light"} {
				if want := math.Pow(2, -s.ue[a]/0.5); math.Abs(s.fs[a]-want) > 2e-6 {
					t.Errorf("t=%d %s: FairShare %.6f, want 2^(-%.6f/0.5) = %.6f", s.t, a, s.fs[a], s.ue[a], want)
				}
			}
		}
		for _, s := range cl {
			if s.t > heavyStart {
				break
			}
			// Before the burst: heavy has no usage, FairShare 2^0 = 1;
			// light has all of root's, UE 1, FairShare 2^-2 = 0.25.
			if s.fs["heavy"] != 1 || (s.t > 0 && s.fs["light"] != 0.25) {
				t.Errorf("t=%d: FairShare heavy %v light %v, want 1 and 0.25 before heavy runs", s.t, s.fs["heavy"], s.fs["light"])
			}
		}
		// While heavy runs its share of root's usage grows at every
		// moment (d/dt(H/L) > 0 as long as H < 12 L: it is charged 48
		// core-seconds a second to light's 4), so its FairShare falls:
		// 1 at 172,800, 0.666 an hour in, 0.298 after a day, and at the
		// stop UE = 4,482,429/(4,482,429 + 466,902) = 0.905664, FairShare
		// 2^(-2 × 0.905664) = 0.284929 (the continuous estimate,
		// 4,487,359/(4,487,359 + 467,433) = 0.9057, agrees). Samples are
		// compared two hours apart: UE is taken before the tick's charges,
		// so at light's job boundaries (even hours) its end-of-job slice
		// is in and heavy's 300 s slice is not, a wobble of ~0.001.
		for i := range cl {
			s := &cl[i]
			if s.t < heavyStart+7200 || s.t > heavyStop {
				continue
			}
			if p := &cl[i-2]; s.fs["heavy"] >= p.fs["heavy"] || s.fs["light"] <= p.fs["light"] {
				t.Errorf("t=%d: FairShare heavy %.6f light %.6f, two hours before %.6f %.6f: heavy must fall, light rise",
					s.t, s.fs["heavy"], s.fs["light"], p.fs["heavy"], p.fs["light"])
			}
		}
		if s := sampleAt(t, cl, heavyStop); math.Abs(s.ue["heavy"]-0.905664) > 2e-6 || math.Abs(s.fs["heavy"]-0.284929) > 2e-6 {
			t.Errorf("t=%d: heavy EffectvUsage %.6f FairShare %.6f, want 0.905664 and 0.284929", s.t, s.ue["heavy"], s.fs["heavy"])
		}
		// After the stop heavy's usage only decays while light's grows
		// toward 4/λ, so heavy's share of root's usage falls and its
		// FairShare rises at every sample. UE lags the usage by up to one
		// tick, so it lies between the ratio of the usage shown and the
		// ratio an hour before. With equal shares the factors cross where
		// the usages do, at 622,800; on day 14 heavy's UE is
		// 4,383/(4,383 + 498,017) = 0.008725, FairShare 0.987977, light's
		// 2^(-2 × 0.991275) = 0.253042.
		for i := range cl {
			s := &cl[i]
			if s.t <= heavyStop {
				continue
			}
			p := &cl[i-1]
			now := float64(s.raw["heavy"]) / float64(s.raw["heavy"]+s.raw["light"])
			before := float64(p.raw["heavy"]) / float64(p.raw["heavy"]+p.raw["light"])
			if s.ue["heavy"] < now-2e-6 || s.ue["heavy"] > before+2e-6 {
				t.Errorf("t=%d: heavy EffectvUsage %.6f, want between %.6f (now) and %.6f (an hour before)", s.t, s.ue["heavy"], now, before)
			}
			if s.fs["heavy"] <= p.fs["heavy"] || s.fs["light"] >= p.fs["light"] {
				t.Errorf("t=%d: FairShare heavy %.6f light %.6f, an hour before %.6f %.6f: heavy must rise, light fall",
					s.t, s.fs["heavy"], s.fs["light"], p.fs["heavy"], p.fs["light"])
			}
			if heavyAhead := s.fs["heavy"] > s.fs["light"]; heavyAhead != (s.t >= under) {
				t.Errorf("t=%d: heavy %.6f, light %.6f: want heavy ahead from t=%d on", s.t, s.fs["heavy"], s.fs["light"], under)
			}
		}
		if end := cl[len(cl)-1]; math.Abs(end.fs["heavy"]-0.987977) > 2e-6 || math.Abs(end.fs["light"]-0.253042) > 2e-6 {
			t.Errorf("day 14: FairShare heavy %.6f light %.6f, want 0.987977 and 0.253042", end.fs["heavy"], end.fs["light"])
		}
	})

	t.Run("fairtree", func(t *testing.T) {
		// Fair Tree ranks the two users by their accounts' LevelFS =
		// S/U = 0.5/EffectvUsage: N = 2, the better gets 2/2 = 1.0, the
		// other 1/2. At 0 both are tied at +Inf (no usage) and get 1.0.
		if s := ft[0]; s.fs["heavy"] != 1 || s.fs["light"] != 1 || s.lf["heavy"] != "inf" || s.lf["light"] != "inf" {
			t.Errorf("t=0: FairShare %v LevelFS %v, want both 1 and inf (tied, no usage)", s.fs, s.lf)
		}
		for _, s := range ft[1:] {
			// EffectvUsage of an account is its usage over root's, fresh
			// after the tick's charges: heavy + light make up root. The
			// csv's usage is truncated to integers and UE rounded to 6
			// decimals, hence the tolerance.
			tot := float64(s.raw["heavy"] + s.raw["light"])
			ue := float64(s.raw["heavy"]) / tot
			if tol := ue*(1/max(float64(s.raw["heavy"]), 1)+1/tot) + 5e-7; math.Abs(s.ue["heavy"]-ue) > tol {
				t.Errorf("t=%d: heavy EffectvUsage %.6f, want %d/%.0f = %.6f", s.t, s.ue["heavy"], s.raw["heavy"], tot, ue)
			}
			// The account with less usage ranks first: heavy before the
			// burst (LevelFS +Inf) and from 622,800 on, light from
			// 183,600 to 619,200. At the stop: heavy 0.5/0.905664 =
			// 0.552081, light 0.5/0.094336 = 5.300178.
			wantHeavy, wantLight := 1.0, 0.5
			if s.t >= over && s.t < under {
				wantHeavy, wantLight = 0.5, 1.0
			}
			if s.fs["heavy"] != wantHeavy || s.fs["light"] != wantLight {
				t.Errorf("t=%d: FairShare heavy %v light %v, want %v and %v (usage %d vs %d)",
					s.t, s.fs["heavy"], s.fs["light"], wantHeavy, wantLight, s.raw["heavy"], s.raw["light"])
			}
			if s.t <= heavyStart && s.lf["heavy"] != "inf" {
				t.Errorf("t=%d: heavy LevelFS %s before it ran, want inf", s.t, s.lf["heavy"])
			}
		}
		if s := sampleAt(t, ft, heavyStop); s.lf["heavy"] != "0.552081" || s.lf["light"] != "5.300178" {
			t.Errorf("t=%d: LevelFS heavy %s light %s, want 0.552081 and 5.300178", s.t, s.lf["heavy"], s.lf["light"])
		}
	})
	if testing.Verbose() {
		for _, tm := range []int64{heavyStart, heavyStart + 3600, over, heavyStop, heavyStop + heavyHL, under, 14 * 86400} {
			c, r := sampleAt(t, cl, tm), sampleAt(t, ft, tm)
			t.Logf("t=%7d RawUsage heavy %7d light %6d | classic FairShare heavy %.6f light %.6f | Fair Tree heavy %.1f light %.1f",
				tm, c.raw["heavy"], c.raw["light"], c.fs["heavy"], c.fs["light"], r.fs["heavy"], r.fs["light"])
		}
	}
}
