package slurmconf

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fairsim/inputerr"
	"fairsim/policy"
	"fairsim/slurmtext"
	"fairsim/slurmtime"
)

// ParseFile reads and parses the slurm.conf at path, following its
// Include lines (see ParseIn) relative to path's folder.
func ParseFile(path string) (*Config, error) {
	src, err := inputerr.ReadFile(path, "slurm.conf", inputerr.MaxConfBytes)
	if err != nil {
		return nil, err
	}
	return ParseIn(path, src, filepath.Dir(path))
}

// Parse parses slurm.conf text; filename is used in positions. When
// filename names an existing file, Include lines are followed relative to
// its folder, as ParseFile does; otherwise they are reported as warnings
// and not followed.
//
// On failure the error is an inputerr.List holding every problem found; the
// returned Config is then incomplete (it still carries the warnings) and
// must not be simulated.
func Parse(filename string, src []byte) (*Config, error) {
	dir := ""
	if st, err := os.Stat(filename); err == nil && st.Mode().IsRegular() {
		dir = filepath.Dir(filename)
	}
	return ParseIn(filename, src, dir)
}

// ParseIn parses slurm.conf text named filename (used in positions) whose
// Include lines name files relative to dir. Slurm resolves every relative
// Include, nested ones too, against the folder of slurm.conf itself
// (read_config.c get_extra_conf_path), so dir applies at every depth;
// absolute paths are used as they are, and "%c" in a name stands for the
// ClusterName set above it (parse_config.c _parse_for_format). Settings
// of an included file take effect where the Include line stands, and their
// positions name that file. A missing file, a glob, or a loop of includes
// is an error citing the Include line.
//
// With dir == "" Include lines are not followed: each draws a warning.
// Fuzzing and other untrusted text use that, so no file is read.
func ParseIn(filename string, src []byte, dir string) (*Config, error) {
	p := &parser{
		file:   filename,
		dir:    dir,
		cfg:    Default(),
		top:    map[string]entry{},
		nodeDf: map[string]entry{},
		partDf: map[string]entry{},
	}
	p.cfg.Source.File = filename
	p.text(filename, src, []Pos{})
	p.interpretTop()
	p.interpretNodes()
	p.interpretNodeSets()
	p.interpretPartitions()
	p.interpretDownNodes()
	p.listIgnored()
	p.errs.Sort()
	return p.cfg, p.errs.Err()
}

// maxIncludeDepth bounds nesting even without a loop (a chain of distinct
// files), as a safety net; real sites nest one or two levels.
const maxIncludeDepth = 16

// text parses the lines of one file; chain holds the Include lines that
// led to it, outermost first.
func (p *parser) text(name string, src []byte, chain []Pos) {
	saved := p.file
	p.file = name
	for _, l := range splitLines(string(slurmtext.TrimBOM(src))) {
		p.line(l, chain)
	}
	p.file = saved
}

// include follows one Include line.
func (p *parser) include(pos Pos, arg string, chain []Pos) {
	arg = strings.TrimLeftFunc(arg, isSpaceRune)
	if p.dir == "" {
		p.warnf(pos, "Include", "%q is not followed (the text has no folder to resolve it in); put the settings fairsim needs in this file", "Include "+strings.TrimRightFunc(arg, isSpaceRune))
		return
	}
	end := strings.IndexFunc(arg, isSpaceRune)
	if end < 0 {
		end = len(arg)
	}
	name, rest := arg[:end], arg[end:]
	if !isBlank(rest) {
		p.errorf(pos, "Include", "unexpected text %q after the file name", strings.TrimSpace(rest))
		return
	}
	if name == "" {
		p.errorf(pos, "Include", "names no file")
		return
	}
	if strings.Contains(name, "%c") {
		cn, ok := p.top["clustername"]
		if !ok {
			p.errorf(pos, "Include", "%q uses %%c but no ClusterName is set above it (Slurm refuses this)", name)
			return
		}
		name = strings.ReplaceAll(name, "%c", strings.ToLower(cn.value))
	}
	if strings.Contains(name, "*") {
		p.errorf(pos, "Include", "%q: Slurm does not expand globs and fails this Include", name)
		return
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.dir, name)
	}
	chain = append(slices.Clip(chain), pos)
	// Every file being read is the File of one Include line on the chain
	// (the first is the top file), so a loop shows up there.
	for _, c := range chain {
		if samePath(c.File, path) {
			p.errorf(pos, "Include", "loop of includes: %s", includeChain(chain, path))
			return
		}
	}
	if len(chain) > maxIncludeDepth {
		p.errorf(pos, "Include", "more than %d nested includes: %s", maxIncludeDepth, includeChain(chain, path))
		return
	}
	over := func() {
		p.errorf(pos, "Include", "%s: the included files would hold more than %d bytes in all, the most one configuration may (the same file included again and again?)", path, maxIncludedBytes)
	}
	if p.included > maxIncludedBytes {
		over() // nothing more is read
		return
	}
	src, err := inputerr.ReadFile(path, "slurm.conf", inputerr.MaxConfBytes)
	if err != nil {
		p.errorf(pos, "Include", "cannot read %s: %v", path, unwrapPathError(err))
		return
	}
	if p.included += int64(len(src)); p.included > maxIncludedBytes {
		over()
		return
	}
	p.text(path, src, chain)
}

// maxIncludedBytes bounds the files one configuration includes, in all:
// each is capped at inputerr.MaxConfBytes, but one file can be included
// any number of times (each line a sibling, not a loop). A variable for
// the test.
var maxIncludedBytes int64 = 4 * inputerr.MaxConfBytes

func isSpaceRune(r rune) bool { return r < 128 && isSpace(byte(r)) }

// includeChain renders "a.conf:3 → b.conf:1 → a.conf": each Include line
// on the way, then the file it would read again.
func includeChain(chain []Pos, last string) string {
	var b strings.Builder
	for i, c := range chain {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(c.String())
	}
	b.WriteString(" → " + last)
	return b.String()
}

// samePath compares two file names after cleaning, and by identity on
// disk when both exist (so "./a.conf" and "a.conf" are one file).
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// unwrapPathError drops the path a read error repeats, since the message
// already names it.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var ie *inputerr.Error
	if errors.As(err, &ie) && ie.Line == 0 && ie.Field == "" {
		return errors.New(ie.Msg)
	}
	return err
}

// entry is one Key=Value with its position.
type entry struct {
	key   string // canonical spelling
	value string
	pos   Pos
}

// attrLine is a NodeName, PartitionName or NodeSet line: its own attributes
// and a snapshot of the DEFAULT attributes in force when it was read.
type attrLine struct {
	name string
	pos  Pos
	own  map[string]entry // by lower-cased key
	dflt map[string]entry
}

// get returns the first of keys set on the line itself, else the first set
// by DEFAULT; for a single key that is Slurm's "line, then default" rule.
func (a *attrLine) get(keys ...string) (entry, bool) {
	for _, k := range keys {
		if e, ok := a.own[k]; ok {
			return e, true
		}
	}
	for _, k := range keys {
		if e, ok := a.dflt[k]; ok {
			return e, true
		}
	}
	return entry{}, false
}

type parser struct {
	file string // the file being read (an included one while inside it)
	dir  string // folder relative Include names resolve in; "" = do not follow
	cfg  *Config
	errs inputerr.List
	// included counts the bytes of the included files read so far
	// (maxIncludedBytes).
	included int64
	top      map[string]entry // lower-cased key → last value
	nodeDf   map[string]entry // NodeName=DEFAULT attributes so far
	partDf   map[string]entry
	nodes    []attrLine
	parts    []attrLine
	sets     []attrLine
	downs    []attrLine
	// ignored holds each key or attribute the simulation does not use
	// with the first line that gave it (see Config.Ignored).
	ignored map[string]Pos
	all     []string       // every host in definition order, once nodes are read
	idx     map[string]int // host → position in all
	// broken are the hosts of NodeName lines refused for a bad value:
	// a partition naming them is not also an error (the cascade would
	// hide the one fix to make).
	broken map[string]bool
}

func (p *parser) pos(line int) Pos { return Pos{File: p.file, Line: line} }

// ignore records that key (canonical, or as written when unknown) is not
// simulated, keeping the first line that gave it.
func (p *parser) ignore(key string, pos Pos) {
	if p.ignored == nil {
		p.ignored = map[string]Pos{}
	}
	if _, ok := p.ignored[key]; !ok {
		p.ignored[key] = pos
	}
}

func (p *parser) errorf(pos Pos, key, format string, args ...any) {
	p.errs.Addf(pos.errFile(), pos.Line, key, format, args...)
}

func (p *parser) warnf(pos Pos, key, format string, args ...any) {
	p.cfg.Warnings = append(p.cfg.Warnings, Warning{Pos: pos, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// line handles one logical line: record what it sets, check its syntax.
func (p *parser) line(l logicalLine, chain []Pos) {
	pos := p.pos(l.line)
	text := l.text
	if isBlank(text) {
		return
	}
	if len(text) > 7 && strings.EqualFold(text[:7], "include") && isSpace(text[7]) {
		p.include(pos, text[7:], chain)
		return
	}
	first, rest, ok := nextPair(text)
	if !ok {
		p.errorf(pos, "", "expected Key=Value, found %q", strings.TrimSpace(text))
		return
	}
	lkey := strings.ToLower(first.key)
	canon, known := topIndex()[lkey]
	if !known {
		p.ignore(first.key, pos)
		if note, ok := removedKeys()[lkey]; ok {
			p.warnf(pos, first.key, "unknown to current Slurm (%s); line ignored", note)
		} else {
			p.warnf(pos, first.key, "unknown key; line ignored")
		}
		return
	}
	if !simulatedTop()[lkey] {
		p.ignore(canon, pos)
	}
	if first.openQuote {
		p.errorf(pos, canon, "value %s has an opening '\"' but no closing one", first.value)
		return
	}
	if first.op != 0 {
		p.warnf(pos, canon, "operator \"%c=\" is treated as plain '=' here, as Slurm does for this key", first.op)
	}
	switch canon {
	case "NodeName", "PartitionName", "NodeSet", "DownNodes", "FrontendName", "SlurmctldHost":
		p.multiLine(pos, canon, first.value, rest)
		return
	}
	if !isBlank(rest) {
		p.errorf(pos, canon, "unexpected text %q after the value (only NodeName, PartitionName and similar lines take several Key=Value pairs)", strings.TrimSpace(rest))
		return
	}
	if prev, dup := p.top[lkey]; dup {
		p.warnf(pos, canon, "also set at %s; the later value %q is used, as in Slurm", prev.pos, first.value)
	}
	p.top[lkey] = entry{key: canon, value: first.value, pos: pos}
}

// multiLine handles a line whose first key introduces more Key=Value pairs.
func (p *parser) multiLine(pos Pos, canon, name, rest string) {
	var idx map[string]string
	switch canon {
	case "NodeName":
		idx = nodeIndex()
	case "PartitionName":
		idx = partIndex()
	case "NodeSet":
		idx = nodeSetIndex()
	case "DownNodes":
		idx = downNodesIndex()
	}
	simulated := simulatedAttrs()[canon]
	own := map[string]entry{}
	for {
		pr, r, ok := nextPair(rest)
		if !ok {
			break
		}
		rest = r
		if idx == nil {
			continue // FrontendName, SlurmctldHost: not simulated
		}
		if pr.openQuote {
			p.errorf(pos, canon+"="+name, "%s: value %s has an opening '\"' but no closing one", pr.key, pr.value)
			continue
		}
		lk := strings.ToLower(pr.key)
		c, known := idx[lk]
		if !known {
			p.ignore(canon+"."+pr.key, pos)
			p.warnf(pos, canon+"="+name, "unknown attribute %q ignored", pr.key)
			continue
		}
		if !simulated[lk] {
			p.ignore(canon+"."+c, pos)
		}
		if pr.op != 0 {
			p.warnf(pos, canon+"="+name, "operator \"%c=\" on %s is treated as plain '='", pr.op, c)
		}
		if prev, dup := own[lk]; dup {
			p.warnf(pos, canon+"="+name, "%s given twice on this line; %q replaces %q, as in Slurm", c, pr.value, prev.value)
		}
		own[lk] = entry{key: c, value: pr.value, pos: pos}
	}
	if !isBlank(rest) {
		p.errorf(pos, canon, "cannot parse %q (expected Key=Value pairs)", strings.TrimSpace(rest))
		return
	}
	switch canon {
	case "FrontendName", "SlurmctldHost":
		return // already listed as ignored
	case "DownNodes":
		p.downs = append(p.downs, attrLine{name: name, pos: pos, own: own})
		return
	case "NodeSet":
		p.sets = append(p.sets, attrLine{name: name, pos: pos, own: own})
		return
	}
	defaults := p.nodeDf
	if canon == "PartitionName" {
		defaults = p.partDf
	}
	if strings.EqualFold(name, "DEFAULT") {
		if canon == "NodeName" {
			for _, k := range []string{"nodehostname", "nodeaddr", "bcastaddr"} {
				if e, ok := own[k]; ok {
					p.errorf(pos, canon, "%s is not allowed with NodeName=DEFAULT", e.key)
				}
			}
		}
		for k, e := range own { // later DEFAULT lines override earlier ones
			defaults[k] = e
		}
		return
	}
	line := attrLine{name: name, pos: pos, own: own, dflt: maps(defaults)}
	if canon == "NodeName" {
		p.nodes = append(p.nodes, line)
	} else {
		p.parts = append(p.parts, line)
	}
}

func maps(m map[string]entry) map[string]entry {
	c := make(map[string]entry, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// interpretTop turns the top-level keys into typed values with Slurm's
// defaults and checks, one group of related keys at a time.
func (p *parser) interpretTop() {
	c := p.cfg
	p.topU16("MessageTimeout", &c.MessageTimeout)
	if e, ok := p.topEntry("ClusterName"); ok {
		c.ClusterName = strings.ToLower(e.value)
	}
	p.interpretPriorityWeights()
	p.interpretPriorityDecay()
	p.interpretScheduling()
	p.interpretPreemption()
	if e, ok := p.topEntry("AccountingStorageEnforce"); ok {
		if v, err := parseEnforce(e.value); err != nil {
			// Slurm 21.08 (commit 41135bdd2b) refuses such a value, but
			// every earlier version started with it, matching the flag
			// names as substrings of the whole value. A file that has one
			// was written for such a version: read it as that one did.
			old := parseEnforceSubstrings(e.value)
			p.warnf(e.pos, "AccountingStorageEnforce", "%v: Slurm 21.08 and later refuse to start with it; earlier versions matched flag names as substrings, reading %q as %q, and so does fairsim", err, e.value, old.String())
			c.AccountingStorageEnforce = old
		} else {
			c.AccountingStorageEnforce = v
		}
	}
	if e, ok := p.topEntry("FastSchedule"); ok {
		// read_config.c (20.02, commit 45ac6ee6b9 and before it): FastSchedule=1
		// is ignored with an error, 0 and 2 are fatal. Older versions used it
		// to choose between configured and detected hardware; fairsim only
		// knows the configured hardware, which is what 1 and 2 meant.
		p.warnf(e.pos, "FastSchedule", "%q: removed in Slurm 20.02 (which ignores 1 and refuses 0 and 2); fairsim simulates the nodes as configured in this file", e.value)
	}
	p.interpretMemory()
	p.topU16("KillWait", &c.KillWait)
	p.topU16("OverTimeLimit", &c.OverTimeLimit)
	p.topU16("CompleteWait", &c.CompleteWait)
	if e, ok := p.topEntry("CompleteWait"); ok && c.CompleteWait != 0 {
		// job_is_completing: no main pass, backfill cycle or start at
		// submission while a job that ended within CompleteWait is
		// still COMPLETING. Not simulated, so listed as ignored.
		p.ignore("CompleteWait", e.pos)
	}
	if e, ok := p.topEntry("PreemptExemptTime"); ok {
		// read_config.c: time_str2secs, a plain number being minutes.
		if v, err := slurmtime.ParseSeconds(e.value); err != nil || v < 0 {
			p.errorf(e.pos, "PreemptExemptTime", "%q: not a time", e.value)
		} else {
			c.PreemptExemptTime = v
		}
	}
	c.PreemptYoungestFirst = c.SchedulerParameters.PreemptYoungestFirst
	if e, ok := p.topEntry("PreemptParameters"); ok {
		for _, tok := range strings.Split(e.value, ",") {
			switch t := strings.ToLower(strings.TrimSpace(tok)); {
			case t == "youngest_first":
				c.PreemptYoungestFirst = true
			case t != "":
				p.warnf(e.pos, "PreemptParameters", "%q is valid in Slurm but not simulated; preemption may differ from the real cluster", tok)
			}
		}
	}

	for lk, e := range p.top {
		if _, ok := modelledKeys()[lk]; !ok {
			c.Extra[e.key] = e.value
			c.Source.Keys[e.key] = e.pos
		}
	}
}

// topEntry is the top-level key canon, recording where it was set so
// later checks can cite the line.
func (p *parser) topEntry(canon string) (entry, bool) {
	e, ok := p.top[strings.ToLower(canon)]
	if ok {
		p.cfg.Source.Keys[canon] = e.pos
	}
	return e, ok
}

// topU16 reads a 16-bit unsigned key into dst when it is set.
func (p *parser) topU16(canon string, dst *uint16) {
	if e, ok := p.topEntry(canon); ok {
		if v, err := parseUint(e.value, 16, false); err != nil {
			p.errorf(e.pos, canon, "%v", err)
		} else {
			*dst = uint16(v)
		}
	}
}

// topU32 reads a 32-bit unsigned key (with Slurm's k/m suffixes) into dst
// when it is set.
func (p *parser) topU32(canon string, dst *uint32) {
	if e, ok := p.topEntry(canon); ok {
		if v, err := parseUint(e.value, 32, true); err != nil {
			p.errorf(e.pos, canon, "%v", err)
		} else {
			*dst = uint32(v)
		}
	}
}

// topStr copies a key's text into dst when it is set.
func (p *parser) topStr(canon string, dst *string) {
	if e, ok := p.topEntry(canon); ok {
		*dst = e.value
	}
}

// topPriorityTime reads a Priority* period: a time string in whole
// minutes (rounded up), stored in seconds.
func (p *parser) topPriorityTime(canon string, dst *int64) (entry, bool) {
	e, ok := p.topEntry(canon)
	if !ok {
		return e, false
	}
	mins, err := slurmtime.ParseMinutes(e.value)
	switch {
	case err != nil:
		p.errorf(e.pos, canon, "%v", err)
	case mins == slurmtime.Infinite:
		*dst = UnlimitedPrioritySeconds
	default:
		*dst = mins * 60
	}
	return e, true
}

// interpretPriorityWeights reads PriorityType, PriorityFlags and the
// PriorityWeight* keys, warning when the weights can overflow a priority.
func (p *parser) interpretPriorityWeights() {
	c := p.cfg
	if e, ok := p.topEntry("PriorityType"); ok {
		switch e.value {
		case "priority/multifactor", "priority/basic":
			c.PriorityType = e.value
		default:
			p.errorf(e.pos, "PriorityType", "unsupported value %q (fairsim simulates priority/multifactor and priority/basic)", e.value)
		}
	}
	p.topStr("PriorityFlags", &c.PriorityFlags)
	p.topU32("PriorityWeightAge", &c.PriorityWeightAge)
	p.topU32("PriorityWeightAssoc", &c.PriorityWeightAssoc)
	p.topU32("PriorityWeightFairshare", &c.PriorityWeightFairshare)
	p.topU32("PriorityWeightJobSize", &c.PriorityWeightJobSize)
	p.topU32("PriorityWeightPartition", &c.PriorityWeightPartition)
	p.topU32("PriorityWeightQOS", &c.PriorityWeightQOS)
	p.topStr("PriorityWeightTRES", &c.PriorityWeightTRES)
	if c.PriorityWeightSum() > math.MaxUint32 {
		var last Pos // cite the last weight set, the one that tipped the sum
		for _, k := range []string{"PriorityWeightAge", "PriorityWeightAssoc", "PriorityWeightFairshare",
			"PriorityWeightJobSize", "PriorityWeightPartition", "PriorityWeightQOS"} {
			if pos := c.Source.Keys[k]; pos.Line > last.Line {
				last = pos
			}
		}
		p.warnf(last, "PriorityWeight*", "the weights sum to %d > 4294967295, so job priorities may be clamped (Slurm logs the same)", c.PriorityWeightSum())
	}
}

// interpretPriorityDecay reads how usage ages (PriorityMaxAge, half-life,
// calc period, reset period) and the fair-share knobs, refusing the
// combinations Slurm refuses.
func (p *parser) interpretPriorityDecay() {
	c := p.cfg
	p.topPriorityTime("PriorityMaxAge", &c.PriorityMaxAge)
	hl, hlSet := p.topPriorityTime("PriorityDecayHalfLife", &c.PriorityDecayHalfLife)
	if e, ok := p.topEntry("PriorityCalcPeriod"); ok {
		mins, err := slurmtime.ParseMinutes(e.value)
		switch {
		case err != nil:
			p.errorf(e.pos, "PriorityCalcPeriod", "%v", err)
		case mins < 1: // also rejects UNLIMITED, as Slurm's "< 1" test does
			p.errorf(e.pos, "PriorityCalcPeriod", "%q: must be at least 1 minute", e.value)
		default:
			c.PriorityCalcPeriod = mins * 60
		}
	}
	if e, ok := p.topEntry("PriorityUsageResetPeriod"); ok {
		r := ResetPeriod(strings.ToUpper(e.value))
		switch r {
		case ResetNone, ResetNow, ResetDaily, ResetWeekly, ResetMonthly, ResetQuarterly, ResetYearly:
			c.PriorityUsageResetPeriod = r
		default:
			msg := fmt.Sprintf("bad value %q: must be NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY", e.value)
			if _, err := slurmtime.ParseSeconds(e.value); err == nil {
				msg += " (the Slurm 2.0 documentation showed a time string here; current Slurm rejects it)"
			}
			p.errorf(e.pos, "PriorityUsageResetPeriod", "%s", msg)
		}
	} else if hlSet && c.PriorityDecayHalfLife == 0 {
		// read_config.c: with no decay, usage only ever grows unless a
		// reset period is configured; Slurm refuses to start. (An explicit
		// PriorityUsageResetPeriod=NONE passes this check in Slurm too.)
		p.errorf(hl.pos, "PriorityDecayHalfLife", "0 (no decay) requires PriorityUsageResetPeriod to be set, or usage grows without bound; Slurm refuses this configuration")
	}
	if e, ok := p.topEntry("PriorityFavorSmall"); ok {
		if v, err := parseBool(e.value); err != nil {
			p.errorf(e.pos, "PriorityFavorSmall", "%v", err)
		} else {
			c.PriorityFavorSmall = v
		}
	}
	p.topU16("FairShareDampeningFactor", &c.FairShareDampeningFactor)
	if c.FairShareDampeningFactor == 0 {
		e, _ := p.topEntry("FairShareDampeningFactor")
		p.errorf(e.pos, "FairShareDampeningFactor", "must be at least 1 (it divides the fair-share exponent)")
		c.FairShareDampeningFactor = 1
	}
}

// interpretScheduling reads the scheduler and selection plugins and
// SchedulerParameters.
func (p *parser) interpretScheduling() {
	c := p.cfg
	if e, ok := p.topEntry("SchedulerType"); ok {
		switch e.value {
		case "sched/backfill", "sched/builtin":
			c.SchedulerType = e.value
		default:
			p.errorf(e.pos, "SchedulerType", "unsupported value %q (fairsim simulates sched/backfill and sched/builtin)", e.value)
		}
	}
	if e, ok := p.topEntry("SchedulerParameters"); ok {
		c.SchedulerParameters = parseSchedulerParameters(e.value, c.MessageTimeout, func(format string, args ...any) {
			p.warnf(e.pos, "SchedulerParameters", format, args...)
		})
	} else {
		c.SchedulerParameters = DefaultSchedulerParameters(c.MessageTimeout)
	}
	if e, ok := p.topEntry("SelectType"); ok {
		switch e.value {
		case "select/cons_tres", "select/cons_res", "select/linear":
		default:
			p.warnf(e.pos, "SelectType", "unknown plugin %q; fairsim allocates as select/cons_tres does", e.value)
		}
		c.SelectType = e.value
	}
	p.topStr("SelectTypeParameters", &c.SelectTypeParameters)
	p.topStr("AccountingStorageTRES", &c.AccountingStorageTRES)
	p.topStr("GresTypes", &c.GresTypes)
}

// interpretPreemption reads PreemptMode and PreemptType together, since
// each is valid only with some values of the other (read_config.c).
func (p *parser) interpretPreemption() {
	c := p.cfg
	preemptOK := true
	modeEntry, modeSet := p.topEntry("PreemptMode")
	if modeSet {
		m, err := ParsePreemptMode(modeEntry.value)
		switch {
		case err != nil:
			p.errorf(modeEntry.pos, "PreemptMode", "%v", err)
			preemptOK = false
		case m == policy.PreemptSuspend:
			p.errorf(modeEntry.pos, "PreemptMode", "SUSPEND requires GANG too (PreemptMode=SUSPEND,GANG), as in Slurm")
			preemptOK = false
		default:
			c.PreemptMode = m
		}
	}
	typeEntry, typeSet := p.topEntry("PreemptType")
	if typeSet {
		switch typeEntry.value {
		case "preempt/none", "preempt/partition_prio", "preempt/qos":
			c.PreemptType = typeEntry.value
		default:
			p.errorf(typeEntry.pos, "PreemptType", "unsupported value %q (want preempt/none, preempt/partition_prio or preempt/qos)", typeEntry.value)
			preemptOK = false
		}
	}
	// read_config.c: a preempting plugin needs an action, and preempt/none
	// accepts only OFF (GANG alone is allowed with any).
	where := modeEntry.pos
	if !modeSet {
		where = typeEntry.pos
	}
	switch off := c.PreemptMode.Action() == policy.PreemptOff; {
	case !preemptOK:
	case c.PreemptType != "preempt/none" && off:
		p.errorf(where, "PreemptMode", "%s needs PreemptMode CANCEL, REQUEUE or SUSPEND,GANG; PreemptType and PreemptMode are incompatible", c.PreemptType)
	case c.PreemptType == "preempt/none" && !off:
		p.errorf(where, "PreemptMode", "%s with PreemptType=preempt/none: PreemptType and PreemptMode are incompatible", formatPreemptMode(c.PreemptMode))
	}
}

// MaxNodes bounds the nodes of one configuration (the largest machines
// have about 10,000). It equals MaxHosts so that any set of nodes can be
// written as one hostlist, as Write does for partitions.
const MaxNodes = slurmtext.MaxHosts

// interpretNodes builds the node groups, applying Slurm's inference of
// CPUs and Sockets (read_config.c _parse_nodename).
func (p *parser) interpretNodes() {
	defined := map[string]Pos{}
	total := 0
	for _, l := range p.nodes {
		if strings.EqualFold(l.name, "ALL") {
			p.errorf(l.pos, "NodeName", "ALL is a reserved word and cannot name a node")
			continue
		}
		key := "NodeName=" + l.name
		hosts, err := slurmtext.Expand(l.name)
		if err != nil {
			p.errorf(l.pos, key, "%v", err)
			continue
		}
		if len(hosts) == 0 {
			p.errorf(l.pos, key, "names no node")
			continue
		}
		if total += len(hosts); total > MaxNodes {
			p.errorf(l.pos, key, "more than %d nodes in total; fairsim does not simulate clusters this large", MaxNodes)
			return
		}
		dup := false
		for _, h := range hosts {
			if prev, ok := defined[h]; ok {
				p.errorf(l.pos, key, "node %s is already defined at %s", h, prev)
				dup = true
				break
			}
			defined[h] = l.pos
		}
		if dup {
			continue
		}
		p.cfg.Source.Keys[key] = l.pos
		g := NodeGroup{Names: l.name, Hosts: hosts, RealMemory: 1, Weight: 1, State: "UNKNOWN"}
		nerr := len(p.errs)

		num := func(attr string, bits int, allowK bool, keys ...string) (uint64, bool) {
			e, ok := l.get(keys...)
			if !ok {
				return 0, false
			}
			p.cfg.Source.Keys[key+"."+attr] = e.pos
			v, err := parseUint(e.value, bits, allowK)
			if err != nil {
				p.errorf(e.pos, key, "%s: %v", e.key, err)
				return 0, false
			}
			return v, true
		}
		cpus, haveCPUs := num("CPUs", 16, false, "cpus")
		if !haveCPUs {
			cpus, haveCPUs = num("CPUs", 16, false, "procs")
		}
		boards, haveBoards := num("Boards", 16, false, "boards")
		sockets, haveSockets := num("Sockets", 16, false, "sockets")
		spb, haveSPB := num("SocketsPerBoard", 16, false, "socketsperboard")
		cores, haveCores := num("CoresPerSocket", 16, false, "corespersocket")
		threads, haveThreads := num("ThreadsPerCore", 16, false, "threadspercore")
		if v, ok := num("RealMemory", 64, false, "realmemory"); ok {
			// Memory is counted in bytes as int64 downstream: a larger
			// value (or UNLIMITED, 2^64-1) wrapped to a negative size.
			if v > maxRealMemoryMB {
				p.errorf(p.cfg.Source.Keys[key+".RealMemory"], key, "RealMemory: %d MB is more than fairsim can count (at most %d MB, 8 EiB)", v, uint64(maxRealMemoryMB))
			} else {
				g.RealMemory = v
			}
		}
		if v, ok := num("Weight", 32, true, "weight"); ok {
			if v == math.MaxUint32 {
				v-- // INFINITE is reserved; Slurm quietly uses one less
			}
			g.Weight = uint32(v)
		}
		if len(p.errs) > nerr {
			p.markBroken(hosts)
			continue
		}
		warnZero := func(name string, v *uint64, have bool) {
			if have && *v == 0 {
				p.warnf(l.pos, key, "%s=0 is invalid; Slurm resets it to 1", name)
			}
			if *v == 0 {
				*v = 1
			}
		}
		warnZero("CoresPerSocket", &cores, haveCores)
		warnZero("CPUs", &cpus, haveCPUs)
		warnZero("ThreadsPerCore", &threads, haveThreads)
		warnZero("SocketsPerBoard", &spb, haveSPB)
		warnZero("Sockets", &sockets, haveSockets)
		warnZero("Boards", &boards, haveBoards)
		if haveSockets && haveSPB {
			p.warnf(l.pos, key, "both Sockets and SocketsPerBoard given; Slurm uses SocketsPerBoard")
			haveSockets = false
		}
		if !haveSockets {
			switch {
			case haveSPB:
				sockets = boards * spb
			case haveCPUs && cpus%(cores*threads) == 0 && cpus/(cores*threads) > 0:
				sockets = cpus / (cores * threads)
			default:
				sockets = boards
			}
		}
		full := sockets * cores * threads
		if sockets > math.MaxUint16 || full > math.MaxUint16 {
			p.errorf(l.pos, key, "Sockets×CoresPerSocket×ThreadsPerCore = %d exceeds Slurm's limit of 65535 CPUs per node", full)
			p.markBroken(hosts)
			continue
		}
		if !haveCPUs {
			cpus = full
		} else if cpus != sockets && cpus != sockets*cores && cpus != full {
			p.warnf(l.pos, key, "CPUs=%d matches neither Sockets (%d), Sockets×CoresPerSocket (%d) nor Sockets×CoresPerSocket×ThreadsPerCore (%d); Slurm resets it to %d", cpus, sockets, sockets*cores, full, full)
			cpus = full
		}
		g.CPUs, g.Sockets, g.CoresPerSocket, g.ThreadsPerCore = uint16(cpus), uint16(sockets), uint16(cores), uint16(threads)

		if e, ok := l.get("feature", "features"); ok {
			p.cfg.Source.Keys[key+".Features"] = e.pos
			for _, f := range strings.Split(e.value, ",") {
				if f != "" {
					g.Features = append(g.Features, f)
				}
			}
		}
		if e, ok := l.get("gres"); ok {
			p.cfg.Source.Keys[key+".Gres"] = e.pos
			g.Gres = e.value
			items, err := ParseGres(e.value)
			if err != nil {
				p.errorf(e.pos, key+".Gres", "%v", err)
			}
			g.GresItems = items
		}
		if e, ok := l.get("state"); ok {
			p.cfg.Source.Keys[key+".State"] = e.pos
			s, ok := NormalizeNodeState(e.value)
			if !ok {
				// node_conf.c build_all_nodeline_info: fatal.
				p.errorf(e.pos, key, "State: invalid node state %q (want one of %s; Slurm refuses to start)", e.value, strings.Join(NodeStates, ", "))
				p.markBroken(hosts)
				continue
			}
			g.State = s
		}
		if e, ok := l.get("reason"); ok {
			p.cfg.Source.Keys[key+".Reason"] = e.pos
			g.Reason = e.value
		}
		p.cfg.Nodes = append(p.cfg.Nodes, g)
	}
}

// hostIndex maps each host to its position in node definition order. It
// is built once, after the nodes.
// markBroken records the hosts of a NodeName line refused for a value.
func (p *parser) markBroken(hosts []string) {
	if p.broken == nil {
		p.broken = map[string]bool{}
	}
	for _, h := range hosts {
		p.broken[h] = true
	}
}

func (p *parser) hostIndex() map[string]int {
	if p.idx == nil {
		p.all = slices.Clip(p.cfg.AllHosts())
		p.idx = make(map[string]int, len(p.all))
		for i, h := range p.all {
			p.idx[h] = i
		}
	}
	return p.idx
}

// sortHosts orders hosts by node index and drops duplicates, as a Slurm
// node bitmap would.
func sortHosts(hosts []string, idx map[string]int) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hosts {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return idx[a] - idx[b] })
	return out
}

func (p *parser) interpretNodeSets() {
	idx := p.hostIndex()
	for _, l := range p.sets {
		key := "NodeSet=" + l.name
		if slices.ContainsFunc(p.cfg.NodeSets, func(s NodeSet) bool { return s.Name == l.name }) {
			p.errorf(l.pos, key, "node set already defined")
			continue
		}
		p.cfg.Source.Keys[key] = l.pos
		s := NodeSet{Name: l.name}
		var hosts []string
		if e, ok := l.own["nodes"]; ok {
			s.Nodes = e.value
			names, err := p.expandNodes(e.value, nil)
			if err != nil {
				p.errorf(l.pos, key, "Nodes: %v", err)
				continue
			}
			hosts = append(hosts, names...)
		}
		if e, ok := l.own["feature"]; ok {
			s.Feature = e.value
			for _, g := range p.cfg.Nodes {
				if g.HasFeature(e.value) {
					hosts = append(hosts, g.Hosts...)
				}
			}
		}
		s.Hosts = sortHosts(hosts, idx)
		if s.Hosts == nil {
			s.Hosts = []string{}
		}
		p.cfg.NodeSets = append(p.cfg.NodeSets, s)
	}
}

// expandNodes resolves a Nodes= value: ALL, a hostlist of defined nodes,
// or (for partitions) names of node sets.
func (p *parser) expandNodes(value string, sets []NodeSet) ([]string, error) {
	idx := p.hostIndex()
	if strings.EqualFold(value, "ALL") {
		return p.all, nil
	}
	names, err := slurmtext.Expand(value)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if _, ok := idx[n]; ok {
			out = append(out, n)
			continue
		}
		if i := slices.IndexFunc(sets, func(s NodeSet) bool { return s.Name == n }); i >= 0 {
			out = append(out, sets[i].Hosts...)
			continue
		}
		if p.broken[n] {
			continue // its NodeName line's error is the one to report
		}
		return nil, fmt.Errorf("node %q is not defined by any NodeName line", n)
	}
	return out, nil
}

func (p *parser) interpretPartitions() {
	idx := p.hostIndex()
	defined := map[string]Pos{}
	// Partitions naming the same nodes share one host list (sites list
	// one range for several partitions): expanding and ordering 65,536
	// names once per partition made 300 such lines take 48 s.
	same := map[string][]string{}
	for _, l := range p.parts {
		key := "PartitionName=" + l.name
		if prev, ok := defined[l.name]; ok {
			p.errorf(l.pos, key, "partition already defined at %s (Slurm refuses duplicates)", prev)
			continue
		}
		defined[l.name] = l.pos
		p.cfg.Source.Keys[key] = l.pos
		part := Partition{
			Name:              l.name,
			PriorityTier:      1,
			PriorityJobFactor: 1,
			MaxTime:           slurmtime.Infinite,
			DefaultTime:       Unset,
			OverSubscribe:     OverSubscribe{Mode: OverSubscribeNo, Count: 1},
			State:             "UP",
			MaxNodes:          Infinite32,
			MaxCPUsPerNode:    Infinite32,
		}
		nerr := len(p.errs)
		get := func(attr string, keys ...string) (entry, bool) {
			e, ok := l.get(keys...)
			if ok {
				p.cfg.Source.Keys[key+"."+attr] = e.pos
			}
			return e, ok
		}
		if e, ok := get("Nodes", "nodes"); ok {
			// Slurm turns white space in Nodes= into commas.
			part.Nodes = strings.Map(func(r rune) rune {
				if r < 128 && isSpace(byte(r)) {
					return ','
				}
				return r
			}, e.value)
			if hosts, ok := same[part.Nodes]; ok {
				part.Hosts = hosts // as a partition before with these Nodes
			} else {
				hosts, err := p.expandNodes(part.Nodes, p.cfg.NodeSets)
				if err != nil {
					p.errorf(e.pos, key, "Nodes=%s: %v", e.value, err)
				}
				if strings.EqualFold(part.Nodes, "ALL") {
					part.Hosts = hosts // already ordered; shared, clipped so appends copy
				} else {
					part.Hosts = slices.Clip(sortHosts(hosts, idx))
				}
				if err == nil {
					same[part.Nodes] = part.Hosts
				}
			}
		}
		if part.Hosts == nil {
			part.Hosts = []string{}
		}
		if e, ok := get("Default", "default"); ok {
			v, err := parseBool(e.value)
			if err != nil {
				p.errorf(e.pos, key, "Default: %v", err)
			}
			part.Default = v
		}
		u16 := func(attr string, dst *uint16, keys ...string) {
			if e, ok := get(attr, keys...); ok {
				if v, err := parseUint(e.value, 16, false); err != nil {
					p.errorf(e.pos, key, "%s: %v", e.key, err)
				} else {
					*dst = uint16(v)
				}
			}
		}
		u16("PriorityJobFactor", &part.PriorityJobFactor, "priorityjobfactor")
		u16("PriorityTier", &part.PriorityTier, "prioritytier")
		if e, ok := get("GraceTime", "gracetime"); ok {
			if v, err := parseUint(e.value, 32, false); err != nil {
				p.errorf(e.pos, key, "GraceTime: %v", err)
			} else {
				part.GraceTime = uint32(v)
			}
		}
		if e, ok := l.get("priority"); ok { // pre-16.05 key: sets both
			p.cfg.Source.Keys[key+".PriorityJobFactor"] = e.pos
			p.cfg.Source.Keys[key+".PriorityTier"] = e.pos
			if v, err := parseUint(e.value, 16, false); err != nil {
				p.errorf(e.pos, key, "Priority: %v", err)
			} else {
				part.PriorityJobFactor, part.PriorityTier = uint16(v), uint16(v)
			}
		}
		minutes := func(attr string, dst *int64) {
			if e, ok := get(attr, strings.ToLower(attr)); ok {
				if v, err := slurmtime.ParseMinutes(e.value); err != nil {
					p.errorf(e.pos, key, "%s: %v", attr, err)
				} else {
					*dst = v
				}
			}
		}
		minutes("MaxTime", &part.MaxTime)
		minutes("DefaultTime", &part.DefaultTime)
		if part.DefaultTime != Unset && timeLimitLess(part.MaxTime, part.DefaultTime) {
			p.warnf(l.pos, key, "DefaultTime %s exceeds MaxTime %s; Slurm drops DefaultTime", slurmtime.FormatMinutes(part.DefaultTime), slurmtime.FormatMinutes(part.MaxTime))
			part.DefaultTime = Unset
		}
		e, ok := get("OverSubscribe", "oversubscribe")
		if !ok { // Slurm consults the older spelling only after both of these
			e, ok = get("OverSubscribe", "shared")
		}
		if ok {
			o, warn, err := parseOverSubscribe(e.value)
			if err != nil {
				p.errorf(e.pos, key, "%s: %v", e.key, err)
			} else if warn != "" {
				p.warnf(e.pos, key, "%s", warn)
			}
			part.OverSubscribe = o
		}
		if e, ok := get("PreemptMode", "preemptmode"); ok {
			if m, err := ParsePreemptMode(e.value); err != nil {
				p.errorf(e.pos, key, "PreemptMode: %v", err)
			} else {
				part.PreemptMode = m
			}
		}
		if e, ok := get("TRESBillingWeights", "tresbillingweights"); ok {
			part.TRESBillingWeights = e.value
		}
		if e, ok := get("QOS", "qos"); ok {
			part.QOS = e.value
		}
		if e, ok := get("State", "state"); ok {
			s, ok := partitionState(e.value)
			if !ok {
				p.errorf(e.pos, key, "State: bad value %q (want UP, DOWN, DRAIN or INACTIVE)", e.value)
			}
			part.State = s
		}
		p.partMemory(&l, key, &part)
		p.partAccess(&l, key, &part)
		if len(p.errs) > nerr {
			continue
		}
		if part.Default {
			if prev := p.cfg.DefaultPartition(); prev != nil {
				p.warnf(l.pos, key, "default partition changes from %s to %s (the last Default=YES wins, as in Slurm)", prev.Name, part.Name)
				prev.Default = false
			}
		}
		p.cfg.Partitions = append(p.cfg.Partitions, part)
	}
}

// partitionState matches State= by prefix, as Slurm does ("UPPER" is UP).
func partitionState(v string) (string, bool) {
	u := strings.ToUpper(v)
	for _, s := range []string{"DOWN", "UP", "DRAIN", "INACTIVE"} {
		if strings.HasPrefix(u, s) {
			return s, true
		}
	}
	return "UP", false
}

// parseOverSubscribe follows _parse_partitionname: NO, EXCLUSIVE, YES[:N]
// (N > 1), FORCE[:N] (N ≥ 1); a bad count falls back to NO with a warning.
func parseOverSubscribe(v string) (o OverSubscribe, warn string, err error) {
	u := strings.ToUpper(v)
	switch {
	case u == "NO":
		return OverSubscribe{OverSubscribeNo, 1}, "", nil
	case u == "EXCLUSIVE":
		return OverSubscribe{OverSubscribeExclusive, 0}, "", nil
	case u == "YES":
		return OverSubscribe{OverSubscribeYes, 4}, "", nil
	case u == "FORCE":
		return OverSubscribe{OverSubscribeForce, 4}, "", nil
	case strings.HasPrefix(u, "YES:") || strings.HasPrefix(u, "FORCE:"):
		mode, num, _ := strings.Cut(u, ":")
		n, trailing := atoll(num)
		least := int64(2)
		if mode == "FORCE" {
			least = 1
		}
		if n < least || n > math.MaxUint16 {
			return OverSubscribe{OverSubscribeNo, 1}, fmt.Sprintf("bad OverSubscribe value %q ignored; Slurm uses NO", v), nil
		}
		if trailing != "" {
			warn = fmt.Sprintf("OverSubscribe=%s: Slurm reads only %s:%d", v, mode, n)
		}
		return OverSubscribe{OverSubscribeMode(mode), uint16(n)}, warn, nil
	}
	return OverSubscribe{OverSubscribeNo, 1}, "", fmt.Errorf("bad value %q (want NO, YES[:N], FORCE[:N] or EXCLUSIVE)", v)
}

// parseEnforce follows _validate_accounting_storage_enforce.
func parseEnforce(v string) (Enforce, error) {
	var e Enforce
	for _, tok := range strings.Split(v, ",") {
		switch strings.ToLower(tok) {
		case "":
		case "1", "associations":
			e.Associations = true
		case "2", "limits":
			e.Associations, e.Limits = true, true
		case "safe":
			e.Associations, e.Limits, e.Safe = true, true, true
		case "wckeys":
			e.Associations, e.WCKeys = true, true
		case "qos":
			e.Associations, e.QOS = true, true
		case "all": // everything but nojobs and nosteps
			e.Associations, e.Limits, e.Safe, e.WCKeys, e.QOS = true, true, true, true, true
		case "nojobs":
			e.NoJobs, e.NoSteps = true, true
		case "nosteps":
			e.NoSteps = true
		default:
			return Enforce{}, fmt.Errorf("invalid flag %q (want associations, limits, qos, safe, wckeys, all, nojobs or nosteps)", tok)
		}
	}
	return e, nil
}

// parseBool accepts what Slurm's s_p_handle_boolean accepts.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "yes", "up", "true", "1":
		return true, nil
	case "no", "down", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (want YES or NO)", v)
}

// parseUint reads an unsigned number of the given width the way Slurm's
// s_p_handle_uint16/32/64 do: C strtoul with base 0 (so 0x10 is 16 and 010
// is 8), an optional k/K suffix meaning ×1024 for 32-bit values, and
// UNLIMITED or INFINITE meaning the largest value.
// maxRealMemoryMB is the most memory a node can have: its bytes fit an
// int64.
const maxRealMemoryMB = math.MaxInt64 >> 20

func parseUint(v string, bits int, allowK bool) (uint64, error) {
	maxv := uint64(1)<<bits - 1
	if strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") {
		return maxv, nil
	}
	s := v
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") && isHex(s[2]):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base = 8
	}
	end := 0
	for end < len(s) && digitVal(s[end]) < base {
		end++
	}
	digits, rest := s[:end], s[end:]
	if allowK && (rest == "k" || rest == "K") {
		rest = ""
	}
	if digits == "" || rest != "" {
		return 0, fmt.Errorf("%q is not a valid number", v)
	}
	if neg {
		return 0, fmt.Errorf("%q is less than zero", v)
	}
	n, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is out of range", v)
	}
	if s[end:] != "" { // k suffix
		if n > math.MaxUint64/1024 {
			return 0, fmt.Errorf("%q is out of range", v)
		}
		n *= 1024
	}
	if n > maxv {
		return 0, fmt.Errorf("%q is greater than %d", v, maxv)
	}
	return n, nil
}

func isHex(c byte) bool { return digitVal(c) < 16 }

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// parseEnforceSubstrings reads AccountingStorageEnforce as Slurm did
// before 21.08 (read_config.c _validate_and_set_defaults, before commit
// 41135bdd2b): each flag is on when its name, or its digit, occurs
// anywhere in the value, case-insensitively; anything else is ignored.
func parseEnforceSubstrings(v string) Enforce {
	var e Enforce
	l := strings.ToLower(v)
	has := func(s string) bool { return strings.Contains(l, s) }
	if has("1") || has("associations") {
		e.Associations = true
	}
	if has("2") || has("limits") {
		e.Associations, e.Limits = true, true
	}
	if has("safe") {
		e.Associations, e.Limits, e.Safe = true, true, true
	}
	if has("wckeys") {
		e.Associations, e.WCKeys = true, true
	}
	if has("qos") {
		e.Associations, e.QOS = true, true
	}
	if has("all") {
		e = Enforce{Associations: true, Limits: true, Safe: true, WCKeys: true, QOS: true}
	}
	if has("nojobs") {
		e.NoJobs, e.NoSteps = true, true
	}
	if has("nosteps") {
		e.NoSteps = true
	}
	return e
}
