package ctldlog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"fairsim/sim"
)

const sample = `#fairsim tz=UTC
[2026-11-27T11:33:05.400] priority/multifactor: _read_last_decay_ran: No last decay (/x/priority_last_decay_ran) to recover
[2026-11-27T11:33:08.123] sched/backfill: _attempt_backfill: beginning
[2026-11-27T11:33:08.414] debug:  sched: Running job scheduler for default depth.
[2026-11-27T11:33:09.738] _slurm_rpc_submit_batch_job: JobId=1 InitPrio=187 usec=1670
[2026-11-27T11:33:09.815] error: _slurm_rpc_submit_batch_job: something else
[2026-11-27T11:33:11.123] debug:  sched/backfill: _attempt_backfill: beginning
[2026-11-27T11:33:11.128] sched/backfill: _start_job: Started JobId=1 in batch on n1
[2026-11-27T11:33:52.425] _job_complete: JobId=1 WEXITSTATUS 0
[2026-11-27T11:33:52.426] _job_complete: JobId=1 done
[2026-11-27T11:33:52.700] debug2: _slurm_rpc_epilog_complete: JobId=1 Node=n1 usec=12
[2026-11-27T11:33:53.026] debug2: _slurm_rpc_epilog_complete: JobId=1 Node=n2 usec=12
[2026-11-27T11:33:53.100] error: _slurm_rpc_epilog_complete: epilog error JobId=1 Node=n3 Err=x
[2026-11-27T11:33:53] debug:  sched: Running job scheduler for full queue.
[2026-11-27T11:34:00.0012] _job_complete: JobId=120_3(131) done
[2026-11-27T11:34:30.888] Time limit exhausted for JobId=7
[2026-11-27T11:35:00.900] priority/multifactor: _read_last_decay_ran: No last decay (/x/priority_last_decay_ran) to recover
`

// TestReadTimeline reads each kind of timing line, to the millisecond,
// in the zone the first line names.
func TestReadTimeline(t *testing.T) {
	tl, err := ReadTimeline(strings.NewReader(sample), "sample", time.FixedZone("X", 3600))
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) int64 {
		v, _ := time.Parse(time.RFC3339, s)
		return v.Unix()
	}
	want := []sim.TimedPass{
		{T: at("2026-11-27T11:33:08Z"), Ms: 123, Backfill: true},
		{T: at("2026-11-27T11:33:08Z"), Ms: 414},
		{T: at("2026-11-27T11:33:11Z"), Ms: 123, Backfill: true},
		{T: at("2026-11-27T11:33:53Z"), Full: true},
	}
	if len(tl.Passes) != len(want) {
		t.Fatalf("passes %+v, want %+v", tl.Passes, want)
	}
	for i := range want {
		if tl.Passes[i] != want[i] {
			t.Errorf("pass %d: %+v, want %+v", i, tl.Passes[i], want[i])
		}
	}
	// Job 7 was killed by the time-limit check: no "done" follows.
	if len(tl.SubmitMs) != 1 || tl.SubmitMs[1] != 738 || len(tl.EndAt) != 3 || tl.EndAt[1] != at("2026-11-27T11:33:52Z")*1000+426 || tl.EndAt[131] != at("2026-11-27T11:34:00Z")*1000+1 ||
		tl.EndAt[7] != at("2026-11-27T11:34:30Z")*1000+888 {
		t.Errorf("submits %v ends %v, want 1:738 and 1 at 11:33:52.426, 131 at 11:34:00.001, 7 at 11:34:30.888", tl.SubmitMs, tl.EndAt)
	}
	// Job 1's last node's epilog came 600 ms after its completion (the
	// error line is not a release); job 131 logged none.
	if len(tl.EpilogMs) != 1 || tl.EpilogMs[1] != 600 {
		t.Errorf("epilogs %v, want 1:600", tl.EpilogMs)
	}
	// The decay thread's start before the workload sets the ticks'
	// millisecond; a restart after the first submission does not.
	if !tl.CalcPhase || tl.CalcMs != 400 {
		t.Errorf("decay phase %v %d, want 400", tl.CalcPhase, tl.CalcMs)
	}
}

// TestReadTimelineErrors: a timing line it cannot read names its line
// and field; a log without the passes the replay needs says which level
// or flag logs them.
func TestReadTimelineErrors(t *testing.T) {
	for _, tc := range []struct{ name, log, want string }{
		{"time stamp", "[2026-11-27 11:33:08.123] debug:  sched: Running job scheduler for full queue.\n", "x:1: time stamp"},
		{"milliseconds", "[2026-11-27T11:33:08.1x] debug:  sched: Running job scheduler for full queue.\n", "x:1: time stamp"},
		{"job id", "[2026-11-27T11:33:08.123] debug:  sched: Running job scheduler for full queue.\n[2026-11-27T11:33:09.000] _job_complete: JobId=x1 done\n", "x:2: JobId \"x1\""},
		{"no main pass", "[2026-11-27T11:33:08.123] sched/backfill: _attempt_backfill: beginning\n", "SlurmctldDebug=debug"},
		{"starts without cycles", "[2026-11-27T11:33:08.123] debug:  sched: Running job scheduler for full queue.\n[2026-11-27T11:33:08.200] sched/backfill: _start_job: Started JobId=1 in batch on n1\n", "DebugFlags=Backfill"},
		{"time order", "[2026-11-27T11:33:08.123] debug:  sched: Running job scheduler for full queue.\n[2026-11-27T11:33:08.100] sched/backfill: _attempt_backfill: beginning\n", "out of time order"},
		{"zone", "#fairsim tz=Nowhere/Else\n", "x:1: time zone"},
	} {
		_, err := ReadTimeline(strings.NewReader(tc.log), "x", time.UTC)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestReadTimelineReference reads the steady workload's log (a real 22.05
// controller at SlurmctldDebug=debug): 59 main passes (13 over the full
// queue), 220 backfill cycles, 42 submissions and completions.
func TestReadTimelineReference(t *testing.T) {
	tl, err := ReadTimelineFile(filepath.Join("..", "scenarios", "testdata", "slurm-ref", "steady-bflog", "slurmctld.log"), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	main, full, bf := 0, 0, 0
	for _, p := range tl.Passes {
		switch {
		case p.Backfill:
			bf++
		case p.Full:
			full++
			main++
		default:
			main++
		}
	}
	// Job 40: submitted at 11:36:31.029, done at 11:42:09.608.
	if main != 59 || full != 13 || bf != 220 || len(tl.SubmitMs) != 42 || len(tl.EndAt) != 42 || tl.SubmitMs[40] != 29 || tl.EndAt[40]%1000 != 608 {
		t.Errorf("%d main passes (%d full), %d cycles, %d submits, %d ends, job 40 %d/%d; want 59 (13), 220, 42, 42, 29/608",
			main, full, bf, len(tl.SubmitMs), len(tl.EndAt), tl.SubmitMs[40], tl.EndAt[40]%1000)
	}
}

// FuzzReadTimeline: no log panics the reader.
func FuzzReadTimeline(f *testing.F) {
	f.Add(sample)
	if b, err := os.ReadFile(filepath.Join("..", "scenarios", "testdata", "slurm-ref", "steady-bflog", "slurmctld.log")); err == nil {
		f.Add(string(b[:min(len(b), 16<<10)]))
	}
	f.Fuzz(func(t *testing.T, s string) {
		tl, err := ReadTimeline(strings.NewReader(s), "fuzz", time.UTC)
		if err == nil && len(tl.Passes) == 0 {
			t.Fatal("no error and no pass")
		}
	})
}

// TestReadTimelineKillAnswers: a job's nodes leave COMPLETING when they
// answer the kill request (agent.c: "already complete", then
// job_epilog_complete); each answer goes to the earliest ended job still
// waiting on its node, and the job is free at its last node's answer.
func TestReadTimelineKillAnswers(t *testing.T) {
	log := `[2026-11-27T11:33:00.000] debug:  sched: Running job scheduler for default depth.
[2026-11-27T11:33:00.001] sched: Allocate JobId=5 NodeList=n[1-2] #CPUs=12 Partition=batch
[2026-11-27T11:33:00.002] sched/backfill: _start_job: Started JobId=6 in batch on n1
[2026-11-27T11:33:00.003] sched/backfill: _attempt_backfill: beginning
[2026-11-27T11:33:00.050] debug2: node_did_resp n1
[2026-11-27T11:33:10.100] _job_complete: JobId=5 done
[2026-11-27T11:33:10.105] _job_complete: JobId=6 done
[2026-11-27T11:33:10.110] debug2: node_did_resp n1
[2026-11-27T11:33:10.115] debug2: node_did_resp n3
[2026-11-27T11:33:10.130] debug2: node_did_resp n2
[2026-11-27T11:33:10.180] debug2: node_did_resp n1
`
	tl, err := ReadTimeline(strings.NewReader(log), "x", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	// Job 5: n1 at .110 (the launch's answer at 0.050 came before its
	// end), n2 at .130: 30 ms. Job 6: n1's next answer, .180: 75 ms.
	if len(tl.EpilogMs) != 2 || tl.EpilogMs[5] != 30 || tl.EpilogMs[6] != 75 {
		t.Errorf("epilogs %v, want 5:30 6:75", tl.EpilogMs)
	}
}

// TestReadTimelineNodeEpilogs: each node of a job leaves COMPLETING on its
// own (node_mgr.c make_node_idle), at its epilog complete message or, for
// a node with no epilog left, at its answer to the kill request. The
// lines of a recorded -N 3 job (slurm-diff/completing-nodes, job 13): n2's
// message at .724, a main pass at .725 that places a job on n2, then the
// agent's answers from n4, n3 and n2 at .728 (n2's is the kill request's
// acknowledgement, not a release) and n2's answer to that job's launch at
// .731. Job 14 ran an epilog on n5: its kill acknowledgement (.400) comes
// before its epilog complete message (.900), which frees n5.
func TestReadTimelineNodeEpilogs(t *testing.T) {
	log := `[2026-11-29T08:30:00.000] debug:  sched: Running job scheduler for default depth.
[2026-11-29T08:30:00.001] sched: Allocate JobId=13 NodeList=n[2-4] #CPUs=6 Partition=batch
[2026-11-29T08:30:00.002] sched: Allocate JobId=14 NodeList=n[5-6] #CPUs=2 Partition=batch
[2026-11-29T08:30:26.713] _job_complete: JobId=13 done
[2026-11-29T08:30:26.724] debug2: _slurm_rpc_epilog_complete: JobId=13 Node=n2 
[2026-11-29T08:30:26.725] debug:  sched: Running job scheduler for default depth.
[2026-11-29T08:30:26.725] sched: Allocate JobId=19 NodeList=n2 #CPUs=2 Partition=batch
[2026-11-29T08:30:26.728] debug2: node_did_resp n4
[2026-11-29T08:30:26.728] debug2: node_did_resp n3
[2026-11-29T08:30:26.728] debug2: node_did_resp n2
[2026-11-29T08:30:26.731] debug2: node_did_resp n2
[2026-11-29T08:30:30.100] _job_complete: JobId=14 done
[2026-11-29T08:30:30.350] debug2: node_did_resp n6
[2026-11-29T08:30:30.400] debug2: node_did_resp n5
[2026-11-29T08:30:30.900] debug2: _slurm_rpc_epilog_complete: JobId=14 Node=n5 
`
	tl, err := ReadTimeline(strings.NewReader(log), "x", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if tl.EpilogMs[13] != 15 || tl.EpilogMs[14] != 800 {
		t.Errorf("epilogs %v, want 13:15 14:800", tl.EpilogMs)
	}
	want := map[int64]map[string]int32{13: {"n2": 11}, 14: {"n6": 250}}
	if !reflect.DeepEqual(tl.NodeEpilogMs, want) {
		t.Errorf("node epilogs %v, want %v (a job's last nodes are in EpilogMs)", tl.NodeEpilogMs, want)
	}
}
