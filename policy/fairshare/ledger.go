package fairshare

import "math"

// Indices of the TRES vector fairsim tracks (Slurm's order without energy).
const (
	TRESCPU     = iota // CPUs
	TRESMem            // memory in MB
	TRESNode           // nodes
	TRESBilling        // billing TRES (the job's billable count)
	TRESGPU            // gres/gpu, when accounting tracks it
	NumTRES
)

// TRESNames are the names sshare prints for the TRES indices.
var TRESNames = [NumTRES]string{"cpu", "mem", "node", "billing", "gres/gpu"}

// TRES is an allocation or accumulated usage per TRES index.
type TRES [NumTRES]float64

// ledger holds the decaying usage counters of every association (root
// included) and, optionally, of every QOS. All slices are indexed by
// association or QOS index; nothing allocates per charge.
type ledger struct {
	parent []int32 // direct parent per association, -1 for root

	usage []float64 // usage_raw, billing-seconds: its float64 value, the high part
	// usageLo is usage_raw's low part (extended.go): Slurm's long double
	// tells apart sums float64 rounds together.
	usageLo []float64
	tres    []TRES    // usage_tres_raw, TRES-seconds
	wall    []float64 // grp_used_wall, seconds

	qosUsage   []float64
	qosTRES    []TRES
	qosWall    []float64
	qosNoDecay []bool

	// grp_used_tres_run_secs of every association and QOS: TRES-seconds
	// still to run of the running jobs, never decayed nor reset.
	run    []RunSecs
	qosRun []RunSecs
}

// RunSecs is grp_used_tres_run_secs per TRES index: whole TRES-seconds,
// unsigned as in Slurm.
type RunSecs [NumTRES]uint64

func newLedger(parent []int32, nQOS int, noDecay []bool) ledger {
	n := len(parent)
	l := ledger{
		parent:     parent,
		usage:      make([]float64, n),
		usageLo:    make([]float64, n),
		tres:       make([]TRES, n),
		wall:       make([]float64, n),
		qosUsage:   make([]float64, nQOS),
		qosTRES:    make([]TRES, nQOS),
		qosWall:    make([]float64, nQOS),
		qosNoDecay: make([]bool, nQOS),
		run:        make([]RunSecs, n),
		qosRun:     make([]RunSecs, nQOS),
	}
	copy(l.qosNoDecay, noDecay)
	return l
}

// decay is _apply_decay: every association (root included) and every QOS
// without NoDecay is multiplied by f.
func (l *ledger) decay(f float64) {
	if f == 1 {
		return
	}
	for i := range l.usage {
		l.usage[i], l.usageLo[i] = ddMul(l.usage[i], l.usageLo[i], f)
		for k := range l.tres[i] {
			l.tres[i][k] *= f
		}
		l.wall[i] *= f
	}
	for q := range l.qosUsage {
		if l.qosNoDecay[q] {
			continue
		}
		l.qosUsage[q] *= f
		for k := range l.qosTRES[q] {
			l.qosTRES[q][k] *= f
		}
		l.qosWall[q] *= f
	}
}

// reset is _reset_usage: every association and every QOS, NoDecay ones
// included, is zeroed.
func (l *ledger) reset() {
	clear(l.usage)
	clear(l.usageLo)
	clear(l.tres)
	clear(l.wall)
	clear(l.qosUsage)
	clear(l.qosTRES)
	clear(l.qosWall)
}

// addChain adds raw billing usage, wall time and (when tres is non-nil)
// TRES usage to assoc and every direct ancestor up to and including root.
func (l *ledger) addChain(assoc int32, raw, wall float64, tres *TRES) {
	for a := assoc; a >= 0; a = l.parent[a] {
		l.usage[a], l.usageLo[a] = ddAdd(l.usage[a], l.usageLo[a], raw)
		l.wall[a] += wall
		if tres != nil {
			for k := range tres {
				l.tres[a][k] += tres[k]
			}
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// scaledTRES returns t·w with non-finite entries dropped, so that one bad
// input cannot poison a counter with NaN.
func scaledTRES(t TRES, w float64) TRES {
	var out TRES
	for k, v := range t {
		if x := v * w; finite(x) {
			out[k] = x
		}
	}
	return out
}

// usageFactor applies a QOS UsageFactor the way _apply_new_usage does:
// only when it is >= 0 (NaN and negative values mean "not set", i.e. 1).
func usageFactor(uf float64) float64 {
	if uf >= 0 {
		return uf
	}
	return 1
}

// runDelta is alloc × secs per TRES as Slurm computes the run-seconds a job
// adds or removes: the seconds scaled by the QOS UsageFactor and truncated
// to whole seconds first (uint64 time_limit_secs and tres_time_delta times
// usage_factor in _adjust_limit_usage and _apply_new_usage), then times
// each whole TRES count (tres_alloc_cnt is uint64). Negative or non-finite
// amounts count 0; products saturate instead of wrapping.
func runDelta(tres *TRES, secs, uf float64) RunSecs {
	var out RunSecs
	s := toUint64(secs * usageFactor(uf))
	if s == 0 {
		return out
	}
	for k, v := range tres {
		c := toUint64(v)
		if c == 0 {
			continue
		}
		if c > math.MaxUint64/s {
			out[k] = math.MaxUint64
			continue
		}
		out[k] = c * s
	}
	return out
}

// add adds d to r, saturating.
func (r *RunSecs) add(d *RunSecs) {
	for k := range r {
		if r[k] > math.MaxUint64-d[k] {
			r[k] = math.MaxUint64
		} else {
			r[k] += d[k]
		}
	}
}

// sub removes d from r; a larger d leaves 0, as Slurm does on an underflow
// (_handle_assoc_tres_run_secs, _handle_qos_tres_run_secs).
func (r *RunSecs) sub(d *RunSecs) {
	for k := range r {
		if d[k] > r[k] {
			r[k] = 0
		} else {
			r[k] -= d[k]
		}
	}
}

// runChain applies d to assoc and every direct ancestor up to and including
// root: added when start, else removed.
func (l *ledger) runChain(assoc int32, d *RunSecs, start bool) {
	for a := assoc; a >= 0; a = l.parent[a] {
		if start {
			l.run[a].add(d)
		} else {
			l.run[a].sub(d)
		}
	}
}
