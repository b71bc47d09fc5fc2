package slurmconf

import (
	"errors"
	"fairsim/inputerr"
	"fairsim/policy"
	"os"
	"slices"
	"strings"
	"testing"
)

// mustParse parses src and fails the test on any error.
func mustParse(t *testing.T, src string) *Config {
	t.Helper()
	c, err := Parse("t.conf", []byte(src))
	if err != nil {
		t.Fatalf("Parse failed:\n%v\ninput:\n%s", err, src)
	}
	return c
}

// parseErrors parses src, which must fail, and returns the error lines.
func parseErrors(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("t.conf", []byte(src))
	var list inputerr.List
	if !errors.As(err, &list) {
		t.Fatalf("Parse(%q) = %v, want an inputerr.List", src, err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Error())
	}
	return out
}

// warnings renders c's warnings but the one that lists Config.Ignored,
// which TestIgnored checks.
func warnings(c *Config) []string {
	var out []string
	for _, w := range c.Warnings {
		if w.Key == ignoredWarningKey {
			continue
		}
		out = append(out, w.String())
	}
	return out
}

// TestDefaults pins Slurm's code defaults (read_config.c
// _validate_and_set_defaults), including the ones the documentation gets wrong (weights are 0).
func TestDefaults(t *testing.T) {
	c := mustParse(t, "# nothing set\n")
	if !c.Equal(Default()) {
		t.Fatalf("empty file does not give Default()")
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"PriorityType", c.PriorityType, "priority/multifactor"},
		{"PriorityFlags", c.PriorityFlags, ""},
		{"PriorityWeightAge", c.PriorityWeightAge, uint32(0)},
		{"PriorityWeightAssoc", c.PriorityWeightAssoc, uint32(0)},
		{"PriorityWeightFairshare", c.PriorityWeightFairshare, uint32(0)},
		{"PriorityWeightJobSize", c.PriorityWeightJobSize, uint32(0)},
		{"PriorityWeightPartition", c.PriorityWeightPartition, uint32(0)},
		{"PriorityWeightQOS", c.PriorityWeightQOS, uint32(0)},
		{"PriorityWeightTRES", c.PriorityWeightTRES, ""},
		{"PriorityMaxAge", c.PriorityMaxAge, int64(604800)},
		{"PriorityDecayHalfLife", c.PriorityDecayHalfLife, int64(604800)},
		{"PriorityCalcPeriod", c.PriorityCalcPeriod, int64(300)},
		{"PriorityUsageResetPeriod", c.PriorityUsageResetPeriod, ResetNone},
		{"PriorityFavorSmall", c.PriorityFavorSmall, false},
		{"FairShareDampeningFactor", c.FairShareDampeningFactor, uint16(1)},
		{"SchedulerType", c.SchedulerType, "sched/backfill"},
		{"SelectType", c.SelectType, "select/cons_tres"},
		{"PreemptType", c.PreemptType, "preempt/none"},
		{"PreemptMode", c.PreemptMode, policy.PreemptOff},
		{"AccountingStorageEnforce", c.AccountingStorageEnforce, Enforce{}},
		{"HasLimits", c.AccountingStorageEnforce.HasLimits(), false},
		{"KillWait", c.KillWait, uint16(30)},
		{"OverTimeLimit", c.OverTimeLimit, uint16(0)},
		{"CompleteWait", c.CompleteWait, uint16(0)},
		{"MessageTimeout", c.MessageTimeout, uint16(10)},
		{"sched_interval", c.SchedulerParameters.SchedIntervalSec, int64(60)},
		{"sched_min_interval", c.SchedulerParameters.SchedMinIntervalUsec, int64(2)},
		{"default_queue_depth", c.SchedulerParameters.DefaultQueueDepth, int64(100)},
		{"partition_job_depth", c.SchedulerParameters.PartitionJobDepth, int64(0)},
		{"sched_max_job_start", c.SchedulerParameters.SchedMaxJobStart, int64(0)},
		{"batch_sched_delay", c.SchedulerParameters.BatchSchedDelaySec, int64(3)},
		{"max_sched_time", c.SchedulerParameters.MaxSchedTimeSec, int64(2)},
		{"bf_interval", c.SchedulerParameters.BfIntervalSec, int64(30)},
		{"bf_max_time", c.SchedulerParameters.BfMaxTimeSec, int64(30)},
		{"bf_window", c.SchedulerParameters.BfWindowMin, int64(1440)},
		{"bf_window seconds", c.SchedulerParameters.BfWindowSec(), int64(86400)},
		{"bf_resolution", c.SchedulerParameters.BfResolutionSec, int64(60)},
		{"bf_max_job_test", c.SchedulerParameters.BfMaxJobTest, int64(500)},
		{"bf_max_job_start", c.SchedulerParameters.BfMaxJobStart, int64(0)},
		{"bf_max_job_array_resv", c.SchedulerParameters.BfMaxJobArrayResv, int64(20)},
		{"bf_min_age_reserve", c.SchedulerParameters.BfMinAgeReserveSec, int64(0)},
		{"bf_min_prio_reserve", c.SchedulerParameters.BfMinPrioReserve, int64(0)},
		{"bf_continue", c.SchedulerParameters.BfContinue, false},
		{"nodes", len(c.Nodes), 0},
		{"partitions", len(c.Partitions), 0},
		{"warnings", len(c.Warnings), 0},
		{"where", c.Where("PriorityWeightAge").String(), "default"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

// TestWorkedExample1 is the first example configuration of the Slurm 2.0
// priority_multifactor page, parsed exactly as it stands, with a comment
// after a value.
func TestWorkedExample1(t *testing.T) {
	c, err := ParseFile("testdata/seed000_example1.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.PriorityDecayHalfLife = 14 * 86400
	want.PriorityMaxAge = 14 * 86400
	want.PriorityWeightAge = 1000
	want.PriorityWeightFairshare = 10000
	want.PriorityWeightJobSize = 1000
	want.PriorityWeightPartition = 1000
	want.PriorityWeightQOS = 0
	if !c.Equal(want) {
		t.Errorf("example 1 parsed to\n%s\nwant\n%s", c, want)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("unexpected warnings: %q", warnings(c))
	}
	for key, line := range map[string]int{
		"PriorityType": 2, "PriorityDecayHalfLife": 5, "PriorityFavorSmall": 8, "PriorityMaxAge": 12,
		"PriorityWeightAge": 17, "PriorityWeightQOS": 21,
	} {
		if got, want := c.Where(key).String(), "testdata/seed000_example1.conf:"+itoa(int64(line)); got != want {
			t.Errorf("Where(%s) = %s, want %s", key, got, want)
		}
	}
}

// TestWorkedExample2 is that page's second configuration, "no decay, reset
// usage after 28 days". Current Slurm (read_config.c) accepts only NONE,
// NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY for
// PriorityUsageResetPeriod and refuses to start on "28-0"; the time-string
// form only ever existed in the Slurm 2.0 documentation this example comes
// from. Following the code, the file is rejected at line 8, and nothing
// else in it is wrong. The intent is expressible as MONTHLY (calendar
// months, not 28 days), which parses.
func TestWorkedExample2(t *testing.T) {
	_, err := ParseFile("testdata/seed000_example2.conf")
	var list inputerr.List
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("example 2: got %v, want exactly one error", err)
	}
	const want = `testdata/seed000_example2.conf:8: PriorityUsageResetPeriod: bad value "28-0": must be NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY (the Slurm 2.0 documentation showed a time string here; current Slurm rejects it)`
	if list[0].Error() != want {
		t.Errorf("error = %s\nwant    %s", list[0], want)
	}
	if list[0].Line != 8 || list[0].Field != "PriorityUsageResetPeriod" {
		t.Errorf("error line/key = %d %q", list[0].Line, list[0].Field)
	}

	src, err := os.ReadFile("testdata/seed000_example2.conf")
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(src), "PriorityUsageResetPeriod=28-0", "PriorityUsageResetPeriod=MONTHLY", 1)
	c := mustParse(t, fixed)
	if c.PriorityDecayHalfLife != 0 || c.PriorityUsageResetPeriod != ResetMonthly || c.PriorityMaxAge != 14*86400 ||
		c.PriorityWeightFairshare != 10000 || c.PriorityWeightQOS != 0 {
		t.Errorf("fixed example 2 parsed to\n%s", c)
	}
}

// TestNoDecayNeedsReset checks read_config.c's rule: HalfLife=0 without a
// PriorityUsageResetPeriod line is a configuration error, while an explicit
// PriorityUsageResetPeriod=NONE passes (Slurm only tests for absence).
func TestNoDecayNeedsReset(t *testing.T) {
	got := parseErrors(t, "PriorityWeightAge=10\nPriorityDecayHalfLife=0\n")
	want := []string{"t.conf:2: PriorityDecayHalfLife: 0 (no decay) requires PriorityUsageResetPeriod to be set, or usage grows without bound; Slurm refuses this configuration"}
	if !slices.Equal(got, want) {
		t.Errorf("errors = %q\nwant %q", got, want)
	}
	c := mustParse(t, "PriorityDecayHalfLife=0\nPriorityUsageResetPeriod=none\n")
	if c.PriorityDecayHalfLife != 0 || c.PriorityUsageResetPeriod != ResetNone {
		t.Errorf("explicit NONE: got %d %s", c.PriorityDecayHalfLife, c.PriorityUsageResetPeriod)
	}
	c = mustParse(t, "PriorityDecayHalfLife=0:0:1\n") // rounds up to one minute: decay
	if c.PriorityDecayHalfLife != 60 {
		t.Errorf("0:0:1 half-life = %d s, want 60", c.PriorityDecayHalfLife)
	}
}

// TestPriorityValues covers how each priority key is read.
func TestPriorityValues(t *testing.T) {
	tests := []struct {
		src   string
		check func(*Config) any
		want  any
	}{
		{"PriorityMaxAge=1:30", func(c *Config) any { return c.PriorityMaxAge }, int64(120)}, // minutes, rounded up
		{"PriorityMaxAge=UNLIMITED", func(c *Config) any { return c.PriorityMaxAge }, UnlimitedPrioritySeconds},
		{"PriorityDecayHalfLife=infinite", func(c *Config) any { return c.PriorityDecayHalfLife }, UnlimitedPrioritySeconds},
		{"PriorityDecayHalfLife=2-12:30", func(c *Config) any { return c.PriorityDecayHalfLife }, int64(3630 * 60)},
		{"PriorityCalcPeriod=1", func(c *Config) any { return c.PriorityCalcPeriod }, int64(60)},
		{"PriorityCalcPeriod=0:30", func(c *Config) any { return c.PriorityCalcPeriod }, int64(60)},
		{"PriorityUsageResetPeriod=Quarterly", func(c *Config) any { return c.PriorityUsageResetPeriod }, ResetQuarterly},
		{"PriorityFavorSmall=yes", func(c *Config) any { return c.PriorityFavorSmall }, true},
		{"PriorityFavorSmall=0", func(c *Config) any { return c.PriorityFavorSmall }, false},
		{"PriorityWeightFairshare=20000000", func(c *Config) any { return c.PriorityWeightFairshare }, uint32(20000000)},
		{"PriorityWeightAge=10k", func(c *Config) any { return c.PriorityWeightAge }, uint32(10240)}, // uint32 'k' suffix
		{"PriorityWeightAge=0x10", func(c *Config) any { return c.PriorityWeightAge }, uint32(16)},
		{"PriorityWeightAge=010", func(c *Config) any { return c.PriorityWeightAge }, uint32(8)}, // C strtoul: octal
		{"PriorityWeightQOS=UNLIMITED", func(c *Config) any { return c.PriorityWeightQOS }, uint32(4294967295)},
		{"PriorityWeightTRES=CPU=1000,Mem=2000G", func(c *Config) any { return c.PriorityWeightTRES }, "CPU=1000,Mem=2000G"},
		{"PriorityFlags=SMALL_RELATIVE_TO_TIME,NO_FAIR_TREE", func(c *Config) any { return c.PriorityFlags }, "SMALL_RELATIVE_TO_TIME,NO_FAIR_TREE"},
		{"PriorityType=priority/basic", func(c *Config) any { return c.PriorityType }, "priority/basic"},
		{"FairShareDampeningFactor=4", func(c *Config) any { return c.FairShareDampeningFactor }, uint16(4)},
		{"ClusterName=MyCluster", func(c *Config) any { return c.ClusterName }, "mycluster"},
		{"KillWait=45", func(c *Config) any { return c.KillWait }, uint16(45)},
		{"OverTimeLimit=UNLIMITED", func(c *Config) any { return c.OverTimeLimit }, uint16(65535)},
		{"CompleteWait=8", func(c *Config) any { return c.CompleteWait }, uint16(8)},
		{"SchedulerType=sched/builtin", func(c *Config) any { return c.SchedulerType }, "sched/builtin"},
		{"SelectTypeParameters=CR_Core_Memory", func(c *Config) any { return c.SelectTypeParameters }, "CR_Core_Memory"},
		{"AccountingStorageEnforce=limits", func(c *Config) any { return c.AccountingStorageEnforce.HasLimits() }, true},
		{"AccountingStorageEnforce=associations,qos", func(c *Config) any { return c.AccountingStorageEnforce.HasLimits() }, false},
		{"MaxJobCount=50000", func(c *Config) any { return c.Extra["MaxJobCount"] }, "50000"},
		{"maxjobcount=50000", func(c *Config) any { return c.Extra["MaxJobCount"] }, "50000"}, // canonical spelling
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src+"\n")
		if got := tc.check(c); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.src, got, tc.want)
		}
		if w := warnings(c); len(w) != 0 {
			t.Errorf("%s: unexpected warnings %q", tc.src, w)
		}
	}
}

// TestSyntax checks the line syntax Slurm's parser accepts.
func TestSyntax(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want uint32 // PriorityWeightAge
	}{
		{"plain", "PriorityWeightAge=5", 5},
		{"spaces around =", "PriorityWeightAge = 5", 5},
		{"tab before =", "PriorityWeightAge\t=5", 5},
		{"leading space", "   PriorityWeightAge=5", 5},
		{"case-insensitive key", "priorityweightage=5", 5},
		{"comment after value", "PriorityWeightAge=5 # five", 5},
		{"comment without space", "PriorityWeightAge=5#five", 5},
		{"quoted value", `PriorityWeightAge="5"`, 5},
		{"CRLF line end", "PriorityWeightAge=5\r", 5},
		{"continuation", "PriorityWeightAge=\\\n5", 5},
		{"continuation with trailing blank", "PriorityWeightAge=\\  \n5", 5},
		{"later value wins", "PriorityWeightAge=4\nPriorityWeightAge=5", 5},
		{"commented out", "#PriorityWeightAge=4\nPriorityWeightAge=5\n# PriorityWeightAge=6", 5},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src+"\n")
		if c.PriorityWeightAge != tc.want {
			t.Errorf("%s: PriorityWeightAge = %d, want %d", tc.name, c.PriorityWeightAge, tc.want)
		}
	}

	// Escapes: "\#" is a literal '#', "\\" a backslash; a quoted value keeps
	// its spaces.
	c := mustParse(t, `PriorityFlags=A\#B\\C
PriorityWeightTRES="CPU=1, Mem=2G"
`)
	if c.PriorityFlags != `A#B\C` || c.PriorityWeightTRES != "CPU=1, Mem=2G" {
		t.Errorf("escapes/quotes: PriorityFlags=%q PriorityWeightTRES=%q", c.PriorityFlags, c.PriorityWeightTRES)
	}
	// A line continued twice reports its first physical line.
	c = mustParse(t, "\n\nSchedulerParameters=bf_window=60,\\\nbf_interval=10,\\\nbf_continue\nKillWait=1\n")
	if got := c.Where("SchedulerParameters").Line; got != 3 {
		t.Errorf("continued line starts at %d, want 3", got)
	}
	if got := c.Where("KillWait").Line; got != 6 {
		t.Errorf("line after continuation is %d, want 6", got)
	}
	sp := c.SchedulerParameters
	if sp.BfWindowMin != 60 || sp.BfIntervalSec != 10 || !sp.BfContinue {
		t.Errorf("continued SchedulerParameters = %+v", sp)
	}
}

// TestWarnings checks what is accepted with a warning naming the line.
func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"unknown key", "KillWait=3\nFooBar=1\n",
			[]string{`t.conf:2: FooBar: unknown key; line ignored`}},
		{"include", "Include /etc/slurm/nodes.conf\n",
			[]string{`t.conf:1: Include: "Include /etc/slurm/nodes.conf" is not followed (the text has no folder to resolve it in); put the settings fairsim needs in this file`}},
		{"duplicate", "KillWait=3\nkillwait=4\n",
			[]string{`t.conf:2: KillWait: also set at t.conf:1; the later value "4" is used, as in Slurm`}},
		{"operator", "KillWait+=4\n",
			[]string{`t.conf:1: KillWait: operator "+=" is treated as plain '=' here, as Slurm does for this key`}},
		{"weights overflow", "PriorityWeightAge=4000000000\nPriorityWeightFairshare=400000000\n",
			[]string{`t.conf:2: PriorityWeight*: the weights sum to 4400000000 > 4294967295, so job priorities may be clamped (Slurm logs the same)`}},
		{"select type", "SelectType=select/bluegene\n",
			[]string{`t.conf:1: SelectType: unknown plugin "select/bluegene"; fairsim allocates as select/cons_tres does`}},
		{"down nodes", "NodeName=n1\nDownNodes=n1,n2 Reason=broken\nDownNodes=n1 State=BROKEN\n",
			[]string{
				`t.conf:2: DownNodes=n1,n2: no NodeName line defines n2; Slurm logs an error and skips it`,
				`t.conf:3: DownNodes=n1: State: invalid node state "BROKEN"; Slurm logs an error and ignores the line`,
			}},
		{"attribute twice", "NodeName=n1 CPUs=2 cpus=4 Weight-=3\n",
			[]string{
				`t.conf:1: NodeName=n1: CPUs given twice on this line; "4" replaces "2", as in Slurm`,
				`t.conf:1: NodeName=n1: operator "-=" on Weight is treated as plain '='`,
			}},
		{"silently accepted", "SlurmctldHost=head(10.0.0.1)\nAuthType=auth/munge\nMaxJobCount=10000\n", nil},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src)
		if got := warnings(c); !slices.Equal(got, tc.want) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

// TestErrors checks that bad values fail with file:line: Key: message, and
// that all errors of a file are reported together, in line order.
func TestErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"PriorityWeightAge=-1", []string{`t.conf:1: PriorityWeightAge: "-1" is less than zero`}},
		{"PriorityWeightAge=abc", []string{`t.conf:1: PriorityWeightAge: "abc" is not a valid number`}},
		{"PriorityWeightAge=4294967296", []string{`t.conf:1: PriorityWeightAge: "4294967296" is greater than 4294967295`}},
		{"KillWait=70000", []string{`t.conf:1: KillWait: "70000" is greater than 65535`}},
		{"KillWait=1k", []string{`t.conf:1: KillWait: "1k" is not a valid number`}}, // 'k' is for 32-bit values only
		{"PriorityMaxAge=7-0x", []string{`t.conf:1: PriorityMaxAge: invalid Slurm time "7-0x": unexpected character 'x' at offset 3 (only digits, '-' and ':' are allowed)`}},
		{"PriorityCalcPeriod=0", []string{`t.conf:1: PriorityCalcPeriod: "0": must be at least 1 minute`}},
		{"PriorityCalcPeriod=UNLIMITED", []string{`t.conf:1: PriorityCalcPeriod: "UNLIMITED": must be at least 1 minute`}},
		{"PriorityUsageResetPeriod=hourly", []string{`t.conf:1: PriorityUsageResetPeriod: bad value "hourly": must be NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY`}},
		{"PriorityFavorSmall=maybe", []string{`t.conf:1: PriorityFavorSmall: "maybe" is not a boolean (want YES or NO)`}},
		{"FairShareDampeningFactor=0", []string{`t.conf:1: FairShareDampeningFactor: must be at least 1 (it divides the fair-share exponent)`}},
		{"PriorityType=priority/fifo", []string{`t.conf:1: PriorityType: unsupported value "priority/fifo" (fairsim simulates priority/multifactor and priority/basic)`}},
		{"SchedulerType=sched/hold", []string{`t.conf:1: SchedulerType: unsupported value "sched/hold" (fairsim simulates sched/backfill and sched/builtin)`}},
		{"PreemptType=preempt/job_prio", []string{`t.conf:1: PreemptType: unsupported value "preempt/job_prio" (want preempt/none, preempt/partition_prio or preempt/qos)`}},
		{"PreemptMode=SUSPEND\nPreemptType=preempt/qos", []string{`t.conf:1: PreemptMode: SUSPEND requires GANG too (PreemptMode=SUSPEND,GANG), as in Slurm`}},
		{"PreemptType=preempt/qos", []string{`t.conf:1: PreemptMode: preempt/qos needs PreemptMode CANCEL, REQUEUE or SUSPEND,GANG; PreemptType and PreemptMode are incompatible`}},
		{"PreemptMode=REQUEUE", []string{`t.conf:1: PreemptMode: REQUEUE with PreemptType=preempt/none: PreemptType and PreemptMode are incompatible`}},
		{"PreemptMode=CANCEL,REQUEUE\nPreemptType=preempt/qos", []string{`t.conf:1: PreemptMode: "CANCEL,REQUEUE": only one of OFF, CANCEL, REQUEUE and SUSPEND may be given`}},
		{"KillWait", []string{`t.conf:1: expected Key=Value, found "KillWait"`}},
		{"KillWait=", []string{`t.conf:1: expected Key=Value, found "KillWait="`}},
		{`PriorityFlags="NO_FAIR_TREE`, []string{`t.conf:1: PriorityFlags: value "NO_FAIR_TREE has an opening '"' but no closing one`}},
		{"KillWait=3 OverTimeLimit=4", []string{`t.conf:1: KillWait: unexpected text "OverTimeLimit=4" after the value (only NodeName, PartitionName and similar lines take several Key=Value pairs)`}},
		{"# three errors, reported in line order\nKillWait=x\nPriorityType=y\n\nPriorityMaxAge=z", []string{
			`t.conf:2: KillWait: "x" is not a valid number`,
			`t.conf:3: PriorityType: unsupported value "y" (fairsim simulates priority/multifactor and priority/basic)`,
			`t.conf:5: PriorityMaxAge: invalid Slurm time "z": unexpected character 'z' at offset 0 (only digits, '-' and ':' are allowed)`,
		}},
	}
	for _, tc := range tests {
		if got := parseErrors(t, tc.src+"\n"); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	_, err := Parse("t.conf", []byte("KillWait=x\nCompleteWait=y\n"))
	if want := "t.conf:1: KillWait: \"x\" is not a valid number\nt.conf:2: CompleteWait: \"y\" is not a valid number"; err.Error() != want {
		t.Errorf("error list = %q, want %q", err, want)
	}
}

// TestNodes covers NodeName lines: CPU inference as in read_config.c,
// DEFAULT merging, features and attribute positions.
func TestNodes(t *testing.T) {
	type shape struct{ cpus, sockets, cores, threads uint16 }
	tests := []struct {
		line string
		want shape
		warn string
	}{
		{"NodeName=n1", shape{1, 1, 1, 1}, ""},
		{"NodeName=n1 CPUs=32", shape{32, 32, 1, 1}, ""},                                              // Sockets = CPUs/(cores×threads)
		{"NodeName=n1 CPUs=32 CoresPerSocket=16", shape{32, 2, 16, 1}, ""},                            // inferred 2 sockets
		{"NodeName=n1 Sockets=2 CoresPerSocket=16 ThreadsPerCore=2", shape{64, 2, 16, 2}, ""},         // CPUs = product
		{"NodeName=n1 CPUs=32 Sockets=2 CoresPerSocket=16 ThreadsPerCore=2", shape{32, 2, 16, 2}, ""}, // CPUs = cores, allowed
		{"NodeName=n1 Procs=8", shape{8, 8, 1, 1}, ""},                                                // old name of CPUs
		{"NodeName=n1 Boards=2 SocketsPerBoard=2 CoresPerSocket=4", shape{16, 4, 4, 1}, ""},
		{"NodeName=n1 CPUs=30 CoresPerSocket=16", shape{1 * 16, 1, 16, 1},
			"t.conf:1: NodeName=n1: CPUs=30 matches neither Sockets (1), Sockets×CoresPerSocket (16) nor Sockets×CoresPerSocket×ThreadsPerCore (16); Slurm resets it to 16"},
		{"NodeName=n1 CPUs=0", shape{1, 1, 1, 1}, "t.conf:1: NodeName=n1: CPUs=0 is invalid; Slurm resets it to 1"},
		{"NodeName=n1 Sockets=2 SocketsPerBoard=4", shape{4, 4, 1, 1},
			"t.conf:1: NodeName=n1: both Sockets and SocketsPerBoard given; Slurm uses SocketsPerBoard"},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.line+"\n")
		g := c.Nodes[0]
		if got := (shape{g.CPUs, g.Sockets, g.CoresPerSocket, g.ThreadsPerCore}); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.line, got, tc.want)
		}
		var want []string
		if tc.warn != "" {
			want = []string{tc.warn}
		}
		if got := warnings(c); !slices.Equal(got, want) {
			t.Errorf("%s: warnings %q, want %q", tc.line, got, want)
		}
	}

	c := mustParse(t, `NodeName=DEFAULT RealMemory=1000 Features=old State=FUTURE
NodeName=a[1-2] CPUs=4
NodeName=DEFAULT RealMemory=2000 Weight=5
NodeName=b1 Feature=intel,skylake,, Features=ignored Weight=4294967295
NodeName=c1 Gres=gpu:2 State=DOWN
NodeName=DEFAULT RealMemory=9
`)
	want := []NodeGroup{
		{Names: "a[1-2]", Hosts: []string{"a1", "a2"}, CPUs: 4, Sockets: 4, CoresPerSocket: 1, ThreadsPerCore: 1,
			RealMemory: 1000, Features: []string{"old"}, Weight: 1, State: "FUTURE"},
		{Names: "b1", Hosts: []string{"b1"}, CPUs: 1, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1,
			RealMemory: 2000, Features: []string{"intel", "skylake"}, Weight: 4294967294, State: "FUTURE"},
		{Names: "c1", Hosts: []string{"c1"}, CPUs: 1, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1,
			RealMemory: 2000, Features: []string{"old"}, Gres: "gpu:2", Weight: 5, State: "DOWN"},
	}
	if len(c.Nodes) != len(want) {
		t.Fatalf("got %d groups, want %d", len(c.Nodes), len(want))
	}
	for i := range want {
		if !equalGroup(c.Nodes[i], want[i]) {
			t.Errorf("group %d:\n got %+v\nwant %+v", i, c.Nodes[i], want[i])
		}
	}
	if got := c.AllHosts(); !slices.Equal(got, []string{"a1", "a2", "b1", "c1"}) {
		t.Errorf("AllHosts = %q", got)
	}
	if g, ok := c.NodeGroupOf("a2"); !ok || g.Names != "a[1-2]" || !g.HasFeature("old") || g.HasFeature("intel") {
		t.Errorf("NodeGroupOf(a2) = %+v, %v", g, ok)
	}
	for key, line := range map[string]int{
		"NodeName=a[1-2]": 2, "NodeName=a[1-2].RealMemory": 1, "NodeName=a[1-2].CPUs": 2,
		"NodeName=b1.RealMemory": 3, "NodeName=b1.Features": 4, "NodeName=c1.Weight": 3,
	} {
		if got := c.Where(key).Line; got != line {
			t.Errorf("Where(%s) = line %d, want %d", key, got, line)
		}
	}
}

func equalGroup(a, b NodeGroup) bool {
	return a.Names == b.Names && slices.Equal(a.Hosts, b.Hosts) && a.CPUs == b.CPUs && a.Sockets == b.Sockets &&
		a.CoresPerSocket == b.CoresPerSocket && a.ThreadsPerCore == b.ThreadsPerCore && a.RealMemory == b.RealMemory &&
		slices.Equal(a.Features, b.Features) && a.Gres == b.Gres && a.Weight == b.Weight && a.State == b.State
}

func TestNodeErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"NodeName=n[1-3]\nNodeName=n3", []string{`t.conf:2: NodeName=n3: node n3 is already defined at t.conf:1`}},
		{"NodeName=ALL CPUs=2", []string{`t.conf:1: NodeName: ALL is a reserved word and cannot name a node`}},
		{"NodeName=n[1-", []string{`t.conf:1: NodeName=n[1-: hostlist "n[1-": '[' is never closed`}},
		{"NodeName=DEFAULT NodeHostname=x", []string{`t.conf:1: NodeName: NodeHostname is not allowed with NodeName=DEFAULT`}},
		{"NodeName=n1 CPUs=lots", []string{`t.conf:1: NodeName=n1: CPUs: "lots" is not a valid number`}},
		{"NodeName=n1 RealMemory=-5", []string{`t.conf:1: NodeName=n1: RealMemory: "-5" is less than zero`}},
		{"NodeName=n1 RealMemory=18446744073709551615", []string{`t.conf:1: NodeName=n1: RealMemory: 18446744073709551615 MB is more than fairsim can count (at most 8796093022207 MB, 8 EiB)`}},
		{"NodeName=n1 RealMemory=UNLIMITED", []string{`t.conf:1: NodeName=n1: RealMemory: 18446744073709551615 MB is more than fairsim can count (at most 8796093022207 MB, 8 EiB)`}},
		{"NodeName=n1 Sockets=256 CoresPerSocket=256", []string{`t.conf:1: NodeName=n1: Sockets×CoresPerSocket×ThreadsPerCore = 65536 exceeds Slurm's limit of 65535 CPUs per node`}},
		{"NodeName=n1 CPUs=2 junk", []string{`t.conf:1: NodeName: cannot parse "junk" (expected Key=Value pairs)`}},
		{`NodeName=n1 Features="a,b Gres=gpu:2`, []string{`t.conf:1: NodeName=n1: Features: value "a,b has an opening '"' but no closing one`}},
	}
	for _, tc := range tests {
		if got := parseErrors(t, tc.src+"\n"); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	// An unknown attribute is a warning, not an error.
	c := mustParse(t, "NodeName=n1 CPUs=2 Colour=blue NodeAddr=10.0.0.1\n")
	if got, want := warnings(c), []string{`t.conf:1: NodeName=n1: unknown attribute "Colour" ignored`}; !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

// TestNodeLimit checks the total node cap, which keeps a huge or mistyped
// configuration from exhausting memory.
func TestNodeLimit(t *testing.T) {
	got := parseErrors(t, "NodeName=a[1-65000]\nNodeName=b[1-536]\nNodeName=c1\n")
	want := []string{"t.conf:3: NodeName=c1: more than 65536 nodes in total; fairsim does not simulate clusters this large"}
	if !slices.Equal(got, want) {
		t.Errorf("errors %q, want %q", got, want)
	}
}

// TestBadNodeLineNoCascade: a NodeName line refused for a value is the one
// error; the partitions naming its nodes do not each add "not defined by
// any NodeName line". A node no line names still is an error.
func TestBadNodeLineNoCascade(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"NodeName=c[01-02] CPUs=abc\nPartitionName=batch Nodes=c[01-02] Default=YES\nPartitionName=b Nodes=c01\n",
			[]string{`t.conf:1: NodeName=c[01-02]: CPUs: "abc" is not a valid number`}},
		{"NodeName=c[01-02] CPUs=4 State=WEIRD\nPartitionName=batch Nodes=c01,c02\nPartitionName=b2 Nodes=c03\n",
			[]string{`t.conf:1: NodeName=c[01-02]: State: invalid node state "WEIRD" (want one of ` + strings.Join(NodeStates, ", ") + `; Slurm refuses to start)`,
				`t.conf:3: PartitionName=b2: Nodes=c03: node "c03" is not defined by any NodeName line`}},
		{"NodeName=c01 Sockets=300 CoresPerSocket=300\nPartitionName=batch Nodes=c01\n",
			[]string{"t.conf:1: NodeName=c01: Sockets×CoresPerSocket×ThreadsPerCore = 90000 exceeds Slurm's limit of 65535 CPUs per node"}},
	} {
		if got := parseErrors(t, tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}
