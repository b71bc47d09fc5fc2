package slurmconf

import (
	"fmt"
	"strings"

	"fairsim/policy"
)

// ParsePreemptMode reads a slurm.conf PreemptMode= comma list as Slurm's
// preempt_mode_num does: tokens are case-insensitive, empty tokens are
// skipped, only one action may appear, and GANG cannot be combined with
// WITHIN. No action means OFF, so the result is always set.
func ParsePreemptMode(s string) (policy.PreemptMode, error) {
	var m policy.PreemptMode
	actions := 0
	for _, tok := range strings.Split(s, ",") {
		var a policy.PreemptMode
		switch strings.ToUpper(tok) {
		case "":
			continue
		case "GANG":
			m |= policy.PreemptGang
			continue
		case "WITHIN":
			m |= policy.PreemptWithin
			continue
		case "PRIORITY":
			m |= policy.PreemptPriority
			continue
		case "OFF", "CLUSTER":
			a = policy.PreemptOff
		case "CANCEL":
			a = policy.PreemptCancel
		case "REQUEUE":
			a = policy.PreemptRequeue
		case "SUSPEND", "ON":
			a = policy.PreemptSuspend
		default:
			return 0, fmt.Errorf("unknown mode %q (want OFF, CANCEL, REQUEUE or SUSPEND, optionally with GANG, WITHIN, PRIORITY)", tok)
		}
		if actions++; actions > 1 {
			return 0, fmt.Errorf("%q: only one of OFF, CANCEL, REQUEUE and SUSPEND may be given", s)
		}
		m |= a
	}
	if m&policy.PreemptGang != 0 && m&policy.PreemptWithin != 0 {
		return 0, fmt.Errorf("%q: GANG and WITHIN cannot be combined", s)
	}
	if m.Action() == policy.PreemptCluster {
		m |= policy.PreemptOff
	}
	return m, nil
}

// formatPreemptMode renders m as slurm.conf writes it ("" when unset):
// the modifiers, then the action, which is left out when it is OFF and a
// modifier says enough (ParsePreemptMode reads no action as OFF).
func formatPreemptMode(m policy.PreemptMode) string {
	if !m.IsSet() {
		return ""
	}
	var parts []string
	for _, mod := range []struct {
		bit  policy.PreemptMode
		name string
	}{{policy.PreemptGang, "GANG"}, {policy.PreemptWithin, "WITHIN"}, {policy.PreemptPriority, "PRIORITY"}} {
		if m&mod.bit != 0 {
			parts = append(parts, mod.name)
		}
	}
	if a := m.Action(); a != policy.PreemptOff || len(parts) == 0 {
		parts = append(parts, a.String())
	}
	return strings.Join(parts, ",")
}
