package workload

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The seeds are short excerpts of real traces in testdata/ (their header
// lines kept, as the archive asks): KTH, LLNL-Thunder (with its all -1
// records), lublin and CEA-Curie for SWF; the sacct fixture without and
// with a header, and fairsim's own sacct output, for sacct.

func addSeeds(f *testing.F, pattern string, extra ...any) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files %s: %v", pattern, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(append([]any{data}, extra...)...)
		// Each record alone too, after the header lines.
		var header []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, ";") || strings.HasPrefix(l, "#") || strings.Contains(l, "JobID") {
				header = append(header, l)
				continue
			}
			if strings.TrimSpace(l) != "" {
				f.Add(append([]any{[]byte(strings.Join(append(header, l), "\n"))}, extra...)...)
			}
		}
	}
}

// sameJob compares what survives writing and reading back; float fields
// within a relative 1e-9, memory 0 and Unset alike (an SWF request below
// a kilobyte reads as 0 MB, which is written as no request).
func sameJob(a, b *Job, na, nb *Names) string {
	type key struct {
		ID, Submit, Wait, Runtime, TimeLimit, Preceding int64
		CPUs, AllocCPUs, Status, Queue, Executable      int
		User, Group, Partition, Account, QOS, Feature   string
	}
	k := func(j *Job, n *Names) key {
		return key{j.ID, j.Submit, j.Wait, j.Runtime, j.TimeLimit, j.Preceding, j.CPUs, j.AllocCPUs, j.Status, j.Queue,
			j.Executable, n.Users.Name(j.User), n.Groups.Name(j.Group), n.Partitions.Name(j.Partition),
			n.Accounts.Name(j.Account), n.QOS.Name(j.QOS), n.Features.Name(j.Feature)}
	}
	if k(a, na) != k(b, nb) {
		return "fields differ"
	}
	near := func(x, y float64) bool { return x == y || math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y)) }
	if !near(a.UsedCPU, b.UsedCPU) || !near(a.UsedMemKB, b.UsedMemKB) {
		return "usage differs"
	}
	memA, memB := max(a.MemPerCPU, 0), max(b.MemPerCPU, 0)
	if a.MemPerCPU == Unset {
		memA = 0
	}
	if b.MemPerCPU == Unset {
		memB = 0
	}
	if memA != memB {
		return "memory differs"
	}
	if a.Preceding != Unset && a.ThinkTime != b.ThinkTime {
		return "think time differs"
	}
	return ""
}

func FuzzSWF(f *testing.F) {
	addSeeds(f, "*.swf")
	f.Fuzz(func(t *testing.T, data []byte) {
		// Strict: any outcome but a panic.
		if r, err := NewSWFReader(bytes.NewReader(data), "f.swf", SWFOptions{FailImpossible: true}); err == nil {
			drain(r)
		}
		r, err := NewSWFReader(bytes.NewReader(data), "f.swf", SWFOptions{SkipInvalid: true, KeepIncomplete: true})
		if err != nil {
			return // an unreadable gzip stream
		}
		jobs := drain(r)
		st := r.Stats()
		if r.Err() != nil || st.Accepted != len(jobs) || st.Records != st.Accepted+st.Skipped.Total() {
			t.Fatalf("err %v, %d jobs, stats %+v", r.Err(), len(jobs), st)
		}
		// What the writer writes reads back the same.
		var out bytes.Buffer
		if _, err := WriteSWF(&out, NewSliceSource(jobs, r.Names(), *r.Header()), SWFWriteOptions{Notes: []string{"fuzz"}}); err != nil {
			t.Fatal(err)
		}
		r2, err := NewSWFReader(bytes.NewReader(out.Bytes()), "back.swf", SWFOptions{KeepIncomplete: true})
		if err != nil {
			t.Fatal(err)
		}
		back := drain(r2)
		if r2.Err() != nil || len(back) != len(jobs) {
			t.Fatalf("read back: %v, %d jobs of %d\n%s", r2.Err(), len(back), len(jobs), out.Bytes())
		}
		for i := range jobs {
			if why := sameJob(&jobs[i], &back[i], r.Names(), r2.Names()); why != "" {
				t.Fatalf("job %d: %s\n was %+v\n now %+v", i, why, jobs[i], back[i])
			}
		}
		// And through sacct, where the values fit sacct's time stamps.
		if !sacctable(jobs, r.Header()) {
			return
		}
		var sacct bytes.Buffer
		if _, err := WriteSacct(&sacct, NewSliceSource(jobs, r.Names(), *r.Header()), SacctWriteOptions{}); err != nil {
			t.Fatal(err)
		}
		s, err := NewSacctReader(bytes.NewReader(sacct.Bytes()), "mid.sacct", SacctOptions{KeepIncomplete: true})
		if err != nil {
			t.Fatal(err)
		}
		via := drain(s)
		if s.Err() != nil || s.Stats().Records != len(jobs) || s.Stats().Records != len(via)+s.Stats().Skipped.Total() {
			t.Fatalf("via sacct: %v, %d of %d jobs, stats %+v\n%s", s.Err(), len(via), len(jobs), s.Stats(), sacct.Bytes())
		}
		if s.Epoch() != r.Header().UnixStartTime {
			t.Fatalf("epoch %d, was %d", s.Epoch(), r.Header().UnixStartTime)
		}
		byID := map[int64]*Job{}
		for i := range jobs {
			byID[jobs[i].ID] = &jobs[i]
		}
		for i := range via {
			v, o := via[i], *byID[via[i].ID]
			if o.Status != StatusFailed && o.Status != StatusCompleted && o.Status != StatusCancelled {
				o.Status = Unset
			}
			if o.Status == StatusCancelled && o.Runtime == 0 {
				// sacct shows a cancelled job of no run time as one that
				// never started; with no start either, it left at submit.
				v.CancelledPending = false
				if o.Wait == Unset {
					v.Wait = Unset
				}
			}
			o.Executable, o.Preceding, o.ThinkTime, o.Queue = Unset, Unset, 0, Unset // not carried by sacct
			if o.AllocCPUs <= 0 && o.CPUs <= 0 {
				// sacct's TotalCPU is the CPU time of all processors: a
				// job of no processors cannot carry a per-processor time,
				// so it comes back unknown (the writer leaves it empty).
				o.UsedCPU = Unset
			}
			v.Queue = Unset
			if why := sameJob(&o, &v, r.Names(), s.Names()); why != "" && !(why == "fields differ" && queueOnly(&o, &v, r.Names(), s.Names())) {
				t.Fatalf("job %d via sacct: %s\n was %+v\n now %+v\n%s", v.ID, why, o, v, sacct.Bytes())
			}
		}
	})
}

// queueOnly reports whether two jobs differ only in that an SWF queue
// came back as a sacct QOS "qN".
func queueOnly(a, b *Job, na, nb *Names) bool {
	x, y := *a, *b
	x.QOS, y.QOS = Unset, Unset
	return sameJob(&x, &y, na, nb) == ""
}

// sacctable says whether SWF jobs can go through sacct unchanged: unique
// ids, times within four-digit years, CPU times within what the sacct
// reader accepts.
func sacctable(jobs []Job, h *Header) bool {
	seen := map[int64]bool{}
	for _, j := range jobs {
		if seen[j.ID] || j.Submit < 0 || j.Submit > 1e9 || j.Wait > 1e9 || j.Runtime > 1e9 || j.TimeLimit > 1e9 ||
			j.UsedCPU > 1e6 || j.CPUs > 1e6 || j.AllocCPUs > 1e6 || j.UsedMemKB > 1e12 || j.MemPerCPU > 1e12 {
			return false
		}
		if j.UsedCPU >= 0 && j.UsedCPU != math.Round(j.UsedCPU*100)/100 {
			return false // sacct's CPU time keeps two decimals per CPU
		}
		if j.CPUs == Unset && j.AllocCPUs <= 0 && j.Wait == Unset {
			return false
		}
		seen[j.ID] = true
	}
	return h.UnixStartTime >= 0 && h.UnixStartTime < 1e11
}

func FuzzSacct(f *testing.F) {
	addSeeds(f, "sacct-excerpt.txt", uint8(1))
	addSeeds(f, "*.psv", uint8(0))
	addSeeds(f, "*.sacct", uint8(6))
	addRealSiteSeeds(f, uint8(0))
	f.Add([]byte(requeuedSacct), uint8(0)) // sacct -D: a requeued job's two runs
	// Throttled arrays (--array=0-7%2) recorded on the 22.05 harness.
	if b, err := os.ReadFile("../scenarios/testdata/slurm-diff/array-throttle/sacct.txt"); err == nil {
		f.Add(b, uint8(0))
	}
	f.Add([]byte("JobIDRaw|Submit|Start|End|Elapsed|State|NCPUS|ReqNodes|ReqGRES|AllocGRES|AllocTRES|SubmitLine|NTasks\n"+
		"5|2019-01-01T00:00:00|2019-01-01T00:01:00|2019-01-01T00:02:00|00:01:00|COMPLETED|4|2|gpu:k80:4|gpu:4|cpu=4,gres/gpu=4|sbatch -N 2 --gres=gpu:k80:2 x|\n"+
		"6|2019-01-01T00:00:00|2019-01-01T00:01:00|2019-01-01T00:02:00|00:01:00|COMPLETED|4|1||gpu:2|cpu=4,gres/gpu:p100=2,gres/gpu=2|sbatch --gpus-per-task=1 x|2\n"), uint8(0))
	// Pending array ranges cost a job per task: keep them small so that
	// the fuzzer's time goes to variety, not to one range.
	oldTask, oldTotal := maxArrayTasks, maxArrayTasksTotal
	maxArrayTasks, maxArrayTasksTotal = 1000, 5000
	f.Cleanup(func() { maxArrayTasks, maxArrayTasksTotal = oldTask, oldTotal })
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opts := SacctOptions{Location: time.UTC, SkipInvalid: mode&2 != 0, KeepIncomplete: mode&4 != 0,
			DropCancelledPending: mode&8 != 0}
		if mode&1 != 0 {
			opts.Fields = ParseSacctFields(fixtureFields)
		}
		r, err := NewSacctReader(bytes.NewReader(data), "f.sacct", opts)
		if err != nil {
			return
		}
		jobs := drain(r)
		if r.Err() != nil {
			if opts.SkipInvalid {
				if _, ok := r.Err().(ErrorList); !ok {
					return // an I/O error (broken gzip stream)
				}
				t.Fatalf("SkipInvalid still failed: %v", r.Err())
			}
			return
		}
		st := r.Stats()
		if st.Accepted != len(jobs) || st.Records != st.Accepted+st.Skipped.Total() {
			t.Fatalf("%d jobs, stats %+v", len(jobs), st)
		}
		ids := map[int64]bool{}
		for i, j := range jobs {
			if ids[j.ID] {
				t.Fatalf("job id %d twice", j.ID)
			}
			ids[j.ID] = true
			if i > 0 && (j.Submit < jobs[i-1].Submit || j.Submit == jobs[i-1].Submit && j.ID < jobs[i-1].ID) {
				t.Fatalf("job %d out of order", j.ID)
			}
			if j.Submit < 0 || (j.Wait < 0 && j.Wait != Unset) || (j.Runtime < 0 && j.Runtime != Unset) {
				t.Fatalf("job %+v", j)
			}
		}
		if len(jobs) > 20000 {
			return // a huge pending array: checked above, too slow to write back each time
		}
		// The writer's output reads back as the same jobs.
		var out bytes.Buffer
		if _, err := WriteSacct(&out, NewSliceSource(jobs, r.Names(), *r.Header()), SacctWriteOptions{}); err != nil {
			t.Fatal(err)
		}
		r2, err := NewSacctReader(bytes.NewReader(out.Bytes()), "back.sacct", SacctOptions{KeepIncomplete: true})
		if err != nil {
			t.Fatal(err)
		}
		back := drain(r2)
		if r2.Err() != nil || len(back) != len(jobs) || r2.Epoch() != r.Epoch() {
			t.Fatalf("read back: %v, %d jobs of %d, epoch %d of %d\n%s", r2.Err(), len(back), len(jobs), r2.Epoch(), r.Epoch(), out.Bytes())
		}
		for i := range jobs {
			a, b := jobs[i], back[i]
			if a.Status == StatusCancelled && a.Runtime == 0 {
				a.CancelledPending, b.CancelledPending = false, false
			}
			// SacctWriter writes a SubmitLine with GRES options only: what
			// else the reader took from one does not come back.
			if a.Dependency != 0 {
				a.Preceding = Unset
			}
			a.MaxNodes, a.AllocNodes, a.Exclusive, a.ReqNodeList, a.ExcNodeList, a.Reservation, a.Dependency = b.MaxNodes, b.AllocNodes, b.Exclusive, 0, 0, 0, 0
			if why := sameJob(&a, &b, r.Names(), r2.Names()); why != "" || a.Eligible != b.Eligible || a.Nodes != b.Nodes ||
				a.CancelledPending != b.CancelledPending || (a.Gres == 0) != (b.Gres == 0) ||
				r.Names().Gres.Name(a.Gres-1) != r2.Names().Gres.Name(b.Gres-1) {
				t.Fatalf("job %d: %s\n was %+v\n now %+v\n%s", i, why, a, b, out.Bytes())
			}
		}
	})
}
