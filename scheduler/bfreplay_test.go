package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"fairsim/policy"
	"fairsim/sim"
)

// TestReplayedMovesChangeNoPlan schedules 500 random jobs of a few
// shapes and limits (so runs of records of one key fill the queue) on 40
// nodes of 16 cores, with a backfill log (Trace: every record of every
// cycle planned), twice: with each record's tries made in full (memoOff)
// and with the moves of the last record of its key replayed
// (bfreplay.go). It does so with bf_max_job_test at 500 and at 100 (a
// replayed cores move must count as tried only where the record's own
// try would have), and with a partition of short jobs that preempt the
// others'. Every cycle must log the same starts and reservations, on the
// same nodes, in the same order. Replaying the moves a will-run test
// made fails it; so does replaying a move without checking that the try
// ends at the same later, and so does counting a replayed cores move as
// tried always, or never.
func TestReplayedMovesChangeNoPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	var tjs []tjob
	at := int64(0)
	for i := range 500 {
		at += int64(rng.IntN(40))
		limit := []int64{3600, 7200, 14400}[rng.IntN(3)]
		tjs = append(tjs, tjob{id: int64(i + 1), submit: at, cpus: []int{4, 12, 24, 40, 100}[rng.IntN(5)],
			run: 60 + rng.Int64N(limit), limit: limit})
	}
	ns := sim.NodeSpec{Type: "broadwell", Cores: 16, MemMB: 64000, Weight: 1}
	for i := 1; i <= 40; i++ {
		ns.Names = append(ns.Names, fmt.Sprintf("n%02d", i))
	}
	for _, tc := range []struct {
		maxTest, lines, replayed int
		preempt                  bool
	}{{500, 50000, 500000, false}, {100, 50000, 300000, false}, {500, 20000, 100000, true}} {
		t.Run(fmt.Sprint("bf_max_job_test=", tc.maxTest, ",preempt=", tc.preempt), func(t *testing.T) {
			p := DefaultParams()
			p.BfMaxJobTest = tc.maxTest
			jobs := tjs
			if tc.preempt {
				// A job in five asks partition hi, which preempts p's.
				p.PreemptType, p.PreemptMode = "preempt/partition_prio", policy.PreemptCancel
				jobs = slices.Clone(tjs)
				for i := range jobs {
					if i%5 == 0 {
						jobs[i].part, jobs[i].limit, jobs[i].run = "hi", 600, 300
					}
				}
			}
			lines, replayed := replayPlans(t, jobs, ns, p)
			if lines < tc.lines || replayed < tc.replayed {
				t.Errorf("%d lines and %d replayed moves: the test should exercise the replay", lines, replayed)
			}
		})
	}
}

// replayPlans is TestReplayedMovesChangeNoPlan for one setting.
func replayPlans(t *testing.T, tjs []tjob, ns sim.NodeSpec, p Params) (lines, replayed int) {
	plan := func(off bool) []string {
		memoOff = off
		defer func() { memoOff = false }()
		hi := part("hi")
		hi.PriorityTier = 2
		c := cluster(t, []sim.NodeSpec{ns}, []sim.PartitionSpec{part("p"), hi})
		s := NewSlurm(p)
		var log []string
		s.Trace = func(e BackfillEvent) {
			if e.Kind != CycleBegins {
				log = append(log, fmt.Sprintf("%d %d job %d %d-%d %v", e.Now, e.Kind, e.Job.ID, e.Start, e.End, e.Alloc))
			}
		}
		run(t, c, s, tjs, 0, nil)
		if !off {
			replayed = s.bf.moves.replayed
		}
		return log
	}
	full, fast := plan(true), plan(false)
	if len(full) != len(fast) {
		t.Errorf("%d starts and reservations with every try made, %d with moves replayed", len(full), len(fast))
	}
	bad := 0
	for i := range min(len(full), len(fast)) {
		if full[i] != fast[i] {
			if bad++; bad <= 5 {
				t.Errorf("line %d: every try made: %s; moves replayed: %s", i, full[i], fast[i])
			}
		}
	}
	t.Logf("%d starts and reservations, %d moves replayed", len(full), replayed)
	return len(full), replayed
}
