// Package scheduler holds the scheduling policies fairsim can simulate,
// each a sim.Scheduler: pure decision logic that reads the cluster and the
// pending queue through a sim.View and returns a sim.Plan. It writes no
// sim.Job field; its own bookkeeping (queue order, per-pass backfill
// plan, fit memo) lives on the scheduler value.
//
// Baselines: fifo (strict arrival order, no backfill) and easy (EASY
// backfilling, Mu'alem & Feitelson 2001). The Slurm main + backfill
// scheduler is "slurm".
//
// # Backfill against backfill.c
//
// The slurm scheduler's backfill pass follows _attempt_backfill in
// src/plugins/sched/backfill/backfill.c: the node_space map of whole-node
// reservations on the bf_resolution grid over bf_window (both ends of a
// reservation rounded down on the wall clock, as backfill.c divides Unix
// times, at least one slot long, _add_reservation);
// each record tried on the nodes of its partition free of reservations
// over [start, start + limit], with the end inclusive; a will-run test
// that frees running jobs' cores, memory and GRES at start + time limit,
// in batches of growing time windows aligned on the wall clock (cons_tres
// job_test.c _will_run_test, here sim.Cluster.WillRun; its answers are
// kept, within and across cycles, while nothing they depend on changed,
// wrmemo.go); a
// later try (TRY_LATER) when the next record frees more nodes, or when
// the chosen nodes meet a reservation (_test_resv_overlap); one map for
// every partition; bf_max_job_test counting only the records that reach
// the will-run test (bf_last_depth_try); bf_max_job_user, _assoc, _part
// and _user_part counted as _job_exceeds_max_bf_param counts them; a
// QOS NoReserve job tested as any other (its limit one minute when
// PreemptMode is set), given its expected start but no reservation. On
// the reference runs recorded with slurmctld's log and replayed with its
// timing (fairsim validate --timing log), every backfill cycle with jobs
// plans as the controller's did, its starts and each reservation's time
// and nodes (workflow TestReferenceTimingLog, 338 cycles over six runs).
// What still differs, where those runs do not reach:
//
//   - Placement (sim.TryAlloc) follows cons_tres's _eval_nodes and
//     choose_nodes for jobs without GRES, jobs asking GRES per node
//     (--gres, --gpus-per-node: on the nodes that have them free; node
//     counts and whole nodes included) and jobs asking one GRES over the
//     job without a node count (--gpus: sim evalPerJob, GPUs given node
//     by node keeping one for each node after, tasks laid out
//     cyclically); memory per GPU, several GRES over the job, --gpus
//     with -N, and whole-node jobs with GRES get the simulator's best
//     fit. Differential runs gpu-per-node and gpu-per-job start every
//     job in the controller's order; a third GPU run (gpu3) still
//     differs by 34 pairs from a will-run test that reserved a GPU job
//     on n2 where the controller chose n1, and in gpu-per-node such a
//     choice starts two jobs 9 s early. cons_tres also lowers the
//     low byte of a node's scheduling weight by the GPUs a GPU job could
//     use there (can_job_run_on_node: "favor nodes with more co-located
//     GPUs"), and only select_nodes resets it (at submission, in main
//     passes and at backfill's starts), so will-run tests leave weights
//     that split the next job's sets, with GPUs or not (a
//     DebugFlags=SelectType run: a 6-CPU job took n4 at weight 510 over
//     a tighter n1 at 511). A first model of it, set by the tests fairsim
//     makes and reset by main passes and backfill starts, moved every
//     GPU run away (gpu-per-job 0 to 26 pairs, gpu1s 0 to 3): fairsim
//     skips tests Slurm makes and has no submission test, so it is not
//     modelled. A -N range
//     (-N 2-4) counts as its minimum (-N 1-3 as no count), where
//     get_node_cnts sets req_nodes to the maximum and _eval_nodes takes
//     as many nodes as it can up to it, one task each at least (the
//     22.05 harness, 4 idle 8-CPU nodes: -N 2-4 -n 4 took all four; with
//     two of them busy, two; -N 1-3 -n 2 took two nodes, where fairsim
//     puts both CPUs on one), and there is no topology, socket or
//     --spread-job selection. Preemption's choice of nodes and its
//     provisional allocations (Cluster.Provisional) spread a job's CPUs
//     evenly over its nodes.
//   - The will-run test has no wall-clock cut-off (Slurm's stops after
//     2 s) and no bf_window_scale (the window always doubles).
//   - A whole-node job the pass starts holds its nodes in the map until
//     its end rounded down, when preemption is off (_bf_reserve_running),
//     and with bf_running_job_reserve (or bf_licenses) so do the running
//     ones, from the cycle's start; preemption is off or on for every
//     job alike (Slurm asks each job's preempt mode). Licenses are not
//     simulated, so bf_licenses does nothing more.
//   - Reservations are made only up to the last record that could start
//     now at all, or that a limit holds (it gets its pending reason as in
//     Slurm, whose cycle reaches it), or that asks whole nodes where the
//     priority weighs total_cpus; records after it get no estimate
//     (Slurm estimates every record it tests). The schedule is the same:
//     records after it can only reserve, and starts come before them. Every reservation up to
//     it is made over bf_window, however far past the limits of the
//     records that could still start: it moves the reservations after it
//     to other nodes, and those decide which jobs fit now (a cut at the
//     longest such limit left job 2's reservation out in
//     TestBackfillReservationPastLimitsShapesLaterOnes and kept job 4
//     waiting). bf_node_space_size (default bf_max_job_test) bounds the
//     records a cycle makes, counted as node_space_recs counts them (two
//     a reservation at most, merges give none back), and a full map ends
//     the cycle, with _add_reservation's merge of the first two equal
//     neighbouring records.
//   - A cycle also ends once it is settled (backfill.go settled): every
//     record left that could start now at all fails the test of now on
//     the nodes the reservations so far leave it, and no record left is
//     held by a limit. Reservations only grow and starts only take resources
//     within a cycle, so nothing after could start; the records left
//     keep their previous estimates. Slurm.Estimates (set by explain)
//     runs every cycle to its end. Off as well under preemption and the
//     cost model, where the rest of a cycle can still change the
//     schedule.
//   - A later try whose will-run test could not fit before the next
//     later try is not run (sim.Releases.MayHaveCores: the free cores of
//     the nodes in play, with every release up to that time, fall short
//     of the job's CPUs), as its answer would be that later try anyway.
//   - Job arrays: every task is a queue record of its own. The tasks
//     of one array (workload.Job.ArrayJobID, from sacct's JobID 123_4 or
//     a pending 123_[5-9]; SWF has no arrays) get at most
//     bf_max_job_array_resv reservations a pass and, after a task got
//     neither a start nor a reservation, its next tasks in the same
//     partition are skipped (reject_array_job). The task after one the
//     cycle started or reserved is tried as backfill.c's goto next_task
//     tries it, past the limit check before the counting: held by a
//     limit there, it still counts for bf_max_job_test and
//     bf_max_job_user, and the array's later tasks wait. The array
//     throttle (--array=...%N, max_run_tasks) holds an array running N
//     tasks (sim.ReasonArrayTaskLimit): out of the queue when the pass
//     or cycle begins (job_independent), and, once a task this pass
//     started fills it, its next record counts for bf_max_job_test only
//     (goto next_task, then job_array_start_test). A held task ages
//     from its array's eligible time; sacct's Eligible is its release.
//     A task the plan preempts still counts until the plan is committed.
//     When the record after a task's reservation is the same array's
//     next task and can start now, the earlier task starts (slurmctld's
//     one array record starts its first pending task; job_array_split)
//     and the later one keeps the reservation's expected start: in
//     fairsim each task has its own runtime, so the wrong one would end
//     at the wrong time (differential run array-throttle: 1 pair).
//   - A job of several partitions reserves in each (with
//     bf_one_resv_per_job only in the first whose record expects a
//     start; the later ones test now only), and its expected start is
//     the earliest its records found, as backfill.c keeps
//     orig_start_time. bf_job_part_count_reserve counts a partition's
//     reservations, after which its records test now only. A start
//     whose reservation a limit refused after selection stays the job's
//     start_time, as backfill.c leaves it (even over an earlier one of
//     another partition), so under bf_one_resv_per_job its later records
//     test now only. A start past bf_window (which cons_tres's will-run
//     test finds, trying every running job's end) is looked for only
//     where something reads it: a job of several partitions under
//     bf_one_resv_per_job, and a whole-node job whose total_cpus the
//     priority weighs (WholeNodeCPUs); other records stop at the window,
//     as nothing of theirs changes (estimatesPast).
//   - Backfill preempts as backfill.c does (bfpreempt.go), but its later
//     start estimates still count preemptable jobs as running to their
//     limits.
//   - Preemption: cons_tres's reordering of candidates is modelled at
//     its defaults (preempt_reorder_count=1, no preempt_strict_order);
//     other values and gang time-slicing are not; see preempt.go. A
//     differential run with partition_prio REQUEUE (testdata
//     preempt-requeue, 9 requeues) starts every job in the controller's
//     order (161 pairs before: job list order, the reorder, the
//     preemptor reserved on the all-gone test's nodes, a cycle's
//     preempted nodes completing until now + 1, no preemption for a
//     record the present holds, a requeued job repriced at eligibility).
//   - The backfill agent's cadence (sim.Simulator): a cycle follows the
//     previous one bf_interval after it, or at the poll after the next
//     change, and a cycle's starts are a change. backfill.c also sets
//     last_job_update when a record tried later fits earlier than that
//     try (start_res > job_ptr->start_time), so such a cycle is followed
//     by another whatever changes: in a real 22.05 controller's log
//     (steady workload, DebugFlags=Backfill) all 170 such cycles that
//     ended in their own second were followed by one 3 s later, the
//     cycles drifting by their own ~50 ms. Modelled with every record
//     planned, the nine reference runs ended with more pairs in the
//     opposite order (428 against 396), as that drift moves the cycles'
//     second anyway; fairsim keeps the change-driven cadence.
//   - Limit-held records are skipped even with assoc_limit_stop (Slurm
//     then tests them and blocks their QOS until an estimate).
//   - The limit check after selection (select_nodes'
//     acct_policy_job_runnable_post_select, View.HoldOn) counts the
//     nodes chosen; before a preemption, before a backfill reservation,
//     the preemptor's or reserving job's CPUs spread evenly over the nodes
//     it would take (whole nodes for --exclusive), where cons_tres would
//     count the CPUs it picks on each, and GRES by the request. For an
//     --exclusive job that cannot start now, the main pass counts the
//     partition's first usable whole nodes that would hold it, where
//     Slurm counts its test-only selection.
//   - A partition's MaxNodes is applied as get_node_cnts applies it: a
//     job asking more nodes (-N) is refused, where slurmctld keeps it
//     PENDING (PartitionNodeLimit) while the partition stays so; one
//     without -N is placed on at most MaxNodes nodes (its will-run test
//     then tests time by time, as for -N k); one whose CPUs cannot fit on
//     that many nodes is refused, as sbatch is ("Requested node
//     configuration is not available"); a capped job is placed with
//     choose_nodes' retry without the nodes of fewest CPUs, as a -N job
//     (Cluster.evalCount). A QOS with Flags=PartitionMaxNodes
//     (or PartitionTimeLimit) lifts the partition's limit for its jobs
//     (sim.PartLimitLifter), MaxNodes only for jobs asking a node count
//     (get_node_cnts gives the others the partition's).
//   - A partition's MinNodes is get_node_cnts' min_nodes, which is then
//     also req_nodes, for a job without -N: _eval_nodes spreads it over
//     at least that many nodes (rem_nodes; Request.MinNodes), its CPUs
//     raised to one a node, as the 22.05 harness showed (-n 1 on two
//     nodes with NumCPUs=2; -n 12 took 7 and 5 of two nodes with 7
//     free). A job asking fewer nodes (-N) is refused, where slurmctld
//     keeps it PENDING (PartitionNodeLimit); a QOS with
//     Flags=PartitionMinNodes lets that -N run, but a job without -N
//     spreads all the same (its min_nodes was raised at submission,
//     whatever its QOS: differential run partition-minnodes2). A job of
//     several partitions without -N gets the smallest of their MinNodes
//     at submission (_valid_job_part), and a partition whose MinNodes is
//     larger never runs it (job_limits_check: PartitionNodeLimit).
//   - A partition's MaxCPUsPerNode caps the CPUs its jobs together hold
//     on a node (cons_common.c _allocate_sc: the cap less the CPUs of
//     the partition's row on the node, part_cpu_limit; none for a
//     whole-node job on a node with more CPUs than the cap), in every
//     placement: main passes, will-run tests (whose shadows give a
//     holder's CPUs back to its partition's count, sim/partcap.go),
//     preemption's view and the invariants. A job that could never fit
//     under it (more CPUs than the cap on its nodes, -N k with more than
//     the cap a node, --exclusive on bigger nodes) is refused; on the
//     22.05 harness sbatch refused the last two and kept the first
//     PENDING (PartitionConfig). Gang's resume of a suspended job does
//     not look at the cap, as in Slurm.
//   - In a main pass, a job that cannot start takes its partition's
//     nodes out of the pass (job_scheduler.c fail_by_part) only when
//     select_nodes fails with ESLURM_NODES_BUSY: one that could not run
//     even idle on the nodes the pass has left its partition, none of
//     them COMPLETING (nor busy, for a whole-node job), fails with
//     ESLURM_NODE_NOT_AVAIL (_pick_best_nodes: runable_avail,
//     nodes_busy), pends ReqNodeNotAvail and blocks nothing
//     (sim.Cluster.RunnableOn; differential run partition-maxcpus2, a
//     -n 15 job capped at 5 CPUs a node and left two nodes). Fewer of its
//     partition's nodes left than its min_nodes still blocks, as
//     job_scheduler.c tests before select_nodes.
//   - Licenses, node features and reboots, advance reservations in the
//     map, heterogeneous jobs and deadlines are not modelled. A CPU-typed
//     request's node count check counts nodes of every type, as Slurm
//     counts before its feature filter.
//   - Completing jobs under the timer model. Slurm frees an ended job's
//     resources at once (select job_fini) and keeps only its nodes
//     COMPLETING until each answers: the main pass passes those nodes
//     over, and a backfill test that fits on them plans the job for
//     now+1, which reserves them. Replaying a controller's log (validate
//     --timing log), where each node's answer is logged, fairsim does
//     exactly that (sim completing.go, noderelease.go; differential runs
//     completing and completing-nodes). Under the timer model it holds
//     the ended job's resources for sim.completing_seconds and its
//     backfill does not see them come back: giving them back at now + 1
//     there moved the reference runs both ways (steady/run1 48 to 59
//     pairs, steady/run3 67 to 52, main/run2 24 to 31), as the default
//     of 1 s stands for the controller's delay from a job's end to its
//     next main pass, while the harness's epilogs took about 15 ms, so a
//     cycle falls in the window far more often than on a controller;
//     freeing the resources at the end and delaying only that pass did
//     worse still (fairshare/run2 0 to 14 pairs). Modelling the epilog
//     and the pass delay apart is left for later.
//   - A whole-node job's total_cpus (sim.Job.TotalCPUs, the CPUs the
//     job-size factor weighs from the next PriorityCalcPeriod on) is set
//     by each reservation a cycle makes and by its start. Where the
//     priority weighs it (Slurm.WholeNodeCPUs), a cycle reaches every
//     whole-node record, as backfill.c tests each, past the last record
//     that could start now (differential run total-cpus).
package scheduler
