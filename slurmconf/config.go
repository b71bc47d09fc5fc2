// Package slurmconf reads the part of slurm.conf that a scheduling
// simulation needs, in Slurm's own syntax and with Slurm's own defaults,
// so that a site can point fairsim at its real configuration file.
//
// Defaults are the ones in Slurm's code (src/common/read_config.c, the
// backfill and main scheduler plugins), not the ones in older
// documentation: every PriorityWeight* is 0, PriorityMaxAge and
// PriorityDecayHalfLife are 7 days, and so on (read_config.c
// _validate_and_set_defaults, backfill.c _load_config). Anything Slurm would refuse to start with is an error that
// names file:line and key; anything Slurm merely logs, or that fairsim does
// not simulate, is a warning.
package slurmconf

import (
	"reflect"
	"slices"
	"strings"

	"fairsim/policy"
	"fairsim/slurmtime"
)

// UnlimitedPrioritySeconds is what Slurm stores for PriorityMaxAge or
// PriorityDecayHalfLife set to UNLIMITED: it multiplies INFINITE minutes
// (-1) by 60 and keeps the result in a uint32, giving 4294967236 seconds
// (about 136 years). Keeping the number rather than a sentinel lets the age
// and decay formulas work unchanged: age never reaches 1, decay is nil.
const UnlimitedPrioritySeconds int64 = 4294967236

// Unset marks a partition DefaultTime that was not given: jobs without a
// time limit then get the partition's MaxTime.
const Unset int64 = -2

// ResetPeriod is PriorityUsageResetPeriod: when all accumulated usage is
// zeroed (priority_multifactor.c _reset_usage).
type ResetPeriod string

// The values Slurm accepts for PriorityUsageResetPeriod.
const (
	ResetNone      ResetPeriod = "NONE"
	ResetNow       ResetPeriod = "NOW"
	ResetDaily     ResetPeriod = "DAILY"
	ResetWeekly    ResetPeriod = "WEEKLY"
	ResetMonthly   ResetPeriod = "MONTHLY"
	ResetQuarterly ResetPeriod = "QUARTERLY"
	ResetYearly    ResetPeriod = "YEARLY"
)

// Enforce is AccountingStorageEnforce with Slurm's implications applied:
// limits, safe, qos and wckeys each imply associations, and safe implies
// limits.
type Enforce struct {
	Associations, Limits, QOS, Safe, WCKeys, NoJobs, NoSteps bool
}

// HasLimits reports whether association and QOS limits are enforced, which
// changes how age accrues and whether GrpTRESMins usage is tracked
// (acct_policy.c: acct_policy_handle_accrue_time and the GrpTRESMins
// checks).
func (e Enforce) HasLimits() bool { return e.Limits }

// String renders the flags in slurm.conf syntax ("" when none is set).
func (e Enforce) String() string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{
		{e.Associations, "associations"}, {e.Limits, "limits"}, {e.QOS, "qos"},
		{e.Safe, "safe"}, {e.WCKeys, "wckeys"}, {e.NoJobs, "nojobs"}, {e.NoSteps, "nosteps"},
	} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, ",")
}

// NodeGroup is one NodeName= line: a set of identical nodes, with the
// NodeName=DEFAULT values that applied to it merged in.
type NodeGroup struct {
	Names          string   // hostlist expression as written, e.g. "node[001-128]"
	Hosts          []string // Names expanded, in order
	CPUs           uint16   // given, or Sockets×CoresPerSocket×ThreadsPerCore
	Sockets        uint16   // total sockets per node (Boards×SocketsPerBoard if given so)
	CoresPerSocket uint16
	ThreadsPerCore uint16
	RealMemory     uint64     // MB; Slurm's default is 1
	Features       []string   // Feature=/Features=, comma-separated; typically names the CPU type
	Gres           string     // raw Gres= value
	GresItems      []GresItem // Gres= read (ParseGres)
	Weight         uint32     // lower weights are allocated first; default 1
	// State is the line's State= normalised as node_conf.c state_str2int
	// reads it: one of NodeStates (UNKNOWN, the default, means "as the
	// node registers", i.e. available). DownNodes lines may override it per
	// host: use Config.NodeState.
	State  string
	Reason string // Reason= as written, "" if none
}

// HasFeature reports whether the group carries feature f (case-sensitive,
// as Slurm's --constraint matching is).
func (n *NodeGroup) HasFeature(f string) bool { return slices.Contains(n.Features, f) }

// NodeStates lists the values NodeGroup.State and DownNodes.State take
// after normalisation (node_conf.c state_str2int): the base states matched
// exactly, then CLOUD, EXTERNAL, DRAIN and FAIL matched as prefixes (so
// FAILING reads as FAIL, DRAINED as DRAIN). Slurm accepts no "+"
// combinations in slurm.conf.
var NodeStates = []string{"UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE", "CLOUD", "EXTERNAL", "DRAIN", "FAIL"}

// DownNodes is a DownNodes= line: a state and reason applied to listed
// nodes after all NodeName lines (slurmctld read_config.c
// _handle_downnodes_line).
type DownNodes struct {
	Names  string   // hostlist expression as written
	Hosts  []string // Names expanded and restricted to defined nodes, in the order written
	State  string   // normalised as NodeGroup.State; DOWN unless given; UNKNOWN changes only the reason
	Reason string   // Reason= as written; Slurm's default is "Set in slurm.conf"
}

// NodeSet is a NodeSet= line: a name that partitions may use in Nodes=,
// standing for listed nodes and/or all nodes with a feature.
type NodeSet struct {
	Name    string
	Nodes   string   // hostlist expression, "" if none
	Feature string   // feature name, "" if none
	Hosts   []string // resolved members, in node definition order
}

// OverSubscribeMode is a partition's OverSubscribe= setting.
type OverSubscribeMode string

// The OverSubscribe modes Slurm accepts.
const (
	OverSubscribeNo        OverSubscribeMode = "NO"
	OverSubscribeYes       OverSubscribeMode = "YES"
	OverSubscribeForce     OverSubscribeMode = "FORCE"
	OverSubscribeExclusive OverSubscribeMode = "EXCLUSIVE" // every job gets whole nodes
)

// OverSubscribe is a partition's sharing policy with Slurm's job count per
// resource (max_share): 1 for NO, 0 for EXCLUSIVE, 4 unless given for YES
// and FORCE.
type OverSubscribe struct {
	Mode  OverSubscribeMode
	Count uint16
}

// String renders OverSubscribe in slurm.conf syntax.
func (o OverSubscribe) String() string {
	switch o.Mode {
	case OverSubscribeYes, OverSubscribeForce:
		return string(o.Mode) + ":" + itoa(int64(o.Count))
	}
	return string(o.Mode)
}

// Partition is one PartitionName= line, with PartitionName=DEFAULT values
// merged in.
type Partition struct {
	Name               string
	Nodes              string   // as written (white space turned into commas, as Slurm does), "ALL", or ""
	Hosts              []string // members, in node definition order, without duplicates
	Default            bool
	PriorityTier       uint16 // default 1; orders the queue and partition_prio preemption
	PriorityJobFactor  uint16 // default 1; the partition priority factor
	MaxTime            int64  // minutes, or slurmtime.Infinite (the default)
	DefaultTime        int64  // minutes, slurmtime.Infinite, or Unset (use MaxTime)
	OverSubscribe      OverSubscribe
	PreemptMode        policy.PreemptMode // unset: the cluster PreemptMode applies
	GraceTime          uint32             // seconds a job preempted by partition_prio runs on; default 0
	TRESBillingWeights string             // raw; parsed elsewhere
	QOS                string             // partition QOS name, "" if none
	State              string             // UP (default), DOWN, DRAIN or INACTIVE

	// Memory per job in MB, resolved as slurmctld does at submission
	// (job_mgr.c _get_def_mem, _valid_pn_min_mem): the partition's own
	// value where it gives one, else the cluster's. 0 means unset (no
	// default) for Def*, unlimited for Max*. At most one of DefMemPerCPU
	// and DefMemPerNode is non-zero (DefMemPerNode wins when both are
	// given, as read_config.c), likewise for MaxMemPerCPU/MaxMemPerNode.
	// Source.Keys "PartitionName=<Name>.DefMemPerCPU" (etc.) cite the line
	// that gave the value, which is the cluster key's line when inherited.
	DefMemPerCPU, DefMemPerNode uint64
	MaxMemPerCPU, MaxMemPerNode uint64
	DefCPUPerGPU                uint64 // CPUs per GPU, 0 unset; partition's else cluster's
	DefMemPerGPU                uint64 // MB per GPU, 0 unset; partition's else cluster's

	// Access lists as slurmctld keeps them: nil means no restriction
	// (absent, or ALL). Account and QOS names are lower-cased, as
	// read_config.c does; groups are kept as written. When both Allow and
	// Deny are given Slurm ignores Deny (and logs an error), so Deny is nil
	// then and a warning says so.
	AllowAccounts, DenyAccounts []string
	AllowQOS, DenyQOS           []string
	AllowGroups                 []string

	// Attributes kept so nothing is lost; the simulation does not apply
	// them yet (they are listed in Config.Ignored when given).
	Hidden        bool
	RootOnly      bool
	ReqResv       bool
	ExclusiveUser bool   // read from the partition's own line only, as Slurm does
	MinNodes      uint32 // default 0
	// MaxNodes is simulated: the most nodes one job may take.
	MaxNodes       uint32 // Infinite32 (the default) means unlimited; never 0
	MaxCPUsPerNode uint32 // Infinite32 (the default) means unlimited
	// OverTimeLimit is the minutes a job may run past its time limit
	// before the time-limit check kills it: the partition's own, else
	// the cluster's OverTimeLimit; Infinite16 for UNLIMITED.
	OverTimeLimit uint16
}

// Infinite16 is Slurm's INFINITE16 (OverTimeLimit=UNLIMITED).
const Infinite16 uint16 = 1<<16 - 1

// Infinite32 is Slurm's INFINITE for 32-bit limits (MaxNodes,
// MaxCPUsPerNode): no limit.
const Infinite32 uint32 = 1<<32 - 1

// Config is the simulated part of a slurm.conf, fully defaulted.
type Config struct {
	ClusterName string // lower-cased, as Slurm does

	PriorityType             string // priority/multifactor (default) or priority/basic
	PriorityFlags            string // raw; "" means absent, i.e. FAIR_TREE only
	PriorityWeightAge        uint32
	PriorityWeightAssoc      uint32
	PriorityWeightFairshare  uint32
	PriorityWeightJobSize    uint32
	PriorityWeightPartition  uint32
	PriorityWeightQOS        uint32
	PriorityWeightTRES       string      // raw; "" means no TRES term
	PriorityMaxAge           int64       // seconds (whole minutes, or UnlimitedPrioritySeconds)
	PriorityDecayHalfLife    int64       // seconds; 0 means no decay
	PriorityCalcPeriod       int64       // seconds, at least 60
	PriorityUsageResetPeriod ResetPeriod // NONE unless given
	PriorityFavorSmall       bool
	FairShareDampeningFactor uint16 // classic fair-share only

	SchedulerType        string // sched/backfill (default) or sched/builtin
	SchedulerParameters  SchedulerParameters
	SelectType           string // raw, default select/cons_tres
	SelectTypeParameters string // raw, "" if absent
	PreemptType          string // preempt/none (default), preempt/partition_prio or preempt/qos
	PreemptMode          policy.PreemptMode
	// PreemptExemptTime is how long a job runs before it may be preempted,
	// in seconds (-1: unset), overridden by its QOS's
	// (acct_policy_get_preemptable_time).
	PreemptExemptTime int64
	// PreemptYoungestFirst orders preemption candidates by start time,
	// youngest first (SchedulerParameters=preempt_youngest_first in
	// 22.05's preempt.c, PreemptParameters=youngest_first from 23.02).
	PreemptYoungestFirst bool

	AccountingStorageEnforce Enforce
	// AccountingStorageTRES is the raw list of TRES tracked beyond the
	// default ones ("gres/gpu,gres/gpu:a100"); see TrackedTRES.
	AccountingStorageTRES string
	// GresTypes is the raw GresTypes list ("gpu,mps").
	GresTypes string

	// Cluster-wide memory per job in MB (see Partition for the resolved
	// per-partition values): 0 means unset for Def*, unlimited for Max*;
	// DefMemPerNode beats DefMemPerCPU, MaxMemPerNode beats MaxMemPerCPU.
	DefMemPerCPU, DefMemPerNode uint64
	MaxMemPerCPU, MaxMemPerNode uint64
	DefCPUPerGPU                uint64 // 0 unset
	DefMemPerGPU                uint64 // MB, 0 unset

	KillWait       uint16 // seconds between SIGTERM and SIGKILL at time limit; default 30
	OverTimeLimit  uint16 // minutes a job may overrun its limit; default 0; Infinite16 for UNLIMITED
	CompleteWait   uint16 // seconds; default 0
	MessageTimeout uint16 // seconds; default 10 (sets the max_sched_time default)

	NodeSets   []NodeSet
	Nodes      []NodeGroup // one per NodeName line, in file order
	Partitions []Partition // in file order
	DownNodes  []DownNodes // in file order; applied after the nodes (see NodeState)

	// Ignored lists, once each and sorted, every key and node or
	// partition attribute given in the file that the simulation does not
	// use, as "Key (file:line)" with the first line that set it, e.g.
	// "AccountingStorageType (slurm.conf:12)", "NodeName.Gres
	// (slac.conf:3)", "PartitionName.Hidden (x.conf:40)". Parse adds one
	// warning that lists them all. Not part of the value (see Equal).
	Ignored []string

	// Extra holds the other valid slurm.conf keys the simulation does not
	// use, by canonical name, so that Write can reproduce them for audits.
	Extra map[string]string

	// Source records where each value came from; it is not part of the
	// configuration's value (see Equal).
	Source Source
	// Warnings lists what Slurm accepts but a user probably did not mean,
	// and what the simulation ignores. Not part of the value either.
	Warnings []Warning
}

// Source is the provenance of a parsed Config.
//
// Keys maps a key to the line that set it. Top-level keys use their
// canonical spelling ("PriorityWeightAge", "SchedulerParameters"); node and
// partition lines use "NodeName=<Names>" and "PartitionName=<Name>", and
// their attributes "PartitionName=<Name>.MaxTime" (which may point at a
// PartitionName=DEFAULT line). Keys not present took Slurm's default.
type Source struct {
	File string
	Keys map[string]Pos
}

// Where returns the position that set key (see Source), or the zero Pos,
// which prints as "default".
func (c *Config) Where(key string) Pos { return c.Source.Keys[key] }

// Default returns the configuration Slurm runs with when slurm.conf sets
// nothing: no nodes, no partitions, code defaults everywhere else.
func Default() *Config {
	return &Config{
		PriorityType:             "priority/multifactor",
		PriorityMaxAge:           7 * 86400,
		PriorityDecayHalfLife:    7 * 86400,
		PriorityCalcPeriod:       300,
		PriorityUsageResetPeriod: ResetNone,
		FairShareDampeningFactor: 1,
		SchedulerType:            "sched/backfill",
		SchedulerParameters:      DefaultSchedulerParameters(10),
		SelectType:               "select/cons_tres",
		PreemptType:              "preempt/none",
		PreemptMode:              policy.PreemptOff,
		PreemptExemptTime:        -1,
		KillWait:                 30,
		MessageTimeout:           10,
		Extra:                    map[string]string{},
		Source:                   Source{Keys: map[string]Pos{}},
	}
}

// Equal reports whether two configurations have the same values, ignoring
// Source and Warnings: a Config written by Write and parsed again is Equal
// to the original.
func (c *Config) Equal(o *Config) bool {
	a, b := *c, *o
	a.Source, b.Source = Source{}, Source{}
	a.Warnings, b.Warnings = nil, nil
	a.Ignored, b.Ignored = nil, nil
	if len(a.Extra) == 0 {
		a.Extra = nil
	}
	if len(b.Extra) == 0 {
		b.Extra = nil
	}
	return reflect.DeepEqual(a, b)
}

// NodeGroupOf returns the group that defines host, so per-node attributes
// (CPUs, features, memory) can be looked up by name.
func (c *Config) NodeGroupOf(host string) (*NodeGroup, bool) {
	for i := range c.Nodes {
		if slices.Contains(c.Nodes[i].Hosts, host) {
			return &c.Nodes[i], true
		}
	}
	return nil, false
}

// NodeState returns host's state as slurmctld holds it after reading the
// file: its NodeName line's State, changed by every DownNodes line naming
// it (a DownNodes State=UNKNOWN changes nothing). It returns "" when no
// NodeName line defines host.
func (c *Config) NodeState(host string) string {
	g, ok := c.NodeGroupOf(host)
	if !ok {
		return ""
	}
	s := g.State
	for _, d := range c.DownNodes {
		if d.State != "UNKNOWN" && slices.Contains(d.Hosts, host) {
			s = d.State
		}
	}
	return s
}

// NodeReason returns the reason slurmctld records for host: the last
// DownNodes line naming it, else its NodeName line's Reason.
func (c *Config) NodeReason(host string) string {
	g, ok := c.NodeGroupOf(host)
	if !ok {
		return ""
	}
	r := g.Reason
	for _, d := range c.DownNodes {
		if slices.Contains(d.Hosts, host) {
			r = d.Reason
		}
	}
	return r
}

// DynamicNodes reports whether the file defines no nodes itself but
// expects them to register dynamically: no NodeName line, and a NodeSet
// that selects nodes by Feature= (as Slurm's dynamic-node set-ups do). The
// file alone cannot then say how big the cluster is.
func (c *Config) DynamicNodes() bool {
	if len(c.Nodes) > 0 {
		return false
	}
	return slices.ContainsFunc(c.NodeSets, func(s NodeSet) bool { return s.Feature != "" })
}

// AllHosts lists every node in definition order, which is Slurm's node
// index order (partitions and allocations follow it).
func (c *Config) AllHosts() []string {
	var out []string
	for _, g := range c.Nodes {
		out = append(out, g.Hosts...)
	}
	return out
}

// Partition returns the partition called name.
func (c *Config) Partition(name string) (*Partition, bool) {
	for i := range c.Partitions {
		if c.Partitions[i].Name == name {
			return &c.Partitions[i], true
		}
	}
	return nil, false
}

// DefaultPartition returns the partition jobs without -p go to: the last
// one marked Default=YES, as in slurmctld, or nil if none is.
func (c *Config) DefaultPartition() *Partition {
	for i := len(c.Partitions) - 1; i >= 0; i-- {
		if c.Partitions[i].Default {
			return &c.Partitions[i]
		}
	}
	return nil
}

// PriorityWeightSum is the sum of the six integer weights; Slurm warns when
// it exceeds 2^32-1 because priorities are then clamped.
func (c *Config) PriorityWeightSum() uint64 {
	return uint64(c.PriorityWeightAge) + uint64(c.PriorityWeightAssoc) +
		uint64(c.PriorityWeightFairshare) + uint64(c.PriorityWeightJobSize) +
		uint64(c.PriorityWeightPartition) + uint64(c.PriorityWeightQOS)
}

// timeLimitLess compares partition limits as Slurm's uint32 minutes do,
// where INFINITE is the largest value.
func timeLimitLess(a, b int64) bool {
	if a == slurmtime.Infinite {
		return false
	}
	if b == slurmtime.Infinite {
		return true
	}
	return a < b
}
