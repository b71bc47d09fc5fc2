package fairshare

import (
	"math"
	"strconv"
)

// NoLimit marks an unset TRES limit (INFINITE64); sshare leaves it out.
const NoLimit = math.MaxUint64

// Row is one association as sshare reports it (assoc_mgr_get_shares).
type Row struct {
	Assoc int
	// Account is the account name (a user row's own account); User is ""
	// for root and accounts.
	Account string
	User    string
	// Partition is a per-partition user association's partition, "" for
	// every other row.
	Partition string
	// ParentAccount is what sshare indents by: an account's direct parent
	// account, a user's account, "" for root.
	ParentAccount string
	Depth         int
	IsUser        bool
	// RawShares is the number, "parent" for Fairshare=parent, "" for root.
	RawShares  string
	NormShares float64
	RawUsage   uint64 // (uint64) usage_raw, billing-seconds
	// NormUsage is usage_norm; HasNormUsage is false for root and for an
	// association no tick has computed yet (blank).
	NormUsage    float64
	HasNormUsage bool
	EffectvUsage float64
	// FairShare is the factor; HasFairShare is false for accounts under
	// Fair Tree (blank). Under other algorithms every row has one.
	FairShare    float64
	HasFairShare bool
	// LevelFS is Fair Tree's level_fs (+Inf allowed); HasLevelFS is false
	// for root, "parent" associations and other algorithms (blank).
	LevelFS    float64
	HasLevelFS bool
	// GrpTRESRaw is usage_tres_raw in minutes (truncated).
	GrpTRESRaw [NumTRES]uint64
	// GrpTRESMins are the association's TRES-minute limits (NoLimit:
	// unset); fairsim sets none.
	GrpTRESMins [NumTRES]uint64
	// TRESRunMins is grp_used_tres_run_secs / 60, truncated as sshare
	// divides it (see Engine.RunStart).
	TRESRunMins [NumTRES]uint64
}

// Rows returns every association in sshare's order: by lineage, a
// pre-order over the direct tree, each account's users first, then its
// sub-accounts (see Tree.Order).
func (e *Engine) Rows() []Row {
	t := e.tree
	rows := make([]Row, 0, t.Len())
	ft := e.cfg.Algorithm == FairTree
	for _, i32 := range t.order {
		i := int(i32)
		nd := &t.nodes[i]
		r := Row{
			Assoc:        i,
			Account:      nd.account,
			User:         nd.user,
			Partition:    nd.partition,
			Depth:        int(t.depth[i]),
			IsUser:       nd.isUser,
			NormShares:   e.shares[i],
			RawUsage:     toUint64(ddTrunc(e.led.usage[i], e.led.usageLo[i])),
			EffectvUsage: e.efctv[i],
		}
		switch {
		case nd.isUser:
			r.ParentAccount = nd.account
		case i != 0:
			r.ParentAccount = t.nodes[nd.parent].account
		}
		switch {
		case i == 0:
		case nd.shares.Parent:
			r.RawShares = "parent"
		default:
			r.RawShares = strconv.FormatUint(uint64(nd.shares.Raw), 10)
		}
		if i != 0 {
			r.NormUsage, r.HasNormUsage = e.norm[i], !math.IsNaN(e.norm[i])
		}
		if !ft || nd.isUser {
			r.FairShare, r.HasFairShare = e.fs[i], true
		}
		if ft && i != 0 && !nd.shares.Parent {
			r.LevelFS, r.HasLevelFS = e.levelFS[i], true
		}
		for k := range NumTRES {
			r.GrpTRESRaw[k] = toUint64(e.led.tres[i][k] / 60)
			r.GrpTRESMins[k] = NoLimit
			r.TRESRunMins[k] = e.led.run[i][k] / 60
		}
		rows = append(rows, r)
	}
	return rows
}

// toUint64 is C's (uint64_t) cast made total: negatives and NaN give 0,
// values beyond the range saturate.
func toUint64(x float64) uint64 {
	switch {
	case !(x > 0):
		return 0
	case x >= 18446744073709551615.0:
		return math.MaxUint64
	}
	return uint64(x)
}

// Value is one association's changing figures at a tick, compact so a
// year of snapshots of a large tree fits in memory: the names and shares
// that do not change live once in the Rows the snapshot is read with.
type Value struct {
	RawUsage     uint64
	NormShares   float32
	EffectvUsage float32
	FairShare    float32
	LevelFS      float32
}

// Snapshot appends every association's Value in Rows order to dst.
func (e *Engine) Snapshot(dst []Value) []Value {
	for _, i32 := range e.tree.order {
		i := int(i32)
		dst = append(dst, Value{RawUsage: toUint64(ddTrunc(e.led.usage[i], e.led.usageLo[i])), NormShares: float32(e.shares[i]),
			EffectvUsage: float32(e.efctv[i]), FairShare: float32(e.fs[i]), LevelFS: float32(e.levelFS[i])})
	}
	return dst
}

// At returns row r with the values of v: the row as it was at v's tick.
func (v Value) At(r Row) Row {
	r.RawUsage = v.RawUsage
	r.NormShares = float64(v.NormShares)
	r.EffectvUsage = float64(v.EffectvUsage)
	if r.HasFairShare {
		r.FairShare = float64(v.FairShare)
	}
	if r.HasLevelFS {
		r.LevelFS = float64(v.LevelFS)
	}
	return r
}
