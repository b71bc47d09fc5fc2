package slurmconf

import (
	"fairsim/policy"
	"slices"
	"testing"
)

// TestSchedulerParameters covers the keys of the RCAC configuration and the ranges
// and fallbacks of backfill.c _load_config and job_scheduler.c.
func TestSchedulerParameters(t *testing.T) {
	type field = func(*SchedulerParameters) int64
	tests := []struct {
		params string
		field  field
		want   int64
		warn   string // expected single warning, "" for none
	}{
		{"sched_interval=120", func(p *SchedulerParameters) int64 { return p.SchedIntervalSec }, 120, ""},
		{"sched_interval=-1", func(p *SchedulerParameters) int64 { return p.SchedIntervalSec }, -1, ""}, // disables the main loop
		{"sched_interval=-2", func(p *SchedulerParameters) int64 { return p.SchedIntervalSec }, 60,
			"sched_interval=-2 is out of range; Slurm ignores it and uses 60"},
		{"sched_min_interval=2000000", func(p *SchedulerParameters) int64 { return p.SchedMinIntervalUsec }, 2000000, ""}, // microseconds
		{"sched_max_job_start=200", func(p *SchedulerParameters) int64 { return p.SchedMaxJobStart }, 200, ""},
		{"default_queue_depth=1000", func(p *SchedulerParameters) int64 { return p.DefaultQueueDepth }, 1000, ""},
		{"partition_job_depth=50", func(p *SchedulerParameters) int64 { return p.PartitionJobDepth }, 50, ""},
		{"batch_sched_delay=10", func(p *SchedulerParameters) int64 { return p.BatchSchedDelaySec }, 10, ""},
		{"max_sched_time=4", func(p *SchedulerParameters) int64 { return p.MaxSchedTimeSec }, 4, ""},
		{"max_sched_time=6", func(p *SchedulerParameters) int64 { return p.MaxSchedTimeSec }, 2, // > MessageTimeout/2
			"max_sched_time=6 is out of range; Slurm ignores it and uses 2"},
		{"bf_interval=60", func(p *SchedulerParameters) int64 { return p.BfIntervalSec }, 60, ""},
		{"bf_interval=60", func(p *SchedulerParameters) int64 { return p.BfMaxTimeSec }, 60, ""}, // follows bf_interval
		{"bf_interval=60,bf_max_time=90", func(p *SchedulerParameters) int64 { return p.BfMaxTimeSec }, 90, ""},
		{"bf_interval=10801", func(p *SchedulerParameters) int64 { return p.BfIntervalSec }, 30,
			"bf_interval=10801 is out of range; Slurm ignores it and uses 30"},
		{"bf_interval=-1", func(p *SchedulerParameters) int64 { return p.BfIntervalSec }, -1, ""},
		{"bf_max_time=0", func(p *SchedulerParameters) int64 { return p.BfMaxTimeSec }, 30,
			"bf_max_time=0 is out of range; Slurm ignores it and uses 30"},
		{"bf_window=2880", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 2880, ""}, // minutes
		{"bf_window=43201", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 1440,
			"bf_window=43201 is out of range; Slurm ignores it and uses 1440"},
		{"bf_resolution=600", func(p *SchedulerParameters) int64 { return p.BfResolutionSec }, 600, ""},
		{"bf_max_job_test=1000", func(p *SchedulerParameters) int64 { return p.BfMaxJobTest }, 1000, ""},
		{"bf_max_job_test=0", func(p *SchedulerParameters) int64 { return p.BfMaxJobTest }, 500,
			"bf_max_job_test=0 is out of range; Slurm ignores it and uses 500"},
		{"bf_max_job_start=10001", func(p *SchedulerParameters) int64 { return p.BfMaxJobStart }, 0,
			"bf_max_job_start=10001 is out of range; Slurm ignores it and uses 0"},
		{"bf_max_job_assoc=20", func(p *SchedulerParameters) int64 { return p.BfMaxJobAssoc }, 20, ""},
		{"bf_max_job_user=5", func(p *SchedulerParameters) int64 { return p.BfMaxJobUser }, 5, ""},
		{"bf_max_job_user=5,bf_max_job_assoc=3", func(p *SchedulerParameters) int64 { return p.BfMaxJobUser }, 0,
			"both bf_max_job_user and bf_max_job_assoc are set; Slurm uses bf_max_job_assoc only"},
		{"bf_max_job_part=10", func(p *SchedulerParameters) int64 { return p.BfMaxJobPart }, 10, ""},
		{"bf_max_job_part=500", func(p *SchedulerParameters) int64 { return p.BfMaxJobPart }, 500,
			"bf_max_job_part=500 >= bf_max_job_test=500, so it never limits anything"},
		{"bf_max_job_user_part=25", func(p *SchedulerParameters) int64 { return p.BfMaxJobUserPart }, 25, ""},
		{"bf_min_age_reserve=600", func(p *SchedulerParameters) int64 { return p.BfMinAgeReserveSec }, 600, ""},
		{"bf_min_prio_reserve=1000000", func(p *SchedulerParameters) int64 { return p.BfMinPrioReserve }, 1000000, ""},
		{"bf_min_prio_reserve=-5", func(p *SchedulerParameters) int64 { return p.BfMinPrioReserve }, 0,
			"bf_min_prio_reserve=-5 is out of range; Slurm ignores it and uses 0"},
		{"bf_job_part_count_reserve=10", func(p *SchedulerParameters) int64 { return p.BfJobPartCountReserve }, 10, ""},
		// bf_yield_interval and bf_yield_sleep are µs in 1..10,000,000
		// (backfill.c _load_config: MAX_BF_YIELD_INTERVAL, MAX_YIELD_SLEEP).
		{"bf_yield_interval=1000000", func(p *SchedulerParameters) int64 { return p.BfYieldIntervalUsec }, 1000000, ""},
		{"bf_yield_interval=0", func(p *SchedulerParameters) int64 { return p.BfYieldIntervalUsec }, 2000000,
			"bf_yield_interval=0 is out of range; Slurm ignores it and uses 2000000"},
		{"bf_yield_sleep=250000", func(p *SchedulerParameters) int64 { return p.BfYieldSleepUsec }, 250000, ""},
		{"bf_yield_sleep=20000000", func(p *SchedulerParameters) int64 { return p.BfYieldSleepUsec }, 500000,
			"bf_yield_sleep=20000000 is out of range; Slurm ignores it and uses 500000"},
		{"bf_max_job_array_resv=5", func(p *SchedulerParameters) int64 { return p.BfMaxJobArrayResv }, 5, ""},
		// bf_node_space_size: 2..2,000,000 records, else bf_max_job_test.
		{"bf_node_space_size=1000", func(p *SchedulerParameters) int64 { return p.BfNodeSpaceSize }, 1000, ""},
		{"bf_node_space_size=1", func(p *SchedulerParameters) int64 { return p.BfNodeSpaceSize }, 500,
			"bf_node_space_size=1 is out of range; Slurm ignores it and uses 500"},
		{"bf_max_job_test=50", func(p *SchedulerParameters) int64 { return p.BfNodeSpaceSize }, 50, ""},
		{"BF_WINDOW=100", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 100, ""}, // case-insensitive
		{"bf_window=60x", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 60,
			`bf_window=60x: Slurm reads only the leading number 60 and ignores "x"`},
		{"bf_window=abc", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 1440,
			`bf_window=abc: Slurm reads only the leading number 0 and ignores "abc"`},
		{"bf_window=10,bf_window=20", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 10,
			"bf_window given more than once; Slurm uses the first, bf_window=10"},
		{"bf_window", func(p *SchedulerParameters) int64 { return p.BfWindowMin }, 1440,
			`"bf_window" needs a value (bf_window=N); ignored, as Slurm does`},
	}
	for _, tc := range tests {
		c := mustParse(t, "SchedulerParameters="+tc.params+"\n")
		if got := tc.field(&c.SchedulerParameters); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.params, got, tc.want)
		}
		var want []string
		if tc.warn != "" {
			want = []string{"t.conf:1: SchedulerParameters: " + tc.warn}
		}
		got := warnings(c)
		if tc.params == "bf_window=abc" { // two warnings: the text, then the range
			want = append(want, "t.conf:1: SchedulerParameters: bf_window=abc is out of range; Slurm ignores it and uses 1440")
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.params, got, want)
		}
	}
}

func TestSchedulerFlags(t *testing.T) {
	c := mustParse(t, "SchedulerParameters=defer,assoc_limit_stop,bf_continue,bf_licenses,bf_one_resv_per_job,max_rpc_cnt=150,kill_invalid_depend\n")
	p := c.SchedulerParameters
	if !p.Defer || p.DeferBatch || !p.AssocLimitStop || !p.BfContinue || !p.BfLicenses || !p.BfOneResvPerJob {
		t.Errorf("flags = %+v", p)
	}
	if !p.BfRunningJobReserve {
		t.Errorf("bf_licenses must imply bf_running_job_reserve")
	}
	if want := []string{"max_rpc_cnt=150", "kill_invalid_depend"}; !slices.Equal(p.Extra, want) {
		t.Errorf("Extra = %q, want %q", p.Extra, want)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("unexpected warnings %q", warnings(c))
	}

	c = mustParse(t, "SchedulerParameters=bf_busy_nodes,frobnicate=3\n")
	want := []string{
		`t.conf:1: SchedulerParameters: option "bf_busy_nodes" is valid in Slurm but not simulated; scheduling may differ from the real cluster`,
		`t.conf:1: SchedulerParameters: unknown option "frobnicate=3" ignored`,
	}
	if got := warnings(c); !slices.Equal(got, want) {
		t.Errorf("warnings %q\nwant %q", got, want)
	}
}

// TestMaxSchedTimeDefault follows job_scheduler.c:
// min(max(MessageTimeout/2, 1), 2), and the limit MessageTimeout/2.
func TestMaxSchedTimeDefault(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int64
	}{
		{"MessageTimeout=1", 1},
		{"MessageTimeout=3", 1},
		{"MessageTimeout=4", 2},
		{"MessageTimeout=100", 2},
		{"MessageTimeout=100\nSchedulerParameters=max_sched_time=50", 50},
		{"SchedulerParameters=max_sched_time=5\nMessageTimeout=10", 5}, // order in the file does not matter
	} {
		c := mustParse(t, tc.src+"\n")
		if got := c.SchedulerParameters.MaxSchedTimeSec; got != tc.want {
			t.Errorf("%q: max_sched_time = %d, want %d", tc.src, got, tc.want)
		}
	}
}

func TestParsePreemptMode(t *testing.T) {
	tests := []struct {
		in   string
		want policy.PreemptMode
		str  string
	}{
		{"OFF", policy.PreemptOff, "OFF"},
		{"cluster", policy.PreemptOff, "OFF"},
		{"", policy.PreemptOff, "OFF"},
		{"CANCEL", policy.PreemptCancel, "CANCEL"},
		{"requeue", policy.PreemptRequeue, "REQUEUE"},
		{"ON", policy.PreemptSuspend, "SUSPEND"},
		{"SUSPEND,GANG", policy.PreemptSuspend | policy.PreemptGang, "GANG,SUSPEND"},
		{"GANG", policy.PreemptOff | policy.PreemptGang, "GANG"},
		{"WITHIN,CANCEL", policy.PreemptCancel | policy.PreemptWithin, "WITHIN,CANCEL"},
		{"REQUEUE,PRIORITY", policy.PreemptRequeue | policy.PreemptPriority, "PRIORITY,REQUEUE"},
		{"GANG,,REQUEUE", policy.PreemptRequeue | policy.PreemptGang, "GANG,REQUEUE"},
	}
	for _, tc := range tests {
		got, err := ParsePreemptMode(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParsePreemptMode(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if s := formatPreemptMode(got); s != tc.str {
			t.Errorf("%q: formatPreemptMode = %q, want %q", tc.in, s, tc.str)
		}
		if back, err := ParsePreemptMode(formatPreemptMode(got)); err != nil || back != got {
			t.Errorf("%q: formatPreemptMode does not parse back: %+v, %v", tc.in, back, err)
		}
	}
	for _, in := range []string{"CANCEL,REQUEUE", "OFF,SUSPEND", "GANG,WITHIN", "CHECKPOINT", "SUSPEND GANG"} {
		if got, err := ParsePreemptMode(in); err == nil {
			t.Errorf("ParsePreemptMode(%q) = %+v, want error", in, got)
		}
	}
	if policy.PreemptCluster.IsSet() || formatPreemptMode(policy.PreemptCluster) != "" {
		t.Errorf("zero PreemptMode must be unset")
	}
}

func TestEnforce(t *testing.T) {
	tests := []struct {
		in   string
		want Enforce
		str  string
	}{
		{"associations", Enforce{Associations: true}, "associations"},
		{"1", Enforce{Associations: true}, "associations"},
		{"limits", Enforce{Associations: true, Limits: true}, "associations,limits"},
		{"2", Enforce{Associations: true, Limits: true}, "associations,limits"},
		{"safe", Enforce{Associations: true, Limits: true, Safe: true}, "associations,limits,safe"},
		{"qos", Enforce{Associations: true, QOS: true}, "associations,qos"},
		{"WCKeys", Enforce{Associations: true, WCKeys: true}, "associations,wckeys"},
		{"all", Enforce{Associations: true, Limits: true, QOS: true, Safe: true, WCKeys: true}, "associations,limits,qos,safe,wckeys"},
		{"nojobs", Enforce{NoJobs: true, NoSteps: true}, "nojobs,nosteps"},
		{"associations,limits,qos,safe", Enforce{Associations: true, Limits: true, QOS: true, Safe: true}, "associations,limits,qos,safe"},
	}
	for _, tc := range tests {
		got, err := parseEnforce(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseEnforce(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if got.String() != tc.str {
			t.Errorf("%q: String() = %q, want %q", tc.in, got.String(), tc.str)
		}
		if got.HasLimits() != tc.want.Limits {
			t.Errorf("%q: HasLimits() = %v", tc.in, got.HasLimits())
		}
	}
}

// TestParseUint pins the C strtoul semantics Slurm's number options use.
func TestParseUint(t *testing.T) {
	tests := []struct {
		in     string
		bits   int
		allowK bool
		want   uint64
		ok     bool
	}{
		{"0", 16, false, 0, true},
		{"65535", 16, false, 65535, true},
		{"65536", 16, false, 0, false},
		{"UNLIMITED", 16, false, 65535, true},
		{"infinite", 32, true, 4294967295, true},
		{"unlimited", 64, false, 1<<64 - 1, true},
		{"0x1F", 32, true, 31, true},
		{"017", 32, true, 15, true}, // octal
		{"08", 32, true, 0, false},  // not octal
		{"0", 32, true, 0, true},
		{"+7", 32, true, 7, true},
		{"-0", 32, true, 0, false},
		{"4k", 32, true, 4096, true},
		{"4K", 32, true, 4096, true},
		{"4194304k", 32, true, 0, false}, // 2^32
		{"4k", 16, false, 0, false},
		{"4kk", 32, true, 0, false},
		{"", 32, true, 0, false},
		{"0x", 32, true, 0, false},
		{"1.5", 32, true, 0, false},
		{"99999999999999999999", 64, false, 0, false},
		{"18446744073709551615", 64, false, 1<<64 - 1, true},
	}
	for _, tc := range tests {
		got, err := parseUint(tc.in, tc.bits, tc.allowK)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseUint(%q, %d, %v) = %d, %v; want %d, ok=%v", tc.in, tc.bits, tc.allowK, got, err, tc.want, tc.ok)
		}
	}
}

// TestSchedulerParameterNames: --set accepts the numeric options and the
// switches alike, each once.
func TestSchedulerParameterNames(t *testing.T) {
	names := SchedulerParameterNames()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("%s listed twice", n)
		}
		seen[n] = true
	}
	for _, want := range []string{"sched_interval", "bf_window", "bf_min_prio_reserve", "bf_continue", "bf_licenses"} {
		if !seen[want] {
			t.Errorf("%s missing from %v", want, names)
		}
	}
}
