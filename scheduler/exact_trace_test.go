package scheduler

import (
	"reflect"
	"testing"

	"fairsim/sim"
)

// TestShortcutsExactOnTraces replays the first jobs of real traces twice
// under the slurm scheduler: as backfill.c plans (every record of every
// cycle planned, every fit and will-run test made: planAll, memoOff,
// coreBoundOff, Estimates) and with fairsim's shortcuts (the stop after
// the last record that could start or is held, settled cycles, the core
// bound, the memos). Every job must start at the same time on the same
// nodes by the same pass and wait under the same reason.
func TestShortcutsExactOnTraces(t *testing.T) {
	for _, tc := range []struct {
		trace string
		jobs  int
	}{
		{"CTC-SP2-1996-3.1-cln.swf.gz", 15000},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", 15000},
		{"LLNL-Thunder-2007-1.1-cln.swf.gz", 20000},
		{"KTH-SP2-1996-2.1-cln.swf.gz", 15000},
		{"CEA-Curie-2011-2.1-cln.swf.gz", 20000},
	} {
		t.Run(tc.trace, func(t *testing.T) {
			sched := func(plain bool) *sim.Result {
				coreBoundOff, planAll, memoOff = plain, plain, plain
				defer func() { coreBoundOff, planAll, memoOff = false, false, false }()
				s := NewSlurm(DefaultParams())
				s.Estimates = plain
				return replayFirst(t, tc.trace, s, tc.jobs)
			}
			plain, fast := sched(true), sched(false)
			if len(plain.Jobs) != len(fast.Jobs) {
				t.Fatalf("%d jobs as backfill.c plans, %d with the shortcuts", len(plain.Jobs), len(fast.Jobs))
			}
			bad, backfilled := 0, 0
			for i, a := range plain.Jobs {
				b := fast.Jobs[i]
				if a.Start != b.Start || a.StartedBy != b.StartedBy || !reflect.DeepEqual(a.Alloc, b.Alloc) || a.WaitReason != b.WaitReason {
					if bad++; bad <= 5 {
						t.Errorf("job %d: as backfill.c plans %d by %v on %v (%q); with the shortcuts %d by %v on %v (%q)", a.ID,
							a.Start, a.StartedBy, a.Alloc, a.WaitReason, b.Start, b.StartedBy, b.Alloc, b.WaitReason)
					}
				}
				if a.StartedBy == sim.ByBackfill {
					backfilled++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d jobs differ", bad, len(plain.Jobs))
			}
			if backfilled < 100 {
				t.Errorf("only %d backfill starts: the trace should exercise backfill", backfilled)
			}
		})
	}
}
