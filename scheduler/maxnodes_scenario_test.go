package scheduler

import (
	"testing"

	"fairsim/policy/fairshare"
	"fairsim/sim"
)

// oneUserDump is an association tree of one account a with one user u.
const oneUserDump = "Cluster - 'c':Fairshare=1\nParent - 'root'\nAccount - 'a':Fairshare=1\nParent - 'a'\nUser - 'u':Fairshare=1\n"

// runQOS runs jobs under the slurm scheduler on four nodes of 8 CPUs and
// 16000 MB with partitions parts and QOS file qos, for oneUserDump's
// single user.
func runQOS(t *testing.T, parts []sim.PartitionSpec, qos string, jobs []tjob) (*sim.Cluster, *sim.Result, map[int64]*sim.Job) {
	t.Helper()
	c := cluster(t, []sim.NodeSpec{nodes("n", 4, 8, 16000)}, parts)
	res, by := run(t, c, NewSlurm(DefaultParams()), jobs, 0, mfPolicy(t, oneUserDump, qos, fairshare.Config{HalfLife: 86400}))
	return c, res, by
}

// TestPartitionMaxNodes: a partition's MaxNodes as slurmctld applies it
// (node_scheduler.c get_node_cnts: a job's max_nodes is capped at the
// partition's; min_nodes above it is ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE,
// reason PartitionNodeLimit), checked on the 22.05 harness with the same
// nodes and partitions: 4 nodes x 8 CPUs; batch over n1-n4, prio over
// n3-n4 with MaxNodes=1, two over n1-n4 with MaxNodes=2. All submitted
// at 0, the first main pass at 3:
//
//	job 1 prio -n 12: 12 CPUs on one 8-CPU node never fit; sbatch says
//	      "Requested node configuration is not available": refused.
//	job 2 prio -N 2: PartitionNodeLimit for good: refused (counted).
//	job 3 prio -n 6 (100 s): n3, the first of the tightest nodes.
//	job 4 prio -n 6 (200 s): n4 (n3 has 2 CPUs left).
//	job 5 prio -n 4: n3 and n4 have 2 free each; uncapped it would
//	      start on both at 3, capped at one node it waits for job 3's
//	      end at 103 and starts on n3 (the harness: Reason=Resources,
//	      StartTime at job 9's end).
//	job 6 prio,batch -N 2: prio cannot take it, batch starts it at 3 on
//	      n1-n2 (the harness ran it in batch on n[1-2]).
//	job 7 two -n 20: two nodes give at most 16 CPUs: refused.
//	job 8 two -n 16: at most two nodes, so two idle ones: n1-n2 hold
//	      job 6 until 53 and n3-n4 are busy; it starts at 53 on n1-n2
//	      (the harness: Reason=Resources).
func TestPartitionMaxNodes(t *testing.T) {
	prio, two := part("prio", "n3", "n4"), part("two")
	prio.MaxNodes, two.MaxNodes = 1, 2
	c := cluster(t, []sim.NodeSpec{nodes("n", 4, 8, 16000)}, []sim.PartitionSpec{part("batch"), prio, two})
	res, by := run(t, c, NewSlurm(DefaultParams()), []tjob{
		{id: 1, part: "prio", cpus: 12, run: 50, limit: 60},
		{id: 2, part: "prio", cpus: 2, nodes: 2, run: 50, limit: 60},
		{id: 3, part: "prio", cpus: 6, run: 100, limit: 120},
		{id: 4, part: "prio", cpus: 6, run: 200, limit: 240},
		{id: 5, part: "prio", cpus: 4, run: 50, limit: 120},
		{id: 6, part: "prio", plist: "prio,batch", cpus: 2, nodes: 2, run: 50, limit: 60},
		{id: 7, part: "two", cpus: 20, run: 50, limit: 60},
		{id: 8, part: "two", cpus: 16, run: 50, limit: 60},
	}, 0, nil)
	for id, class := range map[int64]string{1: "bigger than its partition", 2: "nodes over partition MaxNodes", 7: "bigger than its partition"} {
		if j := by[id]; j.State != sim.Rejected || j.Start != -1 {
			t.Errorf("job %d: state %v start %d, want refused (%s)", id, j.State, j.Start, class)
		}
	}
	if res.Rejected["nodes over partition MaxNodes"] != 1 || res.Rejected["bigger than its partition"] != 2 {
		t.Errorf("refusals %v, want 1 nodes over partition MaxNodes and 2 bigger than its partition", res.Rejected)
	}
	names := func(j *sim.Job) (s string) {
		for _, sl := range j.Alloc {
			s += c.Nodes[sl.Node].Name
		}
		return s
	}
	for _, w := range []struct {
		id          int64
		start       int64
		part, nodes string
	}{
		{3, 3, "prio", "n3"}, {4, 3, "prio", "n4"}, {5, 103, "prio", "n3"},
		{6, 3, "batch", "n1n2"}, {8, 53, "two", "n1n2"},
	} {
		j := by[w.id]
		if j.Start != w.start || c.Parts[j.Part].Name != w.part || names(j) != w.nodes {
			t.Errorf("job %d started at %d in %s on %s, want %d in %s on %s", w.id, j.Start, c.Parts[j.Part].Name, names(j), w.start, w.part, w.nodes)
		}
	}
}

// TestQOSLiftsPartitionLimits: a QOS with Flags=PartitionMaxNodes lets
// its jobs that ask a node count past a partition's MaxNodes
// (get_node_cnts keeps the job's own max_nodes; job_limits_check lets it
// queue), and one with Flags=PartitionTimeLimit past its MaxTime. prio
// is n3-n4 with MaxNodes=1 and MaxTime=5:00 (300 s); QOS long has both
// flags, normal none. All submitted at 0, first pass at 3:
//
//	job 1 long, -N 2, 2 CPUs: runs at 3 on n3 and n4.
//	job 2 normal, -N 2: refused (nodes over partition MaxNodes).
//	job 3 long, 16 CPUs, no -N: a job without a node count gets the
//	      partition's MaxNodes whatever its QOS (get_node_cnts), and one
//	      8-CPU node cannot hold it: refused at submission, as the 22.05
//	      harness refused -n 20 of such a QOS in a MaxNodes=2 partition
//	      of 8-CPU nodes ("Requested node configuration is not
//	      available").
//	job 4 normal, limit 600 s: refused (time limit over partition MaxTime).
//	job 5 long, 8 CPUs, no -N, limit 600 s (over MaxTime): runs when
//	      job 1 ends, at 53, with its 600 s limit.
func TestQOSLiftsPartitionLimits(t *testing.T) {
	prio := part("prio", "n3", "n4")
	prio.MaxNodes, prio.MaxTime = 1, 300
	const qos = "Name|Priority|Flags\nnormal|0|\nlong|0|PartitionMaxNodes,PartitionTimeLimit\n"
	c, res, by := runQOS(t, []sim.PartitionSpec{part("batch"), prio}, qos, []tjob{
		{id: 1, part: "prio", qos: "long", cpus: 2, nodes: 2, run: 50, limit: 60},
		{id: 2, part: "prio", qos: "normal", cpus: 2, nodes: 2, run: 50, limit: 60},
		{id: 3, part: "prio", qos: "long", cpus: 16, run: 100, limit: 120},
		{id: 4, part: "prio", qos: "normal", cpus: 1, run: 100, limit: 600},
		{id: 5, part: "prio", qos: "long", cpus: 8, run: 100, limit: 600},
	})
	want := map[string]int{"nodes over partition MaxNodes": 1, "time limit over partition MaxTime": 1, "bigger than its partition": 1}
	for class, n := range want {
		if res.Rejected[class] != n {
			t.Errorf("refusals %v, want one each of %v (jobs 2, 4 and 3)", res.Rejected, want)
			break
		}
	}
	for id, w := range map[int64]struct {
		start int64
		nodes int
	}{1: {3, 2}, 5: {53, 1}} {
		if j := by[id]; j.Start != w.start || len(j.Alloc) != w.nodes || c.Parts[j.Part].Name != "prio" || id == 5 && j.TimeLimit != 600 {
			t.Errorf("job %d started at %d on %d nodes in %s, want %d on %d in prio", id, j.Start, len(j.Alloc), c.Parts[j.Part].Name, w.start, w.nodes)
		}
	}
	for _, id := range []int64{2, 3, 4} {
		if j := by[id]; j.State != sim.Rejected {
			t.Errorf("job %d: %v, want refused", id, j.State)
		}
	}
}

// TestEnforcePartLimitsAll: sbatch -p a,b with a 600 s limit, where a has
// MaxTime=300 s and b none (one 4-CPU node each). Under the default
// (EnforcePartLimits=NO, and ANY) the job runs in b, the partition whose
// limits it keeps, at the first pass (3); under ALL, slurmctld refuses it
// at submission, as it breaks a's limit (job_mgr.c
// _select_nodes_parts_resvs: ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE).
func TestEnforcePartLimitsAll(t *testing.T) {
	for _, all := range []bool{false, true} {
		a, b := part("a", "n1"), part("b", "n2")
		a.MaxTime = 300
		c := cluster(t, []sim.NodeSpec{nodes("n", 2, 4, 16000)}, []sim.PartitionSpec{a, b})
		res, by := runWith(t, c, NewSlurm(DefaultParams()), []tjob{
			{id: 1, part: "a", plist: "a,b", cpus: 2, run: 100, limit: 600},
		}, sim.Options{EnforcePartLimitsAll: all}, nil)
		j := by[1]
		switch {
		case !all && (j.Start != 3 || c.Parts[j.Part].Name != "b"):
			t.Errorf("EnforcePartLimits=NO: job started at %d in %s (%v), want 3 in b", j.Start, c.Parts[j.Part].Name, j.State)
		case all && (j.State != sim.Rejected || res.Rejected["time limit over partition MaxTime"] != 1):
			t.Errorf("EnforcePartLimits=ALL: job %v, refusals %v; want refused over a's MaxTime", j.State, res.Rejected)
		}
	}
}

// TestMaxNodesRetry: a job a partition's MaxNodes caps goes through
// choose_nodes' retry without the nodes of fewest CPUs, as a -N job does
// (cons_tres job_test.c choose_nodes: "incrementally remove nodes with
// low resource counts"). Partition two (MaxNodes=2) over four 8-CPU
// nodes; job 1 (3 CPUs, 1000 s) holds n1 from 3. Job 2 (two, 16 CPUs)
// at 10: _eval_nodes' one set n1-n4 takes n1's 5 CPUs first, and with
// one node left none holds the other 11; without n1 (5 CPUs or fewer)
// n2 and n3 give 8 + 8: it starts at 10 there, where it used to wait for
// job 1 (a differential run, h50mix2: 171 pairs before).
func TestMaxNodesRetry(t *testing.T) {
	two := part("two")
	two.MaxNodes = 2
	c := cluster(t, []sim.NodeSpec{nodes("n", 4, 8, 16000)}, []sim.PartitionSpec{two})
	_, by := run(t, c, NewSlurm(DefaultParams()), []tjob{
		{id: 1, part: "two", cpus: 3, run: 1000, limit: 1200},
		{id: 2, submit: 10, part: "two", cpus: 16, run: 100, limit: 200},
	}, 0, nil)
	j := by[2]
	var names string
	for _, sl := range j.Alloc {
		names += c.Nodes[sl.Node].Name
	}
	if j.Start != 10 || names != "n2n3" {
		t.Errorf("job 2 started at %d on %s, want 10 on n2n3", j.Start, names)
	}
}

// TestLiftedMaxNodesNeedsANodeCount: the QOS lift of a partition's
// MaxNodes as the 22.05 harness showed it (MaxNodes=2, 4 nodes x 8 CPUs,
// QOS long with Flags=PartitionMaxNodes; job 1's limit 20 minutes there).
// Job 1 (long, -N 4 -n 8) runs at once on all four nodes, past the limit.
// Job 2 (normal, -n 16) may use two nodes, too few free CPUs while job 1
// runs: it waits for job 1's end. Job 3 (long, -n 16, no -N) waits with
// it: get_node_cnts gives a job without a node count the partition's
// MaxNodes whatever its QOS (squeue: Priority, StartTime at job 1's
// end), though three nodes would hold it. Job 4 (long, -N 3 -n 16)
// backfills at once on three nodes (the harness ran it at its first
// backfill cycle). fairsim lifted the limit for job 3 too. Job 5 is a
// trace's job 3: sacct's ReqNodes 1.
func TestLiftedMaxNodesNeedsANodeCount(t *testing.T) {
	two := part("two")
	two.MaxNodes = 2
	const qos = "Name|Priority|Flags\nnormal|0|\nlong|0|PartitionMaxNodes\n"
	_, _, by := runQOS(t, []sim.PartitionSpec{two}, qos, []tjob{
		{id: 1, part: "two", qos: "long", cpus: 8, nodes: 4, run: 1000, limit: 1100},
		{id: 2, part: "two", qos: "normal", cpus: 16, run: 50, limit: 60},
		{id: 3, part: "two", qos: "long", cpus: 16, run: 50, limit: 60},
		{id: 4, part: "two", qos: "long", cpus: 16, nodes: 3, run: 50, limit: 60},
		{id: 5, part: "two", qos: "long", cpus: 16, nodes: 1, minOnly: true, run: 50, limit: 60},
	})
	if j := by[1]; j.Start != 3 || len(j.Alloc) != 4 {
		t.Fatalf("job 1 started at %d on %d nodes, want 3 on 4", j.Start, len(j.Alloc))
	}
	for _, id := range []int64{2, 3} {
		if j := by[id]; j.Start != 1003 || len(j.Alloc) != 2 {
			t.Errorf("job %d started at %d on %d nodes, want 1003 (job 1's end) on 2", id, j.Start, len(j.Alloc))
		}
	}
	if j := by[4]; j.Start >= 1000 || len(j.Alloc) != 3 {
		t.Errorf("job 4 started at %d on %d nodes, want before job 1's end on 3", j.Start, len(j.Alloc))
	}
	// A trace's ReqNodes of 1 (sacct) says nothing of -N: job 5 is job
	// 3 again, after jobs 2 and 3.
	if j := by[5]; j.Start != 1053 || len(j.Alloc) != 2 {
		t.Errorf("job 5 (ReqNodes 1) started at %d on %d nodes, want 1053 on 2", j.Start, len(j.Alloc))
	}
}

// TestPartitionMinNodes: a partition's MinNodes as slurmctld applies it
// (get_node_cnts: min_nodes = max(the job's, the partition's), which is
// then req_nodes too; _part_access_check: a job's -N under it is
// ESLURM_INVALID_NODE_COUNT, reason PartitionNodeLimit), checked on the
// 22.05 harness: 4 nodes x 8 CPUs, big over all four with MinNodes=2,
// QOS flex with Flags=PartitionMinNodes.
//
//	job 1 -n 1 at 0: at 3 on n1 and n2 with a CPU each (NumCPUs=2).
//	job 2 -n 12 at 0: at 3 on n1 (its 7 free) and n2 (5).
//	job 3 -n 20 at 200: at once on n1, n2 (8 each) and n3 (4).
//	job 4 -N 1 at 200: PartitionNodeLimit for good: refused (counted).
//	job 5 -N 3 -n 3 at 200: only n3 and n4 have a free CPU: waits for
//	      job 3's end at 300 (the harness: Reason=Resources).
//	job 6 flex -N 1 -n 2 at 400: its QOS lifts MinNodes: one node.
//	job 7 flex -n 2 at 400: no -N: _valid_job_part raised its min_nodes
//	      to MinNodes at submission whatever its QOS, so it spreads as
//	      without the flag (the harness ran such a job on two nodes).
func TestPartitionMinNodes(t *testing.T) {
	big := part("big")
	big.MinNodes = 2
	const qos = "Name|Priority|Flags\nnormal|0|\nflex|0|PartitionMinNodes\n"
	c, res, by := runQOS(t, []sim.PartitionSpec{big}, qos, []tjob{
		{id: 1, part: "big", qos: "normal", cpus: 1, run: 100, limit: 120},
		{id: 2, part: "big", qos: "normal", cpus: 12, run: 100, limit: 120},
		{id: 3, submit: 200, part: "big", qos: "normal", cpus: 20, run: 100, limit: 120},
		{id: 4, submit: 200, part: "big", qos: "normal", cpus: 1, nodes: 1, run: 50, limit: 60},
		{id: 5, submit: 200, part: "big", qos: "normal", cpus: 3, nodes: 3, run: 50, limit: 60},
		{id: 6, submit: 400, part: "big", qos: "flex", cpus: 2, nodes: 1, run: 50, limit: 60},
		{id: 7, submit: 400, part: "big", qos: "flex", cpus: 2, run: 50, limit: 60},
	})
	if j := by[4]; j.State != sim.Rejected || res.Rejected["nodes under partition MinNodes"] != 1 || len(res.Rejected) != 1 {
		t.Errorf("job 4: %v, refusals %v; want it refused as nodes under partition MinNodes, alone", j.State, res.Rejected)
	}
	wantStarts(t, c, by, []startOn{
		{1, 3, "n1:1 n2:1"}, {2, 3, "n1:7 n2:5"}, {3, 200, "n1:8 n2:8 n3:4"}, {5, 300, "n1:1 n2:1 n3:1"},
		{6, 400, "n1:2"}, {7, 400, "n1:1 n2:1"},
	})
}

// TestMinNodesOfAPartitionList: a job of -p big,small without -N gets the
// smaller MinNodes of the two as its min_nodes (_valid_job_part), 1 here,
// and big's MinNodes=2 then refuses it there (_part_access_check in
// job_limits_check: PartitionNodeLimit), however idle big is: it waits
// for small's one node. 4 nodes x 8 CPUs; big over all with MinNodes=2,
// small over n1.
//
//	job 1 small -n 8 (100 s): at the first pass (3) on n1.
//	job 2 -p big,small -n 2: not in big; at 103 in small on n1.
//	job 3 big -n 2: at 3 on two nodes of big, a CPU each.
func TestMinNodesOfAPartitionList(t *testing.T) {
	big := part("big")
	big.MinNodes = 2
	c := cluster(t, []sim.NodeSpec{nodes("n", 4, 8, 16000)}, []sim.PartitionSpec{big, part("small", "n1")})
	_, by := run(t, c, NewSlurm(DefaultParams()), []tjob{
		{id: 1, part: "small", cpus: 8, run: 100, limit: 120},
		{id: 2, part: "big", plist: "big,small", cpus: 2, run: 50, limit: 60},
		{id: 3, part: "big", cpus: 2, run: 50, limit: 60},
	}, 0, nil)
	for _, w := range []struct {
		id          int64
		start       int64
		part, nodes string
	}{{1, 3, "small", "n1"}, {2, 103, "small", "n1"}, {3, 3, "big", "n2n3"}} {
		j := by[w.id]
		got := ""
		for _, sl := range j.Alloc {
			got += c.Nodes[sl.Node].Name
		}
		if j.Start != w.start || c.Parts[j.Part].Name != w.part || got != w.nodes {
			t.Errorf("job %d started at %d in %s on %s, want %d in %s on %s", w.id, j.Start, c.Parts[j.Part].Name, got, w.start, w.part, w.nodes)
		}
	}
}
