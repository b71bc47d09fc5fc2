package fairshare

import (
	"bufio"
	"fmt"
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
	// TRESCount limits the TRES fairsim models that TRES columns
	// (GrpTRESMins, GrpTRESRaw, TRESRunMins) print to the first TRESCount
	// of TRESNames. 0 means all but gres/gpu. Set it to NumTRES when the cluster's
	// AccountingStorageTRES tracks gres/gpu (sim.Cluster.TRESGres lists
	// it): sshare then prints gres/gpu=N last, as Slurm lists the
	// gres TRES after the fixed ones (assoc_mgr_tres_name_array is sorted
	// by TRES id, and dynamic TRES ids follow the fixed ones).
	TRESCount int
	// SlurmTRES prints the TRES columns with every TRES a real cluster
	// always tracks (DEFAULT_ACCOUNTING_TRES, read_config.c), in Slurm's
	// id order: cpu, mem, energy, node, billing, fs/disk, vmem, pages,
	// then gres/gpu when TRESCount includes it. fairsim does not model
	// energy, fs/disk, vmem or pages: they print 0 in GrpTRESRaw and
	// TRESRunMins (no job holds them in tres_alloc_cnt) and are left out
	// of GrpTRESMins (no limit, INFINITE64). False keeps fairsim's shorter
	// list cpu, mem, node, billing(, gres/gpu), which real sshare never
	// prints; set it to diff against a real cluster byte for byte.
	SlurmTRES bool
	// Format is sshare's --format (-o): comma-separated field names, each
	// a case-insensitive prefix of a field (the first in Slurm's table
	// order wins: "GrpTRES" is GrpTRESMins), with an optional "%WIDTH"
	// (negative: left-justified). "" is the default layout of Long and
	// Partitions. Fields: Account, Cluster (Cluster below), EffectvUsage,
	// FairShare, GrpTRESMins, GrpTRESRaw, LevelFS, NormShares, NormUsage,
	// Partition, RawShares, RawUsage, TRESRunMins, User; ID is refused
	// (fairsim has no association ids). GrpTRESRaw is reachable only here,
	// as in Slurm.
	Format string
	// Cluster is what the Cluster field prints (the tree's cluster name).
	Cluster string
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
	kCluster
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
	fGrpTRESRaw   = sshareField{"GrpTRESRaw", 30, kGrpTRESRaw}
	fCluster      = sshareField{"Cluster", 10, kCluster}
)

// sshareTable is process.c's fields[] in its order, which decides what a
// format prefix matches. kID (-1) marks the field fairsim cannot print.
var sshareTable = []sshareField{
	fAccount, fCluster, fEffectvUsage, fFairShare, fGrpTRESMins, fGrpTRESRaw,
	{"ID", 6, -1}, fLevelFS, fNormShares, fNormUsage, fPartition, fRawShares,
	fRawUsage, fTRESRunMins, fUser,
}

// parseSshareFormat reads a --format list as process.c does: "name%len",
// the name matched as a case-insensitive prefix against the table in
// order, len (atoi: a bad number is 0, which keeps the default) replacing
// the width.
func parseSshareFormat(format string) ([]sshareField, error) {
	var out []sshareField
	for _, item := range strings.Split(format, ",") {
		name, width, hasWidth := strings.Cut(item, "%")
		if name == "" {
			return nil, fmt.Errorf("sshare format %q: empty field name", format)
		}
		found := false
		for _, f := range sshareTable {
			if len(name) <= len(f.name) && strings.EqualFold(f.name[:len(name)], name) {
				if f.kind < 0 {
					return nil, fmt.Errorf("sshare format %q: field %s: fairsim has no association ids", format, f.name)
				}
				if n := atoi(width); hasWidth && n != 0 {
					f.width = n
				}
				out = append(out, f)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("sshare format %q: invalid field requested: %q", format, name)
		}
	}
	return out, nil
}

// atoi is C's atoi: optional sign and leading digits, 0 when none; it
// stops before overflowing an int32.
func atoi(s string) int {
	s = strings.TrimLeft(s, " \t")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9' && n < 1<<30; i++ {
		n = n*10 + int(s[i]-'0')
	}
	if neg {
		return -n
	}
	return n
}

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
	if o.Format != "" {
		var err error
		if fields, err = parseSshareFormat(o.Format); err != nil {
			return err
		}
	}
	p := &sshareWriter{
		bw:       bufio.NewWriter(w),
		parsable: o.Parsable || o.Parsable2,
		noEnding: o.Parsable2,
	}
	nTRES := TRESGPU
	if o.TRESCount > 0 && o.TRESCount <= NumTRES {
		nTRES = o.TRESCount
	}
	list := fairsimTRES
	if o.SlurmTRES {
		list = slurmTRES
	}
	for _, it := range list {
		if it.idx < nTRES {
			p.tresList = append(p.tresList, it)
		}
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
			case kCluster:
				p.str(f, o.Cluster, o.Cluster == "", last)
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
	tresList []tresItem
}

// tresItem is one TRES of a TRES column: its name and its index in a
// Row's arrays, or -1 for a TRES fairsim does not model.
type tresItem struct {
	name string
	idx  int
}

// fairsimTRES is fairsim's own order, TRESNames; slurmTRES is Slurm's id
// order with the TRES fairsim does not model (idx -1), gres/gpu last.
// TRESCount keeps the modelled TRES whose index is below it.
var (
	fairsimTRES = []tresItem{{"cpu", TRESCPU}, {"mem", TRESMem}, {"node", TRESNode}, {"billing", TRESBilling}, {"gres/gpu", TRESGPU}}
	slurmTRES   = []tresItem{{"cpu", TRESCPU}, {"mem", TRESMem}, {"energy", -1}, {"node", TRESNode},
		{"billing", TRESBilling}, {"fs/disk", -1}, {"vmem", -1}, {"pages", -1}, {"gres/gpu", TRESGPU}}
)

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

// tres is _print_tres_array (slurmdb_make_tres_string_from_arrays with
// TRES_STR_FLAG_REMOVE): "name=count,..." in the TRES order, every count
// printed, zeros included, but INFINITE64 (no limit) left out; truncated
// with '+' in a table. A TRES fairsim does not model is 0, or no limit in
// GrpTRESMins.
func (p *sshareWriter) tres(f sshareField, v [NumTRES]uint64, last bool) {
	var b strings.Builder
	for _, it := range p.tresList {
		var c uint64
		switch {
		case it.idx >= 0:
			c = v[it.idx]
		case f.kind == kGrpTRESMins:
			c = math.MaxUint64
		}
		if c == math.MaxUint64 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(it.name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatUint(c, 10))
	}
	s := b.String()
	if p.parsableCell(s, last) {
		return
	}
	p.pad(truncate(s, f.width), f.width)
}
