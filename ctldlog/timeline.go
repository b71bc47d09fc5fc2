// Package ctldlog reads slurmctld's own log: the controller's timing, to
// the millisecond, that fairsim validate can replay (sim.Timeline).
package ctldlog

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"fairsim/sim"
	"fairsim/slurmtext"
)

// The lines the timing comes from (22.05): a batch submission
// (proc_req.c _slurm_rpc_submit_batch_job, info), a completion
// (job_mgr.c _job_complete "done", info, or _job_timed_out's "Time limit
// exhausted", info), a node's epilog complete
// message (proc_req.c _slurm_rpc_epilog_complete, debug2), a main pass
// (job_scheduler.c _schedule, "sched: Running job scheduler", debug) and
// a backfill cycle (backfill.c _attempt_backfill "beginning", debug or
// DebugFlags=Backfill), a node's answer to the kill request that ends a
// job's COMPLETING when no epilog is left (agent.c "node_did_resp",
// debug2; the job's nodes from "sched: Allocate" and "_start_job"), and
// the decay thread's start
// (priority_multifactor.c _decay_thread reads its last run, info): it
// ticks every PriorityCalcPeriod from that instant, to the microsecond,
// so every tick falls at its millisecond. The prefix before them ("debug:  ", a plugin's
// name) varies by version and level and is not read. They are compiled
// when first used: a run that reads no log does not pay for them.
var (
	reSubmit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_slurm_rpc_submit_batch_job: JobId=(\d+)`) })
	reDone   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_job_complete: JobId=(\S+) done`) })
	reKilled = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`Time limit exhausted for JobId=(\S+)`) })
	reEpilog = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_slurm_rpc_epilog_complete: JobId=(\S+) Node=(\S+)`) })
	reDecay  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`priority/multifactor: _read_last_decay_ran`) })
	reAlloc  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`sched: Allocate JobId=(\S+) NodeList=(\S+)`) })
	reStart  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_start_job: Started JobId=(\S+) in \S+ on (\S+)`) })
	reResp   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`node_did_resp (\S+)`) })
	reMain   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`sched: Running job scheduler(?: for (full queue|default depth))?`)
	})
	reBegin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_attempt_backfill: beginning`) })
	reJobID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)(?:[_+]\d+\((\d+)\))?$`) })
)

// ReadTimelineFile reads the controller's timing from the slurmctld log
// at path, its time stamps in loc unless the log says otherwise.
func ReadTimelineFile(path string, loc *time.Location) (*sim.Timeline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTimeline(f, path, loc)
}

// ReadTimeline reads the controller's timing from a slurmctld log (name
// is for messages): its time stamps are in loc unless a first line
// "#fairsim tz=ZONE" (fairsim capture's copy) names their zone. Other
// lines are skipped. A timing line whose time stamp or job id cannot be
// read is an error naming its line and field, as is a log without main
// passes (slurmctld logs them at SlurmctldDebug=debug) or without
// backfill cycles when it has backfill starts.
func ReadTimeline(r io.Reader, name string, loc *time.Location) (*sim.Timeline, error) {
	tl := &sim.Timeline{SubmitMs: map[int64]int16{}, EndAt: map[int64]int64{}}
	mains, cycles, bfStarts := 0, 0, 0
	done, epi := map[int64]int64{}, map[int64]int64{} // milliseconds
	// Each node's own release, by job: slurmctld frees a node when it
	// answers (node_mgr.c make_node_idle), not when the job's last does.
	perNode := map[int64]map[string]int64{}
	nodeDone := func(id int64, node string, at int64) {
		epi[id] = max(epi[id], at)
		if perNode[id] == nil {
			perNode[id] = map[string]int64{}
		}
		perNode[id][node] = max(perNode[id][node], at)
	}
	// The nodes each job runs on, and the ended jobs whose nodes have
	// not yet answered the controller's kill request, in order of end.
	nodes := map[int64][]string{}
	var waiting []int64
	left := map[int64]map[string]bool{}
	onNodes := func(job, list string) {
		id, ok := JobID(job)
		if !ok {
			return
		}
		if ns, err := slurmtext.Expand(list); err == nil {
			nodes[id] = ns
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			if l, ok, err := ZoneLine(line); ok {
				if err != nil {
					return nil, fmt.Errorf("%s:1: time zone: %v", name, err)
				}
				loc = l
				continue
			}
		}
		var m []string
		kind := 0
		switch {
		case strings.Contains(line, "_slurm_rpc_submit_batch_job: "):
			if m = reSubmit().FindStringSubmatch(line); m == nil {
				continue // its error lines
			}
			kind = 1
		case strings.Contains(line, "_job_complete: "):
			if m = reDone().FindStringSubmatch(line); m == nil {
				continue // "WEXITSTATUS" and the like
			}
			kind = 2
		case strings.Contains(line, "Time limit exhausted for "):
			// job_mgr.c _job_timed_out: the time-limit check ends the
			// job here; no "_job_complete ... done" follows.
			if m = reKilled().FindStringSubmatch(line); m == nil {
				continue
			}
			kind = 2
		case strings.Contains(line, "_slurm_rpc_epilog_complete: "):
			if m = reEpilog().FindStringSubmatch(line); m == nil {
				continue // an epilog error: its node's state, not a release
			}
			kind = 5
		case strings.Contains(line, "sched: Running job scheduler"):
			m = reMain().FindStringSubmatch(line)
			kind = 3
		case reBegin().MatchString(line):
			kind = 4
		case reDecay().MatchString(line):
			if len(tl.SubmitMs) > 0 {
				continue // a restart after the workload began: the first phase stands
			}
			kind = 6
		case strings.Contains(line, "_start_job: Started JobId"):
			bfStarts++
			if m = reStart().FindStringSubmatch(line); m != nil {
				onNodes(m[1], m[2])
			}
			continue
		case strings.Contains(line, "sched: Allocate JobId"):
			if m = reAlloc().FindStringSubmatch(line); m != nil {
				onNodes(m[1], m[2])
			}
			continue
		case strings.Contains(line, "node_did_resp "):
			if m = reResp().FindStringSubmatch(line); m == nil {
				continue
			}
			kind = 7
		default:
			continue
		}
		t, ms, ok := Stamp(line, loc)
		if !ok {
			return nil, fmt.Errorf("%s:%d: time stamp %q: want [YYYY-MM-DDTHH:MM:SS(.mmm)] as slurmctld logs it", name, n, line[:min(len(line), 32)])
		}
		switch kind {
		case 1, 2, 5:
			id, ok := JobID(m[1])
			if !ok {
				return nil, fmt.Errorf("%s:%d: JobId %q: want N, N_T(N) or N+C(N)", name, n, m[1])
			}
			switch kind {
			case 1:
				tl.SubmitMs[id] = ms
			case 2:
				tl.EndAt[id] = t*1000 + int64(ms)
				done[id] = t*1000 + int64(ms)
				if ns := nodes[id]; len(ns) > 0 {
					left[id] = map[string]bool{}
					for _, n := range ns {
						left[id][n] = true
					}
					waiting = append(waiting, id)
				}
			default:
				// A job's nodes each send one; each frees its node, the
				// last the job.
				nodeDone(id, m[2], t*1000+int64(ms))
			}
		case 3:
			mains++
			tl.Passes = append(tl.Passes, sim.TimedPass{T: t, Ms: ms, Full: m != nil && m[1] == "full queue"})
		case 4:
			cycles++
			tl.Passes = append(tl.Passes, sim.TimedPass{T: t, Ms: ms, Backfill: true})
		case 6:
			tl.CalcMs, tl.CalcPhase = ms, true
		case 7:
			// A node's answer to the kill request: with no epilog left to
			// run, slurmd answers that the job is already complete and the
			// agent ends the node's COMPLETING at once (agent.c
			// job_epilog_complete). It answers for the earliest ended job
			// still waiting on that node; the job is free when its last
			// node has answered.
			for k, id := range waiting {
				if !left[id][m[1]] {
					continue
				}
				delete(left[id], m[1])
				if _, sent := perNode[id][m[1]]; !sent {
					// A node that sent its epilog complete message first
					// was free then; this is its kill request's answer.
					nodeDone(id, m[1], t*1000+int64(ms))
				}
				if len(left[id]) == 0 {
					delete(left, id)
					waiting = append(waiting[:k], waiting[k+1:]...)
				}
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if mains == 0 {
		return nil, fmt.Errorf("%s: no main pass (slurmctld logs \"sched: Running job scheduler\" at SlurmctldDebug=debug)", name)
	}
	if cycles == 0 && bfStarts > 0 {
		return nil, fmt.Errorf("%s: backfill started jobs but no backfill cycle is logged (slurmctld logs \"_attempt_backfill: beginning\" at SlurmctldDebug=debug or with DebugFlags=Backfill)", name)
	}
	for id, e := range epi {
		if d, ok := done[id]; ok && e >= d && e-d < 1<<31 {
			if tl.EpilogMs == nil {
				tl.EpilogMs = map[int64]int32{}
			}
			tl.EpilogMs[id] = int32(e - d)
			for node, at := range perNode[id] {
				if at == e || at < d {
					continue // the job's last node: EpilogMs
				}
				if tl.NodeEpilogMs == nil {
					tl.NodeEpilogMs = map[int64]map[string]int32{}
				}
				if tl.NodeEpilogMs[id] == nil {
					tl.NodeEpilogMs[id] = map[string]int32{}
				}
				tl.NodeEpilogMs[id][node] = int32(at - d)
			}
		}
	}
	for i := 1; i < len(tl.Passes); i++ {
		a, b := tl.Passes[i-1], tl.Passes[i]
		if b.T < a.T || (b.T == a.T && b.Ms < a.Ms) {
			return nil, fmt.Errorf("%s: passes out of time order at %d.%03d", name, b.T, b.Ms)
		}
	}
	return tl, nil
}

// Stamp reads the "[2026-11-27T11:35:03.887]" a slurmctld log line starts
// with (LogTimeFormat iso8601_ms, the default, or iso8601 without the
// milliseconds): Unix seconds in loc and the milliseconds.
func Stamp(line string, loc *time.Location) (int64, int16, bool) {
	if len(line) < 21 || line[0] != '[' {
		return 0, 0, false
	}
	end := strings.IndexByte(line, ']')
	if end < 20 {
		return 0, 0, false
	}
	s, frac := line[1:end], ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s, frac = s[:i], s[i+1:]
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc)
	if err != nil {
		return 0, 0, false
	}
	var ms int16
	if frac != "" {
		// The fraction's first three digits (slurmctld writes three).
		if len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
			return 0, 0, false
		}
		frac = (frac + "00")[:3]
		v, _ := strconv.Atoi(frac)
		ms = int16(v)
	}
	return t.Unix(), ms, true
}

// ZoneLine reads the first line fairsim capture writes in its copy of the
// log, "#fairsim tz=ZONE": the zone of its time stamps (ok false: line is
// not one).
func ZoneLine(line string) (loc *time.Location, ok bool, err error) {
	z, found := strings.CutPrefix(line, "#fairsim tz=")
	if !found {
		return nil, false, nil
	}
	loc, err = time.LoadLocation(strings.TrimSpace(z))
	return loc, true, err
}

// JobID reads a job id as the log prints it after JobId=: N, or an array
// task's or het job component's N_T(R) / N+C(R), whose raw id R sacct
// calls JobIDRaw.
func JobID(s string) (int64, bool) {
	m := reJobID().FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v := m[1]
	if m[2] != "" {
		v = m[2]
	}
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil
}
