package fairshare

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
)

// SshareOptions are the sshare command-line switches fairsim reproduces.
type SshareOptions struct {
	// Algorithm decides the Fair Tree or classic layout: Fair Tree adds
	// LevelFS to -l and blanks FairShare on account rows.
	Algorithm Algorithm
	Long      bool // -l: NormUsage, (LevelFS,) GrpTRESMins, TRESRunMins
	// Partitions is -m (--partition): a Partition column after User, which
	// shows the partition of per-partition associations.
	Partitions bool
	Parsable   bool // -p: '|' after every field
	Parsable2  bool // -P: '|' between fields (wins over Parsable)
	NoHeader   bool // -n
	// All is -a: every user row. Without it sshare lists all account rows
	// but only the user rows of Users; real sshare puts the invoking user
	// there, fairsim has none, so an empty Users shows no user rows.
	All       bool
	Users     []string // -u, case-insensitive
	Accounts  []string // -A: only rows of these accounts, case-insensitive
	UsersOnly bool     // -U: only user rows
	// TRESCount limits the TRES printed in TRES columns to the first
	// TRESCount of TRESNames (0 means all but gres/gpu, which only a
	// cluster whose accounting tracks it prints).
	TRESCount int
}

type sshareKind int

const (
	kAccount sshareKind = iota
	kUser
	kPartition
	kRawShares
	kNormShares
	kRawUsage
	kNormUsage
	kEffectvUsage
	kFairShare
	kLevelFS
	kGrpTRESMins
	kGrpTRESRaw
	kTRESRunMins
)

// sshareField mirrors process.c's field table: a negative width means
// left-justified.
type sshareField struct {
	name  string
	width int
	kind  sshareKind
}

var (
	fAccount      = sshareField{"Account", -20, kAccount}
	fUser         = sshareField{"User", 10, kUser}
	fPartition    = sshareField{"Partition", 12, kPartition}
	fRawShares    = sshareField{"RawShares", 10, kRawShares}
	fNormShares   = sshareField{"NormShares", 11, kNormShares}
	fRawUsage     = sshareField{"RawUsage", 11, kRawUsage}
	fNormUsage    = sshareField{"NormUsage", 11, kNormUsage}
	fEffectvUsage = sshareField{"EffectvUsage", 13, kEffectvUsage}
	fFairShare    = sshareField{"FairShare", 10, kFairShare}
	fLevelFS      = sshareField{"LevelFS", 10, kLevelFS}
	fGrpTRESMins  = sshareField{"GrpTRESMins", 30, kGrpTRESMins}
	fTRESRunMins  = sshareField{"TRESRunMins", 30, kTRESRunMins}
)

func sshareFields(o SshareOptions) []sshareField {
	f := []sshareField{fAccount, fUser}
	if o.Partitions {
		f = append(f, fPartition)
	}
	f = append(f, fRawShares, fNormShares, fRawUsage)
	if !o.Long {
		return append(f, fEffectvUsage, fFairShare)
	}
	f = append(f, fNormUsage, fEffectvUsage, fFairShare)
	if o.Algorithm == FairTree {
		f = append(f, fLevelFS)
	}
	return append(f, fGrpTRESMins, fTRESRunMins)
}

// WriteSshare prints rows exactly as Slurm's sshare does (process.c and
// print_fields.c): default columns Account User RawShares NormShares
// RawUsage EffectvUsage FairShare; -m adds Partition after User; -l adds
// NormUsage, LevelFS (Fair Tree only), GrpTRESMins and TRESRunMins. The table has fixed widths, account
// names indented one space per level (a user row shows its account name,
// one level deeper), doubles as %f, "inf" for +Inf, and blank cells for
// unset values; parsable output ends every field (-p) or separates them
// (-P) with '|'.
func WriteSshare(w io.Writer, rows []Row, o SshareOptions) error {
	fields := sshareFields(o)
	p := &sshareWriter{
		bw:       bufio.NewWriter(w),
		parsable: o.Parsable || o.Parsable2,
		noEnding: o.Parsable2,
		nTRES:    TRESGPU,
	}
	if o.TRESCount > 0 && o.TRESCount <= NumTRES {
		p.nTRES = o.TRESCount
	}
	if !o.NoHeader {
		p.header(fields)
	}
	names := newTreeNames()
	for i := range rows {
		r := &rows[i]
		if !sshareSelected(r, o) {
			continue
		}
		for k, f := range fields {
			last := k == len(fields)-1
			switch f.kind {
			case kAccount:
				p.str(f, names.get(r), false, last)
			case kUser:
				p.str(f, r.User, !r.IsUser, last)
			case kPartition:
				p.str(f, r.Partition, r.Partition == "", last)
			case kRawShares:
				p.rawShares(f, r.RawShares, last)
			case kNormShares:
				p.double(f, r.NormShares, false, last)
			case kRawUsage:
				p.uint64(f, r.RawUsage, last)
			case kNormUsage:
				p.double(f, r.NormUsage, !r.HasNormUsage, last)
			case kEffectvUsage:
				p.double(f, r.EffectvUsage, false, last)
			case kFairShare:
				if r.HasFairShare {
					p.double(f, r.FairShare, false, last)
				} else {
					p.str(f, "", true, last)
				}
			case kLevelFS:
				if r.HasLevelFS {
					p.double(f, r.LevelFS, false, last)
				} else {
					p.str(f, "", true, last)
				}
			case kGrpTRESMins:
				p.tres(f, r.GrpTRESMins, last)
			case kGrpTRESRaw:
				p.tres(f, r.GrpTRESRaw, last)
			case kTRESRunMins:
				p.tres(f, r.TRESRunMins, last)
			}
		}
		p.bw.WriteByte('\n')
	}
	return p.bw.Flush()
}

// sshareSelected applies the filters of assoc_mgr_get_shares and -U.
func sshareSelected(r *Row, o SshareOptions) bool {
	if r.IsUser && !o.All && !containsFold(o.Users, r.User) {
		return false
	}
	if len(o.Accounts) > 0 && !containsFold(o.Accounts, r.Account) {
		return false
	}
	return !o.UsersOnly || r.IsUser
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// treeNames reproduces slurmdb_tree_name_get: an account row is indented
// one space more than its parent's row if that row was printed, else not
// at all; a user row prints its account's name one space deeper than that
// account's row.
type treeNames struct {
	first  map[string]int // account entry name -> first entry
	last   map[string]int // account entry name -> last entry
	spaces []string
	print  []string
}

func newTreeNames() *treeNames {
	return &treeNames{first: map[string]int{}, last: map[string]int{}}
}

func (t *treeNames) get(r *Row) string {
	name := r.Account
	if r.IsUser {
		name = "|" + r.User
	}
	hasParent := r.Account != RootName || r.IsUser
	parent := r.ParentAccount
	if r.IsUser {
		parent = r.Account // share->parent of a user is its account
	}
	if !r.IsUser {
		if idx, ok := t.first[name]; ok && hasParent {
			return t.print[idx]
		}
	}
	spaces := ""
	if hasParent {
		if idx, ok := t.last[parent]; ok {
			spaces = " " + t.spaces[idx]
		}
	}
	idx := len(t.print)
	t.spaces = append(t.spaces, spaces)
	if r.IsUser {
		t.print = append(t.print, spaces+parent)
		return t.print[idx]
	}
	t.print = append(t.print, spaces+name)
	if _, ok := t.first[name]; !ok {
		t.first[name] = idx
	}
	t.last[name] = idx
	return t.print[idx]
}

type sshareWriter struct {
	bw       *bufio.Writer
	parsable bool
	noEnding bool
	nTRES    int
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pad justifies s in a cell of |width| bytes (left when width < 0), like
// printf("%*s"), then adds the column separator.
func (p *sshareWriter) pad(s string, width int) {
	n := absInt(width)
	fill := n - len(s)
	if width < 0 {
		p.bw.WriteString(s)
	}
	for range fill {
		p.bw.WriteByte(' ')
	}
	if width >= 0 {
		p.bw.WriteString(s)
	}
	p.bw.WriteByte(' ')
}

// parsableCell writes a parsable cell; it reports false in table mode.
func (p *sshareWriter) parsableCell(s string, last bool) bool {
	switch {
	case p.noEnding && last:
		p.bw.WriteString(s)
	case p.parsable:
		p.bw.WriteString(s)
		p.bw.WriteByte('|')
	default:
		return false
	}
	return true
}

// truncate is print_fields_str's overflow rule: cut to the width and mark
// the cut with '+'.
func truncate(s string, width int) string {
	n := absInt(width)
	if len(s) > n && n > 0 {
		return s[:n-1] + "+"
	}
	return s
}

func (p *sshareWriter) header(fields []sshareField) {
	for k, f := range fields {
		if p.parsableCell(f.name, k == len(fields)-1) {
			continue
		}
		name := f.name
		if len(name) > absInt(f.width) {
			name = name[:absInt(f.width)]
		}
		p.pad(name, f.width)
	}
	p.bw.WriteByte('\n')
	if p.parsable {
		return
	}
	for _, f := range fields {
		for range absInt(f.width) {
			p.bw.WriteByte('-')
		}
		p.bw.WriteByte(' ')
	}
	p.bw.WriteByte('\n')
}

// str is print_fields_str; null prints an empty (blank) cell.
func (p *sshareWriter) str(f sshareField, v string, null, last bool) {
	if null {
		v = ""
	}
	if p.parsableCell(v, last) {
		return
	}
	if null {
		v = " "
	}
	p.pad(truncate(v, f.width), f.width)
}

func (p *sshareWriter) blank(f sshareField, last bool) {
	if p.parsableCell("", last) {
		return
	}
	p.pad(" ", f.width)
}

// rawShares is print_fields_uint32 for numbers (NO_VAL and INFINITE blank)
// and print_fields_str for "parent".
func (p *sshareWriter) rawShares(f sshareField, v string, last bool) {
	switch v {
	case "", "4294967294", "4294967295":
		p.blank(f, last)
	case "parent":
		p.str(f, v, false, last)
	default:
		if !p.parsableCell(v, last) {
			p.pad(v, f.width)
		}
	}
}

// uint64 is print_fields_uint64: NO_VAL64 and INFINITE64 print blank.
func (p *sshareWriter) uint64(f sshareField, v uint64, last bool) {
	if v >= math.MaxUint64-1 {
		p.blank(f, last)
		return
	}
	s := strconv.FormatUint(v, 10)
	if !p.parsableCell(s, last) {
		p.pad(s, f.width)
	}
}

// Doubles equal to NO_VAL, INFINITE, NO_VAL64 or INFINITE64 mean "unset" to
// print_fields_double and print blank.
func unsetDouble(v float64) bool {
	return v == float64(0xfffffffe) || v == float64(0xffffffff) ||
		v == float64(uint64(math.MaxUint64-1)) || v == float64(uint64(math.MaxUint64))
}

// cFloat formats like C's printf for non-finite values ("inf", "nan").
func cFloat(v float64, verb byte, width, prec int) string {
	var s string
	switch {
	case math.IsInf(v, 1):
		s = "inf"
	case math.IsInf(v, -1):
		s = "-inf"
	case math.IsNaN(v):
		s = "nan"
	default:
		s = strconv.FormatFloat(v, verb, prec, 64)
	}
	if len(s) < width {
		s = strings.Repeat(" ", width-len(s)) + s
	}
	return s
}

// double is print_fields_double: %f in parsable mode; in a table %*f, or,
// when that overflows the column, %*.*e narrowed until it fits.
func (p *sshareWriter) double(f sshareField, v float64, null, last bool) {
	if null || unsetDouble(v) {
		p.blank(f, last)
		return
	}
	if p.parsableCell(cFloat(v, 'f', 0, 6), last) {
		return
	}
	width := absInt(f.width)
	s := cFloat(v, 'f', width, 6)
	if len(s) > width {
		e := cFloat(v, 'e', width, width)
		if len(e) > width {
			width -= len(e) - width
		}
		width = max(width, 0)
		s = strings.TrimLeft(cFloat(v, 'e', width, width), " ")
	} else {
		s = strings.TrimLeft(s, " ")
	}
	if f.width < 0 {
		p.pad(s, -width)
	} else {
		p.pad(s, width)
	}
}

// tres is _print_tres: "name=count,..." without INFINITE64 entries,
// truncated with '+' in a table.
func (p *sshareWriter) tres(f sshareField, v [NumTRES]uint64, last bool) {
	var b strings.Builder
	for k := range p.nTRES {
		if v[k] == math.MaxUint64 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(TRESNames[k])
		b.WriteByte('=')
		b.WriteString(strconv.FormatUint(v[k], 10))
	}
	s := b.String()
	if p.parsableCell(s, last) {
		return
	}
	p.pad(truncate(s, f.width), f.width)
}
