package workload

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GresScope says what a GRES count is counted over, as Slurm keeps a job's
// tres_per_job and tres_per_node apart (--gpus=8 is eight in all, --gres=gpu:2
// and --gpus-per-node=2 are two on each node). Per-task counts
// (--gpus-per-task) are turned into per-job counts by the readers, which know
// the task count.
type GresScope uint8

// GRES scopes.
const (
	GresPerNode GresScope = iota // on each allocated node
	GresPerJob                   // over the whole allocation
)

// GresReq is one generic-resource request of a job: Count of GRES Name
// (such as "gpu"), of Type when Type is not empty ("a100").
type GresReq struct {
	Name  string
	Type  string
	Count int64
	Per   GresScope
}

// MaxGresCount bounds one request's count so sums over nodes stay exact.
const MaxGresCount = 1 << 20

// String is the item's canonical form, NAME[:TYPE]:COUNT/node or /job.
func (g GresReq) String() string {
	var b strings.Builder
	b.WriteString(g.Name)
	if g.Type != "" {
		b.WriteByte(':')
		b.WriteString(g.Type)
	}
	b.WriteByte(':')
	b.WriteString(strconv.FormatInt(g.Count, 10))
	if g.Per == GresPerJob {
		b.WriteString("/job")
	} else {
		b.WriteString("/node")
	}
	return b.String()
}

// FormatGres is the canonical text of a job's GRES requests, the string
// Names.Gres interns: items in the order given, comma-separated, each
// NAME[:TYPE]:COUNT/node or NAME[:TYPE]:COUNT/job ("gpu:a100:2/job").
func FormatGres(reqs []GresReq) string {
	parts := make([]string, len(reqs))
	for i, g := range reqs {
		parts[i] = g.String()
	}
	return strings.Join(parts, ",")
}

// ParseGres reads FormatGres's canonical text. Names and types are
// lower-cased, as Slurm compares GRES names without case.
func ParseGres(s string) ([]GresReq, error) {
	if s == "" {
		return nil, nil
	}
	var out []GresReq
	for _, item := range strings.Split(s, ",") {
		body, scope, ok := strings.Cut(item, "/")
		if !ok {
			return nil, fmt.Errorf("GRES %q: want NAME[:TYPE]:COUNT/node or /job", item)
		}
		var g GresReq
		switch scope {
		case "node":
			g.Per = GresPerNode
		case "job":
			g.Per = GresPerJob
		default:
			return nil, fmt.Errorf("GRES %q: scope %q is neither node nor job", item, scope)
		}
		f := strings.Split(body, ":")
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("GRES %q: want NAME[:TYPE]:COUNT", item)
		}
		n, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if err != nil || n <= 0 || n > MaxGresCount {
			return nil, fmt.Errorf("GRES %q: count %q must be a whole number in 1..%d", item, f[len(f)-1], MaxGresCount)
		}
		g.Count = n
		g.Name = strings.ToLower(f[0])
		if len(f) == 3 {
			g.Type = strings.ToLower(f[1])
		}
		if !validGresName(g.Name) || (len(f) == 3 && !validGresName(g.Type)) {
			return nil, fmt.Errorf("GRES %q: names are letters, digits, '_', '-' and '.'", item)
		}
		out = append(out, g)
	}
	return out, nil
}

func validGresName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// GresOf returns job j's GRES requests (nil for none), parsed from
// Names.Gres. Readers intern only canonical text, so an error here means a
// Job was built by hand with a bad id or text.
func (n *Names) GresOf(j *Job) ([]GresReq, error) {
	if j.Gres <= 0 {
		return nil, nil
	}
	s := n.Gres.Name(j.Gres - 1)
	if s == "" {
		return nil, fmt.Errorf("job %d: GRES id %d unknown", j.ID, j.Gres)
	}
	return ParseGres(s)
}

// GPUs is the job's GPU count over the whole job for nodes nodes: per-job
// counts as they are, per-node counts times nodes (at least one node).
func GPUs(reqs []GresReq, nodes int) int64 {
	var n int64
	for _, g := range reqs {
		if g.Name != "gpu" {
			continue
		}
		if g.Per == GresPerNode {
			n += g.Count * int64(max(nodes, 1))
		} else {
			n += g.Count
		}
	}
	return n
}

// SortGres puts requests in canonical order: by name, then type (untyped
// first), per-node before per-job. Readers sort what they intern, so that
// one request reads as one string whichever source gave it.
func SortGres(reqs []GresReq) {
	slices.SortStableFunc(reqs, func(a, b GresReq) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Type, b.Type), cmp.Compare(a.Per, b.Per))
	})
}

// gresKey names one GRES of one type.
type gresKey struct{ name, typ string }

// parseGresCount reads a GRES count as Slurm does (slurm_protocol_defs.c,
// _is_valid_number): digits with an optional 1024-based k/m/g/t/p suffix.
// Zero is allowed (Slurm skips such items); above limit is not.
func parseGresCount(s string, limit int64) (int64, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 18 {
		return 0, fmt.Errorf("count %q is not a whole number", s)
	}
	n, _ := strconv.ParseInt(s[:i], 10, 64)
	if rest := s[i:]; rest != "" {
		shift, ok := unitShift(rest[0])
		if len(rest) != 1 || !ok {
			return 0, fmt.Errorf("count %q is not a whole number", s)
		}
		for range shift + 1 {
			if n > limit {
				break
			}
			n *= 1024
		}
	}
	if n > limit {
		return 0, fmt.Errorf("count %q is above %d", s, limit)
	}
	return n, nil
}

// checkGresNames lower-cases and checks a GRES name and type.
func checkGresNames(name, typ string) (string, string, error) {
	name, typ = strings.ToLower(name), strings.ToLower(typ)
	if !validGresName(name) || (typ != "" && !validGresName(typ)) {
		return "", "", fmt.Errorf("GRES %q: names are letters, digits, '_', '-' and '.'", strings.TrimSuffix(name+":"+typ, ":"))
	}
	return name, typ, nil
}

// ParseGresTotals reads GRES job totals as the old sacct fields
// ReqGRES/AllocGRES print them: "gpu:2", "gpu:k80:2", comma-separated.
// Those were totals over the job: slurmctld built gres_req from each
// GRES's total_gres (gres.c, gres_plugin_job_alloc_count) and gres_alloc
// by adding every node's count (node_scheduler.c, _get_gres_alloc), and
// slurmctld.h describes both as "added over all nodes" (Slurm 14.11 to
// 20.02, when sacct dropped the fields). Items come back per job, sorted;
// zero counts are left out, as Slurm skips them.
func ParseGresTotals(s string) ([]GresReq, error) {
	var out []GresReq
	seen := map[gresKey]bool{}
	for _, item := range strings.Split(s, ",") {
		if item == "" {
			continue
		}
		f := strings.Split(item, ":")
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("GRES %q: want NAME[:TYPE]:COUNT", item)
		}
		n, err := parseGresCount(f[len(f)-1], maxGresTotal)
		if err != nil {
			return nil, fmt.Errorf("GRES %q: %v", item, err)
		}
		typ := ""
		if len(f) == 3 {
			typ = f[1]
		}
		name, typ, err := checkGresNames(f[0], typ)
		if err != nil {
			return nil, err
		}
		k := gresKey{name, typ}
		if seen[k] {
			return nil, fmt.Errorf("GRES %q: %s given twice", item, strings.TrimSuffix(name+":"+typ, ":"))
		}
		seen[k] = true
		if n > 0 {
			out = append(out, GresReq{Name: name, Type: typ, Count: n, Per: GresPerJob})
		}
	}
	return dedupUntyped(out, s)
}

// GresFromTRES reads the GRES items of a TRES list as sacct prints
// ReqTRES and AllocTRES ("billing=4,cpu=4,gres/gpu:a100=2,gres/gpu=2,
// mem=16G,node=1"): job totals, so every item comes back per job, sorted.
// Slurm lists a typed GRES twice, under its type and in the untyped total
// of its name (gres_stepmgr.c, _foreach_set_type_tres_cnt, adds typed
// counts to the plain gres/NAME TRES); the typed items are the request, and the untyped total adds only
// what its types do not cover. Other TRES (cpu, mem, license/...) are
// not looked at; zero counts are left out.
func GresFromTRES(s string) ([]GresReq, error) {
	var out []GresReq
	seen := map[gresKey]bool{}
	for _, item := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(item, "=")
		rest, isGres := strings.CutPrefix(key, "gres/")
		if !isGres {
			continue
		}
		if !ok {
			return nil, fmt.Errorf("%q: want gres/NAME[:TYPE]=COUNT", item)
		}
		name, typ, _ := strings.Cut(rest, ":")
		name, typ, err := checkGresNames(name, typ)
		if err != nil {
			return nil, err
		}
		if strings.Contains(typ, ":") {
			return nil, fmt.Errorf("%q: want gres/NAME[:TYPE]=COUNT", item)
		}
		n, err := parseGresCount(val, maxGresTotal)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		k := gresKey{name, typ}
		if seen[k] {
			return nil, fmt.Errorf("%s given twice", key)
		}
		seen[k] = true
		if n > 0 {
			out = append(out, GresReq{Name: name, Type: typ, Count: n, Per: GresPerJob})
		}
	}
	return dedupUntyped(out, s)
}

// maxGresTotal bounds a recorded total before the untyped total of a name
// is reduced to what its types leave: the total of several types may pass
// MaxGresCount when no item does.
const maxGresTotal = MaxGresCount << 20

// dedupUntyped keeps, for each name with typed items, the typed items
// and only the part of the untyped total they do not cover. Every item
// left must be within MaxGresCount.
func dedupUntyped(items []GresReq, src string) ([]GresReq, error) {
	typed := map[string]int64{}
	for _, g := range items {
		if g.Type != "" {
			typed[g.Name] += g.Count
		}
	}
	out := items[:0]
	for _, g := range items {
		if t, ok := typed[g.Name]; ok && g.Type == "" {
			if g.Count < t {
				return nil, fmt.Errorf("%q: %s total %d is below its types' sum %d", src, g.Name, g.Count, t)
			}
			if g.Count == t {
				continue
			}
			g.Count -= t
		}
		if g.Count > MaxGresCount {
			return nil, fmt.Errorf("%q: %s count %d is above %d", src, strings.TrimSuffix(g.Name+":"+g.Type, ":"), g.Count, MaxGresCount)
		}
		out = append(out, g)
	}
	SortGres(out)
	return out, nil
}

// gresTotals adds requests up per (name, type) over nodes nodes.
func gresTotals(reqs []GresReq, nodes int) map[gresKey]int64 {
	m := map[gresKey]int64{}
	for _, g := range reqs {
		n := g.Count
		if g.Per == GresPerNode {
			n *= int64(max(nodes, 1))
		}
		m[gresKey{g.Name, g.Type}] += n
	}
	return m
}
