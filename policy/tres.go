package policy

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"fairsim/slurmtext"
)

// TRESKind is a TRES type. The fixed kinds are ordered by Slurm's TRES ids
// (cpu=1, mem=2, energy=3, node=4, billing=5, fs/disk=6, vmem=7, pages=8) so
// sums over TRES run in the order Slurm runs them; named kinds follow.
type TRESKind uint8

// TRES kinds. Kinds before TRESGRES take no name; the rest need one
// ("gres/gpu", "license/matlab").
const (
	TRESCPU TRESKind = iota
	TRESMem
	TRESEnergy
	TRESNode
	TRESBilling
	TRESVMem
	TRESPages
	TRESGRES
	TRESLicense
	TRESBB
	TRESFS
	TRESIC
	numTRESKinds
)

var tresKindNames = [numTRESKinds]string{"cpu", "mem", "energy", "node", "billing", "vmem", "pages", "gres", "license", "bb", "fs", "ic"}

// String is the lower-case TRES type name Slurm prints (cpu, mem, gres…).
func (k TRESKind) String() string {
	if k < numTRESKinds {
		return tresKindNames[k]
	}
	return fmt.Sprintf("TRESKind(%d)", uint8(k))
}

// Named reports whether TRES of this kind carry a name after a slash.
func (k TRESKind) Named() bool { return k >= TRESGRES && k < numTRESKinds }

// PerNode reports whether the kind is a node TRES for MAX_TRES billing
// (cpu, mem, node and any gres); the others are global and summed.
func (k TRESKind) PerNode() bool {
	return k == TRESCPU || k == TRESMem || k == TRESNode || k == TRESGRES
}

// baseUnitMega reports whether the kind counts in MB, which changes what a
// unit suffix on a weight means (slurmdb_get_tres_base_unit: mem and bb).
func (k TRESKind) baseUnitMega() bool { return k == TRESMem || k == TRESBB }

func lookupTRESKind(s string) (TRESKind, bool) {
	for i, n := range tresKindNames {
		if strings.EqualFold(s, n) {
			return TRESKind(i), true
		}
	}
	return 0, false
}

// TRESCount is an amount of one named TRES ("gres/gpu", "license/matlab").
// Names are compared case-insensitively, as Slurm compares TRES names.
type TRESCount struct {
	Name  string
	Count uint64
}

// TRESAlloc is the TRES a job requests or was allocated, or a partition's
// totals. The common TRES are fields so the hot paths never hash; the rest
// are looked up by name in Other, which is short (a GRES type or two).
type TRESAlloc struct {
	CPU     uint64
	MemMB   uint64
	Node    uint64
	Billing uint64
	Other   []TRESCount
}

// Count returns the amount of the TRES that w names (0 if absent).
func (a *TRESAlloc) Count(w *TRESWeight) uint64 {
	switch w.Kind {
	case TRESCPU:
		return a.CPU
	case TRESMem:
		return a.MemMB
	case TRESNode:
		return a.Node
	case TRESBilling:
		return a.Billing
	}
	return a.Named(w.Name)
}

// Named returns the count of the named TRES in Other, 0 if absent.
func (a *TRESAlloc) Named(name string) uint64 {
	for i := range a.Other {
		if strings.EqualFold(a.Other[i].Name, name) {
			return a.Other[i].Count
		}
	}
	return 0
}

// TRESWeight is one item of a TRES weight list. Weight is per base unit:
// per CPU, per MB of memory, per node, per GPU.
type TRESWeight struct {
	Kind   TRESKind
	Name   string // canonical lower-case name: "cpu", "mem", "gres/gpu"
	Weight float64
}

// TRESWeights is a parsed TRESBillingWeights or PriorityWeightTRES list.
// Items are unique and sorted in Slurm's TRES order, so sums over them add
// in the same order as Slurm's arrays do. A nil list means "not configured".
type TRESWeights []TRESWeight

// MaxTRESWeights caps the distinct TRES in one weight list so per-TRES
// priority terms fit in a fixed array (no allocation per job).
const MaxTRESWeights = 16

// ParseTRESWeights parses the syntax shared by TRESBillingWeights and
// PriorityWeightTRES (slurm_get_tres_weight_array): comma-separated
// "Type[/Name]=number[unit]" items, type names case-insensitive, e.g.
// "CPU=1.0,Mem=0.25G,Node=2,GRES/gpu=2.0". A repeated TRES keeps its last
// weight, as Slurm overwrites its array slot. "" means no weights (nil).
//
// The optional unit suffix K, M, G, T or P divides the weight by the unit's
// size relative to the TRES base unit, per get_convert_unit_val: memory (and
// bb) count in MB, so Mem=0.25G is 0.25/1024 per MB and K or M leave a
// memory weight unchanged; other TRES count units, so CPU=1K is 1/1024 per
// CPU. Slurm computes that divisor in a C int, which overflows for T and P
// on unit-counted TRES; fairsim uses the intended 1024^4 and 1024^5.
//
// Negative weights are accepted, as Slurm accepts them (they are meaningful
// in PriorityWeightTRES). Unlike Slurm, which reads the number with strtod
// and looks only at the first character after it, fairsim rejects
// infinities, NaN, hexadecimal numbers and anything after the unit letter.
// Slurm also rejects a TRES not listed in AccountingStorageTRES; fairsim
// accepts any GRES, license, bb, fs or ic name, which then weighs nothing
// for jobs that do not use it.
func ParseTRESWeights(s string) (TRESWeights, error) {
	var w TRESWeights
	for _, item := range slurmtext.SplitList(s) {
		tw, err := parseTRESWeightItem(item)
		if err != nil {
			return nil, err
		}
		w = w.set(tw)
		if len(w) > MaxTRESWeights {
			return nil, fmt.Errorf("TRES weights %q: more than %d distinct TRES", s, MaxTRESWeights)
		}
	}
	return w, nil
}

// set inserts or replaces tw, keeping Slurm's TRES order (fixed kinds by
// id, then named TRES in the order first given).
func (w TRESWeights) set(tw TRESWeight) TRESWeights {
	for i := range w {
		if w[i].Name == tw.Name {
			w[i].Weight = tw.Weight
			return w
		}
	}
	pos := len(w)
	if !tw.Kind.Named() {
		for i := range w {
			if w[i].Kind.Named() || w[i].Kind > tw.Kind {
				pos = i
				break
			}
		}
	}
	w = append(w, TRESWeight{})
	copy(w[pos+1:], w[pos:])
	w[pos] = tw
	return w
}

func parseTRESWeightItem(item string) (TRESWeight, error) {
	key, val, ok := strings.Cut(item, "=")
	key = strings.TrimSpace(key)
	val = strings.TrimSpace(val)
	if !ok || key == "" {
		return TRESWeight{}, fmt.Errorf("TRES weight %q: want Type[/Name]=weight", item)
	}
	typ, name, named := strings.Cut(key, "/")
	kind, known := lookupTRESKind(typ)
	if !known {
		return TRESWeight{}, fmt.Errorf("TRES weight %q: unknown TRES type %q", item, typ)
	}
	var canon string
	switch {
	case kind.Named() && (!named || name == ""):
		return TRESWeight{}, fmt.Errorf("TRES weight %q: TRES type %s needs a name (%s/NAME)", item, kind, kind)
	case kind.Named():
		canon = kind.String() + "/" + strings.ToLower(name)
	case named:
		return TRESWeight{}, fmt.Errorf("TRES weight %q: TRES type %s takes no name", item, kind)
	default:
		canon = kind.String()
	}
	if val == "" {
		return TRESWeight{}, fmt.Errorf("TRES weight %q: missing weight", item)
	}
	num, unit := splitNumber(val)
	if num == "" {
		return TRESWeight{}, fmt.Errorf("TRES weight %q: weight %q is not a number", item, val)
	}
	wt, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(wt, 0) || math.IsNaN(wt) {
		return TRESWeight{}, fmt.Errorf("TRES weight %q: weight %q is not a finite number", item, num)
	}
	if unit != "" {
		div, err := unitDivisor(unit, kind.baseUnitMega())
		if err != nil {
			return TRESWeight{}, fmt.Errorf("TRES weight %q: %v", item, err)
		}
		wt /= div
	}
	return TRESWeight{Kind: kind, Name: canon, Weight: wt}, nil
}

// splitNumber splits a leading decimal number ([+-]digits[.digits][e±digits])
// from what follows it.
func splitNumber(s string) (num, rest string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return "", s
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > j {
			i = k
		}
	}
	return s[:i], s[i:]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// unitDivisor returns what a unit suffix divides a weight by, relative to a
// base unit of MB (megaBase) or of one item.
func unitDivisor(unit string, megaBase bool) (float64, error) {
	if len(unit) != 1 {
		return 0, fmt.Errorf("unit %q: want one of K, M, G, T, P", unit)
	}
	pow := strings.IndexByte("KMGTP", upper(unit[0])) + 1 // K=1 … P=5
	if pow == 0 {
		return 0, fmt.Errorf("unit %q: want one of K, M, G, T, P", unit)
	}
	if megaBase {
		pow -= 2 // MB is the base: K and M do not divide
	}
	d := 1.0
	for ; pow > 0; pow-- {
		d *= 1024
	}
	return d, nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// Lookup returns the weight for the named TRES ("cpu", "gres/gpu"), and
// whether it is configured.
func (w TRESWeights) Lookup(name string) (float64, bool) {
	for i := range w {
		if strings.EqualFold(w[i].Name, name) {
			return w[i].Weight, true
		}
	}
	return 0, false
}

// String renders the list in ParseTRESWeights syntax with weights per base
// unit (no unit suffixes), so parsing the result gives the same list.
func (w TRESWeights) String() string {
	parts := make([]string, len(w))
	for i, t := range w {
		parts[i] = t.Name + "=" + strconv.FormatFloat(t.Weight, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}
