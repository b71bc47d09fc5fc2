package config

import (
	"strings"
	"testing"

	"fairsim/scheduler"
	"fairsim/slurmconf"
)

// TestTimingKeys: the sim keys of pass timing and their defaults, and
// SchedulerParameters reaching the slurm scheduler.
func TestTimingKeys(t *testing.T) {
	for _, tc := range []struct {
		yaml       string
		completing int64
	}{
		// 1 s under slurm (the real controller's 1-2 s gap after each
		// job), 0 under the textbook fifo and easy.
		{"scheduler: slurm\ntrace: {file: t.swf}\n", 1},
		{"scheduler: easy\ntrace: {file: t.swf}\n", 0},
		{"scheduler: slurm\ntrace: {file: t.swf}\nsim: {completing_seconds: 0}\n", 0},
	} {
		sc := parse(t, tc.yaml)
		if err := sc.Resolve(); err != nil {
			t.Fatal(err)
		}
		if *sc.Sim.CompletingSeconds != tc.completing || sc.Sim.ControllerUptime != "0" {
			t.Errorf("%q: completing %d uptime %q, want %d and 0", tc.yaml, *sc.Sim.CompletingSeconds, sc.Sim.ControllerUptime, tc.completing)
		}
	}
	for _, tc := range []struct{ yaml, want string }{
		{"trace: {file: t.swf}\nsim: {completing_seconds: -1}\n", "sim.completing_seconds -1"},
		{"trace: {file: t.swf}\nsim: {backfill_tests_per_second: -5}\n", "sim.backfill_tests_per_second -5"},
	} {
		if err := parse(t, tc.yaml).Resolve(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want …%s…", tc.yaml, err, tc.want)
		}
	}

	conf, err := slurmconf.ParseIn("slurm.conf", []byte("SchedulerParameters=defer_batch,sched_min_interval=2000000,bf_max_time=90,bf_yield_interval=1000000,bf_yield_sleep=250000,bf_continue,bf_max_job_array_resv=2,bf_max_job_user_part=3,bf_one_resv_per_job,bf_job_part_count_reserve=4,bf_licenses\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	p := schedParams(conf)
	want := scheduler.DefaultParams()
	// defer_batch contains "defer", which Slurm tests as a substring.
	want.Defer, want.SchedMinInterval, want.BfMaxTime, want.BfYieldInterval, want.BfYieldSleep, want.BfContinue = true, 2000000, 90, 1000000, 250000, true
	// Both were read and then dropped before the scheduler until a
	// differential run (bf_max_job_array_resv=2) showed backfill planning
	// four tasks of one array where the controller planned two.
	want.BfMaxJobArrayResv, want.BfMaxJobUserPart = 2, 3
	// So were these three, with no warning, until a reading of the
	// switches slurmconf calls modelled; bf_licenses implies
	// bf_running_job_reserve (backfill.c).
	want.BfOneResvPerJob, want.BfJobPartCountReserve, want.BfRunningJobReserve = true, 4, true
	if p != want {
		t.Errorf("params %+v\nwant %+v", p, want)
	}
}

// TestRequeueDelay: batch_requeue_fini's delay is AuthInfo's cred_expire
// + 1 (slurm_cred.c: default 120, at least 5).
func TestRequeueDelay(t *testing.T) {
	for _, tc := range []struct {
		conf string
		want int64
		err  string
	}{
		{"", 121, ""},
		{"AuthInfo=socket=/run/munge/munge.socket.2\n", 121, ""},
		{"AuthInfo=cred_expire=600\n", 601, ""},
		{"AuthInfo=socket=/x,cred_expire=30\n", 31, ""},
		{"AuthInfo=cred_expire=4\n", 0, "slurm.conf:1: AuthInfo cred_expire=4"},
		{"AuthInfo=cred_expire=ten\n", 0, "cred_expire=ten"},
	} {
		conf, err := slurmconf.ParseIn("slurm.conf", []byte(tc.conf), "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := requeueDelay(conf)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: %d, %v; want %d, %q", tc.conf, got, err, tc.want, tc.err)
		}
	}
}
