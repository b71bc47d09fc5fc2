package workflow

import (
	"fmt"
	"strconv"
	"strings"
)

// Param is one swept setting: a key as config.Scenario.Set takes it and its
// values in the order given.
type Param struct {
	Key    string
	Values []string
}

// ParseSet parses one --set argument, KEY=V1,V2,...
//
// Values are separated by commas. When one value itself contains commas
// (a TRESBillingWeights list, a SchedulerParameters string), separate the
// values with '|' instead: as soon as the list contains a '|', it is split
// on '|' only, and commas stay inside the values. A single value with
// commas is written with a trailing '|':
//
//	--set PriorityWeightAge=1000,10000
//	--set 'partition.shared.TRESBillingWeights=CPU=1.0,Mem=0.25G|CPU=2.0,Mem=0.5G'
//	--set 'SchedulerParameters=bf_window=2880,bf_continue|'
//
// Values are trimmed of spaces; an empty value (V1,,V2) and a value given
// twice are errors, since they would make two points that differ in
// nothing.
func ParseSet(arg string) (Param, error) {
	key, list, ok := strings.Cut(arg, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return Param{}, fmt.Errorf("--set %q: want KEY=V1,V2,...", arg)
	}
	if strings.ContainsAny(key, " \t,|") {
		return Param{}, fmt.Errorf("--set %q: %q is not a setting name", arg, key)
	}
	sep := ","
	if strings.Contains(list, "|") {
		sep = "|"
		list = strings.TrimSuffix(list, "|")
	}
	p := Param{Key: key}
	seen := map[string]bool{}
	for _, v := range strings.Split(list, sep) {
		v = strings.TrimSpace(v)
		if v == "" {
			return Param{}, fmt.Errorf("--set %s: empty value in %q", key, list)
		}
		if seen[v] {
			return Param{}, fmt.Errorf("--set %s: value %q given twice", key, v)
		}
		seen[v] = true
		p.Values = append(p.Values, v)
	}
	return p, nil
}

// FormatSet is the inverse of ParseSet: the --set argument that gives p.
func FormatSet(p Param) string {
	sep := ","
	for _, v := range p.Values {
		if strings.Contains(v, ",") {
			sep = "|"
		}
	}
	s := p.Key + "=" + strings.Join(p.Values, sep)
	if sep == "|" && len(p.Values) == 1 {
		s += "|"
	}
	return s
}

// Point is one cell of a sweep's grid.
type Point struct {
	// Index numbers the points of the full grid from 0, the first
	// parameter varying slowest and the seed fastest.
	Index int
	// Values holds one value per parameter, in parameter order.
	Values []string
	// Seed is generate.seed for this point; meaningful when the sweep
	// repeats seeds.
	Seed uint64
}

// Grid enumerates the full grid of params × seeds (seeds = 0 or 1: no
// repetition). The order is fixed: the first --set varies slowest, like
// nested loops written in the order of the flags, and the seed innermost.
func Grid(params []Param, seeds int, baseSeed uint64) []Point {
	n := max(seeds, 1)
	for _, p := range params {
		n *= len(p.Values)
	}
	points := make([]Point, n)
	for i := range points {
		pt := Point{Index: i, Values: make([]string, len(params))}
		rest := i
		if seeds > 1 {
			pt.Seed = baseSeed + uint64(rest%seeds)
			rest /= seeds
		} else {
			pt.Seed = baseSeed
		}
		for k := len(params) - 1; k >= 0; k-- {
			vals := params[k].Values
			pt.Values[k] = vals[rest%len(vals)]
			rest /= len(vals)
		}
		points[i] = pt
	}
	return points
}

// Shard selects a slice of a sweep's points for one machine or one task
// of a Slurm job array. Shards are numbered from 0, as SLURM_ARRAY_TASK_ID
// is with --array=0-(N-1): shard I of N takes the points whose index is I
// modulo N, so each shard gets a mix of cheap and expensive points.
type Shard struct {
	I, N int
}

// All is the shard that holds every point.
var All = Shard{0, 1}

// ParseShard reads "I/N" (0 <= I < N).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 {
		return Shard{}, fmt.Errorf("--shard %q: want I/N, e.g. 0/4", s)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %s: I must be 0..%d (shards are numbered from 0, as SLURM_ARRAY_TASK_ID with --array=0-%d)", s, n-1, n-1)
	}
	return Shard{i, n}, nil
}

// Has reports whether point index i belongs to the shard.
func (s Shard) Has(i int) bool { return s.N <= 1 || i%s.N == s.I }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, max(s.N, 1)) }
