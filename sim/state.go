package sim

import (
	"slices"
	"strings"
)

// NodeState is a node's state as slurm.conf sets it (NodeName State= or
// DownNodes=). Only NodeUp nodes allocate; the others keep their
// resources out of play for the whole run (node events come later).
type NodeState uint8

// Node states. IDLE and UNKNOWN in slurm.conf are NodeUp.
const (
	NodeUp NodeState = iota
	NodeDown
	NodeDrain
	NodeFail
	NodeFuture
	// NodeMaint is a node inside a MAINT reservation: it allocates
	// nothing until the reservation ends (running jobs, which only
	// IGNORE_JOBS lets in, finish).
	NodeMaint
)

var nodeStateNames = [...]string{"UP", "DOWN", "DRAIN", "FAIL", "FUTURE", "MAINT"}

func (s NodeState) String() string {
	if int(s) < len(nodeStateNames) {
		return nodeStateNames[s]
	}
	return "?"
}

// Usable reports whether jobs may be allocated on a node in state s.
func (s NodeState) Usable() bool { return s == NodeUp }

// PartState is a partition's State= (slurmctld's PARTITION_UP, DOWN,
// DRAIN, INACTIVE flags: submissions allowed, scheduling allowed).
type PartState uint8

// Partition states.
const (
	PartUp       PartState = iota // submit and schedule
	PartDown                      // submit, never schedule
	PartDrain                     // schedule what is queued, refuse new jobs
	PartInactive                  // neither
)

var partStateNames = [...]string{"UP", "DOWN", "DRAIN", "INACTIVE"}

func (s PartState) String() string {
	if int(s) < len(partStateNames) {
		return partStateNames[s]
	}
	return "?"
}

// Submits reports whether the partition accepts new jobs.
func (s PartState) Submits() bool { return s == PartUp || s == PartDown }

// Schedules reports whether jobs queued in the partition may start.
func (s PartState) Schedules() bool { return s == PartUp || s == PartDrain }

// MemDefault says what memory a job that asks none takes.
type MemDefault uint8

// Memory defaults.
const (
	// MemShare gives a job a core's share of its nodes' memory per core:
	// fairsim's former default, kept for scenarios built on it, and the
	// zero value for clusters built by hand.
	MemShare MemDefault = iota
	// MemSlurm follows slurmctld with memory a consumable resource:
	// DefMemPerCPU, else DefMemPerNode, else all of each node's memory
	// (job_mgr.c _get_def_mem: a request of 0 means the whole node).
	MemSlurm
	// MemNone does not track memory (SelectTypeParameters without
	// Memory): jobs that ask none take none.
	MemNone
)

// admits reports whether name passes an Allow list (when set) or else a
// Deny list, case-insensitively: sacctmgr stores account names in lower
// case and slurm.conf lists are matched against those.
func admits(allow, deny []string, name string) bool {
	eq := func(s string) bool { return strings.EqualFold(s, name) }
	if allow != nil {
		return slices.ContainsFunc(allow, eq)
	}
	return !slices.ContainsFunc(deny, eq)
}
