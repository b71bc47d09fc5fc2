package policy

import "testing"

// TestPreemptModeBits: the action is one bit among the modifiers, and an
// unset mode inherits, as partitions and QOS do under the cluster mode.
func TestPreemptModeBits(t *testing.T) {
	m := PreemptSuspend | PreemptGang | PreemptPriority
	if m.Action() != PreemptSuspend || !m.IsSet() {
		t.Errorf("%v: Action %v IsSet %v, want SUSPEND, true", m, m.Action(), m.IsSet())
	}
	if PreemptGang.Action() != PreemptCluster {
		t.Errorf("GANG alone has action %v, want none", PreemptGang.Action())
	}
	if got := PreemptCluster.Or(PreemptRequeue); got != PreemptRequeue {
		t.Errorf("unset.Or(REQUEUE) = %v, want REQUEUE", got)
	}
	if got := PreemptCancel.Or(PreemptRequeue); got != PreemptCancel {
		t.Errorf("CANCEL.Or(REQUEUE) = %v, want CANCEL", got)
	}
	if got := PreemptOff.Or(PreemptRequeue); got != PreemptOff {
		t.Errorf("OFF.Or(REQUEUE) = %v, want OFF: an explicit OFF is not unset", got)
	}
}
