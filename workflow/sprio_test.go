package workflow

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fairsim/policy"
	"fairsim/sim"
	"fairsim/workload"
)

const sprioScenario = "testdata/sprio-mixed.yaml"

// qosSource gives every job a QOS by its id, as an sacct trace names one
// (SWF and the generator carry none): id%3 = 0 high (Priority 400), 1
// normal (100), 2 low (0); see testdata/sprio-qos.txt.
type qosSource struct{ workload.Source }

var qosByRest = [3]string{"high", "normal", "low"}

func (q qosSource) Next(j *workload.Job) bool {
	if !q.Source.Next(j) {
		return false
	}
	j.QOS = q.Names().QOS.ID(qosByRest[j.ID%3])
	return true
}

// sprioTable splits sprio output into a header and rows of cells.
func sprioTable(t *testing.T, out string) ([]string, [][]string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("no rows:\n%s", out)
	}
	var rows [][]string
	for _, l := range lines[1:] {
		rows = append(rows, strings.Fields(l))
	}
	return strings.Fields(lines[0]), rows
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// On a scenario with two partitions (PriorityJobFactor 10 and 4) and
// three QOS (Priority 400, 100, 0), every sprio -l row adds up to its
// PRIORITY, PRIORITY is the priority the scheduler sorts by, and the
// partition, QOS, job-size and TRES columns are the terms Slurm's priority_multifactor.c
// (_get_priority_internal) gives for the scenario's weights: PriorityWeightPartition=5000,
// PriorityWeightQOS=40000, PriorityWeightJobSize=2000 and
// PriorityWeightTRES=CPU=3000,Mem=800 on 4 nodes of 32 CPUs (partition
// short: all 128 CPUs; long: 2 nodes, 64 CPUs).
func TestSprioMixedPartitionsAndQOS(t *testing.T) {
	p := Pipeline{Need: "sprio"}
	run, err := p.Open(RunSpec{Scenario: sprioScenario})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	ar, err := p.SimulateAt(run, "1-0", func(s workload.Source) workload.Source { return qosSource{s} })
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := SprioSelect(ar, SprioFilter{})
	if err != nil {
		t.Fatal(err)
	}
	jobs := map[int64]*sim.Job{}
	for _, j := range ar.Res.Jobs {
		jobs[j.ID] = j
	}
	sw := SprioWeights(run)
	var b strings.Builder
	if err := policy.WriteSprio(&b, rows, sw, policy.SprioOptions{Long: true}); err != nil {
		t.Fatal(err)
	}
	hdr, cells := sprioTable(t, b.String())
	wantHdr := "JOBID PARTITION USER ACCOUNT PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTITION QOSNAME QOS NICE TRES"
	if strings.Join(hdr, " ") != wantHdr {
		t.Fatalf("header %q, want %q", strings.Join(hdr, " "), wantHdr)
	}
	if len(cells) < 20 {
		t.Fatalf("only %d pending jobs at 1-0; the scenario should keep the queue busy", len(cells))
	}
	partTerm := map[string]float64{"short": 5000, "long": 2000} // 5000·10/10, 5000·4/10
	partCPUs := map[string]float64{"short": 128, "long": 64}
	qosTerm := map[string]float64{"high": 40000, "normal": 10000, "low": 0} // 40000·p/400
	tresRe := regexp.MustCompile(`^(\w+)=(-?\d+)$`)
	seenPart, seenQOS := map[string]int{}, map[string]int{}
	lastID := int64(0)
	for i, c := range cells {
		if len(c) != 14 && len(c) != 15 { // TRES may be empty
			t.Fatalf("row %q: %d cells", strings.Join(c, " "), len(c))
		}
		id, _ := strconv.ParseInt(c[0], 10, 64)
		if id <= lastID {
			t.Errorf("row %d: job %d after %d: sprio sorts by job id", i, id, lastID)
		}
		lastID = id
		j := jobs[id]
		if j == nil || j.State != sim.Pending {
			t.Fatalf("row %d: job %s is not a pending job", i, c[0])
		}
		part, qos := c[1], c[11]
		seenPart[part]++
		seenQOS[qos]++
		prio := atof(t, c[4])
		if prio != float64(j.Priority) {
			t.Errorf("job %d: PRIORITY %v, the job's priority is %d", id, prio, j.Priority)
		}
		site, age, assoc, fs, js, pt, qt, nice := atof(t, c[5]), atof(t, c[6]), atof(t, c[7]), atof(t, c[8]), atof(t, c[9]), atof(t, c[10]), atof(t, c[12]), atof(t, c[13])
		sum := site + age + assoc + fs + js + pt + qt - nice
		terms := 8
		var cpuTerm float64
		if len(c) == 15 {
			for _, kv := range strings.Split(c[14], ",") {
				m := tresRe.FindStringSubmatch(kv)
				if m == nil {
					t.Fatalf("job %d: TRES %q", id, c[14])
				}
				v := atof(t, m[2])
				sum += v
				terms++
				if m[1] == "cpu" {
					cpuTerm = v
				}
			}
		}
		// Each printed term is rounded (±0.5) and PRIORITY truncated (−1).
		if d := sum - prio; d < -0.5*float64(terms) || d > 0.5*float64(terms)+1 {
			t.Errorf("job %d: factors add up to %v, PRIORITY %v", id, sum, prio)
		}
		if site != 0 || assoc != 0 || nice != 0 {
			t.Errorf("job %d: SITE %v ASSOC %v NICE %v, want 0 (no site factor, weight 0, no nice)", id, site, assoc, nice)
		}
		if age < 0 || age > 10000 || fs < 0 || fs > 100000 {
			t.Errorf("job %d: AGE %v or FAIRSHARE %v beyond its weight", id, age, fs)
		}
		if want, ok := partTerm[part]; !ok || pt != want {
			t.Errorf("job %d in %s: PARTITION term %v, want %v", id, part, pt, want)
		}
		if want := qosByRest[id%3]; qos != want {
			t.Errorf("job %d: QOSNAME %s, want %s", id, qos, want)
		}
		if qt != qosTerm[qos] {
			t.Errorf("job %d QOS %s: QOS term %v, want %v", id, qos, qt, qosTerm[qos])
		}
		// Job size, favouring large jobs: (nodes/4 + cpus/128)/2, printed
		// with C's %.0f, which rounds 312.5 to 312.
		nodes := float64(max(j.Nodes, 1))
		if want := math.RoundToEven(2000 * (nodes/4 + float64(j.CPUs)/128) / 2); math.Abs(js-want) > 0.5 {
			t.Errorf("job %d (%d CPUs): JOBSIZE %v, want %v", id, j.CPUs, js, want)
		}
		if want := 3000 * float64(j.CPUs) / partCPUs[part]; math.Abs(cpuTerm-want) > 0.5 {
			t.Errorf("job %d (%d CPUs in %s): TRES cpu %v, want %v", id, j.CPUs, part, cpuTerm, want)
		}
	}
	if len(seenPart) != 2 || len(seenQOS) != 3 {
		t.Errorf("want both partitions and all three QOS among the rows, got %v %v", seenPart, seenQOS)
	}

	// -n shows the unweighted factors: partition 10/10 and 4/10, QOS
	// 400/400, 100/400 and 0.
	b.Reset()
	if err := policy.WriteSprio(&b, rows, sw, policy.SprioOptions{Long: true, Norm: true}); err != nil {
		t.Fatal(err)
	}
	hdr, cells = sprioTable(t, b.String())
	if got := strings.Join(hdr, " "); got != "JOBID PARTITION USER ACCOUNT PRIORITY AGE ASSOC FAIRSHARE JOBSIZE PARTITION QOSNAME QOS TRES" {
		t.Fatalf("-n -l header %q", got)
	}
	normPart := map[string]string{"short": "1.0000000", "long": "0.4000000"}
	normQOS := map[string]string{"high": "1.0000000", "normal": "0.2500000", "low": "0.0000000"}
	for _, c := range cells {
		if c[9] != normPart[c[1]] || c[11] != normQOS[c[10]] || c[6] != "0.0000000" {
			t.Errorf("-n row %q: partition %s, QOS %s, assoc %s", strings.Join(c, " "), c[9], c[11], c[6])
		}
		id, _ := strconv.ParseInt(c[0], 10, 64)
		// The unclamped sum / (2^32 − 1), printed %16.14f and cut to 10
		// characters (8 decimals); the sum lies in [priority, priority+1).
		const m = 4294967295
		p := float64(jobs[id].Priority)
		if v := atof(t, c[4]); len(c[4]) != 10 || v < p/m-1e-8 || v > (p+1)/m {
			t.Errorf("-n job %d: PRIORITY %s, want %.10f..%.10f cut to 10 characters", id, c[4], p/m, (p+1)/m)
		}
	}
}
