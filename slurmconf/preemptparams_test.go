package slurmconf

import "testing"

// TestPreemptSettings: PreemptExemptTime is read as read_config.c's
// time_str2secs reads it (a plain number is minutes: "5" = 300 s,
// "1:30:00" = 5400 s); youngest first comes from 22.05's
// SchedulerParameters=preempt_youngest_first or 23.02's
// PreemptParameters=youngest_first; a partition's GraceTime is seconds.
func TestPreemptSettings(t *testing.T) {
	const nodes = "NodeName=n1 CPUs=4 RealMemory=1000\n"
	for _, tc := range []struct {
		src      string
		exempt   int64
		youngest bool
		grace    uint32
	}{
		{"", -1, false, 0},
		{"PreemptExemptTime=5\n", 300, false, 0},
		{"PreemptExemptTime=1:30:00\n", 5400, false, 0},
		{"SchedulerParameters=preempt_youngest_first\n", -1, true, 0},
		{"PreemptParameters=youngest_first\n", -1, true, 0},
		{"PreemptParameters=strict_order\n", -1, false, 0},
	} {
		c, err := Parse("t.conf", []byte(tc.src+nodes+"PartitionName=p Nodes=n1 GraceTime=90\n"))
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if c.PreemptExemptTime != tc.exempt || c.PreemptYoungestFirst != tc.youngest || c.Partitions[0].GraceTime != 90 {
			t.Errorf("%q: exempt %d youngest %v grace %d; want %d %v 90", tc.src, c.PreemptExemptTime, c.PreemptYoungestFirst, c.Partitions[0].GraceTime, tc.exempt, tc.youngest)
		}
	}
	if _, err := Parse("t.conf", []byte("PreemptExemptTime=soon\n"+nodes)); err == nil {
		t.Error("PreemptExemptTime=soon: no error")
	}
}
