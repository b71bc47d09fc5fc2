package workflow

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fairsim/workload"
)

// CaptureHelp is fairsim capture's description.
const CaptureHelp = `Writes slurm.conf as slurmctld reads it (with its Include files), sacctmgr dump of
the cluster (assoc.cfg), sacctmgr show qos -P (qos.txt), sacct -P -X -D -a over the window
with the columns fairsim reads (sacct.txt, UTC), node states and reservations (events)
and scenario.yaml, with the controller's timer phase (sim.controller_uptime, from BOOT_TIME)
and fairshare.assoc_added_after_start (sacctmgr list transactions). With DebugFlags=Backfill
and a SlurmctldLogFile readable here, the log's backfill lines too (slurmctld.log, for
validate's comparison of backfill plans). Then: fairsim run --scenario DIR, fairsim
validate --scenario DIR.`

// A Runner runs one Slurm client command (sacct, sacctmgr, scontrol) with
// extra environment settings and returns its standard output. Capture
// takes one so that a test can run the commands inside the harness's
// network namespace.
type Runner func(env []string, name string, args ...string) ([]byte, error)

// ExecRunner runs commands on this machine, each after prefix (for
// example "nsenter -t PID -n"); stderr goes into the error.
func ExecRunner(prefix ...string) Runner {
	return func(env []string, name string, args ...string) ([]byte, error) {
		argv := append(append(append([]string(nil), prefix...), name), args...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
}

// CaptureOptions say what to capture from a live Slurm.
type CaptureOptions struct {
	// Out is the scenario folder to write (made when missing).
	Out string
	// Since and Until bound the sacct window, dates read in Location
	// (YYYY-MM-DD[THH:MM[:SS]]); empty Since is sacct's default (midnight
	// today), empty Until is now.
	Since, Until string
	// Location reads Since and Until; nil is the local time zone.
	Location *time.Location
	// Run runs the client commands; nil is ExecRunner().
	Run Runner
	// Warn, when set, receives the warnings as they are found.
	Warn io.Writer
}

// Capture files: the names scenario.yaml refers to.
const (
	CaptureSlurmConf = "slurm.conf"
	CaptureAssoc     = "assoc.cfg"
	CaptureQOS       = "qos.txt"
	CaptureSacct     = "sacct.txt"
	CaptureEvents    = "events"
	CaptureScenario  = "scenario.yaml"
	// CaptureBackfillLog holds the backfill lines of slurmctld's log,
	// which validate compares with fairsim's cycles.
	CaptureBackfillLog = "slurmctld.log"
)

// captureTZ is the zone sacct prints in: the commands run with TZ=UTC so
// the time stamps say one zone whatever the login node's.
const captureTZ = "UTC"

// CaptureResult tells what Capture wrote.
type CaptureResult struct {
	Cluster  string
	Files    []string // written, relative to Out, in writing order
	Jobs     int      // lines of sacct output after the header
	Fields   []string // the sacct columns asked for
	Skipped  []string // sacct columns fairsim reads that this sacct lacks
	Warnings []string
}

// Capture writes a scenario folder from a running Slurm: the slurm.conf
// slurmctld reads with its Include files, `sacctmgr dump` of the cluster,
// `sacctmgr show qos -P`, `sacct -P -X -D -a` over the window with the
// columns fairsim reads, node and reservation events, and scenario.yaml.
func Capture(o CaptureOptions) (*CaptureResult, error) {
	run := o.Run
	if run == nil {
		run = ExecRunner()
	}
	env := []string{"TZ=" + captureTZ}
	loc := o.Location
	if loc == nil {
		loc = time.Local
	}
	since, err := captureDate("--since", o.Since, loc)
	if err != nil {
		return nil, err
	}
	until, err := captureDate("--until", o.Until, loc)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	res := &CaptureResult{}
	write := func(name string, data []byte) error {
		res.Files = append(res.Files, name)
		return os.WriteFile(filepath.Join(o.Out, name), data, 0o644)
	}

	cfgOut, err := run(env, "scontrol", "show", "config")
	if err != nil {
		return nil, err
	}
	cfg := parseShowConfig(cfgOut)
	confPath, cluster := cfg["SLURM_CONF"], cfg["ClusterName"]
	if confPath == "" || cluster == "" {
		return nil, fmt.Errorf("capture: scontrol show config names no SLURM_CONF or ClusterName")
	}
	res.Cluster = cluster
	files, err := copySlurmConf(confPath, cluster, o.Out)
	if err != nil {
		return nil, err
	}
	res.Files = append(res.Files, files...)

	// sacctmgr writes the dump itself; it runs on this machine (or in its
	// namespace, which shares our files), so give it our folder.
	dump, err := filepath.Abs(filepath.Join(o.Out, CaptureAssoc))
	if err != nil {
		return nil, err
	}
	os.Remove(dump) // sacctmgr will not overwrite a dump
	if _, err := run(env, "sacctmgr", "-i", "dump", cluster, "file="+dump); err != nil {
		return nil, err
	}
	res.Files = append(res.Files, CaptureAssoc)
	qos, err := run(env, "sacctmgr", "show", "qos", "-P")
	if err != nil {
		return nil, err
	}
	if err := write(CaptureQOS, qos); err != nil {
		return nil, err
	}

	help, err := run(env, "sacct", "--helpformat")
	if err != nil {
		return nil, err
	}
	res.Fields, res.Skipped = captureFields(help)
	// -D: every run of a requeued job, the first with its user's submit
	// time (the sacct reader folds them into one job).
	args := []string{"-P", "-X", "-D", "-a", "-o", strings.Join(res.Fields, ",")}
	if since != "" {
		args = append(args, "-S", since)
	}
	if until != "" {
		args = append(args, "-E", until)
	}
	sacct, err := run(env, "sacct", args...)
	if err != nil {
		return nil, err
	}
	if n := bytes.Count(sacct, []byte("\n")); n > 0 {
		res.Jobs = n - 1
	}
	head := fmt.Sprintf("#fairsim tz=%s\n# sacct %s (TZ=%s)\n", captureTZ, strings.Join(args, " "), captureTZ)
	if err := write(CaptureSacct, append([]byte(head), sacct...)); err != nil {
		return nil, err
	}

	ev, warn, err := captureEvents(run, env, since, until)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, warn...)
	if o.Warn != nil {
		for _, w := range warn {
			fmt.Fprintln(o.Warn, "fairsim: warning:", w)
		}
	}
	hasEvents := ev != nil
	if hasEvents {
		if err := write(CaptureEvents, ev); err != nil {
			return nil, err
		}
	}
	if bf, warn := captureBackfillLog(cfg, loc); bf != nil || warn != nil {
		res.Warnings = append(res.Warnings, warn...)
		if o.Warn != nil {
			for _, w := range warn {
				fmt.Fprintln(o.Warn, "fairsim: warning:", w)
			}
		}
		if bf != nil {
			if err := write(CaptureBackfillLog, bf); err != nil {
				return nil, err
			}
		}
	}
	ph, warn := captureControllerPhase(run, env, cfg, sacct)
	res.Warnings = append(res.Warnings, warn...)
	if o.Warn != nil {
		for _, w := range warn {
			fmt.Fprintln(o.Warn, "fairsim: warning:", w)
		}
	}
	scYAML := append(captureScenarioYAML(cluster, since, until, hasEvents), ph.yaml()...)
	if err := write(CaptureScenario, scYAML); err != nil {
		return nil, err
	}
	return res, nil
}

// ScenarioFile is the scenario YAML a --scenario argument names: the file
// itself, or a folder's scenario.yaml (as fairsim capture writes it).
func ScenarioFile(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, CaptureScenario)
	}
	return path
}

// captureDate turns a --since/--until date in loc into the UTC form sacct
// reads under TZ=UTC.
func captureDate(flag, s string, loc *time.Location) (string, error) {
	if s == "" {
		return "", nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05"), nil
		}
	}
	return "", fmt.Errorf("%s %q: want YYYY-MM-DD[THH:MM[:SS]]", flag, s)
}

// parseShowConfig reads "Key = Value" lines of scontrol show config.
func parseShowConfig(out []byte) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m
}

// captureFields are fairsim's sacct columns that this sacct prints
// (--helpformat), in fairsim's order, and those it lacks (22.05 has no
// ReqGRES, AllocGRES nor ReqReservation).
func captureFields(helpformat []byte) (fields, skipped []string) {
	have := map[string]bool{}
	for _, w := range strings.Fields(string(helpformat)) {
		have[strings.ToLower(w)] = true
	}
	for _, f := range workload.SacctFieldNames() {
		if have[strings.ToLower(f)] {
			fields = append(fields, f)
		} else {
			skipped = append(skipped, f)
		}
	}
	return fields, skipped
}

// copySlurmConf copies slurm.conf and, depth first, every file its Include
// lines name (with %c as the cluster name): a relative name keeps its place
// beside slurm.conf, an absolute one is copied under includes/ and its
// Include line rewritten, so the folder stands alone. Slurm resolves every
// relative Include against slurm.conf's folder (read_config.c,
// _parse_include_directive via s_p_parse_line_expanded).
func copySlurmConf(path, cluster, out string) ([]string, error) {
	root := filepath.Dir(path)
	var files []string
	seen := map[string]bool{}
	var copyOne func(src, dst string, depth int) error
	copyOne = func(src, dst string, depth int) error {
		if depth > 16 {
			return fmt.Errorf("capture: %s: Include nesting deeper than 16", src)
		}
		if seen[dst] {
			return nil
		}
		seen[dst] = true
		data, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("capture: %w", err)
		}
		var b strings.Builder
		for _, line := range strings.SplitAfter(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || !strings.EqualFold(f[0], "include") {
				b.WriteString(line)
				continue
			}
			name := strings.ReplaceAll(f[1], "%c", cluster)
			from, to := name, name
			if filepath.IsAbs(name) {
				to = filepath.Join("includes", strings.TrimPrefix(filepath.Clean(name), "/"))
				fmt.Fprintf(&b, "Include %s # was %s\n", to, name)
			} else {
				from = filepath.Join(root, name)
				b.WriteString(line)
			}
			if err := copyOne(from, to, depth+1); err != nil {
				return err
			}
		}
		full := filepath.Join(out, dst)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		files = append(files, dst)
		return os.WriteFile(full, []byte(b.String()), 0o644)
	}
	if err := copyOne(path, CaptureSlurmConf, 0); err != nil {
		return nil, err
	}
	slices.Reverse(files) // slurm.conf first
	return files, nil
}

// captureScenarioYAML ties the captured files together.
func captureScenarioYAML(cluster, since, until string, events bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Captured from cluster %s by fairsim capture", cluster)
	if since != "" || until != "" {
		fmt.Fprintf(&b, " (sacct window %s to %s, UTC)", orDash(since), orDash(until))
	}
	b.WriteString(".\n# Replay it with: fairsim run --scenario DIR; compare with: fairsim validate --scenario DIR\n")
	fmt.Fprintf(&b, "name: %s\nscheduler: slurm\nslurm_conf: %s\nassoc: %s\nqos: %s\n", cluster, CaptureSlurmConf, CaptureAssoc, CaptureQOS)
	fmt.Fprintf(&b, "trace:\n  file: %s\n  format: sacct\n  time_zone: %s\n", CaptureSacct, captureTZ)
	if events {
		fmt.Fprintf(&b, "events: %s\n", CaptureEvents)
	}
	return []byte(b.String())
}

// captureEvents writes node state changes recorded by slurmdbd (sacctmgr
// show event) and the reservations slurmctld holds (scontrol show
// reservation) as an events file, at dates in the trace's zone. MAINT
// reservations and those for listed users or accounts are simulated;
// others (other flags, denied lists) become comments and warnings.
func captureEvents(run Runner, env []string, since, until string) ([]byte, []string, error) {
	var b strings.Builder
	var warn []string
	b.WriteString("# Node states (sacctmgr show event) and reservations (scontrol show reservation)\n")
	b.WriteString("# captured by fairsim capture; times are UTC dates.\n")
	args := []string{"-P", "-n", "show", "event", "format=NodeName,Start,End,State,Reason"}
	if since != "" {
		args = append(args, "Start="+since)
	}
	if until != "" {
		args = append(args, "End="+until)
	}
	out, err := run(env, "sacctmgr", args...)
	if err != nil {
		return nil, nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) < 5 || f[0] == "" {
			continue // a cluster event (registration), or blank output
		}
		node, start, end, state, reason := f[0], f[1], f[2], strings.ToUpper(f[3]), f[4]
		var st string
		switch {
		case strings.Contains(state, "DRAIN"):
			st = "DRAIN"
		case strings.Contains(state, "FAIL"):
			st = "FAIL"
		case strings.Contains(state, "DOWN"):
			st = "DOWN"
		default:
			warn = append(warn, fmt.Sprintf("event on %s at %s: state %s not simulated; left out", node, start, f[3]))
			continue
		}
		if reason == "" {
			reason = "captured"
		}
		fmt.Fprintf(&b, "%s NodeName=%s State=%s Reason=%q\n", start, node, st, strings.ReplaceAll(reason, `"`, "'"))
		if end != "" && !strings.EqualFold(end, "Unknown") {
			fmt.Fprintf(&b, "%s NodeName=%s State=RESUME\n", end, node)
		}
	}
	out, err = run(env, "scontrol", "-o", "show", "reservation")
	if err != nil {
		return nil, nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasPrefix(line, "ReservationName=") {
			continue // "No reservations in the system"
		}
		kv := map[string]string{}
		for _, w := range strings.Fields(line) {
			if k, v, ok := strings.Cut(w, "="); ok {
				kv[k] = v
			}
		}
		// MAINT and IGNORE_JOBS are simulated; SPEC_NODES only says the
		// nodes were named, which Nodes= says. Any other flag (DAILY,
		// OVERLAP, FLEX, ...) changes what the reservation does, so such a
		// reservation stays a comment rather than run as something else.
		var flags, other []string
		for _, fl := range strings.Split(kv["Flags"], ",") {
			switch fl {
			case "MAINT", "IGNORE_JOBS":
				flags = append(flags, fl)
			case "SPEC_NODES", "", "(null)":
			default:
				other = append(other, fl)
			}
		}
		spec := fmt.Sprintf("ReservationName=%s StartTime=%s EndTime=%s Nodes=%s", kv["ReservationName"], kv["StartTime"], kv["EndTime"], kv["Nodes"])
		listed := func(k string) bool { return kv[k] != "" && kv[k] != "(null)" }
		maint := slices.Contains(flags, "MAINT")
		switch {
		case len(other) > 0:
			warn = append(warn, fmt.Sprintf("reservation %s: Flags %s not simulated; written as a comment", kv["ReservationName"], strings.Join(other, ",")))
			fmt.Fprintf(&b, "# not simulated (Flags=%s): %s\n", kv["Flags"], spec)
			continue
		case !maint && (!listed("Users") && !listed("Accounts") || strings.HasPrefix(kv["Users"], "-") || strings.HasPrefix(kv["Accounts"], "-")):
			warn = append(warn, fmt.Sprintf("reservation %s: neither MAINT nor for listed users or accounts; written as a comment", kv["ReservationName"]))
			fmt.Fprintf(&b, "# not simulated (Users=%s Accounts=%s): %s\n", kv["Users"], kv["Accounts"], spec)
			continue
		}
		// The events reader wants the line's time in the form of StartTime
		// (a date): the reservation is known from the window's start, or,
		// without one, from its own start.
		at := since
		if at == "" {
			at = kv["StartTime"]
		}
		b.WriteString(at + " " + spec)
		if len(flags) > 0 {
			b.WriteString(" Flags=" + strings.Join(flags, ","))
		}
		for _, k := range []string{"Users", "Accounts"} {
			if v := kv[k]; listed(k) {
				fmt.Fprintf(&b, " %s=%s", k, v)
			}
		}
		b.WriteString("\n")
	}
	return []byte(b.String()), warn, nil
}
