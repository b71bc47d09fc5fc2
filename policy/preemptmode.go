package policy

import (
	"fmt"
	"strings"
)

// PreemptMode is a PreemptMode= value, the one type slurm.conf (cluster and
// partitions), QOS files and the scheduler share, so that "does this mode
// requeue?" is a bit test rather than a string match. It is one action
// (OFF, CANCEL, REQUEUE, SUSPEND) with the GANG, WITHIN and PRIORITY
// modifiers. The zero value, PreemptCluster, is unset: "use the
// cluster-wide PreemptMode", which sacctmgr prints as "cluster".
type PreemptMode uint16

// PreemptMode bits. PreemptOff is explicit so it can be told apart from the
// unset PreemptCluster.
const (
	PreemptCluster PreemptMode = 0
	PreemptOff     PreemptMode = 1 << iota
	PreemptCancel
	PreemptRequeue
	PreemptSuspend
	PreemptGang
	PreemptWithin
	PreemptPriority
)

// preemptActions are the action bits; the rest are modifiers.
const preemptActions = PreemptOff | PreemptCancel | PreemptRequeue | PreemptSuspend

// IsSet reports whether a mode was given; an unset partition or QOS mode
// inherits the cluster's.
func (m PreemptMode) IsSet() bool { return m != PreemptCluster }

// Action is the mode's action bit (PreemptCluster when none), without the
// modifiers.
func (m PreemptMode) Action() PreemptMode { return m & preemptActions }

// Or is m when set, else inherited: the mode that applies to a partition
// or QOS under the cluster-wide one.
func (m PreemptMode) Or(inherited PreemptMode) PreemptMode {
	if m.IsSet() {
		return m
	}
	return inherited
}

var preemptModeNames = []keyword[PreemptMode]{
	{"OFF", PreemptOff},
	{"CANCEL", PreemptCancel},
	{"REQUEUE", PreemptRequeue},
	{"SUSPEND", PreemptSuspend},
	{"GANG", PreemptGang},
	{"WITHIN", PreemptWithin},
	{"PRIORITY", PreemptPriority},
}

// ParsePreemptMode parses a PreemptMode value: "cluster" or "" for the
// cluster default, else a comma list such as "SUSPEND,GANG".
func ParsePreemptMode(s string) (PreemptMode, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "cluster") {
		return PreemptCluster, nil
	}
	m, err := parseKeywords(preemptModeNames, s, "preempt mode")
	if err != nil {
		return 0, err
	}
	if m&PreemptOff != 0 && m != PreemptOff {
		return 0, fmt.Errorf("preempt mode %q: OFF cannot be combined", s)
	}
	return m, nil
}

// String prints the mode as sacctmgr does; the unset mode is "cluster".
func (m PreemptMode) String() string {
	if m == PreemptCluster {
		return "cluster"
	}
	return joinKeywords(preemptModeNames, m)
}
