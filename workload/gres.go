package workload

import (
	"fmt"
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
