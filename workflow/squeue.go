package workflow

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"fairsim/report"
	"fairsim/sim"
	"fairsim/slurmtext"
)

// SqueueDefaultFormat is squeue's default -o format (squeue/opts.c).
const SqueueDefaultFormat = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"

// SqueueOptions are squeue's filters and format: -t, -u, -A, -p, -o.
type SqueueOptions struct {
	States, Users, Accounts, Parts string // comma-separated lists
	Format                         string // -o; "" for SqueueDefaultFormat
	NoHeader                       bool
}

// squeueField is one %-specifier: its header and its value for a job.
type squeueField struct {
	head string
	val  func(v *squeueView, j *sim.Job) string
}

// squeueView is what a row's values need.
type squeueView struct {
	at *At
}

// squeueFields maps squeue's -o letters to fields (squeue(1)).
var squeueFields = map[byte]squeueField{
	'i': {"JOBID", func(_ *squeueView, j *sim.Job) string { return strconv.FormatInt(j.ID, 10) }},
	'A': {"JOBID", func(_ *squeueView, j *sim.Job) string { return strconv.FormatInt(j.ID, 10) }},
	'P': {"PARTITION", func(v *squeueView, j *sim.Job) string { return v.at.Res.Cluster.Parts[j.Part].Name }},
	// Traces record no job name; Slurm names a job whose script came on
	// standard input "sbatch".
	'j': {"NAME", func(*squeueView, *sim.Job) string { return "sbatch" }},
	'u': {"USER", func(v *squeueView, j *sim.Job) string { return v.at.Res.Names.Users.Name(j.User) }},
	'a': {"ACCOUNT", func(v *squeueView, j *sim.Job) string { return v.at.Res.Names.Accounts.Name(j.Account) }},
	'q': {"QOS", func(v *squeueView, j *sim.Job) string {
		if j.QOSIdx >= 0 && j.QOSIdx < len(v.at.Res.QOSNames) {
			return v.at.Res.QOSNames[j.QOSIdx]
		}
		return ""
	}},
	't': {"ST", func(_ *squeueView, j *sim.Job) string {
		return map[bool]string{true: "R", false: "PD"}[j.State == sim.Running]
	}},
	'T': {"STATE", func(_ *squeueView, j *sim.Job) string { return j.State.String() }},
	'M': {"TIME", func(v *squeueView, j *sim.Job) string {
		if j.State != sim.Running {
			return "0:00"
		}
		return squeueTime(v.at.Stop - j.Start)
	}},
	'l': {"TIME_LIMIT", func(_ *squeueView, j *sim.Job) string {
		lim := j.TimeLimit
		if j.State == sim.Running {
			lim = j.Limit
		}
		if lim <= 0 || lim == sim.Unlimited {
			return "UNLIMITED"
		}
		return squeueTime(lim)
	}},
	'D': {"NODES", func(_ *squeueView, j *sim.Job) string {
		if j.State == sim.Running {
			return strconv.Itoa(len(j.Alloc))
		}
		return strconv.Itoa(max(j.Req.Nodes, 1))
	}},
	'Q': {"PRIORITY", func(_ *squeueView, j *sim.Job) string { return strconv.FormatUint(uint64(j.Priority), 10) }},
	'r': {"REASON", func(_ *squeueView, j *sim.Job) string { return squeueReason(j) }},
	'N': {"NODELIST", func(v *squeueView, j *sim.Job) string { return report.NodeList(v.at.Res.Cluster, j.Alloc) }},
	'R': {"NODELIST(REASON)", func(v *squeueView, j *sim.Job) string {
		if j.State == sim.Running {
			return report.NodeList(v.at.Res.Cluster, j.Alloc)
		}
		return "(" + squeueReason(j) + ")"
	}},
}

// squeueReason is a pending job's reason at the view, None when no pass
// has given it one yet (slurmctld's WAIT_NO_REASON).
func squeueReason(j *sim.Job) string {
	if j.State == sim.Running || j.Reason == "" {
		return "None"
	}
	return j.Reason
}

// squeueTime prints seconds as squeue does (secs2time_str in
// src/common/parse_time.c): M:SS, H:MM:SS, or D-HH:MM:SS.
func squeueTime(s int64) string {
	d, h, m, sec := s/86400, s/3600%24, s/60%60, s%60
	switch {
	case d > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, h, m, sec)
	case h > 0:
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}

// squeueSpec is one piece of a format: literal text, or a field with its
// width and justification ("%.18i": right, 18; "%-8u" or "%8u": left).
type squeueSpec struct {
	lit   string
	field squeueField
	width int
	right bool
}

// parseSqueueFormat reads an -o format.
func parseSqueueFormat(f string) ([]squeueSpec, error) {
	var out []squeueSpec
	for i := 0; i < len(f); {
		if f[i] != '%' {
			k := strings.IndexByte(f[i:], '%')
			if k < 0 {
				k = len(f) - i
			}
			out = append(out, squeueSpec{lit: f[i : i+k]})
			i += k
			continue
		}
		i++
		s := squeueSpec{}
		if i < len(f) && f[i] == '.' {
			s.right = true
			i++
		} else if i < len(f) && f[i] == '-' {
			i++
		}
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j > i {
			w, err := strconv.Atoi(f[i:j])
			if err != nil || w > 1000 {
				return nil, fmt.Errorf("-o %q: width %q: want a number up to 1000", f, f[i:j])
			}
			s.width = w
		}
		if j >= len(f) {
			return nil, fmt.Errorf("-o %q: a %% at the end names no field", f)
		}
		fd, ok := squeueFields[f[j]]
		if !ok {
			return nil, fmt.Errorf("-o %q: %%%c is not a field fairsim has (it has %%i %%P %%j %%u %%a %%q %%t %%T %%M %%l %%D %%Q %%r %%N %%R)", f, f[j])
		}
		s.field = fd
		out = append(out, s)
		i = j + 1
	}
	return out, nil
}

// cell pads or truncates v to the spec's width, as squeue does.
func (s squeueSpec) cell(v string) string {
	if s.width == 0 {
		return v
	}
	if len(v) > s.width {
		v = v[:s.width]
	}
	if s.right {
		return strings.Repeat(" ", s.width-len(v)) + v
	}
	return v + strings.Repeat(" ", s.width-len(v))
}

// squeueStates reads -t: state names or squeue's short codes; "all".
func squeueStates(list string) (pending, running bool, err error) {
	if list == "" {
		return true, true, nil
	}
	for _, s := range slurmtext.SplitList(strings.ToUpper(list)) {
		switch s {
		case "PD", "PENDING":
			pending = true
		case "R", "RUNNING":
			running = true
		case "ALL":
			pending, running = true, true
		default:
			return false, false, fmt.Errorf("-t %q: state %q: fairsim's queue holds PENDING (PD) and RUNNING (R) jobs; or all", list, s)
		}
	}
	return pending, running, nil
}

// SqueueSelect lists the jobs squeue would show at the view: pending
// (eligible or not) and running, filtered by -t, -u, -A and -p, sorted as
// squeue's default "P,t,-p" sorts (partition, state, priority down), then
// by job id.
func SqueueSelect(at *At, o SqueueOptions) ([]*sim.Job, error) {
	pend, run, err := squeueStates(o.States)
	if err != nil {
		return nil, err
	}
	users, accts, parts := slurmtext.SplitList(o.Users), slurmtext.SplitList(o.Accounts), slurmtext.SplitList(o.Parts)
	res := at.Res
	var jobs []*sim.Job
	for _, j := range res.Jobs {
		switch {
		case j.Submit > at.Stop:
			continue
		case j.State == sim.Pending && !pend, j.State == sim.Running && !run:
			continue
		case j.State != sim.Pending && j.State != sim.Running:
			continue
		case len(users) > 0 && !slices.Contains(users, res.Names.Users.Name(j.User)),
			len(accts) > 0 && !slices.Contains(accts, res.Names.Accounts.Name(j.Account)),
			len(parts) > 0 && !slices.Contains(parts, res.Cluster.Parts[j.Part].Name):
			continue
		}
		jobs = append(jobs, j)
	}
	slices.SortStableFunc(jobs, func(a, b *sim.Job) int {
		return cmp.Or(cmp.Compare(res.Cluster.Parts[a.Part].Name, res.Cluster.Parts[b.Part].Name),
			cmp.Compare(a.State, b.State), cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.ID, b.ID))
	})
	return jobs, nil
}

// WriteSqueue prints jobs in format o.Format (squeue's default if empty).
func WriteSqueue(w io.Writer, at *At, jobs []*sim.Job, o SqueueOptions) error {
	f := o.Format
	if f == "" {
		f = SqueueDefaultFormat
	}
	specs, err := parseSqueueFormat(f)
	if err != nil {
		return err
	}
	v := &squeueView{at: at}
	line := func(val func(s squeueSpec) string) error {
		var b strings.Builder
		for _, s := range specs {
			if s.field.val == nil {
				b.WriteString(s.lit)
			} else {
				b.WriteString(s.cell(val(s)))
			}
		}
		_, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		return err
	}
	if !o.NoHeader {
		if err := line(func(s squeueSpec) string { return s.field.head }); err != nil {
			return err
		}
	}
	for _, j := range jobs {
		if err := line(func(s squeueSpec) string { return s.field.val(v, j) }); err != nil {
			return err
		}
	}
	return nil
}

// Squeue simulates spec's scenario up to at and prints its queue; verbose
// says on errw what was simulated.
func Squeue(w, errw io.Writer, verbose bool, spec RunSpec, at string, o SqueueOptions) error {
	var log io.Writer
	if verbose {
		log = errw
	}
	if at == "" {
		return fmt.Errorf("squeue: --at TIME is required")
	}
	if _, _, err := squeueStates(o.States); err != nil {
		return err
	}
	if o.Format != "" {
		if _, err := parseSqueueFormat(o.Format); err != nil {
			return err
		}
	}
	p := Pipeline{Need: "squeue", Log: log}
	run, err := p.Open(spec)
	if err != nil {
		return err
	}
	defer run.Close()
	view, err := p.SimulateAt(run, at, nil)
	if err != nil {
		return err
	}
	if log != nil {
		view.Describe(log)
	}
	jobs, err := SqueueSelect(view, o)
	if err != nil {
		return err
	}
	return WriteSqueue(w, view, jobs, o)
}
