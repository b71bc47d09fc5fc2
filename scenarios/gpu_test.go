package scenarios

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"fairsim/internal/shared"
	"fairsim/slurmtext"
)

// gpuJob is a jobs.csv row with what the GPU checks need.
type gpuJob struct {
	id, part   string
	start, end int64
	cpus       float64
	billing    float64
	gpus       int
	tres       map[string]float64 // AllocTRES, memory in MB
	nodes      []string
}

func readGPUJobs(t *testing.T, path string) []gpuJob {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var out []gpuJob
	for _, r := range recs[1:] {
		if r[col["Start"]] == "" || r[col["Start"]] == "-1" {
			continue
		}
		j := gpuJob{id: r[col["JobID"]], part: r[col["Partition"]], tres: map[string]float64{}}
		j.start, _ = strconv.ParseInt(r[col["Start"]], 10, 64)
		j.end, _ = strconv.ParseInt(r[col["End"]], 10, 64)
		j.cpus, _ = strconv.ParseFloat(r[col["NCPUS"]], 64)
		j.billing, _ = strconv.ParseFloat(r[col["Billing"]], 64)
		j.gpus, _ = strconv.Atoi(r[col["GPUs"]])
		for _, item := range strings.Split(r[col["AllocTRES"]], ",") {
			k, v, _ := strings.Cut(item, "=")
			j.tres[k] = tresValue(t, k, v)
		}
		if j.nodes, err = slurmtext.Expand(r[col["NodeList"]]); err != nil {
			t.Fatalf("job %s: NodeList: %v", j.id, err)
		}
		out = append(out, j)
	}
	return out
}

// tresValue reads an AllocTRES count; memory back to MB from sacct's
// units (32000M, 64G, 2.50G).
func tresValue(t *testing.T, k, v string) float64 {
	mult := 1.0
	if k == "mem" {
		switch v[len(v)-1] {
		case 'M':
		case 'G':
			mult = 1024
		case 'T':
			mult = 1024 * 1024
		default:
			t.Fatalf("memory %q without a unit", v)
		}
		v = v[:len(v)-1]
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("AllocTRES %s=%s: %v", k, v, err)
	}
	return f * mult
}

// gpuPeaks replays GPU holdings per node from jobs.csv alone and returns
// the largest count each node ever held. With perNode the jobs asked GPUs
// per node, split evenly over their nodes; else over the job, whose split
// jobs.csv does not give, so only one-node jobs count.
func gpuPeaks(jobs []gpuJob, perNode bool) map[string]int {
	type edge struct {
		t    int64
		d    int
		node string
	}
	var ev []edge
	for _, j := range jobs {
		if j.gpus == 0 {
			continue
		}
		if !perNode && len(j.nodes) != 1 {
			// GPUs over the job need not fall evenly (cons_tres gives
			// each later node at least one, an early node may get none);
			// the run's own --check verifies every node.
			continue
		}
		per := j.gpus / len(j.nodes)
		for _, n := range j.nodes {
			ev = append(ev, edge{j.start, per, n}, edge{j.end, -per, n})
		}
	}
	// Ends before starts at one instant: a GPU freed at t may be reused at t.
	sort.Slice(ev, func(a, b int) bool {
		if ev[a].t != ev[b].t {
			return ev[a].t < ev[b].t
		}
		return ev[a].d < ev[b].d
	})
	use, peak := map[string]int{}, map[string]int{}
	for _, e := range ev {
		use[e.node] += e.d
		peak[e.node] = max(peak[e.node], use[e.node])
	}
	return peak
}

// TestGPUInvariantsSLAC: 20,000 generated jobs, 30 % asking GPUs, on SLAC's
// slurm.conf as it is (3 nodes × 32 CPUs × 4 V100, no TRESBillingWeights).
// The run's own --check verifies every node at every instant; jobs.csv is
// checked again from outside: no node over 4 GPUs, every GPU job its
// GPUs of type v100, and billing the CPU count (calc_job_billable_tres
// without weights).
func TestGPUInvariantsSLAC(t *testing.T) {
	conf := filepath.Join(shared.RealSites(t), "slac", "slurm.conf")
	dir := t.TempDir()
	sc := filepath.Join(dir, "slac-gpu.yaml")
	if err := os.WriteFile(sc, []byte(`name: slac-gpu
scheduler: slurm
slurm_conf: `+conf+`
cluster:
  reference_cpu: skylake
generate:
  seed: 4
  jobs: 20000
  days: 120
  users: 20
  accounts: 4
  max_cpus: 32
  runtime_median: 1200
  max_limit: 1-0
  partitions: [shared]
  gpu_partitions: [shared]
  gpu_share: 0.3
  gpus_per_job: "1:0.5,2:0.3,4:0.2"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	log := cli(t, "run", "--scenario", sc, "--out", out, "--check", "--quiet")
	if !strings.Contains(log, "check: 20000 jobs, no node over its cores, memory or GRES") {
		t.Fatalf("no check line:\n%s", log)
	}
	jobs := readGPUJobs(t, filepath.Join(out, "jobs.csv"))
	if len(jobs) != 20000 {
		t.Fatalf("%d jobs started, want 20000", len(jobs))
	}
	gpuJobs := 0
	for _, j := range jobs {
		if j.gpus > 0 {
			gpuJobs++
			if j.tres["gres/gpu"] != float64(j.gpus) {
				t.Errorf("job %s: %d GPUs, AllocTRES gres/gpu=%v", j.id, j.gpus, j.tres["gres/gpu"])
			}
		}
		if j.billing != j.cpus || j.tres["billing"] != j.cpus {
			t.Errorf("job %s: billing %v (AllocTRES %v), want its %v CPUs", j.id, j.billing, j.tres["billing"], j.cpus)
		}
	}
	// 20,000 draws at 30 %: within 1.5 points.
	if share := float64(gpuJobs) / float64(len(jobs)); math.Abs(share-0.3) > 0.015 {
		t.Errorf("GPU job share %.3f, want 0.30", share)
	}
	for n, p := range gpuPeaks(jobs, false) {
		if p > 4 {
			t.Errorf("node %s held %d GPUs, it has 4", n, p)
		}
	}
}

// TestGPUInvariantsKestrel: the kestrel-gpu scenario at 20,000 jobs. From
// jobs.csv: no node over its 4 GPUs; every GPU is of the node's type (H100
// on x3100g nodes, A100 on x3000g); and every job's billing is Slurm's
// MAX_TRES formula with its partition's weights, worked here from
// AllocTRES (assoc_mgr_tres_weighted: the largest of the node TRES times
// their weights):
//
//	cpu: max(CPUs × 1.0, memMB × 0.4/1024)
//	gpu: max(CPUs × 1.0, memMB × 0.3/1024, GPUs × 24.0)
func TestGPUInvariantsKestrel(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("kestrel-gpu.yaml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("kestrel-gpu")
	y := strings.ReplaceAll(string(b), "kestrel-gpu/", abs+"/")
	y = strings.Replace(y, "  jobs: 11000\n", "  jobs: 20000\n  days: 42\n", 1)
	y = strings.Replace(y, "  days: 21\n", "", 1)
	sc := filepath.Join(dir, "k.yaml")
	if err := os.WriteFile(sc, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	log := cli(t, "run", "--scenario", sc, "--out", out, "--check", "--quiet")
	if !strings.Contains(log, "check: 20000 jobs, no node over its cores, memory or GRES") {
		t.Fatalf("no check line:\n%s", log)
	}
	jobs := readGPUJobs(t, filepath.Join(out, "jobs.csv"))
	gpuJobs := 0
	for _, j := range jobs {
		var want float64
		switch j.part {
		case "cpu":
			want = max(j.tres["cpu"], j.tres["mem"]*0.4/1024)
		case "gpu":
			want = max(j.tres["cpu"], j.tres["mem"]*0.3/1024, j.tres["gres/gpu"]*24)
		default:
			t.Fatalf("job %s in partition %s", j.id, j.part)
		}
		if math.Abs(j.billing-want) > 1e-6 {
			t.Errorf("job %s (%s, %v): billing %v, want %v", j.id, j.part, j.tres, j.billing, want)
		}
		if j.gpus == 0 {
			continue
		}
		gpuJobs++
		h, a := j.tres["gres/gpu:h100"], j.tres["gres/gpu:a100"]
		if h+a != float64(j.gpus) || j.tres["gres/gpu"] != float64(j.gpus) {
			t.Errorf("job %s: %d GPUs, AllocTRES %v", j.id, j.gpus, j.tres)
		}
		// A job of one type is on nodes of that type only; an untyped
		// request may hold both, then it is on both kinds of node.
		var onH, onA bool
		for _, n := range j.nodes {
			onH = onH || strings.HasPrefix(n, "x3100g")
			onA = onA || strings.HasPrefix(n, "x3000g")
		}
		if onH != (h > 0) || onA != (a > 0) {
			t.Errorf("job %s: H100 %v, A100 %v on nodes %v", j.id, h, a, j.nodes)
		}
	}
	if share := float64(gpuJobs) / float64(len(jobs)); math.Abs(share-0.3) > 0.015 {
		t.Errorf("GPU job share %.3f, want 0.30", share)
	}
	for n, p := range gpuPeaks(jobs, true) {
		if p > 4 {
			t.Errorf("node %s held %d GPUs, it has 4", n, p)
		}
	}
}

// TestKestrelGPUScenario checks what README.md says kestrel-gpu shows:
// GPUs are the scarce resource (GPU jobs wait longer than CPU jobs, and
// GPU utilisation is above core utilisation); the QOS weight orders GPU
// jobs high < normal < standby by mean wait; a one-H100 job of 8 cores bills the GPU's 24 (MAX_TRES); and
// sshare's TRESRunMins lists gres/gpu.
func TestKestrelGPUScenario(t *testing.T) {
	out := runScenario(t, "kestrel-gpu")
	jt := readJobs(t, out)
	type acc struct{ n, wait float64 }
	waits := map[string]*acc{}
	add := func(k string, w float64) {
		if waits[k] == nil {
			waits[k] = &acc{}
		}
		waits[k].n++
		waits[k].wait += w
	}
	sawH100 := false
	for _, r := range jt.rows {
		if jt.s(r, "Start") == "" {
			t.Fatalf("job %s never started", jt.s(r, "JobID"))
		}
		kind := "cpu"
		if jt.f(t, r, "GPUs") > 0 {
			kind = "gpu"
			add("gpu/"+jt.s(r, "QOS"), jt.f(t, r, "Wait"))
		}
		add(kind, jt.f(t, r, "Wait"))
		if jt.s(r, "NCPUS") == "8" && strings.Contains(jt.s(r, "AllocTRES"), "gres/gpu:h100=1,") {
			sawH100 = true
			if jt.f(t, r, "Billing") != 24 {
				t.Errorf("job %s: %s billed %v, want the GPU's 24", jt.s(r, "JobID"), jt.s(r, "AllocTRES"), jt.f(t, r, "Billing"))
			}
		}
	}
	mean := func(k string) float64 { return waits[k].wait / waits[k].n }
	if !(mean("gpu") > mean("cpu")) {
		t.Errorf("GPU jobs waited %.0f s on average, CPU jobs %.0f s: GPUs should be the scarce resource", mean("gpu"), mean("cpu"))
	}
	if !(mean("gpu/high") < mean("gpu/normal") && mean("gpu/normal") < mean("gpu/standby")) {
		t.Errorf("GPU waits by QOS: high %.0f, normal %.0f, standby %.0f s", mean("gpu/high"), mean("gpu/normal"), mean("gpu/standby"))
	}
	if !sawH100 {
		t.Error("no 8-core one-H100 job to check billing on")
	}
	sum := readFile(t, filepath.Join(out, "summary.csv"))
	var cpuU, gpuU float64
	for _, l := range strings.Split(sum, "\n") {
		k, v, _ := strings.Cut(l, ",")
		switch k {
		case "utilization":
			cpuU, _ = strconv.ParseFloat(v, 64)
		case "gpu_utilization":
			gpuU, _ = strconv.ParseFloat(v, 64)
		}
	}
	if !(gpuU > cpuU) {
		t.Errorf("GPU utilisation %v, cores %v", gpuU, cpuU)
	}
	// PriorityWeightTRES=GRES/gpu=2000 over the gpu partition's 80 GPUs:
	// a pending job of g GPUs gets 2000 × g/80, so 25, 50, 100 or 200 for
	// the 1, 2, 4 or 8 GPUs the scenario draws (_get_tres_prio_weighted).
	sp := cli(t, "sprio", "--scenario", "kestrel-gpu.yaml", "--at", "5-0", "-l")
	seen := 0
	for _, l := range strings.Split(sp, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || f[1] != "gpu" {
			continue
		}
		last := f[len(f)-1]
		switch last {
		case "gres/gpu=25", "gres/gpu=50", "gres/gpu=100", "gres/gpu=200":
			seen++
		default:
			t.Errorf("sprio row %q: TRES %q is not 2000 × GPUs/80", l, last)
		}
	}
	if seen == 0 {
		t.Errorf("no pending GPU job in sprio at 5-0:\n%s", sp)
	}
	sh := cli(t, "sshare", "--scenario", "kestrel-gpu.yaml", "--at", "7-0", "-l", "-P")
	if !strings.Contains(sh, "TRESRunMins") || !strings.Contains(sh, ",pages=0,gres/gpu=") {
		t.Errorf("sshare lists no gres/gpu in TRESRunMins:\n%s", sh[:min(len(sh), 600)])
	}
}

// TestSacctGPUReplay replays a sacct log of GPU jobs (workload's fixture:
// ReqTRES and AllocTRES with gres/gpu, typed and untyped, SubmitLine's
// --gres, --gpus, --gpus-per-node and --gpus-per-task) on a cluster of
// A100 and V100 nodes: every job gets the GPUs it recorded, typed ones of
// their type, and the job asking a GRES no node has (gres/shard) is
// refused with that reason.
func TestSacctGPUReplay(t *testing.T) {
	dir := t.TempDir()
	trace, _ := filepath.Abs(filepath.Join("..", "workload", "testdata", "gpu-jobs.psv"))
	sc := filepath.Join(dir, "replay.yaml")
	if err := os.WriteFile(sc, []byte(`name: gpu-replay
scheduler: slurm
trace: {file: `+trace+`, time_zone: UTC}
slurm:
  AccountingStorageTRES: gres/gpu,gres/gpu:a100,gres/gpu:v100
  SelectTypeParameters: CR_Core_Memory
cluster:
  reference_cpu: skylake
  nodes:
    - {NodeName: "c[1-2]", Feature: skylake, CPUs: 32, RealMemory: 192G}
    - {NodeName: "a[1-2]", Feature: skylake, CPUs: 32, RealMemory: 256G, Gres: "gpu:a100:4"}
    - {NodeName: "v1", Feature: skylake, CPUs: 16, RealMemory: 128G, Gres: "gpu:v100:2"}
  partitions:
    - {PartitionName: cpu, Nodes: "c[1-2]", Default: true}
    - {PartitionName: gpu, Nodes: "a[1-2],v1"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cli(t, "run", "--scenario", sc, "--out", out, "--check", "--quiet")
	jt := readJobs(t, out)
	// GPUs each job recorded (AllocTRES gres/gpu); job 8 asked shard only.
	want := map[string]string{"1": "0", "2": "2", "3": "2", "4": "8", "5": "4", "6": "3", "7": "1", "9": "1", "10": "2", "11": "4"}
	for _, r := range jt.rows {
		id := jt.s(r, "JobID")
		if id == "8" {
			if jt.s(r, "State") != "REJECTED" || !strings.Contains(jt.s(r, "Reason"), "GRES shard") {
				t.Errorf("job 8 (gres/shard): %s %q", jt.s(r, "State"), jt.s(r, "Reason"))
			}
			continue
		}
		if jt.s(r, "GPUs") != want[id] {
			t.Errorf("job %s: %s GPUs, recorded %s (%s)", id, jt.s(r, "GPUs"), want[id], jt.s(r, "AllocTRES"))
		}
		switch id {
		case "3", "4": // asked gpu:a100
			if !strings.Contains(jt.s(r, "AllocTRES"), "gres/gpu:a100="+want[id]) || !strings.HasPrefix(jt.s(r, "NodeList"), "a") {
				t.Errorf("job %s: %s on %s, want A100s", id, jt.s(r, "AllocTRES"), jt.s(r, "NodeList"))
			}
		case "7": // recorded gres/gpu:v100=1 only in AllocTRES: the request was untyped
			if !strings.Contains(jt.s(r, "AllocTRES"), "gres/gpu=1") {
				t.Errorf("job 7: %s", jt.s(r, "AllocTRES"))
			}
		}
	}
}
