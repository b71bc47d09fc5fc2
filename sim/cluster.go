package sim

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"fairsim/policy"
)

// Unlimited marks a time limit (MaxTime, DefaultTime) that is not set,
// Slurm's UNLIMITED/INFINITE.
const Unlimited int64 = -1

// Node is one compute node. Free counters change as jobs start and end.
//
// The fields every allocation and will-run move reads come first, so that
// they share a cache line or two: a 5,544-node cluster's records (150
// bytes each) do not fit in a core's cache, and a move touches a node
// record per slice.
type Node struct {
	State     NodeState
	Cores     int   // CPUs Slurm may allocate
	MemMB     int64 // RealMemory
	FreeCores int
	FreeMem   int64
	rank      int   // position in allocation order (Weight, then index)
	parts     []int // partitions that contain the node
	Name      string
	Type      int // index into Cluster.Types
	Weight    int // Slurm node Weight (32-bit): lower is allocated first
	// Gres are the node's generic resources (Gres=gpu:a100:4), at most
	// MaxNodeGres kinds.
	Gres []NodeGres
	// held is what a node that allocates nothing keeps out of play: its
	// free resources when it left service, and what its jobs gave back
	// since; RESUME frees it.
	held heldRes
}

// Partition is a named set of nodes with its Slurm attributes.
type Partition struct {
	Name              string
	Nodes             []int // node indices, in allocation order (Weight, then index)
	PriorityTier      int   // queue order and partition_prio preemption (default 1)
	PriorityJobFactor int   // the partition priority factor (default 1)
	MaxTime           int64 // seconds, Unlimited when not set
	// MaxNodes is the most nodes one job may take here (slurm.conf
	// MaxNodes), 0 when unlimited (Slurm's default): a job asking more
	// can never run in the partition (PartitionNodeLimit), and one that
	// gives no node count is placed on at most this many.
	MaxNodes int
	// MinNodes is the fewest nodes a job may take here (slurm.conf
	// MinNodes), 0 or 1 for no floor: a job that gives no node count is
	// spread over at least this many, each with at least one of its
	// CPUs, and one asking fewer can never run here (PartitionNodeLimit).
	MinNodes int
	// MaxCPUsPerNode caps the CPUs this partition's jobs together hold on
	// one node (slurm.conf MaxCPUsPerNode), 0 when unlimited (partcap.go).
	MaxCPUsPerNode int
	// OverTime is how long a job may run past its time limit before the
	// time-limit check kills it (slurm.conf OverTimeLimit, the
	// partition's else the cluster's), seconds; Unlimited: a year
	// (overRun).
	OverTime    int64
	DefaultTime int64 // seconds, Unlimited when not set
	Exclusive   bool  // OverSubscribe=EXCLUSIVE: jobs get whole nodes
	PreemptMode policy.PreemptMode
	// GraceTime is the seconds a job this partition's preemption
	// (preempt/partition_prio) stops runs on first.
	GraceTime int64
	QOS       string
	Default   bool
	// BillingWeights holds TRESBillingWeights as given, for the policy
	// layer; empty means per-CPU-type defaults.
	BillingWeights string
	// State is UP, DOWN (jobs queue, none starts), DRAIN (no new
	// submissions; queued jobs run) or INACTIVE (neither).
	State PartState
	// Access lists as slurmctld keeps them (nil: no restriction). An
	// Allow list wins over its Deny list, as in partition_mgr.c.
	AllowAccounts, DenyAccounts, AllowQOS, DenyQOS, AllowGroups []string
	// Memory defaults and caps in MB (0: unset), the partition's own or
	// else the cluster's: DefMemPerCPU/DefMemPerNode give memory to jobs
	// that ask none, MaxMemPerCPU/MaxMemPerNode cap what they may ask.
	DefMemPerCPU, DefMemPerNode, MaxMemPerCPU, MaxMemPerNode int64

	TotalCores   int
	MaxNodeCores int
	FreeCores    int
	// DefMemPerGPU and DefCPUPerGPU (0: unset), the partition's or else
	// the cluster's: memory and CPUs a job gets per GPU it asks for.
	DefMemPerGPU int64
	DefCPUPerGPU int
	// GPUs counts the GPUs on the partition's nodes.
	GPUs   int
	member []bool // indexed by node
	// memberBits is member as a bitmap by node index, for will-run tests.
	memberBits []uint64
	// rankBits is member as a bitmap by allocation rank, for placement
	// over the free-level index.
	rankBits []uint64
	shapes   []shape // classes of identical nodes, for Capacity
}

// Cluster is the hardware: CPU types, nodes and partitions.
type Cluster struct {
	Types []CPUType
	Nodes []Node
	Parts []Partition
	// RefSpeed is the speed of the CPU type the trace was measured on.
	RefSpeed float64
	// ScaleRuntime stretches runtimes by RefSpeed/node speed when true.
	ScaleRuntime bool
	// ScaleLimit stretches time limits with runtimes, as a user who knows
	// the hardware would ask for more time on slower nodes; without it a
	// trace's limits are wall-clock on any node and jobs on slow nodes
	// time out.
	ScaleLimit bool
	// KillWait is slurm.conf's KillWait in seconds, which a will-run test
	// adds to the end of a job past its limit (releaseAt); the simulator
	// sets it under the time-limit check (Options.KillWait).
	KillWait int64
	// wall is the Unix time of simulated time 0 (the trace's
	// UnixStartTime): Slurm rounds on the wall clock (will-run windows,
	// bf_resolution), so the simulation does too.
	wall int64

	TotalCores int
	FreeCores  int
	// GresKinds are the GRES kinds on the cluster's nodes, in the order
	// first seen; Node.Gres and GresNeed masks index them.
	GresKinds []GresKind
	// GPUs counts the GPUs of all nodes, FreeGPUs those free (nodes that
	// allocate nothing hold theirs); DownGPUs those of such nodes.
	GPUs, FreeGPUs, DownGPUs int
	// TRESGres are the GRES accounting tracks as TRES (TrackTRES).
	TRESGres []TRESGres
	// DownCores are the cores of nodes in a state that allocates nothing
	// (DOWN, DRAIN, FAIL, FUTURE): they are neither free nor busy.
	DownCores int
	// MemDefault says what memory a job that asks none takes.
	MemDefault MemDefault
	freeBits   []uint64 // by allocation rank: the node has a free core
	byRank     []int    // node index by allocation rank
	// rankWeight is each rank's node Weight: evalSets reads it for every
	// run of free nodes, where the node's own record is a cache miss.
	rankWeight []int
	buckets    [][]int // scratch: candidate nodes by usable cores
	gleft      []int   // scratch: per-job GRES a placement still needs
	// evNodes, evAvail and evSets are evalNodes' scratch: the nodes a
	// job could use with their usable CPUs, and their consecutive sets.
	evNodes, evAvail []int
	// evOrig, evWork, evKeep and evOrder are evalCount's: the nodes'
	// usable CPUs as its tries leave them, a try's copy, the nodes kept,
	// and the nodes in index order.
	evOrig, evWork, evOrder []int
	evKeep                  []bool
	// capUsable is Capacity's scratch: usable CPUs and count per shape.
	capUsable [][2]int
	evSets    []consecSet
	// evGPU, evSetGPU, evChosen, evUse and evCPUs are evalPerJob's: the
	// nodes' free GRES, the sets' GRES, the nodes taken with their usable
	// CPUs, and the CPUs the tasks give each.
	evGPU, evSetGPU, evChosen, evUse, evCPUs []int
	// evRem is evalDrive's count of what is left to place: a local
	// would escape through the fill function, one allocation a test.
	evRem evalRem
	// memTight counts the nodes whose free memory is less than their
	// free cores' share of it (FreeMem×Cores < FreeCores×MemMB): while
	// none is, a request for a core's share of memory can use every free
	// core, and placement reads free cores from the free-level index.
	memTight int
	// nodeHash is NodeHash's sum, kept by take, give and SetNodeState
	// once hashing (the first NodeHash) is on.
	nodeHash uint64
	hashing  bool
	// contig marks, by allocation rank, the nodes that follow the node
	// of the rank before in index order with the same Weight: the links
	// of cons_tres's consecutive node sets.
	contig []uint64
	// resvFrom is, per node, the start of a maintenance reservation that
	// holds it (nil when the run has none): a placement that would still
	// run then leaves the node out (allocEnd is the placement's end).
	resvFrom []int64
	allocEnd int64
	// resvWin is, per node, the user reservations that hold it (nil when
	// the run has none); allocResv the reservation the placement being
	// tried asked for.
	resvWin   [][]resvWindow
	allocResv int32
	resvs     []resvDef // the events file's reservations that are not MAINT
	// Now is the simulated time of the current pass, for reservations.
	Now      int64
	maxCores int
	except   []bool // nodes out of play for the current TryAllocExcept
	// willRunGiven is WillRun's scratch: the holders it gave back.
	willRunGiven []int
	// play, while a will-run test runs, is its nodes in play of the type
	// asked by allocation rank (nil otherwise): placement looks no further.
	// playIdx is its nodes in play by index, playFree the free cores of
	// play; playRank is play's storage, playIdxBuf playIdx's (playIdx is
	// the caller's set where setPlay takes it as it is).
	play, playIdx, playRank, playIdxBuf []uint64
	playFree                            int
	// playT is the nodes in play of the type asked by index (playRank
	// itself when allocation order is index order, else playTIdx).
	playT, playTIdx []uint64
	// ones is a bitmap of every node, for evalSets to read where no
	// nodes in play or type narrow the usable ones.
	ones []uint64
	// Scratch of willRunMonotone: its tests, a probe's allocation and
	// the first fitting one's.
	wrPts   []wrPoint
	wrProbe Alloc
	wrBest  Alloc
	// sink, while a will-run test asked for nodes only (WillRunNodes)
	// places on a shadow, receives the nodes evalDrive takes, as a
	// bitmap by node index, in place of their slices. wrSink is its
	// storage, wrBestNodes the nodes of the first fitting probe.
	sink, wrSink, wrBestNodes []uint64
	// downBits are the nodes that allocate nothing, typeBits each CPU
	// type's nodes (both by node index); rankIsIndex says allocation
	// order is index order (no Weight sets nodes apart).
	downBits    []uint64
	typeBits    [][]uint64
	rankIsIndex bool
	exceptFn    func(int) bool
	partIndex   map[string]int
	// seen/seenGen mark the nodes of the allocation Plan.Start checks, so
	// finding a node allocated twice is one look per slice, not a scan of
	// the slices before it.
	seen    []uint32
	seenGen uint32
	fl      freeLevels  // nodes by free cores (freelevel.go)
	sh      shadowState // for a will-run shadow (shadow.go)
	// cg, cgN and inWillRun: the COMPLETING nodes of a log replay
	// (completing.go).
	cg        []int32
	cgN       int
	inWillRun bool
	caps      partCaps // partitions' MaxCPUsPerNode (partcap.go)
}

// NodeSpec describes a group of identical nodes for NewCluster.
type NodeSpec struct {
	Names  []string
	Type   string // CPU type name or alias
	Cores  int
	MemMB  int64
	Weight int
	State  NodeState
	Gres   []GresCount // Gres=, e.g. gpu:a100:4
}

// PartitionSpec describes a partition for NewCluster. Nodes lists node
// names; nil means all nodes.
type PartitionSpec struct {
	Partition
	NodeNames []string
}

// NewCluster validates and builds a cluster. Types lists the CPU types in
// use (registry entries, possibly with overridden weights or speeds).
func NewCluster(types []CPUType, nodes []NodeSpec, parts []PartitionSpec, refType string, scale bool) (*Cluster, error) {
	c := &Cluster{Types: types, ScaleRuntime: scale, partIndex: map[string]int{}}
	typeIdx := map[string]int{}
	for i, t := range types {
		if t.Speed <= 0 {
			return nil, fmt.Errorf("CPU type %s: speed %g must be positive", t.Name, t.Speed)
		}
		typeIdx[t.Name] = i
	}
	ref, err := LookupCPUType(refType)
	if err != nil {
		return nil, fmt.Errorf("reference CPU: %w", err)
	}
	c.RefSpeed = ref.Speed
	if i, ok := typeIdx[ref.Name]; ok {
		c.RefSpeed = types[i].Speed
	}
	nodeIdx := map[string]int{}
	for _, ns := range nodes {
		if err := c.addNodes(ns, typeIdx, nodeIdx); err != nil {
			return nil, err
		}
	}
	if len(c.Nodes) == 0 {
		return nil, fmt.Errorf("cluster has no nodes")
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("cluster has no partitions")
	}
	for _, ps := range parts {
		if err := c.addPartition(ps, nodeIdx); err != nil {
			return nil, err
		}
	}
	if err := c.index(); err != nil {
		return nil, err
	}
	return c, nil
}

// addNodes adds a group of identical nodes after checking its type and
// sizes.
func (c *Cluster) addNodes(ns NodeSpec, typeIdx, nodeIdx map[string]int) error {
	t, err := LookupCPUType(ns.Type)
	if err != nil {
		return fmt.Errorf("nodes %s: %w", firstName(ns.Names), err)
	}
	ti, ok := typeIdx[t.Name]
	if !ok {
		return fmt.Errorf("nodes %s: CPU type %s is not among the cluster's types", firstName(ns.Names), t.Name)
	}
	if ns.Cores <= 0 || ns.Cores >= 1<<20 {
		return fmt.Errorf("nodes %s: CPUs must be in 1..%d, got %d", firstName(ns.Names), 1<<20-1, ns.Cores)
	}
	if ns.MemMB < 0 {
		return fmt.Errorf("nodes %s: RealMemory must not be negative, got %d", firstName(ns.Names), ns.MemMB)
	}
	gres, err := c.nodeGres(firstName(ns.Names), ns.Gres)
	if err != nil {
		return err
	}
	for _, name := range ns.Names {
		if _, dup := nodeIdx[name]; dup {
			return fmt.Errorf("node %s defined twice", name)
		}
		nodeIdx[name] = len(c.Nodes)
		c.Nodes = append(c.Nodes, Node{Name: name, Type: ti, Cores: ns.Cores, MemMB: ns.MemMB,
			Weight: ns.Weight, State: ns.State, FreeCores: ns.Cores, FreeMem: ns.MemMB, Gres: slices.Clone(gres)})
	}
	return nil
}

// addPartition adds a partition over its nodes (all when NodeNames is
// nil), in allocation order (Weight, then index), with its totals and its
// classes of identical nodes, and Slurm's defaults for PriorityTier and
// PriorityJobFactor.
func (c *Cluster) addPartition(ps PartitionSpec, nodeIdx map[string]int) error {
	p := ps.Partition
	if _, dup := c.partIndex[p.Name]; dup {
		return fmt.Errorf("partition %s defined twice", p.Name)
	}
	p.member = make([]bool, len(c.Nodes))
	p.Nodes = nil
	if ps.NodeNames == nil {
		for i := range c.Nodes {
			p.Nodes = append(p.Nodes, i)
		}
	} else {
		for _, n := range ps.NodeNames {
			i, ok := nodeIdx[n]
			if !ok {
				return fmt.Errorf("partition %s: unknown node %s", p.Name, n)
			}
			if !p.member[i] {
				p.Nodes = append(p.Nodes, i)
			}
			p.member[i] = true
		}
	}
	p.memberBits = make([]uint64, (len(c.Nodes)+63)/64)
	for _, i := range p.Nodes {
		p.memberBits[i>>6] |= 1 << (i & 63)
	}
	sort.SliceStable(p.Nodes, func(a, b int) bool {
		na, nb := &c.Nodes[p.Nodes[a]], &c.Nodes[p.Nodes[b]]
		if na.Weight != nb.Weight {
			return na.Weight < nb.Weight
		}
		return p.Nodes[a] < p.Nodes[b]
	})
	for _, i := range p.Nodes {
		nd := &c.Nodes[i]
		p.member[i] = true
		p.TotalCores += nd.Cores
		p.MaxNodeCores = max(p.MaxNodeCores, nd.Cores)
		found := false
		for k := range p.shapes {
			if sh := &p.shapes[k]; sh.typ == nd.Type && sh.cores == nd.Cores && sh.mem == nd.MemMB && sh.gres == gresSig(nd.Gres) {
				sh.count++
				found = true
			}
		}
		if !found {
			p.shapes = append(p.shapes, shape{typ: nd.Type, cores: nd.Cores, count: 1, mem: nd.MemMB, gres: gresSig(nd.Gres), node: i})
		}
		p.GPUs += c.gpusOf(i, c.wholeTake(i))
	}
	p.FreeCores = p.TotalCores
	if p.PriorityTier == 0 {
		p.PriorityTier = 1
	}
	if p.PriorityJobFactor == 0 {
		p.PriorityJobFactor = 1
	}
	c.partIndex[p.Name] = len(c.Parts)
	c.Parts = append(c.Parts, p)
	return nil
}

// index links nodes to their partitions, checks the cluster's size and
// node weights, and builds the free-node bitset over allocation order.
func (c *Cluster) index() error {
	for pi := range c.Parts {
		for _, n := range c.Parts[pi].Nodes {
			c.Nodes[n].parts = append(c.Nodes[n].parts, pi)
		}
	}
	if len(c.Nodes) >= 1<<24 || len(c.Types) > 255 {
		return fmt.Errorf("cluster too large: %d nodes (at most %d)", len(c.Nodes), 1<<24-1)
	}
	if len(c.Parts) > 1<<15-1 {
		// The shadows' journal keeps a change's partition in 16 bits.
		return fmt.Errorf("cluster too large: %d partitions (at most %d)", len(c.Parts), 1<<15-1)
	}
	for i := range c.Nodes {
		if c.Nodes[i].Weight < 0 || c.Nodes[i].Weight > 1<<32-1 {
			return fmt.Errorf("node %s: Weight %d out of range 0..%d", c.Nodes[i].Name, c.Nodes[i].Weight, 1<<32-1)
		}
		c.maxCores = max(c.maxCores, c.Nodes[i].Cores)
		c.TotalCores += c.Nodes[i].Cores
		c.GPUs += c.gpusOf(i, c.wholeTake(i))
		c.byRank = append(c.byRank, i)
	}
	// Free nodes are a bitset over allocation order (Weight, then index),
	// the order every partition allocates in: placement scans them in that
	// order without sorting, and a node becoming busy or free costs O(1).
	sort.SliceStable(c.byRank, func(a, b int) bool { return c.order(c.byRank[a], c.byRank[b]) < 0 })
	c.freeBits = make([]uint64, (len(c.Nodes)+63)/64)
	c.rankIsIndex = true
	c.downBits = make([]uint64, len(c.freeBits))
	c.typeBits = make([][]uint64, len(c.Types))
	for t := range c.typeBits {
		c.typeBits[t] = make([]uint64, len(c.freeBits))
	}
	c.rankWeight = make([]int, len(c.byRank))
	for r, n := range c.byRank {
		c.Nodes[n].rank = r
		c.rankWeight[r] = c.Nodes[n].Weight
		c.freeBits[r/64] |= 1 << (r % 64)
		c.rankIsIndex = c.rankIsIndex && r == n
		if t := c.Nodes[n].Type; t >= 0 && t < len(c.typeBits) {
			c.typeBits[t][n>>6] |= 1 << (n & 63)
		}
	}
	c.buckets = make([][]int, c.maxCores+1)
	c.contig = make([]uint64, len(c.freeBits))
	for r := 1; r < len(c.byRank); r++ {
		a, b := &c.Nodes[c.byRank[r-1]], &c.Nodes[c.byRank[r]]
		if c.byRank[r] == c.byRank[r-1]+1 && a.Weight == b.Weight {
			c.contig[r>>6] |= 1 << (r & 63)
		}
	}
	for i := range c.Nodes {
		if c.Nodes[i].memTight() {
			c.memTight++
		}
	}
	c.indexLevels()
	if err := c.indexCaps(); err != nil {
		return err
	}
	c.FreeCores = c.TotalCores
	c.FreeGPUs = c.GPUs
	// A node that allocates nothing holds all its resources for good, so
	// no placement, fit test or backfill profile ever counts it free.
	for i := range c.Nodes {
		if !c.Nodes[i].State.Usable() {
			c.holdFree(i)
			c.downBits[i>>6] |= 1 << (i & 63)
		}
	}
	return nil
}

func firstName(names []string) string {
	if len(names) == 0 {
		return "(unnamed)"
	}
	if len(names) == 1 {
		return names[0]
	}
	return names[0] + "…"
}

// Partition returns the index of the named partition.
func (c *Cluster) Partition(name string) (int, bool) {
	i, ok := c.partIndex[name]
	return i, ok
}

// DefaultPartition is the partition marked Default, else the first.
func (c *Cluster) DefaultPartition() int {
	for i := range c.Parts {
		if c.Parts[i].Default {
			return i
		}
	}
	return 0
}

// InPartition reports whether node n belongs to partition p.
func (c *Cluster) InPartition(p, n int) bool { return c.Parts[p].member[n] }

// Speed is the per-core speed of node n.
func (c *Cluster) Speed(n int) float64 { return c.Types[c.Nodes[n].Type].Speed }

// UsableNodes sets dst, a bitmap by node index of the cluster's words,
// to the nodes that allocate (State.Usable): a backfill cycle's nodes in
// service, without reading every node.
func (c *Cluster) UsableNodes(dst []uint64) {
	for w := range dst {
		dst[w] = ^c.downBits[w]
	}
	if r := len(c.Nodes) % 64; r != 0 {
		dst[len(dst)-1] &= 1<<r - 1
	}
}

// NodeHash is an order-free hash of every node's free cores, free
// memory and state: equal hashes say the nodes are as they were (a
// backfill cycle's answers carry over). It is kept as they change, so a
// cycle does not read every node for it.
func (c *Cluster) NodeHash() uint64 {
	if !c.hashing {
		c.hashing, c.nodeHash = true, c.recountNodeHash()
	}
	return c.nodeHash
}

func (c *Cluster) recountNodeHash() uint64 {
	var h uint64
	for n := range c.Nodes {
		nd := &c.Nodes[n]
		h += nodeKey(n, nd.FreeCores, nd.FreeMem, nd.State)
	}
	return h + c.capHash()
}

// nodeKey is node n's term of NodeHash.
func nodeKey(n, free int, mem int64, st NodeState) uint64 {
	return mix64(uint64(n)<<40^uint64(free)<<20^uint64(st)) ^ mix64(uint64(mem)+uint64(n))
}

// mix64 is splitmix64's finaliser: a well-spread hash of one word.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// take and give move resources in and out of use, keeping the free-node
// set and the per-partition free-core counts in step. p is the partition
// of the job they are for (-1 for none: a node's own hold), whose
// MaxCPUsPerNode count they keep.
func (c *Cluster) take(n, p, cores int, mem int64, g GresTake) {
	c.record(n, delta{int32(n), int16(p), true, cores, mem, g})
	if c.caps.of != nil {
		c.capMove(p, n, cores)
	}
	nd := &c.Nodes[n]
	if c.hashing {
		c.nodeHash += nodeKey(n, nd.FreeCores-cores, nd.FreeMem-mem, nd.State) - nodeKey(n, nd.FreeCores, nd.FreeMem, nd.State)
	}
	defer c.retight(nd, nd.memTight())
	c.fl.move(nd.rank, nd.FreeCores, nd.FreeCores-cores)
	nd.FreeCores -= cores
	nd.FreeMem -= mem
	if g != 0 {
		for p := range nd.Gres {
			nd.Gres[p].Free -= g.At(p)
		}
		c.FreeGPUs -= c.gpusOf(n, g)
	}
	c.FreeCores -= cores
	for _, p := range nd.parts {
		c.Parts[p].FreeCores -= cores
	}
	if nd.FreeCores == 0 {
		c.freeBits[nd.rank/64] &^= 1 << (nd.rank % 64)
	}
}

func (c *Cluster) give(n, p, cores int, mem int64, g GresTake) {
	c.record(n, delta{int32(n), int16(p), false, cores, mem, g})
	if c.caps.of != nil {
		// A job on a node out of service leaves its partition's count
		// too: only its resources go to the node's hold.
		c.capMove(p, n, -cores)
	}
	nd := &c.Nodes[n]
	if !nd.State.Usable() {
		// A drained or failed node keeps what its jobs give back.
		c.hold(n, cores, mem, g)
		return
	}
	if c.hashing {
		c.nodeHash += nodeKey(n, nd.FreeCores+cores, nd.FreeMem+mem, nd.State) - nodeKey(n, nd.FreeCores, nd.FreeMem, nd.State)
	}
	defer c.retight(nd, nd.memTight())
	c.fl.move(nd.rank, nd.FreeCores, nd.FreeCores+cores)
	nd.FreeCores += cores
	nd.FreeMem += mem
	if g != 0 {
		for p := range nd.Gres {
			nd.Gres[p].Free += g.At(p)
		}
		c.FreeGPUs += c.gpusOf(n, g)
	}
	c.FreeCores += cores
	for _, p := range nd.parts {
		c.Parts[p].FreeCores += cores
	}
	if nd.FreeCores > 0 {
		c.freeBits[nd.rank/64] |= 1 << (nd.rank % 64)
	}
}

// memTight reports whether the node's free memory is less than its free
// cores' share of it.
func (nd *Node) memTight() bool {
	return nd.FreeMem*int64(nd.Cores) < int64(nd.FreeCores)*nd.MemMB
}

// retight counts node nd in memTight again after a change; was is what
// it was before.
func (c *Cluster) retight(nd *Node, was bool) {
	if now := nd.memTight(); now != was {
		if now {
			c.memTight++
		} else {
			c.memTight--
		}
	}
}

// AppendFree appends the nodes with a free core, in allocation order.
func (c *Cluster) AppendFree(dst []int) []int {
	for wi, w := range c.freeBits {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			dst = append(dst, c.byRank[wi*64+b])
		}
	}
	return dst
}

// MaxCores is the largest node's core count.
func (c *Cluster) MaxCores() int { return c.maxCores }

// HeaderCluster builds the cluster an SWF header describes: maxNodes nodes
// sharing maxProcs cores (when they do not divide evenly, the first
// maxProcs mod maxNodes nodes get one more core, so the total is exact), of
// one CPU type, in one partition named "batch". memPerCore sizes node
// memory (MB per core).
func HeaderCluster(maxNodes, maxProcs int, cpuType string, memPerCore int64) (*Cluster, error) {
	if maxNodes <= 0 && maxProcs <= 0 {
		return nil, fmt.Errorf("the trace header gives neither MaxNodes nor MaxProcs: give a scenario with a cluster")
	}
	if maxNodes <= 0 {
		maxNodes = maxProcs
	}
	if maxProcs <= 0 {
		maxProcs = maxNodes
	}
	if maxProcs < maxNodes {
		return nil, fmt.Errorf("the trace header gives MaxProcs %d < MaxNodes %d", maxProcs, maxNodes)
	}
	// Bound the sizes before building anything: a header's word is all
	// there is, and a billion node names would exhaust memory.
	if maxNodes >= 1<<24 {
		return nil, fmt.Errorf("the trace header gives MaxNodes %d: fairsim simulates at most %d nodes; give a scenario with a cluster", maxNodes, 1<<24-1)
	}
	if maxProcs/maxNodes >= 1<<20 {
		return nil, fmt.Errorf("the trace header gives MaxProcs %d over %d nodes: more than %d CPUs a node; give a scenario with a cluster", maxProcs, maxNodes, 1<<20-1)
	}
	t, err := LookupCPUType(cpuType)
	if err != nil {
		return nil, err
	}
	per, extra := maxProcs/maxNodes, maxProcs%maxNodes
	width := len(fmt.Sprint(maxNodes))
	var specs []NodeSpec
	for i := 0; i < maxNodes; i++ {
		cores := per
		if i < extra {
			cores++
		}
		name := fmt.Sprintf("node%0*d", width, i+1)
		if n := len(specs); n > 0 && specs[n-1].Cores == cores {
			specs[n-1].Names = append(specs[n-1].Names, name)
			continue
		}
		specs = append(specs, NodeSpec{Names: []string{name}, Type: t.Name, Cores: cores, MemMB: int64(cores) * memPerCore, Weight: 1})
	}
	parts := []PartitionSpec{{Partition: Partition{Name: "batch", Default: true, MaxTime: Unlimited, DefaultTime: Unlimited}}}
	return NewCluster([]CPUType{t}, specs, parts, t.Name, false)
}

// markGen starts a new marking of nodes in seen: a node is marked when
// its seen entry equals the generation returned.
func (c *Cluster) markGen() uint32 {
	if len(c.seen) != len(c.Nodes) {
		c.seen = make([]uint32, len(c.Nodes))
		c.seenGen = 0
	}
	c.seenGen++
	if c.seenGen == 0 { // wrapped: old marks could match again
		clear(c.seen)
		c.seenGen = 1
	}
	return c.seenGen
}

// Wall is the Unix time of simulated time 0, on which Slurm's time grids
// (bf_resolution, the will-run windows) are laid.
func (c *Cluster) Wall() int64 { return c.wall }

// overRun is how long past its limit a job of partition p runs before
// the time-limit check kills it: OverTime, and for UNLIMITED a year
// (job_mgr.c job_time_limit: over_run = now - YEAR_SECONDS).
func (c *Cluster) overRun(p int) int64 {
	if over := c.Parts[p].OverTime; over != Unlimited {
		return over
	}
	return 365 * 86400
}
