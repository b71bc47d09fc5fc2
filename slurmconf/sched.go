package slurmconf

import (
	"fmt"
	"math"
	"strings"
	"sync"
)

// SchedulerParameters holds the SchedulerParameters options that shape
// when and how deeply the main and backfill schedulers run. Field names
// carry their unit because Slurm mixes seconds, minutes and microseconds.
//
// Invalid values behave as in Slurm: the scheduler logs an error and uses
// the default, so here they give a warning and the default.
type SchedulerParameters struct {
	// Main scheduler (job_scheduler.c).
	SchedIntervalSec      int64 // full-queue pass period; -1 disables; default 60
	SchedMinIntervalUsec  int64 // minimum gap between passes, MICROseconds; default 2
	DefaultQueueDepth     int64 // records tried by event-triggered passes; default 100
	PartitionJobDepth     int64 // records per partition per pass; 0 = no limit
	SchedMaxJobStart      int64 // starts per pass; 0 = no limit
	BatchSchedDelaySec    int64 // delay of submit-triggered passes; default 3
	MaxSchedTimeSec       int64 // wall-time cap of a pass; default min(max(MessageTimeout/2,1),2)
	Defer                 bool  // no scheduling attempt per submission
	DeferBatch            bool  // like Defer, batch jobs only
	AssocLimitStop        bool  // a limit-blocked job blocks its partition
	BfMinAgeReserveSec    int64 // jobs eligible for less get no reservation; default 0
	BfMinPrioReserve      int64 // jobs below this priority get no reservation; 0 = off
	BfIntervalSec         int64 // backfill period; -1 disables; default 30
	BfMaxTimeSec          int64 // wall cap of a cycle; default BfIntervalSec
	BfWindowMin           int64 // planning horizon, MINUTES; default 1440
	BfResolutionSec       int64 // plan granularity; default 60
	BfMaxJobTest          int64 // jobs tested per cycle; default 500
	BfMaxJobStart         int64 // starts per cycle; 0 = no limit
	BfMaxJobUser          int64 // jobs examined per user per cycle; 0 = no limit
	BfMaxJobAssoc         int64 // per association; overrides BfMaxJobUser
	BfMaxJobPart          int64 // per partition
	BfMaxJobUserPart      int64 // per user and partition
	BfMaxJobArrayResv     int64 // reservations per job array; default 20
	BfNodeSpaceSize       int64 // records of a cycle's map; default BfMaxJobTest
	BfJobPartCountReserve int64 // only the top N jobs per partition reserve; 0 = all
	BfYieldIntervalUsec   int64 // testing between lock yields, MICROseconds; default 2000000
	BfYieldSleepUsec      int64 // length of a yield, MICROseconds; default 500000
	BfContinue            bool  // continue the queue after a lock yield
	BfOneResvPerJob       bool  // one reservation per job across its partitions
	BfRunningJobReserve   bool  // plan running whole-node jobs explicitly
	BfLicenses            bool  // plan licenses over time (implies BfRunningJobReserve)
	PreemptYoungestFirst  bool  // preemption candidates youngest first (preempt.c, 22.05)

	// Extra keeps the other options as written (e.g. "bf_busy_nodes",
	// "max_rpc_cnt=150"), in order, for Write and for audits.
	Extra []string
}

// BfWindowSec is the backfill horizon in seconds, the unit the plan uses.
func (p SchedulerParameters) BfWindowSec() int64 { return p.BfWindowMin * 60 }

// DefaultSchedulerParameters returns Slurm's defaults; max_sched_time
// depends on MessageTimeout.
func DefaultSchedulerParameters(messageTimeout uint16) SchedulerParameters {
	return SchedulerParameters{
		SchedIntervalSec:     60,
		SchedMinIntervalUsec: 2,
		DefaultQueueDepth:    100,
		BatchSchedDelaySec:   3,
		MaxSchedTimeSec:      defaultMaxSchedTime(messageTimeout),
		BfIntervalSec:        30,
		BfMaxTimeSec:         30,
		BfWindowMin:          1440,
		BfResolutionSec:      60,
		BfMaxJobTest:         500,
		BfMaxJobArrayResv:    20,
		BfNodeSpaceSize:      500,
		BfYieldIntervalUsec:  2000000,
		BfYieldSleepUsec:     500000,
	}
}

func defaultMaxSchedTime(messageTimeout uint16) int64 {
	return min(max(int64(messageTimeout)/2, 1), 2)
}

// schedOpt describes one modelled option: how to store it and the range
// Slurm accepts (values outside fall back to the default with an error log).
type schedOpt struct {
	name   string
	field  func(*SchedulerParameters) *int64
	valid  func(v int64, p *SchedulerParameters, msgTimeout uint16) bool
	prefix bool // atoll-style read of an unsigned 64-bit value (bf_min_prio_reserve)
}

func between(lo, hi int64) func(int64, *SchedulerParameters, uint16) bool {
	return func(v int64, _ *SchedulerParameters, _ uint16) bool { return v >= lo && v <= hi }
}

// schedOpts lists the numeric options in the order Slurm reads them (order
// matters: bf_max_time falls back to the bf_interval just read).
var schedOpts = sync.OnceValue(func() []schedOpt {
	return []schedOpt{
		{name: "sched_interval", field: func(p *SchedulerParameters) *int64 { return &p.SchedIntervalSec },
			valid: between(-1, math.MaxInt32)},
		{name: "sched_min_interval", field: func(p *SchedulerParameters) *int64 { return &p.SchedMinIntervalUsec },
			valid: between(0, math.MaxInt32)},
		{name: "default_queue_depth", field: func(p *SchedulerParameters) *int64 { return &p.DefaultQueueDepth },
			valid: between(0, math.MaxInt32)},
		{name: "partition_job_depth", field: func(p *SchedulerParameters) *int64 { return &p.PartitionJobDepth },
			valid: between(0, math.MaxInt32)},
		{name: "sched_max_job_start", field: func(p *SchedulerParameters) *int64 { return &p.SchedMaxJobStart },
			valid: between(0, math.MaxInt32)},
		{name: "batch_sched_delay", field: func(p *SchedulerParameters) *int64 { return &p.BatchSchedDelaySec },
			valid: between(0, math.MaxInt32)},
		{name: "max_sched_time", field: func(p *SchedulerParameters) *int64 { return &p.MaxSchedTimeSec },
			valid: func(v int64, _ *SchedulerParameters, mt uint16) bool { return v > 0 && v <= int64(mt)/2 }},
		{name: "bf_interval", field: func(p *SchedulerParameters) *int64 { return &p.BfIntervalSec },
			valid: func(v int64, _ *SchedulerParameters, _ uint16) bool { return v == -1 || v >= 1 && v <= 10800 }},
		{name: "bf_max_time", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxTimeSec },
			valid: between(1, 3600)},
		{name: "bf_window", field: func(p *SchedulerParameters) *int64 { return &p.BfWindowMin },
			valid: between(1, 43200)},
		{name: "bf_max_job_test", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobTest },
			valid: between(1, 1000000)},
		{name: "bf_node_space_size", field: func(p *SchedulerParameters) *int64 { return &p.BfNodeSpaceSize },
			valid: between(2, 2000000)},
		{name: "bf_resolution", field: func(p *SchedulerParameters) *int64 { return &p.BfResolutionSec },
			valid: between(1, 3600)},
		{name: "bf_max_job_array_resv", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobArrayResv },
			valid: between(0, 1000)},
		{name: "bf_max_job_part", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobPart },
			valid: between(0, math.MaxInt32)},
		{name: "bf_max_job_start", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobStart },
			valid: between(0, 10000)},
		{name: "bf_max_job_user", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobUser },
			valid: between(0, math.MaxInt32)},
		{name: "bf_job_part_count_reserve", field: func(p *SchedulerParameters) *int64 { return &p.BfJobPartCountReserve },
			valid: between(0, 100000)},
		{name: "bf_max_job_user_part", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobUserPart },
			valid: between(0, math.MaxInt32)},
		{name: "bf_max_job_assoc", field: func(p *SchedulerParameters) *int64 { return &p.BfMaxJobAssoc },
			valid: between(0, math.MaxInt32)},
		{name: "bf_min_age_reserve", field: func(p *SchedulerParameters) *int64 { return &p.BfMinAgeReserveSec },
			valid: between(0, 30*86400)},
		{name: "bf_yield_interval", field: func(p *SchedulerParameters) *int64 { return &p.BfYieldIntervalUsec },
			valid: between(1, 10000000)},
		{name: "bf_yield_sleep", field: func(p *SchedulerParameters) *int64 { return &p.BfYieldSleepUsec },
			valid: between(1, 10000000)},
		{name: "bf_min_prio_reserve", field: func(p *SchedulerParameters) *int64 { return &p.BfMinPrioReserve },
			valid: between(1, math.MaxUint32), prefix: true},
	}
})

// schedFlags lists the modelled switches; Slurm tests them by substring,
// so "bf_continue=1" switches bf_continue on too.
var schedFlags = []struct {
	name  string
	field func(*SchedulerParameters) *bool
}{
	{"defer", func(p *SchedulerParameters) *bool { return &p.Defer }},
	{"defer_batch", func(p *SchedulerParameters) *bool { return &p.DeferBatch }},
	{"assoc_limit_stop", func(p *SchedulerParameters) *bool { return &p.AssocLimitStop }},
	{"bf_continue", func(p *SchedulerParameters) *bool { return &p.BfContinue }},
	{"bf_one_resv_per_job", func(p *SchedulerParameters) *bool { return &p.BfOneResvPerJob }},
	{"bf_running_job_reserve", func(p *SchedulerParameters) *bool { return &p.BfRunningJobReserve }},
	{"bf_licenses", func(p *SchedulerParameters) *bool { return &p.BfLicenses }},
	{"preempt_youngest_first", func(p *SchedulerParameters) *bool { return &p.PreemptYoungestFirst }},
}

// schedIgnored lists valid SchedulerParameters options (slurm.conf man page)
// that fairsim does not model. Those that change scheduling decisions are
// marked, so the user is told the simulation differs.
var schedIgnored = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"allow_zero_lic": false, "batch_sched_delay_max": false, "bb_array_stage_cnt": false,
		"bf_allow_magnetic_slot": true, "bf_busy_nodes": true, "bf_hetjob_immediate": false,
		"bf_hetjob_prio": false, "bf_ignore_newly_avail_nodes": true,
		"bf_topopt_enable": true, "bf_topopt_iterations": false,
		"bf_yield_rpc_cnt": false, "bf_yield_rpc_count": false,
		"build_queue_timeout": false, "correspond_after_task_cnt": false,
		"default_gbytes": false, "delay_boot": false, "disable_job_shrink": false,
		"disable_hetjob_steps": false, "enable_hetjob_steps": false, "enable_user_top": false,
		"extra_constraints": false, "ignore_numa": false, "ignore_prefer_validation": false,
		"inventory_interval": false, "kill_invalid_depend": false, "max_array_tasks": false,
		"max_depend_depth": false, "max_rpc_cnt": false, "max_rpc_count": false,
		"max_script_size": false, "max_submit_line_size": false, "max_switch_wait": false,
		"no_backup_scheduling": false, "no_env_cache": false, "nohold_on_prolog_fail": false,
		"pack_serial_at_end": true, "permit_job_expansion": false, "preempt_reorder_count": true,
		"preempt_strict_order": true, "reduce_completing_frag": true,
		"requeue_setup_env_fail": false, "salloc_wait_nodes": false, "sbatch_wait_nodes": false,
		"sched_max_job_start_per_part": false, "spec_cores_first": false, "step_retry_count": false,
		"step_retry_time": false, "time_min_as_soft_limit": true, "whole_hetjob": false,
		"enable_job_state_cache": false, "max_job_bf": false,
	}
})

// parseSchedulerParameters reads the comma list. Slurm searches the whole
// string for "name=" and takes the first match, so the first occurrence of
// a repeated option wins here too.
func parseSchedulerParameters(raw string, msgTimeout uint16, warn func(string, ...any)) SchedulerParameters {
	p := DefaultSchedulerParameters(msgTimeout)
	given := map[string]string{}
	flags := map[string]bool{}
	for _, tok := range strings.Split(raw, ",") {
		if tok == "" {
			continue
		}
		name, val, hasVal := strings.Cut(tok, "=")
		lname := strings.ToLower(name)
		switch {
		case isSchedOpt(lname):
			if !hasVal {
				warn("%q needs a value (%s=N); ignored, as Slurm does", tok, lname)
				continue
			}
			if _, dup := given[lname]; dup {
				warn("%s given more than once; Slurm uses the first, %s=%s", lname, lname, given[lname])
				continue
			}
			given[lname] = val
		case isSchedFlag(lname):
			flags[lname] = true
		default:
			affects, known := schedIgnored()[lname]
			switch {
			case !known:
				warn("unknown option %q ignored", tok)
			case affects:
				warn("option %q is valid in Slurm but not simulated; scheduling may differ from the real cluster", tok)
			}
			p.Extra = append(p.Extra, tok)
		}
	}
	for _, o := range schedOpts() {
		f := o.field(&p)
		switch o.name {
		case "bf_max_time":
			*f = p.BfIntervalSec // Slurm's default, and its fallback
		case "bf_node_space_size":
			*f = p.BfMaxJobTest // likewise (backfill.c _load_config)
		}
		s, ok := given[o.name]
		if !ok {
			continue
		}
		v, trailing := atoll(s)
		if o.prefix && strings.HasPrefix(strings.TrimLeft(s, " \t"), "-") {
			v = -1 // strtoull would wrap a negative number to a huge one
		}
		if trailing != "" {
			warn("%s=%s: Slurm reads only the leading number %d and ignores %q", o.name, s, v, trailing)
		}
		if !o.valid(v, &p, msgTimeout) {
			warn("%s=%s is out of range; Slurm ignores it and uses %d", o.name, s, *f)
			continue
		}
		*f = v
	}
	for _, fl := range schedFlags {
		*fl.field(&p) = flags[fl.name]
	}
	if p.BfLicenses {
		p.BfRunningJobReserve = true
	}
	if p.BfMaxJobPart != 0 && p.BfMaxJobPart >= p.BfMaxJobTest {
		warn("bf_max_job_part=%d >= bf_max_job_test=%d, so it never limits anything", p.BfMaxJobPart, p.BfMaxJobTest)
	}
	if p.BfMaxJobAssoc != 0 && p.BfMaxJobUser != 0 {
		warn("both bf_max_job_user and bf_max_job_assoc are set; Slurm uses bf_max_job_assoc only")
		p.BfMaxJobUser = 0
	}
	return p
}

// SchedulerParameterNames lists every SchedulerParameters option this
// package models (numeric options, then switches), so that callers
// accepting options by name (fairsim --set) accept exactly these.
func SchedulerParameterNames() []string {
	names := make([]string, 0, len(schedOpts())+len(schedFlags))
	for _, o := range schedOpts() {
		names = append(names, o.name)
	}
	for _, f := range schedFlags {
		names = append(names, f.name)
	}
	return names
}

func isSchedOpt(name string) bool {
	for _, o := range schedOpts() {
		if o.name == name {
			return true
		}
	}
	return false
}

func isSchedFlag(name string) bool {
	for _, f := range schedFlags {
		if f.name == name {
			return true
		}
	}
	return false
}

// atoll reads a leading integer the way C's atoi/atoll do (white space,
// optional sign, digits; 0 when there are none) and returns what follows.
// Values beyond int64 saturate, which every range check then rejects.
func atoll(s string) (int64, string) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var v int64
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v > (math.MaxInt64-9)/10 {
			v = math.MaxInt64 / 10 * 10 // saturate
		} else {
			v = v*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, s
	}
	if neg {
		v = -v
	}
	return v, s[i:]
}

// String renders the parameters for slurm.conf. Values equal to Slurm's
// defaults are written too, so an audit shows everything in force, except
// where writing the default would itself be invalid or change its meaning.
func (p SchedulerParameters) String(messageTimeout uint16) string {
	var out []string
	for _, o := range schedOpts() {
		v := *o.field(&p)
		switch o.name {
		case "bf_max_time":
			if v == p.BfIntervalSec {
				continue // "= bf_interval" is the default, and -1 is not writable
			}
		case "max_sched_time":
			if v > int64(messageTimeout)/2 {
				continue // only reachable as the default
			}
		case "bf_min_prio_reserve":
			if v == 0 {
				continue // 0 is "off", which Slurm only reaches by omission
			}
		}
		out = append(out, fmt.Sprintf("%s=%d", o.name, v))
	}
	for _, fl := range schedFlags {
		if *fl.field(&p) && !(fl.name == "bf_running_job_reserve" && p.BfLicenses) {
			out = append(out, fl.name)
		}
	}
	out = append(out, p.Extra...)
	return strings.Join(out, ",")
}
