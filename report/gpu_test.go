package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"fairsim/scheduler"
	"fairsim/sim"
	"fairsim/workload"
)

// gpuCluster is a small GPU cluster built as slurm.conf would give it:
//
//	gpu[01-02]  8 cores, 32000 MB, Gres=gpu:a100:4   partition gpu
//	gpu03       8 cores, 32000 MB, Gres=gpu:v100:2   partition gpu
//	cpu[01-02]  8 cores, 32000 MB                    partition cpu
//
// with AccountingStorageTRES=gres/gpu,gres/gpu:a100: 10 GPUs, all usable.
func gpuCluster(t *testing.T, cpuState sim.NodeState) *sim.Cluster {
	t.Helper()
	sky, err := sim.LookupCPUType("skylake")
	if err != nil {
		t.Fatal(err)
	}
	part := func(name string, nodes ...string) sim.PartitionSpec {
		return sim.PartitionSpec{Partition: sim.Partition{Name: name, MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}, NodeNames: nodes}
	}
	nodes := []sim.NodeSpec{
		{Names: []string{"gpu01", "gpu02"}, Type: "skylake", Cores: 8, MemMB: 32000, Gres: []sim.GresCount{{Name: "gpu", Type: "a100", Count: 4}}},
		{Names: []string{"gpu03"}, Type: "skylake", Cores: 8, MemMB: 32000, Gres: []sim.GresCount{{Name: "gpu", Type: "v100", Count: 2}}},
		{Names: []string{"cpu01", "cpu02"}, Type: "skylake", Cores: 8, MemMB: 32000, State: cpuState},
	}
	c, err := sim.NewCluster([]sim.CPUType{sky}, nodes,
		[]sim.PartitionSpec{part("gpu", "gpu01", "gpu02", "gpu03"), part("cpu", "cpu01", "cpu02")}, "skylake", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TrackTRES("gres/gpu,gres/gpu:a100"); err != nil {
		t.Fatal(err)
	}
	return c
}

// gpuResult is a hand-made run on gpuCluster, its allocations made by the
// cluster's allocator (TryAlloc, then Occupy so later jobs go elsewhere):
//
//	job 1  gpu  2 nodes, 16 CPUs × 2000 MB, gpu:a100:4 per node  0..3600    8 GPUs  billing 16.7
//	job 2  gpu  1 node, 2 CPUs × 4000 MB, gpu:v100:1 per node    1800..5400 1 GPU   billing 3
//	job 3  cpu  4 CPUs × 1000 MB                                 0..7200    no GPU  billing 4
//	job 4  gpu  never started
//
// First submit 0, last end 7200: makespan 2 h. GPU-hours 8×1 + 1×1 = 9 of
// 10 GPUs × 2 h = 20: utilisation 0.45.
func gpuResult(t *testing.T) *sim.Result {
	t.Helper()
	c := gpuCluster(t, sim.NodeUp)
	names := &workload.Names{}
	mk := func(id int64, part string, cpus, nodes int, mem int64, gres []workload.GresReq, start, end int64) *sim.Job {
		p, ok := c.Partition(part)
		if !ok {
			t.Fatalf("no partition %s", part)
		}
		j := &sim.Job{Job: workload.Job{ID: id, CPUs: cpus, User: names.Users.ID("u"), Account: names.Accounts.ID("a"),
			QOS: workload.Unset, Group: workload.Unset}, Part: p, State: sim.Completed, Start: start, End: end, EligibleTime: 0,
			StartedBy: sim.ByMain}
		if start < 0 {
			j.State = sim.Pending
			return j
		}
		req := sim.Request{CPUs: cpus, Nodes: nodes, MemPerCPU: mem, Type: -1, Gres: c.Needs(gres, nodes)}
		a, fit := c.TryAlloc(&req, p, nil)
		if fit != sim.FitsNow {
			t.Fatalf("job %d does not fit: %v", id, fit)
		}
		c.Occupy(a)
		j.Alloc = a // NodeType 0: the cluster's one CPU type
		return j
	}
	a100 := []workload.GresReq{{Name: "gpu", Type: "a100", Count: 4, Per: workload.GresPerNode}}
	v100 := []workload.GresReq{{Name: "gpu", Type: "v100", Count: 1, Per: workload.GresPerNode}}
	jobs := []*sim.Job{
		mk(1, "gpu", 16, 2, 2000, a100, 0, 3600),
		mk(2, "gpu", 2, 1, 4000, v100, 1800, 5400),
		mk(3, "cpu", 4, 1, 1000, nil, 0, 7200),
		mk(4, "gpu", 2, 1, 0, nil, -1, -1),
	}
	jobs[0].Billing, jobs[1].Billing, jobs[2].Billing = 16.7, 3, 4
	jobs[1].Submit = 600
	return &sim.Result{Cluster: c, Jobs: jobs, Names: names, First: 0, Last: 7200, Read: workload.NewReadStats(),
		Scheduler: "slurm", Samples: []sim.Sample{
			{T: 0, BusyCores: 20, Running: 2, Pending: 2, BusyGPUs: 8, ByGres: []int{8, 0}},
			{T: 3600, BusyCores: 6, Running: 2, Pending: 1, BusyGPUs: 1, ByGres: []int{0, 1}},
			{T: 7200, BusyCores: 0, Running: 0, Pending: 1, BusyGPUs: 0, ByGres: []int{0, 0}},
		}}
}

func TestJobRowsGPU(t *testing.T) {
	r := gpuResult(t)
	rows := JobRows(r)
	// Job 1's TRES: billing 16.7 truncated to 16 (calc_job_billable_tres),
	// 16 CPUs, 2 × 8 × 2000 = 32000 MB (not a multiple of 512: stays M),
	// 8 GPUs counted by gres/gpu and by gres/gpu:a100, items sorted as
	// strings (':' before '=').
	want := []struct {
		gpus       int
		tres, list string
	}{
		{8, "billing=16,cpu=16,gres/gpu:a100=8,gres/gpu=8,mem=32000M,node=2", "gpu[01-02]"},
		{1, "billing=3,cpu=2,gres/gpu=1,mem=8000M,node=1", "gpu03"},
		{0, "billing=4,cpu=4,mem=4000M,node=1", "cpu01"},
		{0, "", ""},
	}
	for i, w := range want {
		got := rows[i]
		if got.GPUs != w.gpus || got.AllocTRES != w.tres || got.NodeList != w.list {
			t.Errorf("job %d: GPUs %d AllocTRES %q NodeList %q, want %d %q %q", got.JobID, got.GPUs, got.AllocTRES, got.NodeList, w.gpus, w.tres, w.list)
		}
	}
}

// TestJobsCSVHeader: the new columns come after every old one, so readers
// that take jobs.csv's columns by position still read them.
func TestJobsCSVHeader(t *testing.T) {
	var b bytes.Buffer
	if err := gocsv.Marshal(JobRows(gpuResult(t)), &b); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(b.String(), "\n")
	if want := strings.TrimSuffix(jobsHead, "\n") + ",GPUs,AllocTRES,NodeList,WaitReason"; head != want {
		t.Errorf("jobs.csv header\n%s\nwant\n%s", head, want)
	}
	if !strings.Contains(b.String(), `,8,"billing=16,cpu=16,gres/gpu:a100=8,gres/gpu=8,mem=32000M,node=2",gpu[01-02]`) {
		t.Errorf("job 1's row not quoted as CSV:\n%s", b.String())
	}
}

func TestNodeList(t *testing.T) {
	c := gpuCluster(t, sim.NodeUp)
	idx := map[string]int{}
	for i, n := range c.Nodes {
		idx[n.Name] = i
	}
	alloc := func(names ...string) sim.Alloc {
		var a sim.Alloc
		for _, n := range names {
			a = append(a, sim.Slice{Node: idx[n], Cores: 1})
		}
		return a
	}
	for _, tc := range []struct {
		alloc sim.Alloc
		want  string
	}{
		{nil, ""},
		{alloc("gpu02"), "gpu02"},
		{alloc("gpu03", "gpu01"), "gpu[01,03]"}, // sorted, whatever the placement order
		{alloc("gpu02", "cpu02", "gpu01", "cpu01"), "cpu[01-02],gpu[01-02]"}, // prefixes sorted
		{alloc("gpu01", "gpu02", "gpu03"), "gpu[01-03]"},
	} {
		if got := NodeList(c, tc.alloc); got != tc.want {
			t.Errorf("NodeList(%v) = %q, want %q", tc.alloc, got, tc.want)
		}
	}
}

func TestGPUMetrics(t *testing.T) {
	r := gpuResult(t)
	m := Compute(r)
	if m.GPUs != 10 || math.Abs(m.DeliveredGPUHr-9) > 1e-12 || math.Abs(m.GPUUtilization-0.45) > 1e-12 {
		t.Errorf("GPUs %d, GPU-hours %v, utilisation %v; want 10, 9, 0.45", m.GPUs, m.DeliveredGPUHr, m.GPUUtilization)
	}
	rows := SummaryRows(r, m)
	var names []string
	got := map[string]string{}
	for _, row := range rows {
		names = append(names, row.Metric)
		got[row.Metric] = row.Value
	}
	for k, v := range map[string]string{MetricDeliveredGPUHr: "9.000000", MetricGPUUtilization: "0.450000", MetricClusterGPUs: "10"} {
		if got[k] != v {
			t.Errorf("summary %s = %q, want %q", k, got[k], v)
		}
	}
	// Each GPU row sits after its CPU counterpart.
	order := strings.Join(names, " ")
	for _, pair := range [][2]string{{MetricUtilization, MetricDeliveredGPUHr}, {MetricDeliveredGPUHr, MetricGPUUtilization},
		{MetricGPUUtilization, MetricWaitMean}, {MetricClusterCores, MetricClusterGPUs}} {
		if !strings.Contains(order, pair[0]+" "+pair[1]) {
			t.Errorf("summary order %q: want %s right before %s", order, pair[0], pair[1])
		}
	}
}

// TestGPUsOnDownNodes: GPUs of nodes that allocate nothing count neither
// as usable nor as busy. Here the two CPU nodes are DOWN and hold no GPUs,
// so usable GPUs stay 10; a cluster whose GPU node is down loses its GPUs.
func TestGPUsOnDownNodes(t *testing.T) {
	if got := Compute(&sim.Result{Cluster: gpuCluster(t, sim.NodeDown)}).GPUs; got != 10 {
		t.Errorf("usable GPUs with CPU nodes down: %d, want 10", got)
	}
	sky, _ := sim.LookupCPUType("skylake")
	c2, err := sim.NewCluster([]sim.CPUType{sky}, []sim.NodeSpec{
		{Names: []string{"g1"}, Type: "skylake", Cores: 4, MemMB: 1000, Gres: []sim.GresCount{{Name: "gpu", Count: 4}}},
		{Names: []string{"g2"}, Type: "skylake", Cores: 4, MemMB: 1000, Gres: []sim.GresCount{{Name: "gpu", Count: 4}}, State: sim.NodeDown},
	}, []sim.PartitionSpec{{Partition: sim.Partition{Name: "p", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}}}, "skylake", false)
	if err != nil {
		t.Fatal(err)
	}
	if m := Compute(&sim.Result{Cluster: c2, First: 0, Last: 3600}); m.GPUs != 4 {
		t.Errorf("usable GPUs with one of two 4-GPU nodes down: %d, want 4", m.GPUs)
	}
	head, recs := UtilTable(&sim.Result{Cluster: c2, Samples: []sim.Sample{{T: 0, BusyCores: 4, BusyGPUs: 2, ByGres: []int{2}}}})
	if h := strings.Join(head, ","); !strings.HasSuffix(h, ",busy_gpus,total_gpus,gpu_utilization,gpu") {
		t.Errorf("untyped GPUs' header %s", h)
	}
	if r := strings.Join(recs[0], ","); !strings.HasSuffix(r, ",2,4,0.5,2") {
		t.Errorf("untyped GPUs' row %s, want busy 2 of 4 usable", r)
	}
}

func TestUtilTableGPU(t *testing.T) {
	head, recs := UtilTable(gpuResult(t))
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(head)
	w.WriteAll(recs)
	want := "time,busy_cores,total_cores,utilization,running_jobs,pending_jobs,busy_gpus,total_gpus,gpu_utilization,gpu:a100,gpu:v100\n" +
		"0,20,40,0.5,2,2,8,10,0.8,8,0\n" +
		"3600,6,40,0.15,2,1,1,10,0.1,0,1\n" +
		"7200,0,40,0,0,1,0,10,0,0,0\n"
	if b.String() != want {
		t.Errorf("utilization.csv\n%s\nwant\n%s", b.String(), want)
	}
}

// cpuResult is gpuResult's CPU job alone on a cluster without GRES.
func cpuResult(t *testing.T) *sim.Result {
	sky, _ := sim.LookupCPUType("skylake")
	c, err := sim.NewCluster([]sim.CPUType{sky}, []sim.NodeSpec{{Names: []string{"c1", "c2"}, Type: "skylake", Cores: 8, MemMB: 32000}},
		[]sim.PartitionSpec{{Partition: sim.Partition{Name: "batch", MaxTime: sim.Unlimited, DefaultTime: sim.Unlimited}}}, "skylake", false)
	if err != nil {
		t.Fatal(err)
	}
	names := &workload.Names{}
	j := &sim.Job{Job: workload.Job{ID: 1, CPUs: 4, User: names.Users.ID("u"), Account: names.Accounts.ID("a"), QOS: workload.Unset,
		Group: workload.Unset}, State: sim.Completed, Start: 0, End: 3600, StartedBy: sim.ByMain, Billing: 4,
		Alloc: sim.Alloc{{Node: 1, Cores: 4, MemMB: 4096}}}
	return &sim.Result{Cluster: c, Jobs: []*sim.Job{j}, Names: names, First: 0, Last: 3600, Read: workload.NewReadStats(),
		Scheduler: "fifo", Samples: []sim.Sample{{T: 0, BusyCores: 4, Running: 1}, {T: 3600}}}
}

// TestCPUOnlyUnchanged: without GPUs, utilization.csv is byte for byte
// what gocsv wrote from UtilRows, summary.csv has no GPU row, and WriteRun
// draws no GPU plot.
func TestCPUOnlyUnchanged(t *testing.T) {
	r := cpuResult(t)
	dir := t.TempDir()
	if err := WriteRun(dir, r, resolved{}); err != nil {
		t.Fatal(err)
	}
	var old bytes.Buffer
	if err := gocsv.Marshal(UtilRows(r), &old); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "utilization.csv"))
	if string(got) != old.String() {
		t.Errorf("CPU-only utilization.csv\n%s\nwant\n%s", got, old.String())
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if strings.Contains(string(sum), "gpu") {
		t.Errorf("CPU-only summary.csv has GPU rows:\n%s", sum)
	}
	for _, f := range []string{"gpu_utilization.png", "wait_gpu.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("CPU-only run wrote %s", f)
		}
	}
	jobs, _ := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	if !strings.Contains(string(jobs), `,0,"billing=4,cpu=4,mem=4G,node=1",c2,`+"\n") {
		t.Errorf("CPU-only jobs.csv row:\n%s", jobs)
	}
	p, err := RunPage(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Sections {
		if s.Title == "GPUs" {
			t.Error("CPU-only report has a GPU section")
		}
	}
}

type resolved struct{}

func (resolved) MarshalResolved() ([]byte, error) { return []byte("name: hand\n"), nil }

// TestGPURunOutputs writes the GPU run and reads it back as the HTML
// report does: GPU plots exist, the report's GPU tables hold the figures
// worked out above.
func TestGPURunOutputs(t *testing.T) {
	r := gpuResult(t)
	dir := t.TempDir()
	if err := WriteRun(dir, r, resolved{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gpu_utilization.png", "wait_gpu.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	p, err := RunPage(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Account a: jobs 1 and 2 held GPUs, 8 + 1 GPU-hours, waits 0 and
	// 1800 - 600 = 1200 s: mean 600 s.
	acc := tableRows(p, "GPU-hours by account")
	if want := "a,2,9.00,1.0000,00:10:00"; strings.Join(flat(acc), "|") != want {
		t.Errorf("GPU-hours table %v, want %s", acc, want)
	}
	waits := tableRows(p, "Waits of GPU and CPU-only jobs (started jobs)")
	want := "GPU jobs,2,00:10:00,00:10:00,00:19:00,00:20:00|CPU-only jobs,1,00:00:00,00:00:00,00:00:00,00:00:00"
	if got := strings.Join(flat(waits), "|"); got != want {
		t.Errorf("GPU wait table %s, want %s", got, want)
	}
	head := tableRows(p, "Headline figures (summary.csv)")
	got := strings.Join(flat(head), "|")
	for _, s := range []string{"gpu_utilization,0.450000", "delivered_gpu_hours,9.000000", "cluster_gpus,10"} {
		if !strings.Contains(got, s) {
			t.Errorf("headline lacks %s: %s", s, got)
		}
	}
	var figs []string
	for _, s := range p.Sections {
		for _, f := range s.Figures {
			figs = append(figs, f.Name)
		}
	}
	if got := strings.Join(figs, " "); !strings.HasSuffix(got, "gpu_utilization wait_gpu") {
		t.Errorf("figures %s, want the GPU ones last", got)
	}
}

// TestGPURunThroughSim runs GPU jobs through the simulator (fifo) on
// gpuCluster and checks what the report makes of its samples:
//
//	job 1  gpu  16 CPUs on 2 nodes, gpu:a100:4 per node  runs 0..3600     8 GPUs (gpu01, gpu02)
//	job 2  gpu  2 CPUs, 2 GPUs of any type over the job  runs 0..7200     the a100s are taken: gpu03's 2 v100s
//	job 3  gpu  8 CPUs, gpu:a100:4 on 1 node             waits for job 1, runs 3600..7200 on gpu01
//	job 4  cpu  4 CPUs                                   fifo keeps it behind job 3: runs 3600..5400
//
// GPU-hours 8 + 2×2 + 4 = 16 of 10 GPUs × 2 h: utilisation 0.8.
func TestGPURunThroughSim(t *testing.T) {
	c := gpuCluster(t, sim.NodeUp)
	names := &workload.Names{}
	u := int64(workload.Unset)
	mk := func(id int64, part string, cpus, nodes int, gres []workload.GresReq, run int64) workload.Job {
		j := workload.Job{ID: id, Eligible: u, Wait: u, Runtime: run, CPUs: cpus, AllocCPUs: cpus, Nodes: workload.Unset,
			MemPerCPU: 1000, TimeLimit: u, Status: 1, Group: workload.Unset, Account: names.Accounts.ID("a"),
			Partition: names.Partitions.ID(part), QOS: workload.Unset, Feature: workload.Unset, Queue: workload.Unset,
			Executable: workload.Unset, UsedCPU: workload.Unset, UsedMemKB: workload.Unset, Preceding: u, Line: int(id)}
		j.User = names.Users.ID("u")
		if nodes > 0 {
			j.Nodes = nodes
		}
		if len(gres) > 0 {
			j.Gres = 1 + names.Gres.ID(workload.FormatGres(gres))
		}
		return j
	}
	jobs := []workload.Job{
		mk(1, "gpu", 16, 2, []workload.GresReq{{Name: "gpu", Type: "a100", Count: 4, Per: workload.GresPerNode}}, 3600),
		mk(2, "gpu", 2, 0, []workload.GresReq{{Name: "gpu", Count: 2, Per: workload.GresPerJob}}, 7200),
		mk(3, "gpu", 8, 1, []workload.GresReq{{Name: "gpu", Type: "a100", Count: 4, Per: workload.GresPerNode}}, 3600),
		mk(4, "cpu", 4, 0, nil, 1800),
	}
	sched, err := scheduler.New("fifo")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.New(c, sched, nil, workload.NewSliceSource(jobs, names, workload.Header{}), sim.Options{}).Run()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		start, end int64
		gpus       int
		tres, list string
	}{
		{0, 3600, 8, "cpu=16,gres/gpu:a100=8,gres/gpu=8,mem=16000M,node=2", "gpu[01-02]"},
		{0, 7200, 2, "cpu=2,gres/gpu=2,mem=2000M,node=1", "gpu03"},
		{3600, 7200, 4, "cpu=8,gres/gpu:a100=4,gres/gpu=4,mem=8000M,node=1", "gpu01"},
		{3600, 5400, 0, "cpu=4,mem=4000M,node=1", "cpu01"},
	}
	for i, row := range JobRows(r) {
		w := want[i]
		if row.Start != w.start || row.End != w.end || row.GPUs != w.gpus || row.AllocTRES != w.tres || row.NodeList != w.list {
			t.Errorf("job %d: %d..%d GPUs %d %q %q, want %d..%d %d %q %q", row.JobID, row.Start, row.End, row.GPUs,
				row.AllocTRES, row.NodeList, w.start, w.end, w.gpus, w.tres, w.list)
		}
	}
	m := Compute(r)
	if m.DeliveredGPUHr != 16 || m.GPUUtilization != 0.8 {
		t.Errorf("GPU-hours %v utilisation %v, want 16 and 0.8", m.DeliveredGPUHr, m.GPUUtilization)
	}
	head, recs := UtilTable(r)
	var b strings.Builder
	b.WriteString(strings.Join(head[6:], ",") + "\n")
	for _, rec := range recs {
		b.WriteString(rec[0] + ": " + strings.Join(rec[6:], ",") + "\n")
	}
	// Samples each hour from the first submit; at 3600 job 1 has ended
	// and job 3 started; at 7200 all have ended.
	wantU := "busy_gpus,total_gpus,gpu_utilization,gpu:a100,gpu:v100\n" +
		"0: 10,10,1,8,2\n3600: 6,10,0.6,4,2\n7200: 0,10,0,0,0\n"
	if b.String() != wantU {
		t.Errorf("utilization.csv GPU columns\n%s\nwant\n%s", b.String(), wantU)
	}
}

// TestReadGPUFiles reads a GPU run's files back as the report does.
func TestReadGPUFiles(t *testing.T) {
	jobs, err := readJobs("testdata/jobs_gpu.csv")
	if err != nil {
		t.Fatal(err)
	}
	var gpus []int64
	for _, j := range jobs {
		gpus = append(gpus, j.GPUs)
	}
	if got := fmt.Sprint(gpus); got != "[0 0 0 0 4 0 0 4 4 4]" {
		t.Errorf("GPUs %s", got)
	}
	u, err := readUtil("testdata/utilization_gpu.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !u.gpus || strings.Join(u.kinds, " ") != "gpu:a100 gpu:v100" || len(u.rows) != 11 {
		t.Fatalf("GPU columns %v kinds %v rows %d", u.gpus, u.kinds, len(u.rows))
	}
	if x := u.rows[1]; x.BusyGPUs != 18 || x.TotalGPUs != 48 || fmt.Sprint(x.ByKind) != "[4 14]" {
		t.Errorf("row 2: %+v", x)
	}
	// A file without GPU columns (a CPU-only run's) reads as before.
	p := filepath.Join(t.TempDir(), "utilization.csv")
	os.WriteFile(p, []byte("time,busy_cores,total_cores,utilization,running_jobs,pending_jobs\n0,2,8,0.25,1,1\n"), 0o644)
	if u, err := readUtil(p); err != nil || u.gpus || u.kinds != nil || u.rows[0].ByKind != nil {
		t.Errorf("CPU-only file: %+v %v", u, err)
	}
	// A bad GPU cell names its file, line and column.
	os.WriteFile(p, []byte("time,busy_cores,total_cores,utilization,running_jobs,pending_jobs,busy_gpus,total_gpus,gpu_utilization,gpu:a100\n0,2,8,0.25,1,1,x,4,0,0\n"), 0o644)
	if _, err := readUtil(p); err == nil || !strings.Contains(err.Error(), p+":2: field busy_gpus") {
		t.Errorf("bad busy_gpus: %v", err)
	}
	// A column named twice is refused rather than read from either copy.
	os.WriteFile(p, []byte("time,busy_cores,total_cores,utilization,running_jobs,pending_jobs,busy_gpus,total_gpus,gpu,gpu\n0,2,8,0.25,1,1,0,4,0,0\n"), 0o644)
	if _, err := readUtil(p); err == nil || err.Error() != p+`:1: column "gpu" twice` {
		t.Errorf("duplicate column: %v", err)
	}
}

// FuzzReadUtil: the utilization.csv reader fails cleanly, naming the
// file, or reads every row.
func FuzzReadUtil(f *testing.F) {
	for _, name := range []string{"testdata/utilization_gpu.csv"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("time,busy_cores,total_cores,utilization,running_jobs,pending_jobs\n0,2,8,0.25,1,1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "utilization.csv")
		os.WriteFile(p, data, 0o644)
		u, err := readUtil(p)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		c, _ := readCSVFile(p)
		if len(u.rows) != len(c.rows) {
			t.Errorf("%d rows from %d", len(u.rows), len(c.rows))
		}
		for _, r := range u.rows {
			if u.gpus && len(r.ByKind) != len(u.kinds) {
				t.Errorf("row with %d kinds, header %d", len(r.ByKind), len(u.kinds))
			}
		}
	})
}
