package workload

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fairsim/slurmtext"
	"fairsim/slurmtime"
)

// Transform changes or filters the jobs of any Source as they stream by,
// so that one trace can be replayed under heavier load, with perfect
// estimates, or in part. Every job a transform changes or drops is counted
// in the Source's ReadStats: a change in Defaulted, a drop in Skipped (and
// taken off Accepted), each under a reason naming the transform.
type Transform struct {
	spec  string
	apply func(Source) Source
}

// Apply wraps src.
func (t Transform) Apply(src Source) Source { return t.apply(src) }

// String is the transform as ParseTransform reads it, for provenance notes.
func (t Transform) String() string { return t.spec }

// Chain applies ts to src in order.
func Chain(src Source, ts ...Transform) Source {
	for _, t := range ts {
		src = t.Apply(src)
	}
	return src
}

// jobFunc is a streaming transform: it edits the job and says whether to
// keep it. It sees the source for its header and names.
type jobFunc func(src Source, j *Job) (keep bool, reason string)

type funcSource struct {
	Source
	f jobFunc
}

// Next implements Source, moving dropped jobs from Accepted to Skipped.
func (s *funcSource) Next(j *Job) bool {
	for s.Source.Next(j) {
		keep, reason := s.f(s.Source, j)
		if keep {
			if reason != "" {
				s.Stats().Defaulted.Add(reason)
			}
			return true
		}
		st := s.Stats()
		st.Accepted--
		st.Skipped.Add(reason)
	}
	return false
}

func newTransform(spec string, f func() jobFunc) Transform {
	return Transform{spec: spec, apply: func(src Source) Source { return &funcSource{Source: src, f: f()} }}
}

// Load scales inter-arrival times by 1/factor around the first submit:
// submit' = first + (submit-first)/factor, rounded to the second, so that
// factor 2 offers the same jobs in half the time. An eligible time keeps
// its delay after submit.
func Load(factor float64) (Transform, error) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return Transform{}, fmt.Errorf("load factor %v: want a positive number", factor)
	}
	// A factor past these bounds stretches a year-long trace beyond the
	// clock's int64 seconds (1e-300 overflowed into negative submit
	// times) or squeezes it into one second: no study means either.
	if factor < minLoad || factor > maxLoad {
		return Transform{}, fmt.Errorf("load factor %v: want a number from %g to %g", factor, minLoad, maxLoad)
	}
	spec := "load=" + strconv.FormatFloat(factor, 'g', -1, 64)
	reason := "load " + strconv.FormatFloat(factor, 'g', -1, 64) + ": submit time scaled"
	return newTransform(spec, func() jobFunc {
		first, started := int64(0), false
		return func(_ Source, j *Job) (bool, string) {
			if !started {
				first, started = j.Submit, true
			}
			s := first + int64(math.Round(float64(j.Submit-first)/factor))
			if j.Eligible != Unset {
				j.Eligible = s + (j.Eligible - j.Submit)
			}
			j.Submit = s
			return true, reason
		}
	}), nil
}

// minLoad and maxLoad bound a load factor.
const minLoad, maxLoad = 1e-6, 1e6

// LimitAccuracy sets the requested time from the actual run time: "exact"
// gives the run time itself (at least 1 s), a factor F gives run time x F
// rounded up to a whole minute (at least one), as a user asking for
// F times what the job needs would. Jobs with an unknown run time keep
// their limit.
func LimitAccuracy(spec string) (Transform, error) {
	exact := strings.EqualFold(spec, "exact")
	f := 1.0
	if !exact {
		var err error
		f, err = strconv.ParseFloat(spec, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return Transform{}, fmt.Errorf("limit accuracy %q: want exact or a positive factor", spec)
		}
	}
	reason := "limit-accuracy " + spec + ": time limit from run time"
	return newTransform("limit-accuracy="+spec, func() jobFunc {
		return func(_ Source, j *Job) (bool, string) {
			if j.Runtime == Unset {
				return true, ""
			}
			if exact {
				j.TimeLimit = max(j.Runtime, 1)
			} else {
				mins := int64(math.Ceil(float64(j.Runtime) * f / 60))
				j.TimeLimit = max(mins, 1) * 60
			}
			return true, reason
		}
	}), nil
}

// Window keeps the jobs submitted in [from, to) (seconds since the epoch;
// to Unset for no end). Jobs after the window are read and counted, not
// left unread, so that the summary accounts for the whole trace.
func Window(from, to int64) Transform {
	return windowTransform(fmt.Sprintf("window=%d..%d", from, to), func(Source, int64) (int64, int64, error) { return from, to, nil })
}

// windowTransform resolves its ends on the first job it sees, whose
// submission is the origin of offsets (as for --at and the progress bar).
func windowTransform(spec string, resolve func(src Source, first int64) (int64, int64, error)) Transform {
	return newTransform(spec, func() jobFunc {
		var from, to int64
		resolved := false
		return func(src Source, j *Job) (bool, string) {
			if !resolved {
				from, to, _ = resolve(src, j.Submit)
				resolved = true
			}
			if j.Submit < from {
				return false, spec + ": submitted before the window"
			}
			if to != Unset && j.Submit >= to {
				return false, spec + ": submitted after the window"
			}
			return true, ""
		}
	})
}

// MaxJobs keeps the first n jobs; the rest are read and counted.
func MaxJobs(n int) Transform {
	spec := "max-jobs=" + strconv.Itoa(n)
	return newTransform(spec, func() jobFunc {
		seen := 0
		return func(Source, *Job) (bool, string) {
			seen++
			if seen > n {
				return false, spec + ": beyond the first jobs"
			}
			return true, ""
		}
	})
}

// PartitionFilter keeps the jobs of the named partitions (SWF partition
// number n is named "pn").
func PartitionFilter(names ...string) Transform {
	spec := "partition=" + strings.Join(names, ",")
	return newTransform(spec, func() jobFunc {
		return func(src Source, j *Job) (bool, string) {
			if j.Partition != Unset && slices.Contains(names, src.Names().Partitions.Name(j.Partition)) {
				return true, ""
			}
			return false, spec + ": other partition"
		}
	})
}

// QueueFilter keeps the jobs of the given SWF queue numbers (a sacct QOS
// named "qn" counts as queue n).
func QueueFilter(queues ...int) Transform {
	parts := make([]string, len(queues))
	for i, q := range queues {
		parts[i] = strconv.Itoa(q)
	}
	spec := "queue=" + strings.Join(parts, ",")
	return newTransform(spec, func() jobFunc {
		return func(src Source, j *Job) (bool, string) {
			q := int64(j.Queue)
			if j.Queue == Unset && j.QOS != Unset {
				q = swfNumber(src.Names().QOS.Name(j.QOS), "q", -2) // -2+1: not a queue
			}
			if slices.Contains(queues, int(q)) && q != Unset {
				return true, ""
			}
			return false, spec + ": other queue"
		}
	})
}

// ParseTransform reads one transform as the CLI spells it:
//
//	load=1.5              Load(1.5)
//	limit-accuracy=exact  LimitAccuracy("exact"); or a factor such as 2
//	window=FROM..TO       Window: each end a Slurm time string counted
//	                      from the first submission ("7-0" is 7 days
//	                      after it, as --at counts) or a date
//	                      YYYY-MM-DD[THH:MM[:SS]] in the trace's zone;
//	                      either end may be left out
//	max-jobs=N            MaxJobs(N)
//	partition=a,b         PartitionFilter("a", "b")
//	queue=1,2             QueueFilter(1, 2)
func ParseTransform(s string) (Transform, error) {
	name, arg, ok := strings.Cut(s, "=")
	if !ok || arg == "" {
		return Transform{}, fmt.Errorf("transform %q: want NAME=VALUE", s)
	}
	switch name {
	case "load":
		f, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return Transform{}, fmt.Errorf("load %q: want a positive number", arg)
		}
		return Load(f)
	case "limit-accuracy":
		return LimitAccuracy(arg)
	case "window":
		return parseWindow(arg)
	case "max-jobs":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 {
			return Transform{}, fmt.Errorf("max-jobs %q: want a count", arg)
		}
		return MaxJobs(n), nil
	case "partition":
		names := slurmtext.SplitList(arg)
		if len(names) == 0 {
			return Transform{}, fmt.Errorf("partition %q: want a list of names", arg)
		}
		return PartitionFilter(names...), nil
	case "queue":
		var qs []int
		for _, q := range slurmtext.SplitList(arg) {
			n, err := strconv.Atoi(q)
			if err != nil || n < 0 {
				return Transform{}, fmt.Errorf("queue %q: want queue numbers", q)
			}
			qs = append(qs, n)
		}
		if len(qs) == 0 {
			return Transform{}, fmt.Errorf("queue %q: want queue numbers", arg)
		}
		return QueueFilter(qs...), nil
	}
	return Transform{}, fmt.Errorf("unknown transform %q: want load, limit-accuracy, window, max-jobs, partition or queue", name)
}

// ParseTransforms reads transforms in the order they are to apply.
func ParseTransforms(specs []string) ([]Transform, error) {
	var out []Transform
	for _, s := range specs {
		t, err := ParseTransform(s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// parseWindow reads FROM..TO. Dates need the trace's epoch and zone, known
// once the first job is read, so they are checked now and resolved then.
func parseWindow(arg string) (Transform, error) {
	from, to, ok := strings.Cut(arg, "..")
	if !ok {
		return Transform{}, fmt.Errorf("window %q: want FROM..TO", arg)
	}
	for _, e := range []string{from, to} {
		if e == "" {
			continue
		}
		if _, err := slurmtime.ParseDateOrDuration(e, 0, time.UTC); err != nil {
			return Transform{}, fmt.Errorf("window %q: %v", arg, err)
		}
	}
	if from == "" && to == "" {
		return Transform{}, fmt.Errorf("window %q: give at least one end", arg)
	}
	if from != "" && to != "" {
		// Two offsets, or two dates, compare now: a window that ends
		// before it begins keeps no job, which must not read as an
		// empty trace.
		f0, _ := slurmtime.ParseDateOrDuration(from, 0, time.UTC)
		f1, _ := slurmtime.ParseDateOrDuration(from, 1, time.UTC)
		t0, _ := slurmtime.ParseDateOrDuration(to, 0, time.UTC)
		t1, _ := slurmtime.ParseDateOrDuration(to, 1, time.UTC)
		if (f0 == f1) == (t0 == t1) && t0 <= f0 {
			return Transform{}, fmt.Errorf("window %q: the end is not after the start", arg)
		}
	}
	// An offset counts from the first submission the window sees, the
	// origin --at and the progress bar use; a date is a wall-clock time.
	resolve := func(src Source, first int64) (int64, int64, error) {
		h := src.Header()
		loc := time.UTC
		if h.TimeZoneString != "" {
			if l, err := time.LoadLocation(h.TimeZoneString); err == nil {
				loc = l
			}
		}
		f, t := int64(math.MinInt64), int64(Unset)
		var err error
		if from != "" {
			if f, err = slurmtime.ParseDateOrDuration(from, h.UnixStartTime+first, loc); err != nil {
				return 0, 0, err
			}
			f += first
		}
		if to != "" {
			if t, err = slurmtime.ParseDateOrDuration(to, h.UnixStartTime+first, loc); err != nil {
				return 0, 0, err
			}
			t += first
		}
		return f, t, nil
	}
	return windowTransform("window="+arg, resolve), nil
}
