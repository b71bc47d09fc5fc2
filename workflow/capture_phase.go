package workflow

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"fairsim/slurmtime"
)

// capturePhase is what a capture learns of the controller's clock: how
// long slurmctld had been up at the first submission of the window
// (sim.controller_uptime, which phases its PriorityCalcPeriod, sched_interval
// and backfill timers), and whether the associations were added to the
// running controller after its last calc tick before that submission
// (fairshare.assoc_added_after_start). Zero values leave the keys out.
type capturePhase struct {
	uptime     int64 // seconds; -1 when unknown
	assocAfter bool
}

// captureTimeLayout is how the 22.05 clients print dates with the default
// SLURM_TIME_FORMAT (slurm_make_time_str).
const captureTimeLayout = "2006-01-02T15:04:05"

// captureControllerPhase reads BOOT_TIME and PriorityCalcPeriod from
// scontrol show config, the first Submit of the sacct output, and
// `sacctmgr list transactions` since the boot for "Add Associations". A
// missing piece leaves its key out with a warning: the replay then runs
// with the defaults (uptime 0, associations loaded at start).
func captureControllerPhase(run Runner, env []string, cfg map[string]string, sacct []byte) (capturePhase, []string) {
	ph := capturePhase{uptime: -1}
	var warn []string
	bootS := cfg["BOOT_TIME"]
	boot, err := time.ParseInLocation(captureTimeLayout, bootS, time.UTC)
	if err != nil {
		return ph, append(warn, fmt.Sprintf("scontrol show config: BOOT_TIME %q is not a date: sim.controller_uptime left at 0", bootS))
	}
	first, ok := firstSubmit(sacct)
	if !ok {
		return ph, warn // no jobs: nothing to phase
	}
	if first.Before(boot) {
		return ph, append(warn, fmt.Sprintf("slurmctld started at %s, after the window's first submission %s: sim.controller_uptime left at 0",
			bootS, first.Format(captureTimeLayout)))
	}
	ph.uptime = int64(first.Sub(boot) / time.Second)

	out, err := run(env, "sacctmgr", "-P", "-n", "list", "transactions", "Start="+bootS, "format=Time,Action")
	if err != nil {
		return ph, append(warn, fmt.Sprintf("%v: fairshare.assoc_added_after_start not set", err))
	}
	var lastAdd time.Time
	for _, line := range strings.Split(string(out), "\n") {
		ts, action, ok := strings.Cut(strings.TrimSpace(line), "|")
		if !ok || !strings.EqualFold(strings.TrimSpace(action), "Add Associations") {
			continue
		}
		t, err := time.ParseInLocation(captureTimeLayout, ts, time.UTC)
		if err == nil && !t.Before(boot) && !t.After(first) && t.After(lastAdd) {
			lastAdd = t
		}
	}
	if lastAdd.IsZero() {
		return ph, warn
	}
	// The decay thread ticks every PriorityCalcPeriod from the boot
	// (fairsim's model of priority_multifactor.c _decay_thread); only a
	// tick after the last add computes the added associations' factors.
	period, err := slurmtime.ParseSeconds(cfg["PriorityCalcPeriod"])
	if err != nil || period <= 0 {
		period = 300 // PriorityCalcPeriod's default, 5 minutes
	}
	lastTick := boot.Add(time.Duration(ph.uptime/period*period) * time.Second)
	ph.assocAfter = !lastAdd.Before(lastTick)
	return ph, warn
}

// firstSubmit is the earliest Submit date of sacct -P output (header
// first), in UTC as the commands print it.
func firstSubmit(sacct []byte) (time.Time, bool) {
	lines := bytes.Split(sacct, []byte("\n"))
	if len(lines) < 2 {
		return time.Time{}, false
	}
	col := -1
	for i, h := range strings.Split(string(lines[0]), "|") {
		if h == "Submit" {
			col = i
		}
	}
	if col < 0 {
		return time.Time{}, false
	}
	var first time.Time
	for _, l := range lines[1:] {
		f := strings.Split(string(l), "|")
		if col >= len(f) {
			continue
		}
		t, err := time.ParseInLocation(captureTimeLayout, f[col], time.UTC)
		if err == nil && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	return first, !first.IsZero()
}

// captureDecayDelay is sim.decay_thread_delay as capture writes it: the
// decay thread ticked 1 s after BOOT_TIME in every reference run (sshare
// over their recorded schedules then matches in every column).
const captureDecayDelay = 1

// yaml is the scenario keys the phase sets, for captureScenarioYAML.
func (ph capturePhase) yaml() string {
	var b strings.Builder
	if ph.uptime > 0 {
		fmt.Fprintf(&b, "# slurmctld's BOOT_TIME was %s before the first submission: its timers'\n# phase (scontrol show config). Its decay thread starts once the priority\n# plugin has loaded, %d s after the boot on a real 22.05 controller.\nsim:\n  controller_uptime: %q\n  decay_thread_delay: %d\n",
			slurmtime.Format(ph.uptime), captureDecayDelay, slurmtime.Format(ph.uptime), captureDecayDelay)
	}
	if ph.assocAfter {
		b.WriteString("# sacctmgr list transactions: associations were added after slurmctld's\n# start and after its last PriorityCalcPeriod tick before the first submission.\nfairshare:\n  assoc_added_after_start: true\n")
	}
	return b.String()
}
