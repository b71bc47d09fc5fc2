package workload

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SubmitRequest is what a job's submit command line (sacct's SubmitLine)
// asked for, where sacct's own columns do not carry it.
type SubmitRequest struct {
	Command     string // "sbatch", "salloc" or "srun" (a path to it is reduced to its base name)
	MinNodes    int    // -N/--nodes min; Unset when not given
	MaxNodes    int    // -N/--nodes max (= MinNodes for "-N 4"); Unset when not given
	Exclusive   bool   // bare --exclusive, unless a later --oversubscribe undid it
	Dependency  string // -d/--dependency value as given; "" when none
	Begin       string // -b/--begin value as given; "" when none
	Reservation string // --reservation value; "" when none
	NodeList    string // -w/--nodelist value; "" when none
	Exclude     string // -x/--exclude value; "" when none
	Script      string // the first word after the options (script or command); "" when none
	// Partition is -p/--partition as given ("a,b" for several); "" when
	// none.
	Partition string

	NTasks        int // -n/--ntasks; Unset when not given
	NTasksPerNode int // --ntasks-per-node; Unset when not given
	CPUsPerTask   int // -c/--cpus-per-task; Unset when not given
	// Gres are the GRES asked per node (--gres, --gpus-per-node,
	// --gpus-per-socket) and per job (-G/--gpus), sorted (SortGres). Of
	// two options naming one GRES and type in one scope, --gpus-per-node
	// beats --gres and --gpus-per-socket beats both.
	Gres []GresReq
	// GresPerTask are the counts asked per task (--gpus-per-task,
	// --tres-per-task=gres/...), Per left GresPerJob: GresFor multiplies
	// them by the task count, which only the caller knows.
	GresPerTask []GresReq
	// GPUsPerSocket tells that --gpus-per-socket was given: its count is
	// in Gres per node, as if each node had one socket.
	GPUsPerSocket bool
	// MemPerNode is --mem in MB (a size, M unless suffixed K, G or T):
	// memory on each node. 0 when not given, and for --mem=0 (all of a
	// node's memory, which a job asking none gets anyway).
	MemPerNode int64
	// ArrayThrottle is the %N of -a/--array (0-7%2 gives 2): at most N
	// tasks of the array run at once. 0 when not given (or %0, which
	// job_mgr.c ignores).
	ArrayThrottle int
}

// maxMemPerNodeMB bounds --mem: a mebibyte short of an exbibyte per node.
const maxMemPerNodeMB = 1 << 40

// GresFor is the job's GRES request for tasks tasks: Gres, and the
// per-task counts times tasks as per-job counts (added to a per-job count
// of the same GRES and type), sorted.
func (r SubmitRequest) GresFor(tasks int64) ([]GresReq, error) {
	out := append([]GresReq(nil), r.Gres...)
	for _, g := range r.GresPerTask {
		if tasks < 1 || tasks > MaxGresCount || g.Count*tasks > MaxGresCount {
			return nil, fmt.Errorf("%s per task x %d tasks: above %d", g.Name, tasks, MaxGresCount)
		}
		g.Count *= tasks
		g.Per = GresPerJob
		if i := slices.IndexFunc(out, func(h GresReq) bool { return h.Name == g.Name && h.Type == g.Type && h.Per == GresPerJob }); i >= 0 {
			if out[i].Count+g.Count > MaxGresCount {
				return nil, fmt.Errorf("%s per task x %d tasks and per job: above %d", g.Name, tasks, MaxGresCount)
			}
			out[i].Count += g.Count
			continue
		}
		out = append(out, g)
	}
	SortGres(out)
	return out, nil
}

// mergeGres puts g into reqs, replacing the item of the same name, type
// and scope.
func mergeGres(reqs []GresReq, g GresReq) []GresReq {
	for i := range reqs {
		if reqs[i].Name == g.Name && reqs[i].Type == g.Type && reqs[i].Per == g.Per {
			reqs[i] = g
			return reqs
		}
	}
	return append(reqs, g)
}

// parseGresOption reads a GRES option's value as slurm_get_next_tres
// (slurm_protocol_defs.c) does: comma-separated items
// "[gres/]NAME[:TYPE][:COUNT]" (or NAME=COUNT), a missing count being 1
// and a zero count dropping the item; "none" asks nothing (--gres=none).
// gpu is true for the --gpus* options, whose items are "[TYPE:]COUNT"
// of GRES gpu; tresList is true for --tres-per-task, whose items other
// than gres/... (cpu=4) are not GRES.
func parseGresOption(val string, per GresScope, gpu, tresList bool) ([]GresReq, error) {
	if strings.EqualFold(val, "none") && !gpu {
		return nil, nil
	}
	var out []GresReq
	for _, item := range strings.Split(val, ",") {
		if item == "" {
			continue
		}
		if tresList {
			rest, ok := strings.CutPrefix(item, "gres/")
			if !ok {
				rest, ok = strings.CutPrefix(item, "gres:")
			}
			if !ok {
				continue
			}
			item = rest
		} else if gpu {
			item = "gpu:" + item
		} else {
			item = strings.TrimPrefix(item, "gres/")
		}
		body, cnt, hasEq := strings.Cut(item, "=")
		var f []string
		if hasEq {
			f = append(strings.Split(body, ":"), cnt)
		} else {
			f = strings.Split(item, ":")
		}
		count := int64(1)
		if len(f) > 1 {
			if n, err := parseGresCount(f[len(f)-1], MaxGresCount); err == nil {
				count = n
				f = f[:len(f)-1]
			} else if last := f[len(f)-1]; hasEq || len(f) > 2 || last == "" || last[0] == '-' || last[0] >= '0' && last[0] <= '9' {
				return nil, fmt.Errorf("GRES %q: %v", item, err)
			}
		}
		if len(f) > 2 {
			return nil, fmt.Errorf("GRES %q: want NAME[:TYPE][:COUNT]", item)
		}
		typ := ""
		if len(f) == 2 {
			typ = f[1]
		}
		name, typ, err := checkGresNames(f[0], typ)
		if err != nil {
			return nil, err
		}
		if count > 0 {
			out = mergeGres(out, GresReq{Name: name, Type: typ, Count: count, Per: per})
		}
	}
	return out, nil
}

// submitOpt is one option of sbatch/salloc/srun: whether it takes a value
// (required: the next word when not attached; optional: only attached).
type submitOpt struct {
	long  string
	short byte
	arg   int // argNone, argRequired, argOptional
}

const (
	argNone = iota
	argRequired
	argOptional
)

// submitOpts are the options of src/common/slurm_opt.c (the
// slurm_cli_opt_t table): their names, short letters and whether they
// take an argument. --wait/-W takes a value only for srun (handled in
// ParseSubmitLine).
var submitOpts = sync.OnceValue(func() []submitOpt {
	req := "accel-bind account/A acctg-freq array/a argv batch bbf autocomplete bcast-exclude begin/b bb " +
		"cluster-constraint chdir/D clusters/M cluster comment constraint/C container container-id runtime context " +
		"core-spec/S cores-per-socket cpu-bind cpu_bind cpu-freq cpus-per-gpu cpus-per-task/c deadline delay-boot " +
		"environment dependency/d distribution/m epilog error/e exclude/x export export-file extra extra-node-info/B " +
		"gid gpu-bind tres-bind gpu-freq gpus/G gpus-per-node gpus-per-socket gpus-per-task treewidth tres-per-task " +
		"gres gres-flags hint ignore-signals input/i jobid job-name/J kill-on-invalid-dep licenses/L mail-type " +
		"mail-user threads/T mcs-label mem mem-bind mem-per-cpu mem-per-gpu mem-update mincpus mpi msg-timeout " +
		"network nodefile/F nodelist/w nodes/N ntasks/n ntasks-per-core ntasks-per-node ntasks-per-socket " +
		"ntasks-per-tres ntasks-per-gpu open-mode output/o pack-group het-group partition/p prefer priority profile " +
		"prolog qos/q relative/r reservation resources segment signal slurmd-debug sockets-per-node switches " +
		"task-epilog task-prolog tasks-per-node thread-spec threads-per-core time/t time-min tmp uid " +
		"wait-all-nodes wckey wrap"
	none := "async bell consolidate-segments contiguous debugger-test disable-status/X exact external " +
		"get-user-env help/h hold/H ignore-pbs interactive label/l multi-prog no-allocate/Z no-bell no-requeue " +
		"no-shell overcommit/O oversubscribe/s parsable preserve-env/E quiet/Q quit-on-interrupt reboot spread-job " +
		"spread-segments stepmgr test-only unbuffered/u use-min-nodes usage verbose/v version/V wait/W " +
		"wait-for-children whole"
	opt := "bcast compress exclusive external-launcher immediate/I kill-command/K kill-on-bad-exit no-kill/k " +
		"oom-kill-step nice overlap propagate pty requeue resv-ports send-libs x11"
	var all []submitOpt
	for arg, list := range [...]string{argRequired: req, argNone: none, argOptional: opt} {
		for _, w := range strings.Fields(list) {
			name, short, _ := strings.Cut(w, "/")
			o := submitOpt{long: name, arg: arg}
			if short != "" {
				o.short = short[0]
			}
			all = append(all, o)
		}
	}
	return all
})

// findLongOpt finds --name as getopt_long does: an exact name, else an
// unambiguous prefix of one.
func findLongOpt(name string) (submitOpt, error) {
	var found []submitOpt
	for _, o := range submitOpts() {
		if o.long == name {
			return o, nil
		}
		if strings.HasPrefix(o.long, name) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		return submitOpt{}, fmt.Errorf("unknown option --%s", name)
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, o := range found {
		names[i] = "--" + o.long
	}
	return submitOpt{}, fmt.Errorf("ambiguous option --%s (%s)", name, strings.Join(names, ", "))
}

func findShortOpt(c byte, cmd string) (submitOpt, bool) {
	if c == 'W' && cmd == "srun" { // srun -W/--wait=<seconds>
		return submitOpt{long: "wait", short: 'W', arg: argRequired}, true
	}
	for _, o := range submitOpts() {
		if o.short == c {
			return o, true
		}
	}
	return submitOpt{}, false
}

// ParseSubmitLine reads the options of a submit command line as sbatch,
// salloc or srun would: words split as a shell would (quotes and
// backslashes, when they balance: Slurm records argv joined by spaces, so
// most lines have none), "--opt=value" and "--opt value", unambiguous
// long-option prefixes, short clusters ("-N2", "-HN 2"), and nothing
// after the first non-option word (the script or command, whose own
// arguments are not the job's) or after "--". A line whose first word is
// not sbatch, salloc or srun, or with an option those commands refuse, is
// an error.
func ParseSubmitLine(line string) (SubmitRequest, error) {
	req := SubmitRequest{MinNodes: Unset, MaxNodes: Unset, NTasks: Unset, NTasksPerNode: Unset, CPUsPerTask: Unset}
	var gresOpt, gpusOpt, perNodeOpt, perSocketOpt, perTaskOpt, tresTaskOpt []GresReq
	gresOption := func(dst *[]GresReq, o submitOpt, val string, per GresScope, gpu, tres bool) error {
		g, err := parseGresOption(val, per, gpu, tres)
		if err != nil {
			return fmt.Errorf("--%s %q: %v", o.long, val, err)
		}
		*dst = g
		return nil
	}
	count := func(dst *int, o submitOpt, val string) error {
		n, ok := parseCount([]byte(val))
		if !ok || n < 1 || n > 1<<24 {
			return fmt.Errorf("--%s %q: not a count", o.long, val)
		}
		*dst = int(n)
		return nil
	}
	words := shellWords(line)
	if len(words) == 0 {
		return req, fmt.Errorf("empty submit line")
	}
	req.Command = path.Base(words[0])
	switch req.Command {
	case "sbatch", "salloc", "srun":
	default:
		return req, fmt.Errorf("%q is not sbatch, salloc or srun", words[0])
	}
	set := func(o submitOpt, val string) error {
		switch o.long {
		case "nodes":
			lo, hi, err := parseNodeRange(val)
			if err != nil {
				return fmt.Errorf("--nodes %q: %v", val, err)
			}
			req.MinNodes, req.MaxNodes = lo, hi
		case "exclusive":
			req.Exclusive = val == "" || val == "exclusive"
		case "oversubscribe":
			req.Exclusive = false
		case "dependency":
			req.Dependency = val
		case "begin":
			req.Begin = val
		case "mem":
			kb, ok := parseSize([]byte(val), 'M')
			if !ok || kb > maxMemPerNodeMB*1024 {
				return fmt.Errorf("--mem %q: not a memory size", val)
			}
			req.MemPerNode = int64(math.Ceil(kb/1024 - 1e-9))
		case "array":
			req.ArrayThrottle = 0 // the last --array is the one sbatch keeps
			if _, n, ok := strings.Cut(val, "%"); ok {
				k, ok := parseCount([]byte(n))
				if !ok || k < 0 || k > 1<<31-1 {
					return fmt.Errorf("--array %q: the throttle after %% is not a count", val)
				}
				req.ArrayThrottle = int(k)
			}
		case "partition":
			req.Partition = val
		case "reservation":
			req.Reservation = val
		case "nodelist":
			req.NodeList = val
		case "exclude":
			req.Exclude = val
		case "ntasks":
			return count(&req.NTasks, o, val)
		case "ntasks-per-node":
			return count(&req.NTasksPerNode, o, val)
		case "cpus-per-task":
			return count(&req.CPUsPerTask, o, val)
		case "gres":
			return gresOption(&gresOpt, o, val, GresPerNode, false, false)
		case "gpus":
			return gresOption(&gpusOpt, o, val, GresPerJob, true, false)
		case "gpus-per-node":
			return gresOption(&perNodeOpt, o, val, GresPerNode, true, false)
		case "gpus-per-socket":
			req.GPUsPerSocket = true
			return gresOption(&perSocketOpt, o, val, GresPerNode, true, false)
		case "gpus-per-task":
			return gresOption(&perTaskOpt, o, val, GresPerJob, true, false)
		case "tres-per-task":
			return gresOption(&tresTaskOpt, o, val, GresPerJob, false, true)
		}
		return nil
	}
	done := func() (SubmitRequest, error) {
		for _, list := range [][]GresReq{gresOpt, gpusOpt, perNodeOpt, perSocketOpt} {
			for _, g := range list {
				req.Gres = mergeGres(req.Gres, g)
			}
		}
		for _, list := range [][]GresReq{tresTaskOpt, perTaskOpt} {
			for _, g := range list {
				req.GresPerTask = mergeGres(req.GresPerTask, g)
			}
		}
		SortGres(req.Gres)
		SortGres(req.GresPerTask)
		return req, nil
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			if i+1 < len(words) {
				req.Script = words[i+1]
			}
			return done()
		case strings.HasPrefix(w, "--"):
			name, val, hasVal := strings.Cut(w[2:], "=")
			o, err := findLongOpt(name)
			if err != nil {
				return req, err
			}
			if req.Command == "srun" && o.long == "wait" {
				o.arg = argRequired
			}
			switch o.arg {
			case argNone:
				if hasVal {
					return req, fmt.Errorf("option --%s takes no value (%q)", o.long, w)
				}
			case argRequired:
				if !hasVal {
					if i+1 >= len(words) {
						return req, fmt.Errorf("option --%s needs a value", o.long)
					}
					i++
					val = words[i]
				}
			}
			if err := set(o, val); err != nil {
				return req, err
			}
		case len(w) > 1 && w[0] == '-':
			for k := 1; k < len(w); k++ {
				o, ok := findShortOpt(w[k], req.Command)
				if !ok {
					return req, fmt.Errorf("unknown option -%c in %q", w[k], w)
				}
				val := ""
				switch o.arg {
				case argRequired:
					if k+1 < len(w) {
						val = w[k+1:]
					} else if i+1 < len(words) {
						i++
						val = words[i]
					} else {
						return req, fmt.Errorf("option -%c needs a value", w[k])
					}
					k = len(w)
				case argOptional:
					val = w[k+1:]
					k = len(w)
				}
				if err := set(o, val); err != nil {
					return req, err
				}
			}
		default:
			req.Script = w
			return done()
		}
	}
	return done()
}

// parseNodeRange reads -N's value: "4", "2-8", or a list of sizes
// ("2,4,8" or "2-8:2"), of which the smallest and largest bound the count.
func parseNodeRange(v string) (lo, hi int, err error) {
	lo, hi = -1, -1
	for _, part := range strings.Split(v, ",") {
		part, _, _ = strings.Cut(part, ":") // a step: the bounds still hold
		a, b, isRange := strings.Cut(part, "-")
		x, ok := parseCount([]byte(a))
		if !ok || x > 1<<24 {
			return Unset, Unset, fmt.Errorf("not a node count")
		}
		y := x
		if isRange {
			if y, ok = parseCount([]byte(b)); !ok || y > 1<<24 || y < x {
				return Unset, Unset, fmt.Errorf("not a node range")
			}
		}
		if lo < 0 || int(x) < lo {
			lo = int(x)
		}
		hi = max(hi, int(y))
	}
	return lo, hi, nil
}

// shellWords splits s into words as a POSIX shell would for quotes and
// backslashes; when the quotes do not balance (Slurm keeps argv joined by
// spaces, so a quote inside an argument is literal), it splits on spaces
// alone.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
				i++
				cur.WriteByte(s[i])
			default:
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return strings.Fields(s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// DependencyKind is one of the --dependency types sbatch accepts.
type DependencyKind string

// The dependency types of sbatch --dependency.
const (
	DepAfter       DependencyKind = "after"      // after the jobs started (or were cancelled)
	DepAfterAny    DependencyKind = "afterany"   // after the jobs ended, however
	DepAfterOK     DependencyKind = "afterok"    // after the jobs ended successfully
	DepAfterNotOK  DependencyKind = "afternotok" // after the jobs failed
	DepAfterCorr   DependencyKind = "aftercorr"  // array task after the same task of the other array
	DepAfterBurst  DependencyKind = "afterburstbuffer"
	DepSingleton   DependencyKind = "singleton" // after every earlier job of the same name and user
	DepExpand      DependencyKind = "expand"
	DepImplicitAny DependencyKind = DepAfterAny // a bare job id means afterany
)

// Dependency is one term of a --dependency list: a type and the jobs it
// refers to (none for singleton). Array tasks ("12_3") and delays
// ("after:12+5") keep their base job id only; the full text stays in
// Names.Dependencies.
type Dependency struct {
	Kind DependencyKind
	Jobs []int64
}

// ParseDependency reads a --dependency value: terms separated by ','
// (all must hold) or '?' (any may), each "type:id[:id...]", "singleton" or
// a bare job id (afterany). anyOf reports the '?' form.
func ParseDependency(s string) (deps []Dependency, anyOf bool, err error) {
	if strings.TrimSpace(s) == "" {
		return nil, false, fmt.Errorf("empty dependency")
	}
	sep := ","
	if strings.Contains(s, "?") {
		if strings.Contains(s, ",") {
			return nil, false, fmt.Errorf("%q mixes ',' and '?'", s)
		}
		sep, anyOf = "?", true
	}
	for _, term := range strings.Split(s, sep) {
		parts := strings.Split(term, ":")
		kind := DependencyKind(strings.ToLower(parts[0]))
		ids := parts[1:]
		switch kind {
		case DepSingleton:
			if len(ids) > 0 {
				return nil, false, fmt.Errorf("singleton takes no job id (%q)", term)
			}
		case DepAfter, DepAfterAny, DepAfterOK, DepAfterNotOK, DepAfterCorr, DepAfterBurst, DepExpand:
			if len(ids) == 0 {
				return nil, false, fmt.Errorf("%q names no job", term)
			}
		default:
			if _, ok := parseJobNumber(parts[0]); ok && len(parts) == 1 {
				kind, ids = DepImplicitAny, parts
				break
			}
			return nil, false, fmt.Errorf("unknown dependency type %q", parts[0])
		}
		d := Dependency{Kind: kind}
		for _, id := range ids {
			v, ok := parseJobNumber(id)
			if !ok {
				return nil, false, fmt.Errorf("%q: %q is not a job id", term, id)
			}
			d.Jobs = append(d.Jobs, v)
		}
		deps = append(deps, d)
	}
	return deps, anyOf, nil
}

// parseJobNumber reads a job id of a dependency: "12", "12_3" (an array
// task), "12+5" (a delay in minutes), "12(...)" as squeue prints it; the
// base id is returned.
func parseJobNumber(s string) (int64, bool) {
	if i := strings.IndexAny(s, "_+("); i >= 0 {
		s = s[:i]
	}
	v, ok := parseInt([]byte(s))
	return v, ok && v > 0
}

// SinglePreceding is the one job a dependency waits to end, for SWF's
// preceding-job field: exactly one afterany, afterok or afternotok job and
// nothing else. "after" (a start, not an end) and singleton have none.
func SinglePreceding(deps []Dependency) (int64, bool) {
	if len(deps) != 1 || len(deps[0].Jobs) != 1 {
		return 0, false
	}
	switch deps[0].Kind {
	case DepAfterAny, DepAfterOK, DepAfterNotOK:
		return deps[0].Jobs[0], true
	}
	return 0, false
}

// ParseBegin reads a --begin value relative to submit (Unix seconds) in
// loc: "now+N[seconds|minutes|hours|days|weeks]" and absolute dates
// "YYYY-MM-DD[THH:MM[:SS]]". Slurm's other forms (HH:MM, midnight, noon,
// teatime, today, tomorrow) are reported as not understood.
func ParseBegin(v string, submit int64, loc *time.Location) (int64, error) {
	low := strings.ToLower(v)
	if rest, ok := strings.CutPrefix(low, "now"); ok {
		if rest == "" {
			return submit, nil
		}
		if rest[0] != '+' {
			return 0, fmt.Errorf("--begin %q: want now+N[unit]", v)
		}
		rest = rest[1:]
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		n, err := strconv.ParseInt(rest[:i], 10, 64)
		if err != nil || n > maxSacctSeconds {
			return 0, fmt.Errorf("--begin %q: not a number after now+", v)
		}
		unit := int64(1)
		switch rest[i:] {
		case "", "s", "sec", "secs", "second", "seconds":
		case "m", "min", "mins", "minute", "minutes":
			unit = 60
		case "h", "hour", "hours":
			unit = 3600
		case "d", "day", "days":
			unit = 86400
		case "w", "week", "weeks":
			unit = 7 * 86400
		default:
			return 0, fmt.Errorf("--begin %q: unknown unit %q", v, rest[i:])
		}
		return submit + n*unit, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t.Unix(), nil
		}
	}
	return 0, fmt.Errorf("--begin %q: form not understood (want now+N[unit] or YYYY-MM-DD[THH:MM[:SS]])", v)
}
