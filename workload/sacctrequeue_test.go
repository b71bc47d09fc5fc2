package workload

import (
	"strings"
	"testing"
	"time"
)

// requeuedSacct is sacct -D -X -a -P on the 22.05 harness after a
// partition_prio preemption (PreemptMode=REQUEUE): job 5 (partition high)
// preempted job 1 at 12:29:32; job 1 was requeued, submitted anew then,
// eligible 121 s later, and ran again from 12:32:20 to 12:33:00.
const requeuedSacct = `JobID|JobIDRaw|User|Account|Partition|State|Submit|Eligible|Start|End|Elapsed|NCPUS|NNodes|Timelimit
1|1|u1|a1|low|PREEMPTED|2026-11-29T12:29:26|2026-11-29T12:29:26|2026-11-29T12:29:27|2026-11-29T12:29:32|00:00:05|8|1|00:05:00
2|2|u1|a1|low|COMPLETED|2026-11-29T12:29:26|2026-11-29T12:29:26|2026-11-29T12:29:27|2026-11-29T12:30:07|00:00:40|8|1|00:05:00
3|3|u1|a1|low|COMPLETED|2026-11-29T12:29:26|2026-11-29T12:29:26|2026-11-29T12:29:27|2026-11-29T12:30:07|00:00:40|8|1|00:05:00
4|4|u1|a1|low|COMPLETED|2026-11-29T12:29:26|2026-11-29T12:29:26|2026-11-29T12:29:27|2026-11-29T12:30:07|00:00:40|8|1|00:05:00
5|5|u1|a1|high|COMPLETED|2026-11-29T12:29:31|2026-11-29T12:29:31|2026-11-29T12:29:32|2026-11-29T12:29:42|00:00:10|6|1|00:02:00
1|1|u1|a1|low|COMPLETED|2026-11-29T12:29:32|2026-11-29T12:31:33|2026-11-29T12:32:20|2026-11-29T12:33:00|00:00:40|8|1|00:05:00
`

// TestSacctRequeuedRuns: with sacct -D a requeued job's runs share its
// id; the reader keeps one job, its last run submitted when the user
// submitted it (12:29:26, time 0), so that a replay decides the
// preemption itself: completed, 40 s of run time, a wait of 174 s to
// its last start. The earlier run is counted as merged, in whichever
// order the rows come. Two finished runs under one id are two jobs that
// only share it: still an error.
func TestSacctRequeuedRuns(t *testing.T) {
	lines := strings.SplitAfter(requeuedSacct, "\n")
	swapped := lines[0] + lines[6] + strings.Join(lines[2:6], "") + lines[1]
	for name, in := range map[string]string{"as sacct lists them": requeuedSacct, "last run first": swapped} {
		jobs, r, err := readSacct(t, []byte(in), SacctOptions{Location: time.UTC})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(jobs) != 5 || r.Stats().Skipped["earlier run of a requeued job (sacct -D): merged into its job"] != 1 {
			t.Fatalf("%s: %d jobs, skipped %v; want 5 and one merged run", name, len(jobs), r.Stats().Skipped)
		}
		j := jobs[0]
		if j.ID != 1 || j.Submit != 0 || j.Eligible != Unset || j.Status != StatusCompleted || j.Runtime != 40 || j.Wait != 174 {
			t.Errorf("%s: job %+v; want id 1, submit 0, eligible at submit, completed, 40 s, wait 174", name, j)
		}
	}
	dup := requeuedSacct[:strings.Index(requeuedSacct, "PREEMPTED")] + "COMPLETED" + requeuedSacct[strings.Index(requeuedSacct, "PREEMPTED")+len("PREEMPTED"):]
	if _, _, err := readSacct(t, []byte(dup), SacctOptions{Location: time.UTC}); err == nil || !strings.Contains(err.Error(), "duplicate job id") {
		t.Errorf("two finished runs under one id: err %v, want a duplicate job id", err)
	}
}
