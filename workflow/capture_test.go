package workflow

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fairsim/config"
	"fairsim/events"
)

// fakeSlurm answers the client commands Capture runs with canned output,
// as a 22.05 controller would print them, and records what it was asked.
type fakeSlurm struct {
	conf  string
	calls []string
	more  string // more lines of scontrol show config
}

func (f *fakeSlurm) run(env []string, name string, args ...string) ([]byte, error) {
	call := name + " " + strings.Join(args, " ")
	f.calls = append(f.calls, call)
	if !slices.Contains(env, "TZ=UTC") {
		return nil, fmt.Errorf("%s run without TZ=UTC", call)
	}
	switch {
	case call == "scontrol show config":
		return []byte("Configuration data as of 2024-01-01T00:00:00\nClusterName             = tiny\nSLURM_CONF              = " + f.conf + "\nSLURM_VERSION           = 22.05.8\nBOOT_TIME               = 2023-12-31T23:59:57\n" + f.more), nil
	case call == "sacctmgr -P -n list transactions Start=2023-12-31T23:59:57 format=Time,Action":
		return []byte("2023-12-31T23:59:58|Add Accounts\n2023-12-31T23:59:58|Add Associations\n2023-12-31T23:59:59|Add Users\n"), nil
	case strings.HasPrefix(call, "sacctmgr -i dump tiny file="):
		return nil, os.WriteFile(strings.TrimPrefix(args[3], "file="), []byte("Cluster - 'tiny':Fairshare=1:QOS='normal'\nParent - 'root'\nAccount - 'a':Fairshare=1\nParent - 'a'\nUser - 'u1':DefaultAccount='a':Fairshare=1\nUser - 'u2':DefaultAccount='a':Fairshare=1\n"), 0o644)
	case call == "sacctmgr show qos -P":
		return []byte("Name|Priority|MaxJobsPU\nnormal|0|\n"), nil
	case call == "sacct --helpformat":
		// 22.05 has no ReqGRES, AllocGRES nor ReqReservation.
		return []byte("Account AllocCPUS AllocNodes AllocTRES Constraints Elapsed ElapsedRaw Eligible End Flags GID Group JobID JobIDRaw MaxRSS NCPUS NNodes NodeList NTasks Partition QOS ReqCPUS ReqMem ReqNodes ReqTRES Reservation ReservationId Reserved Start State Submit SubmitLine Timelimit TimelimitRaw TotalCPU UID User\n"), nil
	case strings.HasPrefix(call, "sacct -P -X -D -a -o "):
		data, err := os.ReadFile("testdata/validate/sacct.txt")
		return []byte(strings.TrimPrefix(string(data), "#fairsim tz=UTC\n")), err
	case strings.HasPrefix(call, "sacctmgr -P -n show event"):
		return []byte("|2024-01-01T00:00:00|Unknown|UP|Cluster Registered TRES\n" +
			"n1|2024-01-01T00:01:00|2024-01-01T00:02:00|DRAIN|fan swap\n" +
			"n1|2024-01-01T00:03:00|Unknown|IDLE|\n"), nil
	case call == "scontrol -o show reservation":
		return []byte("ReservationName=maint StartTime=2024-01-01T00:04:00 EndTime=2024-01-01T00:05:00 Duration=00:01:00 Nodes=n1 NodeCnt=1 CoreCnt=8 Features=(null) PartitionName=(null) Flags=MAINT,IGNORE_JOBS,SPEC_NODES TRES=cpu=8 Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n" +
			"ReservationName=course StartTime=2024-01-01T00:04:00 EndTime=2024-01-01T00:05:00 Duration=00:01:00 Nodes=n1 NodeCnt=1 CoreCnt=8 Features=(null) PartitionName=(null) Flags=SPEC_NODES TRES=cpu=8 Users=u1 Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n" +
			"ReservationName=daily StartTime=2024-01-01T00:06:00 EndTime=2024-01-01T00:07:00 Duration=00:01:00 Nodes=n1 NodeCnt=1 CoreCnt=8 Features=(null) PartitionName=(null) Flags=DAILY,SPEC_NODES TRES=cpu=8 Users=u1 Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n"), nil
	}
	return nil, fmt.Errorf("fake slurm: unexpected %q", call)
}

// TestCapture captures a fake cluster whose slurm.conf includes one file
// by a relative name and one by an absolute name, and checks the folder
// replays as it is.
func TestCapture(t *testing.T) {
	etc := t.TempDir()
	abs := filepath.Join(t.TempDir(), "tiny-nodes.conf")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(etc, "slurm.conf"), []byte("ClusterName=tiny\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\nPriorityType=priority/multifactor\nInclude "+strings.Replace(abs, "tiny", "%c", 1)+"\ninclude parts.conf\n"), 0o644))
	must(os.WriteFile(abs, []byte("NodeName=n1 CPUs=8 RealMemory=8000\n"), 0o644))
	must(os.WriteFile(filepath.Join(etc, "parts.conf"), []byte("PartitionName=batch Nodes=n1 Default=YES MaxTime=1:00:00\n"), 0o644))

	f := &fakeSlurm{conf: filepath.Join(etc, "slurm.conf")}
	out := t.TempDir()
	res, err := Capture(CaptureOptions{Out: out, Since: "2024-01-01T01:00", Until: "2024-01-02", Location: time.FixedZone("CET", 3600), Run: f.run})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cluster != "tiny" || res.Jobs != 4 {
		t.Errorf("cluster %q, %d jobs; want tiny, 4", res.Cluster, res.Jobs)
	}
	if want := []string{"ReqReservation", "ReqGRES", "AllocGRES"}; !slices.Equal(res.Skipped, want) {
		t.Errorf("skipped fields %v, want %v", res.Skipped, want)
	}
	// 01:00 CET is 00:00 UTC; the dates go to sacct in UTC.
	if want := "sacct -P -X -D -a -o " + strings.Join(res.Fields, ",") + " -S 2024-01-01T00:00:00 -E 2024-01-01T23:00:00"; !slices.Contains(f.calls, want) {
		t.Errorf("calls %q lack %q", f.calls, want)
	}
	conf, _ := os.ReadFile(filepath.Join(out, "slurm.conf"))
	wantConf := "Include includes" + abs + " # was " + abs + "\ninclude parts.conf\n"
	if !strings.Contains(string(conf), wantConf) {
		t.Errorf("slurm.conf:\n%s\nwant it to contain\n%s", conf, wantConf)
	}
	for _, name := range []string{"includes" + abs, "parts.conf", CaptureAssoc, CaptureQOS, CaptureSacct, CaptureEvents, CaptureScenario} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("missing %s: %v", name, err)
		}
	}
	ev, _ := os.ReadFile(filepath.Join(out, CaptureEvents))
	for _, want := range []string{
		"2024-01-01T00:01:00 NodeName=n1 State=DRAIN Reason=\"fan swap\"\n",
		"2024-01-01T00:02:00 NodeName=n1 State=RESUME\n",
		"2024-01-01T00:00:00 ReservationName=maint StartTime=2024-01-01T00:04:00 EndTime=2024-01-01T00:05:00 Nodes=n1 Flags=MAINT,IGNORE_JOBS Users=root\n",
		"2024-01-01T00:00:00 ReservationName=course StartTime=2024-01-01T00:04:00 EndTime=2024-01-01T00:05:00 Nodes=n1 Users=u1\n",
		"# not simulated (Flags=DAILY,SPEC_NODES): ReservationName=daily",
	} {
		if !strings.Contains(string(ev), want) {
			t.Errorf("events lack %q:\n%s", want, ev)
		}
	}
	if len(res.Warnings) != 2 { // the IDLE event, the DAILY reservation
		t.Errorf("warnings %q, want 2", res.Warnings)
	}
	// Booted 3 s before the first submission (00:00:00), associations
	// added at 23:59:58, after the calc tick at the boot.
	scy, _ := os.ReadFile(filepath.Join(out, CaptureScenario))
	for _, want := range []string{"sim:\n  controller_uptime: \"00:00:03\"\n  decay_thread_delay: 1\n", "fairshare:\n  assoc_added_after_start: true\n"} {
		if !strings.Contains(string(scy), want) {
			t.Errorf("scenario.yaml lacks %q:\n%s", want, scy)
		}
	}
	evs, err := events.ReadFile(filepath.Join(out, CaptureEvents), time.UTC)
	if err != nil || len(evs) != 4 {
		t.Errorf("events read back: %d, %v; want 4", len(evs), err)
	}

	// The folder is a scenario as it is: it loads, resolves and replays.
	sc, err := config.Load(ScenarioFile(out))
	must(err)
	must(sc.Resolve())
	if sc.Sim.ControllerUptime != "00:00:03" || sc.Sim.DecayThreadDelay != 1 || !sc.FairShare.AssocAddedAfterStart {
		t.Errorf("scenario read back: controller_uptime %q, decay_thread_delay %d, assoc_added_after_start %v; want 00:00:03, 1, true",
			sc.Sim.ControllerUptime, sc.Sim.DecayThreadDelay, sc.FairShare.AssocAddedAfterStart)
	}
	_, r, err := Pipeline{}.Run(sc, "")
	must(err)
	if len(r.Jobs) != 4 {
		t.Errorf("replayed %d jobs, want 4", len(r.Jobs))
	}
}

func TestCaptureDate(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"", "", ""},
		{"2024-03-01", "2024-03-01T00:00:00", ""},
		{"2024-03-01T09:30", "2024-03-01T09:30:00", ""},
		{"2024-03-01T09:30:15", "2024-03-01T09:30:15", ""},
		{"yesterday", "", `--since "yesterday": want YYYY-MM-DD[THH:MM[:SS]]`},
	} {
		got, err := captureDate("--since", tc.in, time.UTC)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("captureDate(%q) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// FuzzCaptureOutputs feeds arbitrary command output to the parsers of
// capture: none may panic, and an events file they write is read back by
// the events reader without a panic (an error is fine: it names the line).
func FuzzCaptureOutputs(f *testing.F) {
	f.Add("|2026-11-24T09:59:46|Unknown||Cluster Registered TRES\n", "No reservations in the system\n", "ClusterName = fsim\nSLURM_CONF = /tmp/x/slurm.conf\n")
	f.Add("2026-11-24T09:55:25|Add Associations\n", "JobIDRaw|Submit\n1|2026-11-24T09:55:27\n", "BOOT_TIME = 2026-11-24T09:55:24\nPriorityCalcPeriod = 00:01:00\n")
	f.Add("n1|2024-01-01T00:01:00|2024-01-01T00:02:00|DRAIN|fan swap\nn1|2024-01-01T00:03:00|Unknown|IDLE|\n",
		"ReservationName=maint StartTime=2024-01-01T00:04:00 EndTime=2024-01-01T00:05:00 Duration=00:01:00 Nodes=n1 Flags=MAINT,IGNORE_JOBS Users=root Accounts=(null)\n",
		"Configuration data as of 2024-01-01T00:00:00\nClusterName             = tiny\n")
	f.Fuzz(func(t *testing.T, ev, resv, cfg string) {
		parseShowConfig([]byte(cfg))
		captureFields([]byte(cfg))
		run := func(env []string, name string, args ...string) ([]byte, error) {
			if name == "sacctmgr" {
				return []byte(ev), nil
			}
			return []byte(resv), nil
		}
		// The phase reads the config, sacct's Submit column and the
		// transactions (here the same arbitrary text).
		captureControllerPhase(run, nil, parseShowConfig([]byte(cfg)), []byte(resv))
		for _, since := range []string{"", "2024-01-01T00:00:00"} {
			out, _, err := captureEvents(run, nil, since, "")
			if err != nil {
				t.Fatal(err)
			}
			events.Read(strings.NewReader(string(out)), "events", time.UTC)
		}
	})
}

// TestCaptureBackfillLog: capture copies the lines of slurmctld's log
// validate reads (backfill cycles, the controller's timing) beside the
// capture, after the zone of their time stamps, whenever it can read the
// log; with DebugFlags=Backfill and no readable log it says why.
func TestCaptureBackfillLog(t *testing.T) {
	etc := t.TempDir()
	if err := os.WriteFile(filepath.Join(etc, "slurm.conf"), []byte("ClusterName=tiny\nNodeName=n1 CPUs=8 RealMemory=8000\nPartitionName=batch Nodes=n1 Default=YES\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "slurmctld.log")
	if err := os.WriteFile(log, []byte(bflogSample+"[2026-11-27T11:33:12.000] _job_complete: JobId=4 done\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, more string
		file       bool
		warnings   int
	}{
		{"flag and log", "DebugFlags              = Backfill,BackfillMap\nSlurmctldLogFile        = " + log + "\n", true, 0},
		{"no flag", "DebugFlags              = (null)\nSlurmctldLogFile        = " + log + "\n", true, 0},
		{"unreadable log", "DebugFlags              = Backfill\nSlurmctldLogFile        = " + log + ".gone\n", false, 1},
		{"syslog", "DebugFlags              = Backfill\nSlurmctldLogFile        = (null)\n", false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeSlurm{conf: filepath.Join(etc, "slurm.conf"), more: c.more}
			out := t.TempDir()
			res, err := Capture(CaptureOptions{Out: out, Location: time.UTC, Run: f.run})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, w := range res.Warnings {
				if strings.Contains(w, "backfill plans") {
					n++
				}
			}
			got, err := os.ReadFile(filepath.Join(out, CaptureBackfillLog))
			if (err == nil) != c.file || n != c.warnings || slices.Contains(res.Files, CaptureBackfillLog) != c.file {
				t.Fatalf("%s: file %v (%v), %d warnings %q; want file %v, %d warnings", CaptureBackfillLog, err == nil, res.Files, n, res.Warnings, c.file, c.warnings)
			}
			if !c.file {
				return
			}
			// The sample has no main pass: --timing log could not use it.
			if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "SlurmctldDebug=debug") }) {
				t.Errorf("warnings %q: want one saying the log has no main pass", res.Warnings)
			}
			lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
			if len(lines) != 12 || lines[0] != "#fairsim tz=UTC" || strings.Contains(string(got), "since boot") || !strings.HasSuffix(lines[11], "_job_complete: JobId=4 done") {
				t.Errorf("copied log:\n%s\nwant the zone, the 10 backfill lines (\"No reservation created\" too) and the completion", got)
			}
			// The zone line wins over the one the reader is given.
			cs, err := ReadBackfillLogFile(filepath.Join(out, CaptureBackfillLog), time.FixedZone("X", 7200))
			want, _ := ReadBackfillLog(strings.NewReader(bflogSample), "sample", time.UTC)
			if err != nil || len(cs) != 2 || cs[1].At != want[1].At || len(cs[1].Plans) != 5 {
				t.Errorf("read back: %v, %+v; want the sample's two cycles in UTC", err, cs)
			}
		})
	}
}
