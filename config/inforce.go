package config

import (
	"encoding/binary"
	"strconv"
	"strings"

	"fairsim/policy/fairshare"
	"fairsim/sim"
	"fairsim/slurmtext"
	"fairsim/slurmtime"
)

// InForce is what a run was built with, written to scenario.resolved.yaml
// so an audit needs no guesswork: every node group with the CPU type,
// speed and billing fairsim gave it, every partition with its limits, and
// the association tree's shares as built. It is output only: reading a
// resolved scenario back ignores it, and the next build writes it anew.
type InForce struct {
	// Billing says how a job's billing TRES is computed (sim.billing).
	Billing    string           `yaml:"billing"`
	CPUTypes   []CPUTypeInForce `yaml:"cpu_types"`
	Nodes      []NodeInForce    `yaml:"nodes"`
	Partitions []PartInForce    `yaml:"partitions"`
	// SharesFrom says where the associations' shares came from: the
	// assoc file, the generator, or accounts.shares over the trace.
	SharesFrom   string         `yaml:"shares_from,omitempty"`
	Associations []AssocInForce `yaml:"associations,omitempty"`
}

// CPUTypeInForce is a CPU type some node has, with the speed runtimes
// scale by and the per-core billing weight sim.billing: cpu_type uses.
type CPUTypeInForce struct {
	Name      string  `yaml:"name"`
	Speed     float64 `yaml:"speed"`
	Weight    float64 `yaml:"weight"`
	Reference bool    `yaml:"reference,omitempty"` // the trace's runtimes were measured on it
}

// NodeInForce is a run of consecutive nodes with equal attributes.
type NodeInForce struct {
	NodeName   string  `yaml:"NodeName"`
	Type       string  `yaml:"type"`
	Speed      float64 `yaml:"speed"`
	Billing    string  `yaml:"billing"` // per core, or "CPUs" (Slurm's own)
	CPUs       int     `yaml:"CPUs"`
	Gres       string  `yaml:"Gres,omitempty"`
	RealMemory int64   `yaml:"RealMemory"`
	Weight     int     `yaml:"Weight"`
	State      string  `yaml:"State"`
}

// PartInForce is a partition as simulated.
type PartInForce struct {
	PartitionName      string   `yaml:"PartitionName"`
	Nodes              string   `yaml:"Nodes"`
	State              string   `yaml:"State"`
	Default            bool     `yaml:"Default,omitempty"`
	PriorityTier       int      `yaml:"PriorityTier"`
	PriorityJobFactor  int      `yaml:"PriorityJobFactor"`
	MaxTime            string   `yaml:"MaxTime"`
	MaxNodes           int      `yaml:"MaxNodes,omitempty"`       // absent: UNLIMITED
	MinNodes           int      `yaml:"MinNodes,omitempty"`       // absent: 1
	MaxCPUsPerNode     int      `yaml:"MaxCPUsPerNode,omitempty"` // absent: UNLIMITED
	OverTimeLimit      string   `yaml:"OverTimeLimit,omitempty"`  // minutes or UNLIMITED; absent: 0
	DefaultTime        string   `yaml:"DefaultTime"`
	Exclusive          bool     `yaml:"Exclusive,omitempty"`
	PreemptMode        string   `yaml:"PreemptMode,omitempty"`
	TRESBillingWeights string   `yaml:"TRESBillingWeights"`
	QOS                string   `yaml:"QOS,omitempty"`
	AllowAccounts      []string `yaml:"AllowAccounts,omitempty"`
	DenyAccounts       []string `yaml:"DenyAccounts,omitempty"`
	AllowQos           []string `yaml:"AllowQos,omitempty"`
	DenyQos            []string `yaml:"DenyQos,omitempty"`
	AllowGroups        []string `yaml:"AllowGroups,omitempty"`
	Memory             string   `yaml:"memory"` // what jobs asking none get, and the caps
}

// AssocInForce is one association with its Fairshare as built.
type AssocInForce struct {
	Account   string `yaml:"account"`
	User      string `yaml:"user,omitempty"`
	Partition string `yaml:"partition,omitempty"`
	Parent    string `yaml:"parent,omitempty"`
	Fairshare string `yaml:"fairshare"`
}

// inForce describes the built cluster and tree.
func inForce(c *sim.Cluster, tree *fairshare.Tree, cpuTypeBilling bool, refType string) *InForce {
	f := &InForce{Billing: "slurm: TRESBillingWeights of the partition over the TRES allocated, else the CPUs of the job"}
	if cpuTypeBilling {
		f.Billing = "cpu_type: TRESBillingWeights of the partition, else the CPU-type weight of each node per core"
	}
	if ref, err := sim.LookupCPUType(refType); err == nil {
		refType = ref.Name // an alias names its registry entry
	}
	usedType := make([]bool, len(c.Types))
	for i := range c.Nodes {
		usedType[c.Nodes[i].Type] = true
	}
	for i, t := range c.Types {
		if usedType[i] {
			f.CPUTypes = append(f.CPUTypes, CPUTypeInForce{Name: t.Name, Speed: t.Speed, Weight: t.Weight, Reference: t.Name == refType})
		}
	}
	var hosts []string
	var cur *NodeInForce
	flush := func() {
		if cur != nil {
			cur.NodeName = slurmtext.Compress(hosts)
			f.Nodes = append(f.Nodes, *cur)
		}
	}
	for i := range c.Nodes {
		nd := &c.Nodes[i]
		t := c.Types[nd.Type]
		billing := "partition's TRESBillingWeights, else CPUs"
		if cpuTypeBilling && t.Name != sim.GenericCPU {
			billing = "partition's TRESBillingWeights, else " + strconv.FormatFloat(t.Weight, 'g', -1, 64) + " per core, memory at the cores' rate"
		}
		var gres []string
		for _, g := range nd.Gres {
			gres = append(gres, c.GresKinds[g.Kind].String()+":"+strconv.Itoa(g.Count))
		}
		n := NodeInForce{Type: t.Name, Speed: t.Speed, Billing: billing, CPUs: nd.Cores, Gres: strings.Join(gres, ","), RealMemory: nd.MemMB,
			Weight: nd.Weight, State: nd.State.String()}
		if cur == nil || *cur != n {
			flush()
			cur, hosts = &n, nil
		}
		hosts = append(hosts, nd.Name)
	}
	flush()
	// Partitions over the same nodes (in the same order) print the same
	// hostlist: compressed once.
	lists := map[string]string{}
	for i := range c.Parts {
		p := &c.Parts[i]
		key := make([]byte, 0, 4*len(p.Nodes))
		for _, n := range p.Nodes {
			key = binary.LittleEndian.AppendUint32(key, uint32(n))
		}
		nodes, ok := lists[string(key)]
		if !ok {
			names := make([]string, len(p.Nodes))
			for k, n := range p.Nodes {
				names[k] = c.Nodes[n].Name
			}
			nodes = slurmtext.Compress(names)
			lists[string(key)] = nodes
		}
		bw := p.BillingWeights
		if bw == "" {
			bw = "(none: the job's CPUs)"
			if cpuTypeBilling {
				bw = "(none: the CPU-type weight of each node)"
			}
		}
		pm := ""
		if p.PreemptMode.IsSet() {
			pm = p.PreemptMode.String()
		}
		f.Partitions = append(f.Partitions, PartInForce{PartitionName: p.Name, Nodes: nodes,
			State: p.State.String(), Default: p.Default, PriorityTier: p.PriorityTier, PriorityJobFactor: p.PriorityJobFactor,
			MaxTime: limitString(p.MaxTime), MaxNodes: p.MaxNodes, MinNodes: p.MinNodes, MaxCPUsPerNode: p.MaxCPUsPerNode, DefaultTime: limitString(p.DefaultTime), Exclusive: p.Exclusive,
			PreemptMode: pm, TRESBillingWeights: bw, QOS: p.QOS,
			AllowAccounts: p.AllowAccounts, DenyAccounts: p.DenyAccounts, AllowQos: p.AllowQOS, DenyQos: p.DenyQOS,
			AllowGroups: p.AllowGroups, Memory: memoryInForce(c, p), OverTimeLimit: overTimeInForce(p.OverTime)})
	}
	if tree != nil {
		for i := 1; i < tree.Len(); i++ {
			a := AssocInForce{Account: tree.Account(i), Partition: tree.Partition(i), Fairshare: sharesString(tree.Shares(i))}
			if tree.IsUser(i) {
				a.User = tree.User(i)
			} else if p := tree.Parent(i); p > 0 {
				a.Parent = tree.Account(p)
			}
			f.Associations = append(f.Associations, a)
		}
	}
	return f
}

func limitString(s int64) string {
	if s == sim.Unlimited {
		return "UNLIMITED"
	}
	return slurmtime.Format(s)
}

func sharesString(s fairshare.Shares) string {
	if s.Parent {
		return "parent"
	}
	return strconv.FormatUint(uint64(s.Raw), 10)
}

// overTimeInForce writes a partition's OverTime as slurm.conf's
// OverTimeLimit: minutes, UNLIMITED, or "" for Slurm's default 0.
func overTimeInForce(sec int64) string {
	switch {
	case sec == sim.Unlimited:
		return "UNLIMITED"
	case sec > 0:
		return strconv.FormatInt(sec/60, 10)
	}
	return ""
}

// memoryInForce says in words what memory a job asking none takes in p,
// and the caps.
func memoryInForce(c *sim.Cluster, p *sim.Partition) string {
	var parts []string
	switch {
	case c.MemDefault == sim.MemShare:
		parts = append(parts, "jobs asking none get a core's share of the node's memory per core")
	case c.MemDefault == sim.MemNone:
		parts = append(parts, "not a consumable resource (SelectTypeParameters)")
	case p.DefMemPerCPU > 0:
		parts = append(parts, "DefMemPerCPU="+strconv.FormatInt(p.DefMemPerCPU, 10))
	case p.DefMemPerNode > 0:
		parts = append(parts, "DefMemPerNode="+strconv.FormatInt(p.DefMemPerNode, 10))
	default:
		parts = append(parts, "jobs asking none get each node's whole memory (no DefMemPerCPU/DefMemPerNode)")
	}
	if p.MaxMemPerCPU > 0 {
		parts = append(parts, "MaxMemPerCPU="+strconv.FormatInt(p.MaxMemPerCPU, 10))
	}
	if p.MaxMemPerNode > 0 {
		parts = append(parts, "MaxMemPerNode="+strconv.FormatInt(p.MaxMemPerNode, 10))
	}
	return strings.Join(parts, ", ")
}

// sharesFrom says where the association tree's shares came from.
func (sc *Scenario) sharesFrom() string {
	switch {
	case sc.Assoc != "":
		return "assoc " + sc.Assoc + " (the Fairshare of each association below)"
	case sc.Generate != nil:
		return "the generated workload's tree (generate.shares)"
	}
	return "accounts.shares: " + sc.Accounts.Shares + ", one account per " + sc.Accounts.Map + " over the trace"
}
