package workload

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSacctGresFixture reads testdata/gpu-jobs.psv, GPU jobs in every form
// sacct records them, and checks each job's request.
func TestSacctGresFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/gpu-jobs.psv")
	if err != nil {
		t.Fatal(err)
	}
	jobs, r, err := readSacct(t, data, SacctOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{
		1:  "",                // no GPUs
		2:  "gpu:2/job",       // ReqTRES alone: a total; AllocTRES's type is not the request
		3:  "gpu:a100:2/node", // --gres per node, typed; ReqTRES's untyped total not counted again
		4:  "gpu:4/node",      // --gpus-per-node=4 on -N 2 = gres/gpu=8
		5:  "gpu:4/job",       // --gpus-per-task=1 x -n 4
		6:  "gpu:3/job",       // --gpus=2 but ReqTRES says 3: the record wins
		7:  "gpu:v100:1/job",  // no GRES in ReqTRES: AllocTRES
		8:  "shard:4/job",     // other GRES kept by name
		9:  "gpu:1/node",      // GPUs not tracked as TRES: SubmitLine alone
		10: "gpu:2/node",      // --gpus-per-socket taken per node
		11: "gpu:4/job",       // --gpus-per-task=2 x (8 CPUs / -c 4) tasks
	}
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(jobs), len(want))
	}
	for _, j := range jobs {
		got := ""
		if j.Gres > 0 {
			got = r.Names().Gres.Name(j.Gres - 1)
		}
		if got != want[j.ID] {
			t.Errorf("job %d: Gres %q, want %q", j.ID, got, want[j.ID])
		}
		if reqs, err := r.Names().GresOf(&j); err != nil || FormatGres(reqs) != got {
			t.Errorf("job %d: GresOf %v %v", j.ID, reqs, err)
		}
	}
	def := r.Stats().Defaulted
	for _, k := range []string{"SubmitLine GRES disagrees with ReqTRES: recorded total used",
		"GRES from AllocTRES: no requested GRES recorded", "SubmitLine --gpus-per-socket: taken per node (sockets unknown)",
		"SubmitLine --gpus-per-task without a task count: one task per CPU"} {
		if def[k] != 1 {
			t.Errorf("Defaulted[%q] = %d, want 1 (all: %v)", k, def[k], def)
		}
	}
}

// TestSacctGresForms checks the GRES columns one at a time, old and new.
func TestSacctGresForms(t *testing.T) {
	type row = map[string]string
	const head = "JobIDRaw|Submit|Start|End|Elapsed|State|ReqCPUS|NCPUS|ReqNodes|NNodes"
	tests := []struct {
		name, cols string
		row        row
		want       string
	}{
		{"ReqTRES untyped", "ReqTRES", row{"ReqTRES": "billing=4,cpu=4,gres/gpu=2,mem=1G,node=1"}, "gpu:2/job"},
		{"ReqTRES two types and a rest", "ReqTRES", row{"ReqTRES": "cpu=4,gres/gpu:a100=2,gres/gpu:v100=1,gres/gpu=4"},
			"gpu:1/job,gpu:a100:2/job,gpu:v100:1/job"},
		{"ReqTRES mps and zero", "ReqTRES", row{"ReqTRES": "cpu=4,gres/gpu=0,gres/mps=50"}, "mps:50/job"},
		{"ReqTRES case", "ReqTRES", row{"ReqTRES": "cpu=4,gres/GPU:A100=1,gres/GPU=1"}, "gpu:a100:1/job"},
		{"ReqTRES none: AllocTRES", "ReqTRES|AllocTRES", row{"ReqTRES": "cpu=4", "AllocTRES": "cpu=4,gres/gpu=1"}, "gpu:1/job"},
		{"ReqGRES typed", "ReqGRES|AllocGRES", row{"ReqGRES": "gpu:k80:2", "AllocGRES": "gpu:2"}, "gpu:k80:2/job"},
		{"AllocGRES alone", "ReqGRES|AllocGRES", row{"ReqGRES": "", "AllocGRES": "gpu:2,mic:1"}, "gpu:2/job,mic:1/job"},
		{"ReqGRES and SubmitLine per node", "ReqGRES|SubmitLine", row{"ReqNodes": "2", "ReqGRES": "gpu:4", "SubmitLine": "sbatch -N2 --gres=gpu:2 a.sh"},
			"gpu:2/node"},
		{"SubmitLine -G typed list", "ReqTRES|SubmitLine", row{"ReqTRES": "cpu=4,gres/gpu=3", "SubmitLine": "sbatch -G a100:2,v100:1 a.sh"},
			"gpu:a100:2/job,gpu:v100:1/job"},
		{"SubmitLine untyped, ReqTRES typed", "ReqTRES|SubmitLine", row{"ReqTRES": "cpu=4,gres/gpu:a100=2,gres/gpu=2", "SubmitLine": "sbatch --gpus=2 a.sh"},
			"gpu:2/job"},
		{"SubmitLine typed otherwise", "ReqTRES|SubmitLine", row{"ReqTRES": "cpu=4,gres/gpu:v100=2,gres/gpu=2", "SubmitLine": "sbatch --gpus=a100:2 a.sh"},
			"gpu:v100:2/job"},
		{"per task x NTasks column", "ReqTRES|SubmitLine|NTasks", row{"ReqTRES": "cpu=4,gres/gpu=6", "SubmitLine": "sbatch --gpus-per-task=2 a.sh", "NTasks": "3"},
			"gpu:6/job"},
		{"per task x ntasks-per-node", "SubmitLine", row{"ReqNodes": "2", "SubmitLine": "sbatch -N 2 --ntasks-per-node=2 --tres-per-task=gres/gpu:1,cpu:2 a.sh"},
			"gpu:4/job"},
		{"gres untracked plus tracked", "ReqTRES|SubmitLine", row{"ReqTRES": "cpu=4,gres/gpu=1", "SubmitLine": "sbatch --gres=gpu:1,nvme:1 a.sh"},
			"gpu:1/node,nvme:1/node"},
		{"--gres=none", "ReqTRES|SubmitLine", row{"ReqTRES": "cpu=4", "SubmitLine": "sbatch --gres=none a.sh"}, ""},
		{"no GRES anywhere", "ReqTRES|AllocTRES|ReqGRES|AllocGRES", row{"ReqTRES": "cpu=4", "AllocTRES": "cpu=4", "ReqGRES": "", "AllocGRES": ""}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := head + "|" + tc.cols
			r0 := row{"JobIDRaw": "7"}
			for k, v := range tc.row {
				r0[k] = v
			}
			for _, c := range strings.Split(tc.cols, "|") {
				if _, ok := r0[c]; !ok {
					r0[c] = ""
				}
			}
			jobs, r, err := readSacct(t, sacctInput(h, r0), SacctOptions{Location: time.UTC})
			if err != nil || len(jobs) != 1 {
				t.Fatalf("%d jobs, %v", len(jobs), err)
			}
			got := ""
			if jobs[0].Gres > 0 {
				got = r.Names().Gres.Name(jobs[0].Gres - 1)
			}
			if got != tc.want {
				t.Errorf("Gres %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSacctGresErrors: malformed GRES values are errors naming file, line
// and field.
func TestSacctGresErrors(t *testing.T) {
	const head = "JobIDRaw|Submit|Start|End|Elapsed|State|ReqCPUS|NCPUS|ReqNodes|NNodes|ReqTRES|AllocTRES|ReqGRES"
	tests := []struct {
		field, value, want string
	}{
		{"ReqTRES", "cpu=1,gres/gpu=abc", `t.sacct:2: field ReqTRES: bad GRES: gres/gpu: count "abc" is not a whole number`},
		{"ReqTRES", "cpu=1,gres/gpu=-1", `t.sacct:2: field ReqTRES: bad GRES: gres/gpu: count "-1" is not a whole number`},
		{"ReqTRES", "gres/gpu:a100=2,gres/gpu=1", `field ReqTRES: bad GRES: "gres/gpu:a100=2,gres/gpu=1": gpu total 1 is below its types' sum 2`},
		{"ReqTRES", "gres/gpu=1,gres/gpu=2", "field ReqTRES: bad GRES: gres/gpu given twice"},
		{"ReqTRES", "gres/g*u=1", "field ReqTRES: bad GRES"},
		{"ReqTRES", "gres/gpu=2000000", "above 1048576"},
		{"AllocTRES", "gres/gpu=x", "t.sacct:2: field AllocTRES: bad GRES"},
		{"ReqGRES", "gpu", `t.sacct:2: field ReqGRES: bad GRES: GRES "gpu": want NAME[:TYPE]:COUNT`},
		{"ReqGRES", "gpu:-2", "field ReqGRES: bad GRES"},
	}
	for _, tc := range tests {
		row := map[string]string{"JobIDRaw": "7", "ReqTRES": "", "AllocTRES": "", "ReqGRES": ""}
		row[tc.field] = tc.value
		_, _, err := readSacct(t, sacctInput(head, row), SacctOptions{Location: time.UTC})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s=%s: err %v, want %q", tc.field, tc.value, err, tc.want)
		}
		// SkipInvalid counts the line under the field.
		_, r, err := readSacct(t, sacctInput(head, row), SacctOptions{Location: time.UTC, SkipInvalid: true})
		if err != nil || r.Stats().Skipped["invalid: "+tc.field+": bad GRES"] != 1 {
			t.Errorf("%s=%s: SkipInvalid: %v %v", tc.field, tc.value, err, r.Stats().Skipped)
		}
	}
}

// TestSacctGresRoundTrip writes the GPU fixture back as sacct and reads it
// again: every job keeps its request, scope included; a trace without
// GRES keeps its old columns.
func TestSacctGresRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/gpu-jobs.psv")
	if err != nil {
		t.Fatal(err)
	}
	jobs, r, err := readSacct(t, data, SacctOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := WriteSacct(&out, NewSliceSource(jobs, r.Names(), *r.Header()), SacctWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	wantHead := strings.Join(SacctColumns, "|") + "|ReqTRES|SubmitLine"
	if lines[1] != wantHead {
		t.Fatalf("header %q", lines[1])
	}
	// Job 4 as written: totals in ReqTRES, the scope in SubmitLine.
	if !strings.HasSuffix(lines[5], "|cpu=32,gres/gpu=8,mem=131072M,node=2|sbatch --gres=gpu:4") {
		t.Errorf("job 4 written as %q", lines[5])
	}
	if !strings.HasSuffix(lines[4], "|cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=32768M,node=1|sbatch --gres=gpu:a100:2") {
		t.Errorf("job 3 written as %q", lines[4])
	}
	back, r2, err := readSacct(t, out.Bytes(), SacctOptions{})
	if err != nil || len(back) != len(jobs) {
		t.Fatalf("%d jobs back of %d: %v", len(back), len(jobs), err)
	}
	for i := range jobs {
		a, b := r.Names().Gres.Name(jobs[i].Gres-1), r2.Names().Gres.Name(back[i].Gres-1)
		if a != b || (jobs[i].Gres == 0) != (back[i].Gres == 0) || jobs[i].Nodes != back[i].Nodes || jobs[i].CPUs != back[i].CPUs {
			t.Errorf("job %d: Gres %q back as %q", jobs[i].ID, a, b)
		}
	}
	// Without GRES, the old columns only.
	plain := jobs[:1]
	var o2 bytes.Buffer
	if _, err := WriteSacct(&o2, NewSliceSource(plain, &Names{}, Header{}), SacctWriteOptions{NoPreamble: true}); err != nil {
		t.Fatal(err)
	}
	if h := strings.SplitN(o2.String(), "\n", 2)[0]; h != strings.Join(SacctColumns, "|") {
		t.Errorf("header without GRES %q", h)
	}
}

// TestSWFIgnoresGres: SWF has no GRES field; a job's request changes no
// byte of its SWF record, and SWF jobs read back with none.
func TestSWFIgnoresGres(t *testing.T) {
	data, err := os.ReadFile("testdata/gpu-jobs.psv")
	if err != nil {
		t.Fatal(err)
	}
	jobs, r, err := readSacct(t, data, SacctOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	bare := append([]Job(nil), jobs...)
	for i := range bare {
		bare[i].Gres = 0
	}
	var a, b bytes.Buffer
	if _, err := WriteSWF(&a, NewSliceSource(jobs, r.Names(), *r.Header()), SWFWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteSWF(&b, NewSliceSource(bare, r.Names(), *r.Header()), SWFWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("SWF differs with GRES:\n%s\nwithout:\n%s", a.String(), b.String())
	}
	sr, err := NewSWFReader(bytes.NewReader(a.Bytes()), "g.swf", SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range drain(sr) {
		if j.Gres != 0 {
			t.Errorf("SWF job %d has Gres %d", j.ID, j.Gres)
		}
	}
}

// TestSubmitLineGres reads the GPU options of sbatch and how GresFor
// turns per-task counts into per-job ones.
func TestSubmitLineGres(t *testing.T) {
	tests := []struct {
		line  string
		tasks int64
		want  string // FormatGres of GresFor(tasks), or the error
	}{
		{"sbatch --gres=gpu:2 a.sh", 1, "gpu:2/node"},
		{"sbatch --gres=gres/gpu:a100:2,shard:3 a.sh", 1, "gpu:a100:2/node,shard:3/node"},
		{"sbatch --gres=gpu a.sh", 1, "gpu:1/node"},                // no count: 1
		{"sbatch --gres=gpu:a100 a.sh", 1, "gpu:a100:1/node"},      // a type with count 1
		{"sbatch --gres=gpu:1k a.sh", 1, "gpu:1024/node"},          // Slurm's suffixes
		{"sbatch --gres=gpu:0 a.sh", 1, ""},                        // zero: nothing
		{"sbatch --gres=gpu:2 --gres=gpu:4 a.sh", 1, "gpu:4/node"}, // the last option wins
		{"sbatch -G 4 a.sh", 1, "gpu:4/job"},
		{"sbatch -G4 a.sh", 1, "gpu:4/job"},
		{"sbatch --gpus=a100:2,v100:1 a.sh", 1, "gpu:a100:2/job,gpu:v100:1/job"},
		{"sbatch --gpus-per-node=a100:4 a.sh", 1, "gpu:a100:4/node"},
		{"sbatch --gres=gpu:2 --gpus-per-node=4 a.sh", 1, "gpu:4/node"},
		{"sbatch --gpus-per-task=1 -n 8 a.sh", 8, "gpu:8/job"},
		{"sbatch --gpus-per-task=v100:2 a.sh", 3, "gpu:v100:6/job"},
		{"sbatch --tres-per-task=cpu=2,gres/gpu=1 a.sh", 2, "gpu:2/job"},
		{"sbatch --gpus-per-task=1 --gpus=2 a.sh", 3, "gpu:5/job"},
		{"sbatch --gpus-per-task=1024 a.sh", 2048, "above"},
		{"sbatch --gres=gpu:x:y:2 a.sh", 1, `--gres "gpu:x:y:2"`},
		{"sbatch --gres=gpu:-1 a.sh", 1, `--gres "gpu:-1"`},
		{"sbatch --gpus=abc:x a.sh", 1, `--gpus "abc:x"`},
		{"sbatch --gres=g@u:1 a.sh", 1, "names are letters"},
		{"sbatch -n x a.sh", 1, `--ntasks "x"`},
	}
	for _, tc := range tests {
		req, err := ParseSubmitLine(tc.line)
		var got []GresReq
		if err == nil {
			got, err = req.GresFor(tc.tasks)
		}
		s := FormatGres(got)
		if err != nil {
			s = err.Error()
		}
		if !strings.Contains(s, tc.want) || (err == nil && s != tc.want) {
			t.Errorf("%q: %q, want %q", tc.line, s, tc.want)
		}
	}
	req, _ := ParseSubmitLine("sbatch -n 4 --ntasks-per-node=2 -c 3 --gpus-per-socket=1 a.sh")
	if req.NTasks != 4 || req.NTasksPerNode != 2 || req.CPUsPerTask != 3 || !req.GPUsPerSocket {
		t.Errorf("counts %+v", req)
	}
}
