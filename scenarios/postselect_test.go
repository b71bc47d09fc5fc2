package scenarios

import "testing"

// runLimits runs the slurm scheduler on a two-node site of 8-CPU nodes
// with QOS lim, sacct rows given, and returns jobs.csv's (Start, State,
// Reason) by JobID.
func runLimits(t *testing.T, qos string, rows ...string) map[string][3]string {
	t.Helper()
	return runLimitsOn(t, "AccountingStorageEnforce=limits\nNodeName=c[01-02] CPUs=8 RealMemory=8000\n"+
		"PartitionName=batch Nodes=c[01-02] Default=YES\n", "Name|MaxTRESPU\nnormal|\nlim|"+qos+"\n", rows...)
}

// runLimitsOn is runLimits with a slurm.conf and QOS file of its own.
func runLimitsOn(t *testing.T, conf, qos string, rows ...string) map[string][3]string {
	t.Helper()
	return runLimitsSacct(t, conf, qos, "JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|State|SubmitLine", rows...)
}

// runLimitsSacct is runLimitsOn with sacct's header line given.
func runLimitsSacct(t *testing.T, conf, qos, header string, rows ...string) map[string][3]string {
	t.Helper()
	files := map[string]string{
		"slurm.conf": conf,
		"qos.txt":    qos,
		"sacct.txt":  header + "\n",
	}
	for _, r := range rows {
		files["sacct.txt"] += r + "\n"
	}
	csv := runSite(t, files)
	id, start, state, reason := index(csv[0], "JobID"), index(csv[0], "Start"), index(csv[0], "State"), index(csv[0], "Reason")
	pre := index(csv[0], "Preemptions")
	got := map[string][3]string{}
	for _, r := range csv[1:] {
		got[r[id]] = [3]string{r[start], r[state], r[reason]}
		if r[pre] != "0" {
			got[r[id]+" preemptions"] = [3]string{r[pre]}
		}
	}
	return got
}

// memConf is two 8-CPU nodes with DefMemPerCPU, so that a job asking
// no memory leaves the rest of a node's to others; limQOS gives QOS lim
// MaxTRESPU cpu=4.
const (
	memConf = "AccountingStorageEnforce=limits\nNodeName=c[01-02] CPUs=8 RealMemory=8000\nDefMemPerCPU=100\n" +
		"PartitionName=batch Nodes=c[01-02] Default=YES\n"
	limQOS = "Name|MaxTRESPU\nnormal|\nlim|cpu=4\n"
)

// TestLimitsCountWholeNodes: an --exclusive job's QOS limits count the
// whole nodes it is given, as select_nodes (node_scheduler.c) checks
// acct_policy_job_runnable_post_select with the job's total_cpus after
// selection. Checked on a real 22.05 controller: a -n1 --exclusive job
// under MaxTRESPerUser=cpu=4 on 8-CPU nodes pends with
// QOSMaxCpuPerUserLimit, "NumCPUs=1" in scontrol.
func TestLimitsCountWholeNodes(t *testing.T) {
	t.Run("main pass", func(t *testing.T) {
		got := runLimits(t, "cpu=4",
			"100|100|u1|a1|lim|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 --exclusive job.sh",
			"101|101|u2|a1|lim|2026-01-05T08:00:01|2026-01-05T08:00:01|2026-01-05T08:10:01|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 job.sh")
		if g := got["100"]; g != [3]string{"", "PENDING", "QOSMaxCpuPerUserLimit"} {
			t.Errorf("job 100 (-n1 --exclusive, 8 CPUs given, MaxTRESPU cpu=4): (Start, State, Reason) %v; want never started, QOSMaxCpuPerUserLimit", g)
		}
		// The held job blocks nobody (job_scheduler.c: only
		// assoc_limit_stop makes an accounting-policy failure block):
		// 101 starts in the same main pass, batch_sched_delay (3 s)
		// after the submits, not at the first backfill cycle.
		if g := got["101"]; g[0] != "3" || g[1] != "COMPLETED" {
			t.Errorf("job 101 (Start, State, Reason) %v; want started at 3 by the main pass", g)
		}
	})
	t.Run("placed in one pass", func(t *testing.T) {
		// A whole node and a 1-CPU job of one user in one pass: the
		// first, once placed, counts its 8 CPUs (acct_policy_job_begin
		// adds tres_alloc_cnt), so the second waits for its end (at 603,
		// and its node's epilog: 604).
		got := runLimits(t, "cpu=8",
			"200|200|u1|a1|lim|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 --exclusive job.sh",
			"201|201|u1|a1|lim|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 job.sh")
		if got["200"][0] != "3" || got["201"][0] != "604" {
			t.Errorf("jobs 200 (a whole 8-CPU node), 201 (1 CPU), MaxTRESPU cpu=8, started at %q, %q; want 3 and 604 (after 200 ends)", got["200"][0], got["201"][0])
		}
	})
	t.Run("backfill", func(t *testing.T) {
		// 301 (two whole nodes) waits for 300 and blocks the main pass:
		// 302 and 303 can only be backfilled into c02 before 301's
		// reservation. 302's whole node breaks its limit, so backfill
		// skips it (backfill.c: ESLURM_ACCOUNTING_POLICY from
		// _start_job) and 303 takes its place.
		got := runLimits(t, "cpu=4",
			"300|300|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 job.sh",
			"301|301|u3|a1|normal|2026-01-05T08:00:01|2026-01-05T08:00:01|2026-01-05T08:10:01|00:10:00|00:20:00|16|COMPLETED|sbatch -N 2 -n 16 -t 20 --exclusive job.sh",
			"302|302|u1|a1|lim|2026-01-05T08:00:02|2026-01-05T08:00:02|2026-01-05T08:05:02|00:05:00|00:05:00|1|COMPLETED|sbatch -n 1 -t 5 --exclusive job.sh",
			"303|303|u4|a1|normal|2026-01-05T08:00:03|2026-01-05T08:00:03|2026-01-05T08:05:03|00:05:00|00:05:00|1|COMPLETED|sbatch -n 1 -t 5 job.sh")
		if g := got["302"]; g != [3]string{"", "PENDING", "QOSMaxCpuPerUserLimit"} {
			t.Errorf("job 302 (-n1 --exclusive behind a blocked top job, MaxTRESPU cpu=4): %v; want never started, QOSMaxCpuPerUserLimit", g)
		}
		if g := got["301"]; g[0] != "604" {
			t.Errorf("job 301 started at %q; want 604, once 300 has ended", g[0])
		}
		if g := got["303"]; g[1] != "COMPLETED" || g[0] != "30" {
			t.Errorf("job 303 (Start, State, Reason) %v; want backfilled by the first cycle, at 30", g)
		}
	})
	t.Run("busy", func(t *testing.T) {
		// 501 cannot start now (500 holds part of both nodes). Slurm
		// still checks the limits on its test-only selection, a whole
		// 8-CPU node: the accounting-policy failure replaces Resources
		// and does not block the partition, so 502 starts in the next
		// main pass on the CPUs 500 leaves, not after 500 ends.
		got := runLimitsOn(t, memConf, limQOS,
			"500|500|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|12|COMPLETED|sbatch -n 12 -t 20 job.sh",
			"501|501|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 --exclusive job.sh",
			"502|502|u3|a1|normal|2026-01-05T08:01:01|2026-01-05T08:01:01|2026-01-05T08:10:00|00:10:00|00:30:00|1|COMPLETED|sbatch -n 1 -t 30 job.sh")
		if g := got["501"]; g != [3]string{"", "PENDING", "QOSMaxCpuPerUserLimit"} {
			t.Errorf("job 501: %v; want never started, QOSMaxCpuPerUserLimit", g)
		}
		if g := got["502"]; g[0] != "63" {
			t.Errorf("job 502 started at %q; want 63, by the main pass after its submit", g[0])
		}
	})
	t.Run("busy, billing of a shared job", func(t *testing.T) {
		// A job sharing nodes that cannot start now is checked on its
		// request, billing included: select_nodes weighs tres_req_cnt
		// (assoc_mgr_tres_weighted; without TRESBillingWeights, the
		// CPUs) even when it selected nothing. 501's 5 CPUs bill 5 over
		// MaxTRESPU billing=4: held, blocking nobody, so 502 starts in
		// the next main pass. Checked on a real 22.05 controller (two
		// 8-CPU nodes, sbatch -n 12 / -n 5 -q lim / -n 1): 501 pends on
		// QOSMaxBillingPerUser, 502 runs with Flags=SchedMain.
		got := runLimitsOn(t, memConf, "Name|MaxTRESPU\nnormal|\nlim|billing=4\n",
			"500|500|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|12|COMPLETED|sbatch -n 12 -t 20 job.sh",
			"501|501|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:10:00|00:10:00|00:20:00|5|COMPLETED|sbatch -n 5 -t 20 job.sh",
			"502|502|u3|a1|normal|2026-01-05T08:01:01|2026-01-05T08:01:01|2026-01-05T08:10:00|00:10:00|00:30:00|1|COMPLETED|sbatch -n 1 -t 30 job.sh")
		if g := got["501"]; g != [3]string{"", "PENDING", "QOSMaxBillingPerUser"} {
			t.Errorf("job 501 (-n 5, MaxTRESPU billing=4): %v; want never started, QOSMaxBillingPerUser", g)
		}
		if g := got["502"]; g[0] != "63" {
			t.Errorf("job 502 started at %q; want 63, by the main pass after its submit", g[0])
		}
	})
	t.Run("busy, GPUs in the request's billing", func(t *testing.T) {
		// The same with GPUs weighed: 701 asks 1 CPU and 1 GPU, billed
		// 1 + 10 over MaxTRESPU billing=10 while 700 holds both GPUs.
		// 702 (CPUs only) starts in the main pass after its submit.
		got := runLimitsOn(t, "AccountingStorageEnforce=limits\nAccountingStorageTRES=gres/gpu\nGresTypes=gpu\n"+
			"NodeName=g01 CPUs=8 RealMemory=8000 Gres=gpu:2\nDefMemPerCPU=100\nPartitionName=gpu Nodes=g01 Default=YES TRESBillingWeights=\"CPU=1.0,GRES/gpu=10\"\n",
			"Name|MaxTRESPU\nnormal|\nlim|billing=10\n",
			"700|700|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|2|COMPLETED|sbatch -n 2 --gres=gpu:2 -t 20 job.sh",
			"701|701|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:06:00|00:05:00|00:10:00|1|COMPLETED|sbatch -n 1 --gres=gpu:1 -t 10 job.sh",
			"702|702|u3|a1|normal|2026-01-05T08:01:01|2026-01-05T08:01:01|2026-01-05T08:06:01|00:05:00|00:10:00|1|COMPLETED|sbatch -n 1 -t 10 job.sh")
		if g := got["701"]; g != [3]string{"", "PENDING", "QOSMaxBillingPerUser"} {
			t.Errorf("job 701 (1 CPU + 1 GPU billed 11, MaxTRESPU billing=10): %v; want never started, QOSMaxBillingPerUser", g)
		}
		if g := got["702"]; g[0] != "63" {
			t.Errorf("job 702 started at %q; want 63, by the main pass after its submit", g[0])
		}
	})
	t.Run("busy, memory of a job asking none", func(t *testing.T) {
		// Without DefMemPerCPU or DefMemPerNode a job asking no memory
		// counts, before it has nodes, the memory of the partition's
		// first node (job_get_tres_mem, _mem_per_node_part): 501's
		// 16000 MB break MaxTRESPU mem=10000 while 500 keeps it from
		// starting, so it is held, blocking nobody, and 502 starts in
		// the next main pass. Checked on a real 22.05 controller (two
		// 8-CPU 16000 MB nodes, no DefMemPerCPU): 501 pends on
		// QOSMaxMemoryPerUser with TRES mem=16000M, 502 starts at once.
		got := runLimitsSacct(t, "AccountingStorageEnforce=limits\nNodeName=c[01-02] CPUs=8 RealMemory=16000\n"+
			"PartitionName=batch Nodes=c[01-02] Default=YES\n", "Name|MaxTRESPU\nnormal|\nlim|mem=10000\n",
			"JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|ReqMem|State|SubmitLine",
			"500|500|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|12|100Mc|COMPLETED|sbatch -n 12 --mem-per-cpu=100 -t 20 job.sh",
			"501|501|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:10:00|00:10:00|00:20:00|1||COMPLETED|sbatch -n 1 -t 20 job.sh",
			"502|502|u3|a1|normal|2026-01-05T08:01:01|2026-01-05T08:01:01|2026-01-05T08:10:00|00:10:00|00:30:00|1|100Mc|COMPLETED|sbatch -n 1 --mem-per-cpu=100 -t 30 job.sh")
		if g := got["501"]; g != [3]string{"", "PENDING", "QOSMaxMemoryPerUser"} {
			t.Errorf("job 501 (no memory asked, MaxTRESPU mem=10000): %v; want never started, QOSMaxMemoryPerUser", g)
		}
		if g := got["502"]; g[0] != "63" {
			t.Errorf("job 502 started at %q; want 63, by the main pass after its submit", g[0])
		}
	})
	t.Run("memory of a job asking none, on a smaller node", func(t *testing.T) {
		// c01 has 32000 MB, c02 16000. 600 fills c01's CPUs; 601 asks
		// no memory under MaxTRESPU mem=20000 and fits now on c02:
		// select_nodes counts the 16000 MB it is given (job_resrcs),
		// not the first node's 32000, so it starts at once. The check
		// before selection counts the smallest node's memory, which no
		// allocation undercuts.
		got := runLimitsSacct(t, "AccountingStorageEnforce=limits\nNodeName=c01 CPUs=8 RealMemory=32000\nNodeName=c02 CPUs=8 RealMemory=16000\n"+
			"PartitionName=batch Nodes=c[01-02] Default=YES\n", "Name|MaxTRESPU\nnormal|\nlim|mem=20000\n",
			"JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|ReqMem|State|SubmitLine",
			"600|600|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|8|100Mc|COMPLETED|sbatch -n 8 --mem-per-cpu=100 -t 20 job.sh",
			"601|601|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:10:00|00:10:00|00:20:00|1||COMPLETED|sbatch -n 1 -t 20 job.sh")
		if g := got["601"]; g[0] != "60" || g[1] != "COMPLETED" {
			t.Errorf("job 601 (no memory asked, 16000 MB on c02, MaxTRESPU mem=20000): %v; want started at once, at 60", g)
		}
	})
	t.Run("busy, memory of a job asking none, first node larger", func(t *testing.T) {
		// The same two nodes, both partly busy (700: 12 CPUs at 100 MB
		// each): 701, asking no memory, cannot start now. Without
		// nodes select_nodes counts the first node's 32000 MB, over
		// MaxTRESPU mem=20000: held, blocking nobody, and 702 starts in
		// the next main pass, not at the first backfill cycle.
		got := runLimitsSacct(t, "AccountingStorageEnforce=limits\nNodeName=c01 CPUs=8 RealMemory=32000\nNodeName=c02 CPUs=8 RealMemory=16000\n"+
			"PartitionName=batch Nodes=c[01-02] Default=YES\n", "Name|MaxTRESPU\nnormal|\nlim|mem=20000\n",
			"JobID|JobIDRaw|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|ReqMem|State|SubmitLine",
			"700|700|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|12|100Mc|COMPLETED|sbatch -n 12 --mem-per-cpu=100 -t 20 job.sh",
			"701|701|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:10:00|00:10:00|00:20:00|1||COMPLETED|sbatch -n 1 -t 20 job.sh",
			"702|702|u3|a1|normal|2026-01-05T08:01:01|2026-01-05T08:01:01|2026-01-05T08:10:00|00:10:00|00:30:00|1|100Mc|COMPLETED|sbatch -n 1 --mem-per-cpu=100 -t 30 job.sh")
		if g := got["701"]; g != [3]string{"", "PENDING", "QOSMaxMemoryPerUser"} {
			t.Errorf("job 701: %v; want never started, QOSMaxMemoryPerUser", g)
		}
		if g := got["702"]; g[0] != "63" {
			t.Errorf("job 702 started at %q; want 63, by the main pass after its submit", g[0])
		}
	})
	t.Run("no reservation", func(t *testing.T) {
		// 599 (a whole node, blocking the main pass) reserves c01 from
		// 603. 601's whole node would break its limit: backfill.c checks
		// the nodes a reservation takes first and makes none, so c02
		// stays free of reservations and 602 backfills there at once
		// rather than waiting for 601's reservation to pass.
		got := runLimitsOn(t, memConf, limQOS,
			"600|600|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|12|COMPLETED|sbatch -n 12 -t 20 job.sh",
			"599|599|u5|a1|normal|2026-01-05T08:00:30|2026-01-05T08:00:30|2026-01-05T08:10:00|00:10:00|00:20:00|8|COMPLETED|sbatch -n 8 -t 20 --exclusive job.sh",
			"601|601|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:10:00|00:10:00|00:20:00|1|COMPLETED|sbatch -n 1 -t 20 --exclusive job.sh",
			"602|602|u3|a1|normal|2026-01-05T08:01:01|2026-01-05T08:01:01|2026-01-05T08:10:00|00:10:00|00:20:00|4|COMPLETED|sbatch -n 4 -t 20 job.sh")
		if g := got["601"]; g != [3]string{"", "PENDING", "QOSMaxCpuPerUserLimit"} {
			t.Errorf("job 601: %v; want never started, QOSMaxCpuPerUserLimit", g)
		}
		if g := got["602"]; g[0] != "90" {
			t.Errorf("job 602 started at %q; want 90, backfilled on c02", g[0])
		}
	})
	t.Run("preemption for GPUs", func(t *testing.T) {
		// 701 asks 1 CPU and 1 GPU: billed 1 + 10 = 11 over its QOS's
		// MaxTRESPU billing=10. The nodes it would take by preempting
		// 700 are checked with the GPUs it asks (Slurm weights
		// tres_req_cnt with them), so 700 is not requeued, again and
		// again, for a job that cannot start.
		got := runLimitsOn(t, "AccountingStorageEnforce=limits\nAccountingStorageTRES=gres/gpu\nGresTypes=gpu\nPreemptType=preempt/qos\nPreemptMode=REQUEUE\n"+
			"NodeName=g01 CPUs=8 RealMemory=8000 Gres=gpu:2\nDefMemPerCPU=100\nPartitionName=gpu Nodes=g01 Default=YES TRESBillingWeights=\"CPU=1.0,GRES/gpu=10\"\n",
			"Name|Priority|Preempt|MaxTRESPU\nnormal|0||\nlim|100|normal|billing=10\n",
			"700|700|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|2|COMPLETED|sbatch -n 2 --gres=gpu:2 -t 20 job.sh",
			"701|701|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:06:00|00:05:00|00:10:00|1|COMPLETED|sbatch -n 1 --gres=gpu:1 -t 10 job.sh")
		if g := got["700"]; g != [3]string{"3", "COMPLETED", ""} || got["700 preemptions"] != [3]string{} {
			t.Errorf("job 700: %v, preemptions %v; want started at 3, never preempted", g, got["700 preemptions"])
		}
		if g := got["701"]; g != [3]string{"", "PENDING", "QOSMaxBillingPerUser"} {
			t.Errorf("job 701: %v; want never started, QOSMaxBillingPerUser", g)
		}
	})
	t.Run("preemption for typed GPUs", func(t *testing.T) {
		// 801's request (1 CPU, 1 A100: 1 + 10) passes MaxTRESPU
		// billing=12, but the whole node it would take by preempting
		// 800 bills its 8 CPUs plus the A100 it asks, weighed as
		// GRES/gpu:a100 (the typed TRES select_nodes sets from the
		// request): 18, over the limit, so 800 is not requeued.
		got := runLimitsOn(t, "AccountingStorageEnforce=limits\nAccountingStorageTRES=gres/gpu:a100\nGresTypes=gpu\nPreemptType=preempt/qos\nPreemptMode=REQUEUE\n"+
			"NodeName=g01 CPUs=8 RealMemory=8000 Gres=gpu:a100:2\nDefMemPerCPU=100\nPartitionName=gpu Nodes=g01 Default=YES TRESBillingWeights=\"CPU=1.0,GRES/gpu:a100=10\"\n",
			"Name|Priority|Preempt|MaxTRESPU\nnormal|0||\nlim|100|normal|billing=12\n",
			"800|800|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|2|COMPLETED|sbatch -n 2 --gres=gpu:a100:2 -t 20 job.sh",
			"801|801|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:06:00|00:05:00|00:10:00|1|COMPLETED|sbatch -n 1 --gres=gpu:a100:1 --exclusive -t 10 job.sh")
		if g := got["800"]; g != [3]string{"3", "COMPLETED", ""} || got["800 preemptions"] != [3]string{} {
			t.Errorf("job 800: %v, preemptions %v; want started at 3, never preempted", g, got["800 preemptions"])
		}
		if g := got["801"]; g != [3]string{"", "PENDING", "QOSMaxBillingPerUser"} {
			t.Errorf("job 801: %v; want never started, QOSMaxBillingPerUser", g)
		}
	})
	t.Run("preemption", func(t *testing.T) {
		// 401's request (1 CPU) passes, but the whole node it would
		// take by preempting 400 breaks MaxTRESPU cpu=4: select_nodes
		// checks the limits after selection and before _preempt_jobs,
		// so 400 is not requeued for a job that could not start.
		got := runLimitsOn(t, "AccountingStorageEnforce=limits\nPreemptType=preempt/qos\nPreemptMode=REQUEUE\n"+
			"NodeName=c01 CPUs=8 RealMemory=8000\nPartitionName=batch Nodes=c01 Default=YES\n",
			"Name|Priority|Preempt|MaxTRESPU\nnormal|0||\nlim|100|normal|cpu=4\n",
			"400|400|u2|a1|normal|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|8|COMPLETED|sbatch -n 8 -t 20 job.sh",
			"401|401|u1|a1|lim|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:06:00|00:05:00|00:10:00|1|COMPLETED|sbatch -n 1 -t 10 --exclusive job.sh")
		if g := got["400"]; g != [3]string{"3", "COMPLETED", ""} || got["400 preemptions"] != [3]string{} {
			t.Errorf("job 400 (Start, State, Reason) %v, preemptions %v; want started at 3, never preempted", g, got["400 preemptions"])
		}
		if g := got["401"]; g != [3]string{"", "PENDING", "QOSMaxCpuPerUserLimit"} {
			t.Errorf("job 401 (-n1 --exclusive preemptor, MaxTRESPU cpu=4): %v; want never started, QOSMaxCpuPerUserLimit", g)
		}
	})
}

// TestLimitRefusedKeepsStart: a reservation that
// acct_policy_job_runnable_post_select refuses leaves the will-run test's
// start as the job's start_time (backfill.c _attempt_backfill continues
// without clearing it), so under bf_one_resv_per_job the job's later
// partitions test now only. 602 (-p a,b, --exclusive, QOS cpu=4) could
// start in a at 1203 on c01, a whole 8-CPU node over its limit: refused.
// Its record in b (c02, 4 CPUs, free at 603) then makes no reservation,
// and 603 (-p b, 30 min) is backfilled beside 601 at once; without the
// option 602 holds c02 from 603 and 603 waits until 602 has run (ending at 904).
func TestLimitRefusedKeepsStart(t *testing.T) {
	const conf = "AccountingStorageEnforce=limits\nNodeName=c01 CPUs=8 RealMemory=8000\nNodeName=c02 CPUs=4 RealMemory=4000\nDefMemPerCPU=100\n" +
		"PartitionName=a Nodes=c01 Default=YES\nPartitionName=b Nodes=c02\n"
	rows := []string{
		"600|600|u2|a1|normal|a|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:20:00|00:20:00|00:20:00|1|COMPLETED|sbatch -p a -n 1 -t 20 job.sh",
		"601|601|u3|a1|normal|b|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:10:00|1|COMPLETED|sbatch -p b -n 1 -t 10 job.sh",
		"602|602|u1|a1|lim|a,b|2026-01-05T08:00:01|2026-01-05T08:00:01|2026-01-05T08:05:01|00:05:00|00:05:00|1|COMPLETED|sbatch -p a,b -n 1 -t 5 --exclusive job.sh",
		"603|603|u4|a1|normal|b|2026-01-05T08:00:02|2026-01-05T08:00:02|2026-01-05T08:30:02|00:30:00|00:30:00|1|COMPLETED|sbatch -p b -n 1 -t 30 job.sh",
	}
	const header = "JobID|JobIDRaw|User|Account|QOS|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|State|SubmitLine"
	for _, tc := range []struct {
		params, start603 string
	}{{"", "905"}, {"SchedulerParameters=bf_one_resv_per_job\n", "30"}} {
		got := runLimitsSacct(t, conf+tc.params, "Name|MaxTRESPU\nnormal|\nlim|cpu=4\n", header, rows...)
		if g := got["603"]; g[0] != tc.start603 {
			t.Errorf("%q: job 603 (Start, State, Reason) %v; want started at %s (602: %v)", tc.params, g, tc.start603, got["602"])
		}
	}
}
