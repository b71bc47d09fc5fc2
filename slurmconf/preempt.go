package slurmconf

import (
	"fmt"
	"strings"
)

// PreemptAction is what happens to a preempted job.
type PreemptAction string

// The preemption actions; at most one may be given.
const (
	PreemptUnset   PreemptAction = ""        // partition only: use the cluster's mode
	PreemptOff     PreemptAction = "OFF"     // also written CLUSTER
	PreemptCancel  PreemptAction = "CANCEL"  //
	PreemptRequeue PreemptAction = "REQUEUE" //
	PreemptSuspend PreemptAction = "SUSPEND" // also written ON
)

// PreemptMode is a PreemptMode= value: one action optionally combined with
// the GANG, WITHIN and PRIORITY modifiers (slurm-semantics.md §7.3).
type PreemptMode struct {
	Action   PreemptAction
	Gang     bool // gang scheduling (time slicing) of suspended jobs
	Within   bool // preempt/qos: jobs of the same QOS may preempt by priority
	Priority bool // the preemptor's job priority must also be higher
}

// IsSet reports whether a mode was given (a partition without PreemptMode
// inherits the cluster's).
func (m PreemptMode) IsSet() bool { return m.Action != PreemptUnset }

// ParsePreemptMode reads a comma list as Slurm's preempt_mode_num does:
// tokens are case-insensitive, empty tokens are skipped, only one action may
// appear, and GANG cannot be combined with WITHIN. No action means OFF.
func ParsePreemptMode(s string) (PreemptMode, error) {
	var m PreemptMode
	actions := 0
	for _, tok := range strings.Split(s, ",") {
		var a PreemptAction
		switch strings.ToUpper(tok) {
		case "":
			continue
		case "GANG":
			m.Gang = true
			continue
		case "WITHIN":
			m.Within = true
			continue
		case "PRIORITY":
			m.Priority = true
			continue
		case "OFF", "CLUSTER":
			a = PreemptOff
		case "CANCEL":
			a = PreemptCancel
		case "REQUEUE":
			a = PreemptRequeue
		case "SUSPEND", "ON":
			a = PreemptSuspend
		default:
			return PreemptMode{}, fmt.Errorf("unknown mode %q (want OFF, CANCEL, REQUEUE or SUSPEND, optionally with GANG, WITHIN, PRIORITY)", tok)
		}
		if actions++; actions > 1 {
			return PreemptMode{}, fmt.Errorf("%q: only one of OFF, CANCEL, REQUEUE and SUSPEND may be given", s)
		}
		m.Action = a
	}
	if m.Gang && m.Within {
		return PreemptMode{}, fmt.Errorf("%q: GANG and WITHIN cannot be combined", s)
	}
	if m.Action == PreemptUnset {
		m.Action = PreemptOff
	}
	return m, nil
}

// String renders the mode as slurm.conf accepts it ("" when unset).
func (m PreemptMode) String() string {
	if !m.IsSet() {
		return ""
	}
	var parts []string
	if m.Gang {
		parts = append(parts, "GANG")
	}
	if m.Within {
		parts = append(parts, "WITHIN")
	}
	if m.Priority {
		parts = append(parts, "PRIORITY")
	}
	if m.Action != PreemptOff || len(parts) == 0 {
		parts = append(parts, string(m.Action))
	}
	return strings.Join(parts, ",")
}
