package workflow

import "testing"

// TestValidateDifferential replays runs recorded on the real 22.05 harness
// in differential sessions (scenarios/testdata/slurm-diff, jobs.txt and
// setup as submitted by a copy of scripts/slurm-refrun that passes extra
// sbatch options) with the controller's own timing, and wants every job
// started in the order the controller started them.
//
//   - tier: 6 nodes, a PriorityTier partition, two job arrays. The log's
//     pending-array records (JobId=N_*) are read, and array tasks queue by
//     their array's id and task index; by raw id (5_3 is job 5) the first
//     cycle differed.
//   - exclusive: --exclusive jobs and an OverSubscribe=EXCLUSIVE
//     partition under PriorityWeightJobSize=1000. A job's job-size
//     factor weighs its nodes' CPUs once backfill has reserved them
//     (total_cpus), from the next PriorityCalcPeriod on; counting the
//     request all along, 3 pairs.
//   - multinode: 4 nodes of 8 CPUs, 36 jobs, 28 of them with -N 2 to 4.
//     Placed as cons_tres _eval_nodes places them (sim.Cluster.evalNodes:
//     -N4 -n8 is 5/1/1/1); spread evenly, 59 pairs started in the
//     opposite order.
//   - mem2: 4 nodes of 8 CPUs and 8000 MB, jobs with --mem and
//     --mem-per-cpu and node counts: 47 pairs before the same change.
//   - mixed: 6 nodes of 4 CPUs, a PriorityTier partition over half of
//     them, arrays, node counts and memory. Running jobs of equal ends
//     are given back by the will-run test in slurmctld's job list order,
//     where an array task takes its array record's place when it starts
//     (sim.Job.ListOrder); by arrival order, 44 pairs.
//   - arrays-limits: 5 nodes of 8 CPUs, a PriorityTier partition, node
//     counts, --exclusive, arrays under a QOS with MaxJobsPerUser=2 and
//     bf_max_job_user=3. The task after one backfill started is tried
//     past the limit check that precedes the counting (backfill.c goto
//     next_task), so a held one counts for its user; not counting it,
//     30 pairs.
//   - completing-nodes: 6 nodes of 4 CPUs, node counts, memory, arrays,
//     a PriorityTier partition and QOS lim (MaxJobsPerUser=2). A -N 3 job's nodes
//     leave COMPLETING one by one (one sends its epilog complete message
//     11 ms after the end, the others answer the kill request 4 ms
//     later), and a main pass between them places a job on the first
//     (sim noderelease.go); freeing the job's nodes at its last node's
//     answer, 32 pairs.
//   - completing: 3 nodes of 8 CPUs, QOS lim (MaxJobsPerUser=2),
//     bf_max_job_user=2, bf_max_job_test=6. An ended job's resources are
//     free to the will-run test at its end while its node is COMPLETING,
//     so backfill planned a job for now + 1 on it, reserving it (sim
//     completing.go); with the resources held until the node answered,
//     the job was planned 80 s later and lower jobs backfilled onto its
//     nodes, 5 pairs.
//   - total-cpus: one node of 16 CPUs busy, then two --exclusive jobs
//     (-n 1, then -n 4) under PriorityWeightJobSize=1000. No record can
//     start, yet backfill.c tests both, which sets each total_cpus to 16
//     and makes their priorities equal: the first submitted starts
//     first. A cycle that stopped after the last record able to start
//     now reached neither, and the -n 4 job went first, 1 pair.
//   - gpu-per-node: 4 nodes of 8 CPUs and 2 GPUs
//     (FAIRSIM_SLURM_GPUS=2), jobs with --gres=gpu:1 or 2, -N 2
//     --gres=gpu:1, --gpus=2 and memory beside CPU-only jobs. A job asking
//     GPUs per node is placed as one without them on the nodes that have
//     them free, so the best consecutive set decides (a 12000 MB job went
//     to n4, alone in its set, not n1); with the simulator's own best fit,
//     68 pairs. Two jobs still start 9 s early: a will-run test put a
//     1-CPU GPU job's reservation on n4 where the controller put it on
//     n2, which left n2 to a later job; their pair ties in one record
//     only (tied).
//   - gpu-per-job: the same cluster and mix under bf_max_job_test=8 and
//     bf_max_job_user=4. A -n 2 --gpus=2 job (sacct ReqNodes 1) ran on
//     two nodes: --gpus without -N is placed by _eval_nodes' rules for
//     GRES over the job (sim evalPerJob); kept on one node, 40 pairs.
//   - qos-over-assoc: QOS grp (GrpTRES=cpu=12) and lim
//     (MaxTRESPerUser=cpu=6), account a2 GrpTRES=cpu=16,
//     bf_max_job_user=4. A limit the job's QOS sets replaces the
//     association's of the same kind and TRES (acct_policy.c's qos_rec):
//     the controller started a 4-CPU job of QOS grp while a2 ran 16
//     CPUs; holding it at a2's limit, 11 pairs.
//   - dependencies: --dependency=afterany on jobs of the same and the
//     previous wave, --begin=now+20 and +45, recorded to pin them.
//   - partition-maxnodes: a PriorityTier partition over n[3-4] with
//     MaxNodes=1 and a partition QOS (GrpTRES=cpu=10, MaxTRESPerUser=cpu=6,
//     MaxJobsPerUser=2). A job without -N is placed on one node there
//     (get_node_cnts caps max_nodes); two -N 2 jobs stay PENDING
//     (PartitionNodeLimit) until the recorder cancels them, refused by
//     fairsim. Spreading -n 4 over n3 and n4, 17 pairs.
//   - partition-minnodes: a PriorityTier partition over n[1-4] with
//     MinNodes=2 and QOS flex (Flags=PartitionMinNodes). A job without
//     -N spreads over two nodes or more, its CPUs raised to one a node
//     (get_node_cnts' min_nodes is its req_nodes); sacct's ReqNodes 2 of
//     such a job is no -N of its own (SubmitLine has none): read as -N
//     2, the two -n 20 jobs were refused and 106 pairs started in the
//     opposite order. Three -N 1 jobs of QOS normal stay PENDING
//     (PartitionNodeLimit), refused by fairsim.
//   - partition-minnodes2: MinNodes=2 with MaxNodes=3, --exclusive, -p
//     wide,batch without -N (min_nodes 1: never in wide) and QOS flex
//     without -N. A job's min_nodes is raised at submission whatever its
//     QOS, so flex jobs without -N spread too; keeping them on one node,
//     146 pairs in the opposite order and no backfill cycle as logged.
//   - array-throttle: six arrays of 8 tasks with --array=0-7%2 (one
//     with -N 2) beside plain jobs, bf_max_job_array_resv=2,
//     bf_max_job_test=10. At most two tasks of an array run at once
//     (job_array_start_test), and a held task ages from its array's
//     eligible time, where sacct's Eligible is its release by the
//     throttle; aging from that, 26 pairs (49 before
//     bf_max_job_array_resv reached the scheduler).
//   - maxnodes-mix: prio (MaxNodes=1, partition QOS) and wide (MaxNodes=2,
//     jobs of 9 to 16 CPUs that must spread over two nodes) beside batch,
//     throttled arrays (%2, %3) and --exclusive jobs under
//     bf_max_job_test=12: recorded to pin the partition limits and the
//     throttle together (7 pairs start in the same second in one record
//     only; one job starts 3 s late).
//   - preempt-requeue: partition_prio with PreemptMode=REQUEUE, a high
//     partition's jobs requeuing low ones in two waves (9 requeues),
//     recorded with sacct -D. Victims in job list order, reordered as
//     _run_now does, the preemptor reserved on the all-gone nodes, a
//     cycle's preempted nodes completing, and a requeued job repriced
//     when it becomes eligible again (the ticks reprice it while it
//     waits): 161 pairs before.
//   - maxnodes-mix2: the same mix, another seed, bf_max_job_array_resv=2.
//     A 16-CPU job of wide (MaxNodes=2) goes through choose_nodes' retry
//     without the nodes of fewest CPUs, as a -N job does; without it, it
//     was planned later and on other nodes, and 171 pairs followed.
//   - partition-maxcpus: batch with MaxCPUsPerNode=6 over four 8-CPU
//     nodes, half with MaxCPUsPerNode=4 over two of them, full uncapped
//     over all, 50 jobs (-n 1 to 20, -N 2 and 3, --exclusive in full,
//     memory). Before the caps were simulated: tau-b 0.61, 224 pairs in
//     the opposite order, no backfill cycle as logged; now every start
//     as the controller's and all 605 cycles planned as its log says.
//   - partition-maxcpus2: batch capped at 5, small at 3 over two nodes
//     (PriorityTier=2), full uncapped, bf_max_job_test=10, -N 2 to 4 at
//     the cap a node: every start as the controller's (without the caps
//     tau-b 0.66, 147 pairs) and all 247 cycles as logged once the main
//     pass knew ESLURM_NODE_NOT_AVAIL (a job that cannot run even idle on
//     the nodes the pass left it blocks nothing): before, job 32's
//     failure kept job 39 of another partition for backfill.
func TestValidateDifferential(t *testing.T) {
	for _, tc := range []struct {
		run  string
		jobs int
		tied int64 // pairs started in the same second in one record only
	}{{"tier", 52, 0}, {"exclusive", 36, 0}, {"multinode", 36, 0}, {"mem2", 39, 0}, {"mixed", 55, 0}, {"arrays-limits", 54, 0},
		{"completing-nodes", 43, 0}, {"completing", 45, 0}, {"total-cpus", 3, 0}, {"gpu-per-node", 42, 2}, {"gpu-per-job", 42, 0},
		{"qos-over-assoc", 39, 0}, {"dependencies", 39, 0}, {"partition-maxnodes", 37, 0}, {"partition-minnodes", 41, 0}, {"partition-minnodes2", 50, 0}, {"partition-maxcpus", 50, 0}, {"partition-maxcpus2", 44, 0}, {"array-throttle", 111, 0}, {"maxnodes-mix", 75, 7}, {"maxnodes-mix2", 75, 12}, {"preempt-requeue", 36, 2}, {"qos-noreserve", 50, 0}, {"overtime-limit", 40, 0}, {"part-count-reserve", 55, 0}, {"one-resv-per-job", 44, 0}, {"exclusive-list", 38, 0}, {"exclusive-list2", 41, 2}, {"priority-basic", 44, 0}} {
		v, err := ValidateScenario("../scenarios/testdata/slurm-diff/"+tc.run, "", ValidateOptions{Timing: "log"})
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Jobs) != tc.jobs || v.NotStarted != 0 || v.Discordant != 0 || v.TiedOne != tc.tied || tc.tied == 0 && v.Tau != 1 {
			t.Errorf("%s: %d jobs, %d not started, %d pairs in the opposite order, %d tied in one record, tau-b %v; want %d, 0, 0, %d", tc.run, len(v.Jobs), v.NotStarted, v.Discordant, v.TiedOne, v.Tau, tc.jobs, tc.tied)
		}
	}
}
