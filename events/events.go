// Package events reads a site events file: the node and partition state
// changes an administrator made (or a failure caused) during the period a
// trace covers, so a simulation can replay them.
//
// Each line is a time followed by the arguments of the scontrol update
// command that would make the change, so a Slurm administrator reads it at
// once and can paste lines from a shell history or slurmctld's log:
//
//	# time       target                   state       reason
//	2-12:00:00   NodeName=c[01-04]        State=DRAIN Reason="fan replacement"
//	3-00:00:00   NodeName=c[01-04]        State=RESUME
//	2024-01-03T08:00:00 PartitionName=gpu State=DOWN  Reason=maintenance
//	1-06:30:00   NodeName=c07             State=FAIL  Reason="ECC errors"
//
// The time is a Slurm time string counted from the trace's first
// submission (2-12:00:00 is two and a half days after it), or a date
// YYYY-MM-DD[THH:MM[:SS]] in the trace's time zone. The target is
// NodeName=HOSTLIST (states DOWN, DRAIN, FAIL, RESUME) or
// PartitionName=NAME (states UP, DOWN, DRAIN, INACTIVE). Keys and states
// are case-insensitive, as scontrol takes them. scontrol refuses DOWN,
// DRAIN and FAIL on nodes without a Reason (scontrol's update_node), and
// so does this reader. Reason takes double quotes when it holds blanks.
// Text from '#' to the end of a line is a comment, outside quotes.
//
// This package imports no node list: the hostlist is kept as written and
// expanded by the caller against its cluster.
package events

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"fairsim/inputerr"
	"fairsim/slurmtext"
	"fairsim/slurmtime"
)

// Action is the state an event sets.
type Action uint8

// Actions: node states first, then partition states.
const (
	NodeDown Action = iota
	NodeDrain
	NodeFail
	NodeResume
	PartUp
	PartDown
	PartDrain
	PartInactive
	// Reserve creates a maintenance reservation (Event.Resv).
	Reserve
)

var actionNames = [...]string{"DOWN", "DRAIN", "FAIL", "RESUME", "UP", "DOWN", "DRAIN", "INACTIVE", "RESERVE"}

// String is the State= value of the action.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "?"
}

// OnNode reports whether the action targets nodes (else a partition).
func (a Action) OnNode() bool { return a <= NodeResume || a == Reserve }

// Event is one line of an events file.
type Event struct {
	Line int
	// At is seconds after the trace's first submission, or with Date set a
	// Unix time (the date read in the reader's time zone).
	At   int64
	Date bool
	// Nodes is the hostlist of a node event as written; Partition the
	// name of a partition event.
	Nodes     string
	Partition string
	Action    Action
	Reason    string
	// Resv is set for a reservation line (Action is then Reserve).
	Resv *Reservation
}

// Reservation is a maintenance reservation as scontrol create reservation
// takes it: its name, start and end (each like Event.At: after the first
// submission, or with its Date flag a Unix time), its nodes (in
// Event.Nodes) and flags.
type Reservation struct {
	Name               string
	Start, End         int64
	StartDate, EndDate bool
	Maint, IgnoreJobs  bool
	// Users and Accounts are who may use a reservation that is not
	// MAINT, comma-separated as written.
	Users, Accounts string
	// NodeCnt, when Nodes is not given, is how many nodes the simulator
	// picks at the reservation's creation.
	NodeCnt int
}

// MaxLineLen bounds a line, so a hostile file cannot make the reader hold
// an unbounded token.
const MaxLineLen = 64 << 10

// ReadFile reads the events file at path; dates are in loc (UTC if nil).
func ReadFile(path string, loc *time.Location) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, loc)
}

// Read reads an events file, reporting every bad line as file:line:
// field: message. Events keep the file's order; the caller sorts them by
// time once it knows when the trace starts.
func Read(r io.Reader, file string, loc *time.Location) ([]Event, error) {
	if loc == nil {
		loc = time.UTC
	}
	var (
		out  []Event
		errs inputerr.List
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineLen)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = slurmtext.TrimBOMString(text)
		}
		toks, err := tokens(text)
		if err != nil {
			errs.Add(file, line, "", err.Error())
			continue
		}
		if len(toks) == 0 {
			continue
		}
		if e, ok := parse(toks, file, line, loc, &errs); ok {
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		errs.Add(file, line+1, "", fmt.Sprintf("reading: %v", err))
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// tokens splits a line at blanks, keeping double-quoted text (which may
// hold blanks and '#') inside its token without the quotes, and drops a
// comment.
func tokens(s string) ([]string, error) {
	var (
		toks []string
		cur  strings.Builder
		in   bool // inside a token
		quo  bool // inside quotes
	)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quo:
			if ch == '"' {
				quo = false
			} else {
				cur.WriteByte(ch)
			}
		case ch == '"':
			quo, in = true, true
		case ch == '#':
			i = len(s)
		case ch == ' ' || ch == '\t' || ch == '\r':
			if in {
				toks = append(toks, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if quo {
		return nil, fmt.Errorf("unterminated quote")
	}
	if in {
		toks = append(toks, cur.String())
	}
	return toks, nil
}

func parse(toks []string, file string, line int, loc *time.Location, errs *inputerr.List) (Event, bool) {
	e := Event{Line: line}
	ok := true
	bad := func(field, format string, args ...any) {
		errs.Addf(file, line, field, format, args...)
		ok = false
	}
	at, err := slurmtime.ParseDateOrDuration(toks[0], 0, loc)
	switch {
	case err != nil:
		bad("time", "%v (want a Slurm time after the first submission, like 2-12:00:00, or a date like 2024-01-03T08:00:00)", err)
	default:
		e.At = at
		e.Date = strings.Count(toks[0], "-") > 1
	}
	if len(toks) > 1 && strings.HasPrefix(strings.ToLower(toks[1]), "reservationname=") {
		e = parseReservation(e, toks[1:], loc, bad)
		return e, ok
	}
	var target, state string
	haveReason := false
	for _, tok := range toks[1:] {
		key, val, found := strings.Cut(tok, "=")
		if !found {
			bad("", "%q is not KEY=VALUE (want NodeName=, PartitionName=, State=, Reason=)", tok)
			continue
		}
		switch strings.ToLower(key) {
		case "nodename", "partitionname":
			if target != "" {
				bad(key, "a second target (one NodeName= or PartitionName= a line)")
				continue
			}
			if val == "" {
				bad(key, "empty")
				continue
			}
			target = strings.ToLower(key)
			if target == "nodename" {
				e.Nodes = val
			} else {
				e.Partition = val
			}
		case "state":
			if state != "" {
				bad("State", "given twice")
				continue
			}
			state = strings.ToUpper(val)
			if state == "" {
				bad("State", "empty")
			}
		case "reason":
			if haveReason {
				bad("Reason", "given twice")
				continue
			}
			haveReason = true
			e.Reason = val
		default:
			bad(key, "unknown key (want NodeName, PartitionName, State, Reason)")
		}
	}
	if target == "" {
		bad("", "no target: want NodeName=HOSTLIST or PartitionName=NAME")
		return e, false
	}
	if state == "" {
		bad("State", "missing")
		return e, false
	}
	if target == "nodename" {
		switch state {
		case "DOWN":
			e.Action = NodeDown
		case "DRAIN":
			e.Action = NodeDrain
		case "FAIL":
			e.Action = NodeFail
		case "RESUME":
			e.Action = NodeResume
		default:
			bad("State", "%q is not a node state an event sets (want DOWN, DRAIN, FAIL or RESUME)", state)
			return e, false
		}
		if e.Action != NodeResume && e.Reason == "" {
			bad("Reason", "State=%s needs a reason, as scontrol asks one", state)
		}
	} else {
		switch state {
		case "UP":
			e.Action = PartUp
		case "DOWN":
			e.Action = PartDown
		case "DRAIN":
			e.Action = PartDrain
		case "INACTIVE":
			e.Action = PartInactive
		default:
			bad("State", "%q is not a partition state (want UP, DOWN, DRAIN or INACTIVE)", state)
			return e, false
		}
	}
	return e, ok
}

// parseReservation reads the rest of a reservation line:
// ReservationName=NAME StartTime=T EndTime=T|Duration=D (UNLIMITED: 365
// days, as slurmctld sets it) Nodes=HOSTLIST
// Nodes=HOSTLIST|NodeCnt=N [Flags=MAINT[,IGNORE_JOBS]] [Users=...]
// [Accounts=...]. A MAINT reservation's nodes take no job that would
// still run at its start, and none from start to end; any other
// reservation must name Users= or Accounts= (as scontrol's create asks
// one of them) and its nodes run, from start to end, only the jobs that
// ask for it.
func parseReservation(e Event, toks []string, loc *time.Location, bad func(field, format string, args ...any)) Event {
	r := &Reservation{}
	e.Action, e.Resv = Reserve, r
	var haveStart, haveEnd, haveDur bool
	var dur int64
	for _, tok := range toks {
		key, val, found := strings.Cut(tok, "=")
		if !found || val == "" {
			bad(key, "want KEY=VALUE")
			continue
		}
		switch strings.ToLower(key) {
		case "reservationname":
			r.Name = val
		case "starttime", "endtime":
			t, err := slurmtime.ParseDateOrDuration(val, 0, loc)
			if err != nil {
				bad(key, "%v", err)
				continue
			}
			date := strings.Count(val, "-") > 1
			if strings.EqualFold(key, "starttime") {
				r.Start, r.StartDate, haveStart = t, date, true
			} else {
				r.End, r.EndDate, haveEnd = t, date, true
			}
		case "duration":
			if strings.EqualFold(val, "UNLIMITED") || strings.EqualFold(val, "INFINITE") {
				// reservation.c create_resv: an INFINITE duration ends
				// YEAR_SECONDS (365 days) after the start.
				dur, haveDur = 365*86400, true
				continue
			}
			d, err := slurmtime.ParseSeconds(val)
			if err != nil || d <= 0 {
				bad("Duration", "%q is not a positive Slurm time", val)
				continue
			}
			dur, haveDur = d, true
		case "nodes":
			e.Nodes = val
		case "nodecnt":
			n, err := strconv.Atoi(val)
			if err != nil || n <= 0 {
				bad("NodeCnt", "%q is not a positive count", val)
				continue
			}
			r.NodeCnt = n
		case "flags":
			for _, f := range strings.Split(strings.ToUpper(val), ",") {
				switch f {
				case "MAINT":
					r.Maint = true
				case "IGNORE_JOBS":
					r.IgnoreJobs = true
				default:
					bad("Flags", "flag %q not simulated (MAINT and IGNORE_JOBS are)", f)
				}
			}
		case "users":
			r.Users = val
		case "accounts":
			r.Accounts = val
		default:
			bad(key, "unknown reservation key (want ReservationName, StartTime, EndTime or Duration, Nodes, Flags, Users, Accounts)")
		}
	}
	switch {
	case !haveStart:
		bad("StartTime", "missing")
	case haveEnd == haveDur:
		bad("EndTime", "give one of EndTime= and Duration=")
	case !r.Maint && r.Users == "" && r.Accounts == "":
		bad("Users", "a reservation without Flags=MAINT needs Users= or Accounts=")
	case e.Nodes == "" && r.NodeCnt == 0:
		bad("Nodes", "missing: give Nodes= or NodeCnt=")
	case e.Nodes != "" && r.NodeCnt > 0:
		bad("NodeCnt", "give one of Nodes= and NodeCnt=")
	case r.Maint && r.NodeCnt > 0:
		bad("NodeCnt", "not simulated with Flags=MAINT: name the nodes with Nodes=")
	}
	for _, l := range []string{r.Users, r.Accounts} {
		if strings.HasPrefix(l, "-") {
			bad("Users", "a denied list (%q) is not simulated", l)
		}
	}
	if haveDur {
		r.End, r.EndDate = r.Start+dur, r.StartDate
	}
	if haveStart && (haveEnd || haveDur) && r.StartDate == r.EndDate && r.End <= r.Start {
		bad("EndTime", "not after StartTime")
	}
	return e
}
