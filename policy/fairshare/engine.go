package fairshare

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// noVal is NO_VAL as a double: the level_fs Fair Tree gives root and
// "parent" accounts, and the initial "previous level_fs" of a sibling scan.
const noVal = float64(0xfffffffe)

// Config is the slurm.conf subset that drives fair-share.
type Config struct {
	Algorithm Algorithm
	// HalfLife is PriorityDecayHalfLife in seconds; 0 disables decay.
	HalfLife int64
	// ExactDecay uses 2^(-Δ/HL) instead of Slurm's (1-0.693/HL)^Δ.
	ExactDecay bool
	// Reset is PriorityUsageResetPeriod; boundaries are computed in Loc
	// (UTC when nil), Slurm's local time.
	Reset ResetPeriod
	Loc   *time.Location
	// LastReset seeds the time of the previous reset (Slurm persists it);
	// 0 means the first tick's time, as at a fresh slurmctld start.
	LastReset int64
	// Dampening is FairShareDampeningFactor (classic and depth-oblivious);
	// 0 means the default 1.
	Dampening float64
	// TrackTRES mirrors AccountingStorageEnforce containing "limits":
	// only then does usage_tres_raw (sshare GrpTRESRaw) grow.
	TrackTRES bool
	// QOSNoDecay sizes the per-QOS counters (one entry per QOS index) and
	// marks the QOS with the NoDecay flag.
	QOSNoDecay []bool
	// Slurm20MaxUsage, when > 0, is Slurm 2.0's normaliser
	// R_H = num_procs × half_life × 2 (Slurm 2.0's priority_multifactor
	// documentation) for the slurm20
	// algorithm; otherwise usage is normalised by root's usage.
	Slurm20MaxUsage float64
	// AddedAfterStart says the associations were added to a controller
	// already running (sacctmgr add after slurmctld started, as on a fresh
	// test cluster). Under Fair Tree their fs_factor and level_fs then stay
	// 0 until the first calc tick: assoc_mgr creates an association's
	// usage zeroed, and only fair_tree_decay (priority_multifactor.c
	// _decay_thread, every PriorityCalcPeriod) sets them, while
	// _get_fairshare_priority reads fs_factor as it stands. Classic
	// computes an uncomputed association on demand, so it is unaffected.
	AddedAfterStart bool
}

// Engine runs Slurm's decay thread over a finalized Tree: it decays and
// charges usage and computes every association's fair-share factor.
//
// A calc tick is two-phase, matching priority_multifactor.c _decay_thread:
// BeginTick(T) resets if due, (classic) snapshots account effective usage,
// then decays everything by df^(T-lastRan); the caller then Charges every
// running job; EndTick(T) computes the factors and sets lastRan = T. A job
// that ends between ticks is charged with ChargeAtEnd.
type Engine struct {
	tree  *Tree
	cfg   Config
	decay Decay
	led   ledger
	damp  float64

	started     bool
	lastRan     int64
	resetInit   bool
	resetPeriod ResetPeriod
	lastReset   int64
	nextReset   int64
	nextSet     bool

	shares  []float64 // shares_norm for the configured algorithm
	norm    []float64 // usage_norm
	efctv   []float64 // usage_efctv
	levelFS []float64
	// levelLo is level_fs's low part (extended.go), which ranks ties of
	// levelFS as Slurm's long double does.
	levelLo []float64
	fs      []float64 // fs_factor
	sibSum  []float64 // depth-oblivious: Σ usage_norm of fs-children

	// sortBuf holds each account's fs-children in the order of the last
	// Fair Tree pass (sorted[x]: it does), which the next pass sorts
	// again from; fsPos is each association's place among its parent's
	// fs-children, the stable sort's tie-break.
	sortBuf []int32
	sorted  []bool
	fsPos   []int32
	cmpLF   func(a, b int32) int

	powSec int64 // memo of the last slice weight: most jobs share Δ
	powVal float64
}

// NewEngine builds an engine with zero usage over a finalized tree.
func NewEngine(t *Tree, cfg Config) (*Engine, error) {
	if t == nil {
		return nil, errors.New("fairshare: nil tree")
	}
	if !t.finalized {
		return nil, ErrNotFinalized
	}
	if !cfg.Algorithm.Valid() {
		return nil, fmt.Errorf("fairshare: invalid algorithm %d", int(cfg.Algorithm))
	}
	if cfg.HalfLife < 0 {
		return nil, fmt.Errorf("fairshare: negative half-life %d", cfg.HalfLife)
	}
	if cfg.Reset < ResetNone || cfg.Reset > ResetYearly {
		return nil, fmt.Errorf("fairshare: invalid reset period %d", int(cfg.Reset))
	}
	if math.IsNaN(cfg.Dampening) || math.IsInf(cfg.Dampening, 0) || cfg.Dampening < 0 {
		return nil, fmt.Errorf("fairshare: invalid dampening factor %v", cfg.Dampening)
	}
	damp := cfg.Dampening
	if damp == 0 {
		damp = 1
	}
	if cfg.Loc == nil {
		cfg.Loc = time.UTC
	}
	n := t.Len()
	parent := make([]int32, n)
	for i := range n {
		parent[i] = t.nodes[i].parent
	}
	e := &Engine{
		tree:        t,
		cfg:         cfg,
		decay:       NewDecay(cfg.HalfLife, cfg.ExactDecay),
		led:         newLedger(parent, len(cfg.QOSNoDecay), cfg.QOSNoDecay),
		damp:        damp,
		resetPeriod: cfg.Reset,
		norm:        make([]float64, n),
		efctv:       make([]float64, n),
		levelFS:     make([]float64, n),
		levelLo:     make([]float64, n),
		fs:          make([]float64, n),
		sibSum:      make([]float64, n),
		sortBuf:     make([]int32, len(t.fsKids)),
		sorted:      make([]bool, n),
		fsPos:       make([]int32, n),
		powSec:      -1,
	}
	e.shares = t.normClassic
	if cfg.Algorithm == FairTree {
		e.shares = t.normFT
	}
	e.cmpLF = e.compareLevelFS
	for i, c := range t.fsKids {
		e.fsPos[c] = int32(i)
	}
	if cfg.AddedAfterStart && cfg.Algorithm == FairTree {
		e.addedAfterStart()
	} else {
		e.Recalc()
	}
	return e, nil
}

// addedAfterStart is the state of a controller whose associations were
// added after its last calc tick: slurmdb_create_assoc_usage leaves a new
// association's usage_norm at NO_VAL (sshare prints it blank) and its
// usage_efctv, level_fs and fs_factor at 0; priority_multifactor.c init
// sets root's usage_efctv to 1. The root account's own users (root|root,
// made with the cluster) were there at start, and the decay thread's
// first tick computed them with no usage anywhere: usage_norm and
// usage_efctv 0, level_fs S/0 = +Inf (0 when S is 0), and, ranked among
// themselves alone (g_user_assoc_count = their number), fs_factor 1 for
// the +Inf ones and (n-k)/n for the n-k others (S = 0), tied below them.
func (e *Engine) addedAfterStart() {
	t := e.tree
	for i := range e.norm {
		e.norm[i] = math.NaN()
	}
	e.efctv[0], e.norm[0], e.levelFS[0] = 1, 0, noVal
	var users []int32
	for _, c := range t.fsKids[t.fsStart[0]:t.fsStart[1]] {
		if t.nodes[c].isUser && t.nodes[c].parent == 0 {
			users = append(users, c)
		}
	}
	inf := 0
	for _, c := range users {
		e.norm[c] = 0
		e.levelFS[c], e.levelLo[c] = FairTreeLevelFS(e.shares[c], 0, t.nodes[c].shares.Parent, true), 0
		if math.IsInf(e.levelFS[c], 1) {
			inf++
		}
	}
	n := float64(len(users))
	for _, c := range users {
		e.fs[c] = float64(len(users)-inf) / n
		if math.IsInf(e.levelFS[c], 1) {
			e.fs[c] = 1
		}
	}
}

// Tree returns the tree the engine runs on.
func (e *Engine) Tree() *Tree { return e.tree }

// Config returns the configuration (Loc filled in).
func (e *Engine) Config() Config { return e.cfg }

// LastRan is g_last_ran: the time of the last EndTick (0 before the first).
func (e *Engine) LastRan() int64 { return e.lastRan }

// Started reports whether a tick has completed, i.e. LastRan is meaningful
// (time 0 is a valid simulation time, so LastRan alone cannot tell).
func (e *Engine) Started() bool { return e.started }

// LastReset is the time of the last usage reset (or its seed).
func (e *Engine) LastReset() int64 { return e.lastReset }

// NextReset is the next reset boundary, 0 when none is scheduled yet.
func (e *Engine) NextReset() int64 {
	if !e.nextSet {
		return 0
	}
	return e.nextReset
}

// BeginTick opens the calc tick at time T: the reset check, then (classic
// and depth-oblivious) the account-level effective usage from the usage as
// it stands before decay, then the decay of all usage by df^(T-lastRan).
// The first tick (and any T <= lastRan) decays nothing.
func (e *Engine) BeginTick(T int64) {
	e.checkReset(T)
	switch e.cfg.Algorithm {
	case Classic, DepthOblivious:
		e.classicAccounts()
	}
	if e.started && T > e.lastRan {
		e.led.decay(e.decay.Factor(T - e.lastRan))
	}
}

func (e *Engine) checkReset(T int64) {
	if !e.resetInit {
		e.resetInit = true
		e.lastReset = e.cfg.LastReset
		if e.lastReset == 0 {
			e.lastReset = T
		}
	}
	switch e.resetPeriod {
	case ResetNone:
	case ResetNow:
		e.led.reset()
		e.resetPeriod = ResetNone
		e.lastReset = T
	default:
		if !e.nextSet {
			e.nextReset = NextReset(e.resetPeriod, e.lastReset, T, e.cfg.Loc)
			e.nextSet = true
		}
		if T >= e.nextReset {
			e.led.reset()
			e.lastReset = e.nextReset
			e.nextReset = NextReset(e.resetPeriod, e.lastReset, T, e.cfg.Loc)
		}
	}
}

// sliceWeight is d·df^d, memoised because running jobs mostly share Δ.
func (e *Engine) sliceWeight(d int64) float64 {
	if d != e.powSec {
		e.powSec, e.powVal = d, e.decay.SliceWeight(d)
	}
	return e.powVal
}

// sliceSeconds is the slice _apply_new_usage charges: from max(start,
// lastRan) (start alone before the first tick) to end, never negative.
func (e *Engine) sliceSeconds(start, end int64) int64 {
	s := start
	if e.started && e.lastRan > s {
		s = e.lastRan
	}
	if end <= s {
		return 0
	}
	return end - s
}

// Charge adds a running job's usage for the slice d = end - max(start,
// lastRan): d·df^d·billing·uf to assoc and every direct ancestor including
// root, plus d·df^d·uf·tres when TrackTRES is set and d·df^d·uf of wall
// time. uf is the QOS UsageFactor, applied only if >= 0, to every TRES of
// usage_tres_raw alike (gres/gpu included: _apply_new_usage scales
// run_decay before multiplying it by each tres_alloc_cnt). Call it between
// BeginTick(T) and EndTick(T) with end = T. Non-finite amounts are dropped.
//
// With TrackTRES it also removes the slice from grp_used_tres_run_secs of
// the same chain, as _handle_assoc_tres_run_secs does: trunc(d·uf) × each
// whole tres count, leaving 0 where less remained (see RunStart). Slurm
// removes nothing past the job's time limit; fairsim's jobs never run past
// it.
func (e *Engine) Charge(assoc int, start, end int64, billing, uf float64, tres TRES) {
	if !e.tree.valid(assoc) {
		return
	}
	d := e.sliceSeconds(start, end)
	if d == 0 {
		return
	}
	if e.cfg.TrackTRES {
		rd := runDelta(&tres, float64(d), uf)
		e.led.runChain(int32(assoc), &rd, false)
	}
	w := e.sliceWeight(d) * usageFactor(uf)
	raw := w * billing
	if !finite(raw) {
		raw = 0
	}
	if !finite(w) {
		w = 0
	}
	if e.cfg.TrackTRES {
		t := scaledTRES(tres, w)
		e.led.addChain(int32(assoc), raw, w, &t)
		return
	}
	e.led.addChain(int32(assoc), raw, w, nil)
}

// ChargeAtEnd charges a job that ended at end, between ticks, for the slice
// since lastRan (priority_p_job_end). The slice is decayed once here and
// again by the next tick's decay: that double decay is what Slurm does.
// The caller must charge a job at its end only once; it removes the slice
// from the run-seconds as Charge does, and RunEnd then removes the rest.
func (e *Engine) ChargeAtEnd(assoc int, start, end int64, billing, uf float64, tres TRES) {
	e.Charge(assoc, start, end, billing, uf, tres)
}

// ChargeQOS adds the same slice to QOS q: decayed, or the plain d·billing·uf
// when the QOS has NoDecay; with TrackTRES it removes the slice from the
// QOS's run-seconds as Charge does for associations. For a partition QOS
// that differs from the job's QOS, _apply_new_usage adds the job's amounts
// again, already scaled by the job QOS's UsageFactor and not by the
// partition QOS's own: call it with that QOS and the job QOS's uf.
func (e *Engine) ChargeQOS(q int, start, end int64, billing, uf float64, tres TRES) {
	if q < 0 || q >= len(e.led.qosUsage) {
		return
	}
	d := e.sliceSeconds(start, end)
	if d == 0 {
		return
	}
	if e.cfg.TrackTRES {
		rd := runDelta(&tres, float64(d), uf)
		e.led.qosRun[q].sub(&rd)
	}
	var w float64
	if e.led.qosNoDecay[q] {
		w = float64(d)
	} else {
		w = e.sliceWeight(d)
	}
	w *= usageFactor(uf)
	if raw := w * billing; finite(raw) {
		e.led.qosUsage[q] += raw
	}
	if finite(w) {
		e.led.qosWall[q] += w
	}
	if e.cfg.TrackTRES {
		t := scaledTRES(tres, w)
		for k := range t {
			e.led.qosTRES[q][k] += t[k]
		}
	}
}

// RunStart is what acct_policy_job_begin adds to grp_used_tres_run_secs
// when a job starts (_adjust_limit_usage): for each TRES, the whole count
// tres[k] × trunc(limitSecs·uf) to assoc and every direct ancestor up to
// root, and to QOS qos (qos < 0: none; an out-of-range index is ignored,
// as is an invalid assoc). limitSecs is the job's time limit in seconds
// (time_limit × 60); uf is the job QOS's UsageFactor (< 0 or NaN: not set,
// 1). tres is the allocation (tres_alloc_cnt: cpu, mem MB, node, billing
// truncated, gres/gpu). Slurm does this only with
// AccountingStorageEnforce=limits, so it does nothing unless TrackTRES is
// set. For a partition QOS other than the job's QOS call it again with
// assoc = -1 and that QOS, the same tres and uf.
//
// The run-seconds then shrink with every Charge/ChargeQOS slice and lose
// what is left at RunEnd; TRESRunSecs and sshare's TRESRunMins read them.
func (e *Engine) RunStart(assoc, qos int, tres TRES, limitSecs, uf float64) {
	e.run(assoc, qos, &tres, limitSecs, uf, true)
}

// RunEnd removes the run-seconds a job still held when it ended: leftSecs
// is the rest of its time limit, start + limit − end, after ChargeAtEnd
// took the last slice; it removes tres[k] × trunc(leftSecs·uf) from the
// same associations and QOS as RunStart, leaving 0 where less remained.
// Slurm removes the last slice and the rest in one step (_apply_new_usage
// at job end: limit end − max(start, last tick)); the two steps agree
// exactly for a whole-number uf and may remove up to one more second ×
// tres per step otherwise. No-op without TrackTRES.
func (e *Engine) RunEnd(assoc, qos int, tres TRES, leftSecs, uf float64) {
	e.run(assoc, qos, &tres, leftSecs, uf, false)
}

func (e *Engine) run(assoc, qos int, tres *TRES, secs, uf float64, start bool) {
	if !e.cfg.TrackTRES {
		return
	}
	d := runDelta(tres, secs, uf)
	if e.tree.valid(assoc) {
		e.led.runChain(int32(assoc), &d, start)
	}
	if qos >= 0 && qos < len(e.led.qosRun) {
		if start {
			e.led.qosRun[qos].add(&d)
		} else {
			e.led.qosRun[qos].sub(&d)
		}
	}
}

// TRESRunSecs is grp_used_tres_run_secs of an association: the
// TRES-seconds its running jobs (and its descendants') have left before
// their time limits.
func (e *Engine) TRESRunSecs(assoc int) RunSecs {
	if !e.tree.valid(assoc) {
		return RunSecs{}
	}
	return e.led.run[assoc]
}

// QOSTRESRunSecs is grp_used_tres_run_secs of QOS q (what GrpTRESRunMins
// limits are checked against).
func (e *Engine) QOSTRESRunSecs(q int) RunSecs {
	if q < 0 || q >= len(e.led.qosRun) {
		return RunSecs{}
	}
	return e.led.qosRun[q]
}

// EndTick closes the calc tick at T: it computes every fair-share factor
// with the configured algorithm and sets lastRan = T.
func (e *Engine) EndTick(T int64) {
	switch e.cfg.Algorithm {
	case FairTree:
		e.fairTree()
	case Classic, DepthOblivious:
		e.classicUsers()
	case Slurm20:
		e.slurm20()
	}
	e.lastRan = T
	e.started = true
}

// SetLastRan records a decay-thread tick at T that found no usage to
// decay or charge: the ticks a controller ran before the first job of a
// replayed trace. The next tick then decays by df^(T'-T), as
// _decay_thread does from g_last_ran, so usage charged at a job's end
// before that tick is decayed with it. Factors are left as they stand
// (see Config.AddedAfterStart).
func (e *Engine) SetLastRan(T int64) {
	e.lastRan = T
	e.started = true
}

// Recalc recomputes every factor from the current usage in one pass
// (accounts and users alike); use it for static views after SetUsage.
func (e *Engine) Recalc() {
	switch e.cfg.Algorithm {
	case FairTree:
		e.fairTree()
	case Classic, DepthOblivious:
		e.classicAccounts()
		e.classicUsers()
	case Slurm20:
		e.slurm20()
	}
}

// SetUsage sets a user association's usage_raw and moves every ancestor by
// the same difference, so an account's usage stays the sum of its users'
// (as at slurmctld load). Accounts cannot be set directly.
func (e *Engine) SetUsage(assoc int, raw float64) error {
	if !e.tree.valid(assoc) {
		return fmt.Errorf("fairshare: association %d out of range", assoc)
	}
	if !e.tree.IsUser(assoc) {
		return fmt.Errorf("fairshare: association %d (%s) is not a user association", assoc, e.tree.Name(assoc))
	}
	if !finite(raw) || raw < 0 {
		return fmt.Errorf("fairshare: invalid usage %v", raw)
	}
	delta := (raw - e.led.usage[assoc]) - e.led.usageLo[assoc]
	e.led.addChain(int32(assoc), delta, 0, nil)
	e.led.usage[assoc], e.led.usageLo[assoc] = raw, 0
	return nil
}

// Usage is usage_raw of an association (decayed billing-seconds).
func (e *Engine) Usage(assoc int) float64 {
	if !e.tree.valid(assoc) {
		return 0
	}
	return e.led.usage[assoc]
}

// TRESUsage is usage_tres_raw of an association (TRES-seconds).
func (e *Engine) TRESUsage(assoc int) TRES {
	if !e.tree.valid(assoc) {
		return TRES{}
	}
	return e.led.tres[assoc]
}

// UsedWall is grp_used_wall of an association (decayed seconds).
func (e *Engine) UsedWall(assoc int) float64 {
	if !e.tree.valid(assoc) {
		return 0
	}
	return e.led.wall[assoc]
}

// QOSUsage is usage_raw of QOS q.
func (e *Engine) QOSUsage(q int) float64 {
	if q < 0 || q >= len(e.led.qosUsage) {
		return 0
	}
	return e.led.qosUsage[q]
}

// QOSUsedWall is grp_used_wall of QOS q (decayed seconds), what GrpWall
// limits are checked against.
func (e *Engine) QOSUsedWall(q int) float64 {
	if q < 0 || q >= len(e.led.qosWall) {
		return 0
	}
	return e.led.qosWall[q]
}

// QOSTRESUsage is usage_tres_raw of QOS q.
func (e *Engine) QOSTRESUsage(q int) TRES {
	if q < 0 || q >= len(e.led.qosTRES) {
		return TRES{}
	}
	return e.led.qosTRES[q]
}

// NormShares is shares_norm of an association under the configured
// algorithm.
func (e *Engine) NormShares(assoc int) float64 {
	if !e.tree.valid(assoc) {
		return 0
	}
	return e.shares[assoc]
}

// NormUsage is usage_norm = min(1, usage_raw / root usage_raw) as of the
// last computation (0 for root); NaN while no tick has computed it
// (Config.AddedAfterStart).
func (e *Engine) NormUsage(assoc int) float64 {
	if !e.tree.valid(assoc) || assoc == 0 {
		return 0
	}
	return e.norm[assoc]
}

// EffectiveUsage is usage_efctv (sshare EffectvUsage); 1 for root.
func (e *Engine) EffectiveUsage(assoc int) float64 {
	if !e.tree.valid(assoc) {
		return 0
	}
	return e.efctv[assoc]
}

// LevelFS is Fair Tree's level_fs (may be +Inf; NO_VAL for root and
// "parent" accounts); 0 under other algorithms.
func (e *Engine) LevelFS(assoc int) float64 {
	if !e.tree.valid(assoc) {
		return 0
	}
	return e.levelFS[assoc]
}

// FairShare is the fair-share factor in [0,1] a job of this user
// association gets. Under Fair Tree accounts have none (0); under the other
// algorithms an account returns the value sshare shows for it.
func (e *Engine) FairShare(assoc int) float64 {
	if !e.tree.valid(assoc) {
		return 0
	}
	return e.fs[assoc]
}

// usageNorm is set_assoc_usage_norm.
func (e *Engine) usageNorm(i int32) float64 {
	root, rootLo := e.led.usage[0], e.led.usageLo[0]
	if root == 0 && rootLo == 0 {
		return 0
	}
	n, _ := ddDiv(e.led.usage[i], e.led.usageLo[i], root, rootLo)
	return min(1, n)
}
