package scheduler

import (
	"testing"

	"fairsim/sim"
)

// TestScanFitsAnewEachCycle: a backfill cycle's scan remembers, per
// request shape, whether it fits now only within that scan. On two
// 4-core nodes of 4096 MB (no policy, queue in submit order):
//
//	t=0    job 1 (2 CPUs of 1000 MB, runs 200 s) and job 2 (4 CPUs, runs
//	       1000 s), both limit 1000 s
//	t=3    main pass: job 1 → n1, job 2 → n2 (a core's share of memory
//	       each): n1 keeps 2 CPUs and 2096 MB free
//	t=10   job 3 (8 CPUs, limit 100 s): blocked, the top job
//	t=20   job 4 (2 CPUs of 2000 MB, runs 50 s, limit 100 s)
//	t=30   backfill: the partition has job 4's 2 CPUs free, but no node
//	       its 4000 MB, so its shape does not fit now; no record could
//	       start now and the cycle ends at its scan
//	t=203  job 1 ends: the main pass finds job 3 still short (4 CPUs free)
//	       and blocks the partition, so job 4 waits for backfill
//	t=204  backfill (the poll after the change): job 3 expects job 2's
//	       end, 3+1000 = 1003, and reserves both nodes from 960; job 4 fits
//	       on n1 and ends by 204+100 = 304, before the reservation: it
//	       starts at 204, by backfill
//
// A scan that took job 4's shape's answer from the scan at 30 would keep
// it out of every later cycle: job 4 would start after job 3, at 1103.
func TestScanFitsAnewEachCycle(t *testing.T) {
	jobs := []tjob{
		{id: 1, submit: 0, cpus: 2, memPerC: 1000, run: 200, limit: 1000},
		{id: 2, submit: 0, cpus: 4, run: 1000, limit: 1000},
		{id: 3, submit: 10, cpus: 8, run: 100, limit: 100},
		{id: 4, submit: 20, cpus: 2, memPerC: 2000, run: 50, limit: 100},
	}
	_, by := run(t, backfillCluster(t), NewSlurm(DefaultParams()), jobs, 0, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {2, 3, sim.ByMain}, {3, 1003, sim.ByMain}, {4, 204, sim.ByBackfill}})
}

// TestScanShapesFollowReservations: with a maintenance or user
// reservation on the cluster a placement depends on the job's limit, so
// the shape a record keeps must be made again when the first
// reservation appears. On two 4-core nodes of 4096 MB:
//
//	t=0    job 1 (4 CPUs, runs 2000 s) and job 10 (2 CPUs of 2000 MB,
//	       runs 200 s); the pass at 3 puts job 1 on n1 and job 10 on n2,
//	       which keeps 2 CPUs but 96 MB free
//	t=10   jobs 2 (limit 1000 s) and 3 (limit 100 s, runs 50 s), each 2
//	       CPUs with a core's share of memory (2048 MB): the scan at 30
//	       finds their one shape short of memory
//	t=50   reservation chem (ann) holds n2 over [600, 3600)
//	t=203  job 10 ends; the main pass finds job 2 unable to run over 600
//	       on n2 (n1 is busy) and blocks the partition
//	t=204  backfill (the poll after the change; the cycles at 30 and 60
//	       found nothing to start): job 2's shape, now with its limit,
//	       does not fit; job 3's does (204+100 <= 600 on n2): it starts
//	       at 204
//
// Shapes kept from before the reservation would make jobs 2 and 3 one
// shape, answered by job 2: job 3 would wait until job 1 ends, and start
// beside job 2 on n1 at 2003.
func TestScanShapesFollowReservations(t *testing.T) {
	ev := sim.SiteEvent{At: 50, Part: -1, ResvStart: 600, ResvEnd: 3600, Nodes: []int{1},
		Resv: &sim.Reservation{Name: "chem", Users: []string{"ann"}}, Reason: "reservation chem"}
	_, by := runWith(t, backfillCluster(t), NewSlurm(DefaultParams()), []tjob{
		{id: 1, cpus: 4, run: 2000, limit: 2000},
		{id: 10, cpus: 2, memPerC: 2000, run: 200, limit: 1000},
		{id: 2, submit: 10, cpus: 2, run: 100, limit: 1000},
		{id: 3, submit: 10, cpus: 2, run: 50, limit: 100},
	}, sim.Options{Events: []sim.SiteEvent{ev}}, nil)
	checkStarts(t, by, []want{{1, 3, sim.ByMain}, {10, 3, sim.ByMain}, {2, 2003, sim.ByMain}, {3, 204, sim.ByBackfill}})
}
