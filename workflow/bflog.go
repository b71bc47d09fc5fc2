package workflow

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"fairsim/ctldlog"
)

// BackfillCycle is one backfill cycle of slurmctld's log: when it began
// and what it planned, job by job.
type BackfillCycle struct {
	At     int64 // Unix seconds of "_attempt_backfill: beginning"
	Line   int
	NoJobs bool // "no jobs to backfill": nothing pending
	Plans  []BackfillPlan
}

// BackfillPlan is what a cycle did with one job: started it now, or
// expected it to start at Start with its nodes held until End.
type BackfillPlan struct {
	Job        int64
	Started    bool
	Start, End int64 // Unix seconds; Start is the cycle's second for a start
	Nodes      string
	Part       string
}

// The lines a backfill cycle logs with DebugFlags=Backfill (backfill.c
// _attempt_backfill, _start_job, _dump_job_sched). The prefix before them
// (plugin name, "debug:") varies by version and is not read. Compiled
// when first used, as only validate reads a log.
var (
	bfBegin   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_attempt_backfill: beginning`) })
	bfNoJobs  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_attempt_backfill: no jobs to backfill`) })
	bfStarted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_start_job: Started (JobId=\S+) in (\S+) on (\S+)`) })
	bfSched   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`_dump_job_sched: (JobId=\S+) to start at (\S+), end at (\S+) on nodes (\S+) in partition (\S+)`)
	})
	// bfNoResv follows a _dump_job_sched line whose start lies past
	// bf_window: an expected start, not a reservation.
	bfNoResv = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`BACKFILL: (JobId=\S+) StartTime set to time after current backfill window\. No reservation created`)
	})
)

// bfKeep are the lines of slurmctld's log validate reads: the backfill
// cycles it compares plans with, and the controller's timing (submissions,
// completions and main passes, to the millisecond) it can replay.
var bfKeep = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`_attempt_backfill: (beginning|no jobs to backfill)|_start_job: Started JobId|_dump_job_sched: JobId|No reservation created|` +
		`_slurm_rpc_submit_batch_job: JobId=|_job_complete: JobId=\S+ done|Time limit exhausted for JobId=|_slurm_rpc_epilog_complete: JobId=|sched: Running job scheduler|sched: Allocate JobId|priority/multifactor: _read_last_decay_ran|node_did_resp `)
})

// captureBackfillLog copies the lines of slurmctld's log validate reads
// (bfKeep) when the log is readable here, after a "#fairsim tz=" line:
// slurmctld stamps its log in its local time, taken to be loc's. With
// DebugFlags=Backfill and no readable log it says why validate will
// compare no backfill plan. Without the flag the copy still holds the
// controller's timing (validate --timing log, with SlurmctldDebug=debug).
func captureBackfillLog(cfg map[string]string, loc *time.Location) ([]byte, []string) {
	set := false
	for _, f := range strings.Split(cfg["DebugFlags"], ",") {
		set = set || strings.EqualFold(strings.TrimSpace(f), "Backfill")
	}
	warn := func(why string) []string {
		if !set {
			return nil
		}
		return []string{why + ": validate will compare no backfill plans"}
	}
	path := cfg["SlurmctldLogFile"]
	if path == "" || path == "(null)" {
		return nil, warn("DebugFlags=Backfill, but slurmctld logs to syslog (no SlurmctldLogFile)")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, warn(fmt.Sprintf("slurmctld's log: %v", err))
	}
	defer f.Close()
	out := []byte("#fairsim tz=" + loc.String() + "\n")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if b := sc.Bytes(); bfKeep().Match(b) {
			out = append(append(out, b...), '\n')
		}
	}
	if err := sc.Err(); err != nil {
		return nil, []string{fmt.Sprintf("slurmctld's log %s: %v: validate will compare no backfill plans and replay no timing", path, err)}
	}
	if !bytes.Contains(out, []byte("sched: Running job scheduler")) {
		// The main passes are logged at debug level only: without them
		// the controller's timing cannot be replayed.
		return out, []string{fmt.Sprintf("slurmctld's log %s has no main pass (SlurmctldDebug=debug logs them): validate --timing log will refuse it", path)}
	}
	return out, nil
}

// ReadBackfillLogFile reads the backfill cycles of slurmctld's log at
// path; its time stamps are in loc (slurmctld writes local time).
func ReadBackfillLogFile(path string, loc *time.Location) ([]BackfillCycle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadBackfillLog(f, path, loc)
}

// ReadBackfillLog reads the backfill cycles of a slurmctld log (name is
// for messages), its time stamps in loc unless a first line "#fairsim
// tz=ZONE" (fairsim capture's) names their zone. Lines of other kinds are
// skipped; a backfill line with
// a field it cannot read is an error naming its line and field, as is a
// log with no backfill cycle (slurmctld logs them with
// DebugFlags=Backfill only).
func ReadBackfillLog(r io.Reader, name string, loc *time.Location) ([]BackfillCycle, error) {
	var out []BackfillCycle
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			// fairsim capture's copy says the zone of its time stamps.
			if l, ok, err := ctldlog.ZoneLine(line); ok {
				if err != nil {
					return nil, fmt.Errorf("%s:1: time zone: %v", name, err)
				}
				loc = l
				continue
			}
		}
		fail := func(field, val string) error {
			return fmt.Errorf("%s:%d: %s %q: want %s", name, n, field, val, map[string]string{
				"time stamp": "[YYYY-MM-DDTHH:MM:SS(.mmm)] as slurmctld logs it",
				"JobId":      "JobId=N, JobId=N_T(N), JobId=N_* or JobId=N+C(N)",
				"start time": "YYYY-MM-DDTHH:MM:SS",
				"end time":   "YYYY-MM-DDTHH:MM:SS",
			}[field])
		}
		var kind int
		var m []string
		switch {
		case bfBegin().MatchString(line):
			kind = 1
		case bfNoJobs().MatchString(line):
			if len(out) > 0 {
				out[len(out)-1].NoJobs = true
			}
			continue
		case strings.Contains(line, "_start_job: Started "):
			if m = bfStarted().FindStringSubmatch(line); m == nil {
				continue // _start_job's other lines ("Started ... since boot")
			}
			kind = 2
		case strings.Contains(line, "No reservation created"):
			// The plan just dumped was only an expected start past
			// bf_window: no reservation, as fairsim makes none there.
			m := bfNoResv().FindStringSubmatch(line)
			if m == nil || len(out) == 0 {
				continue
			}
			c := &out[len(out)-1]
			if id, ok := ctldlog.JobID(strings.TrimPrefix(m[1], "JobId=")); ok && len(c.Plans) > 0 {
				if p := c.Plans[len(c.Plans)-1]; p.Job == id && !p.Started {
					c.Plans = c.Plans[:len(c.Plans)-1]
				}
			}
			continue
		case strings.Contains(line, "_dump_job_sched: "):
			if m = bfSched().FindStringSubmatch(line); m == nil {
				return nil, fail("reservation line", line)
			}
			kind = 3
		default:
			continue
		}
		at, _, ok := ctldlog.Stamp(line, loc)
		if !ok {
			return nil, fail("time stamp", line[:min(len(line), 32)])
		}
		if kind == 1 {
			out = append(out, BackfillCycle{At: at, Line: n})
			continue
		}
		if len(out) == 0 {
			continue // the log starts within a cycle
		}
		jid := strings.TrimPrefix(m[1], "JobId=")
		// A pending array's own record (its tasks not yet split off)
		// is N_*: its job id is the array's, N, which its last task
		// keeps.
		if base, ok := strings.CutSuffix(jid, "_*"); ok && kind == 3 {
			jid = base
		}
		id, ok := ctldlog.JobID(jid)
		if !ok {
			return nil, fail("JobId", m[1])
		}
		p := BackfillPlan{Job: id}
		if kind == 2 {
			p.Started, p.Start, p.Part, p.Nodes = true, at, m[2], m[3]
		} else {
			if p.Start, ok = logTime(m[2], loc); !ok {
				return nil, fail("start time", m[2])
			}
			if p.End, ok = logTime(m[3], loc); !ok {
				return nil, fail("end time", m[3])
			}
			p.Nodes, p.Part = m[4], m[5]
		}
		c := &out[len(out)-1]
		c.Plans = append(c.Plans, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no backfill cycle (slurmctld logs them with DebugFlags=Backfill)", name)
	}
	return out, nil
}

// logTime reads a YYYY-MM-DDTHH:MM:SS date in loc.
func logTime(s string, loc *time.Location) (int64, bool) {
	t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc)
	if err != nil {
		return 0, false
	}
	return t.Unix(), true
}
