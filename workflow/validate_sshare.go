package workflow

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"fairsim/config"
	"fairsim/inputerr"
	"fairsim/policy/fairshare"
	"fairsim/scheduler"
)

// sshareCompared are the numeric columns of sshare -a -l -P compared with
// the simulation's, in sshare's order.
var sshareCompared = []string{"RawShares", "NormShares", "RawUsage", "NormUsage", "EffectvUsage", "FairShare", "LevelFS"}

// ShareCheck compares one recorded `sshare -a -l -P` snapshot with
// fairsim's sshare at the same instant.
type ShareCheck struct {
	File string
	At   int64 // Unix time of the snapshot
	// Recorded says the simulation started every job at its recorded
	// start (scheduler.Recorded): the fair-share model alone, without
	// fairsim's scheduling decisions.
	Recorded bool
	Late     int // with Recorded: jobs that did not fit at their recorded start
	Moved    int // with Recorded: jobs that started off the nodes sacct names
	Rows     int // association rows compared
	// MaxDiff is the largest absolute difference per column of
	// sshareCompared (NaN where a row is a number on one side only, or
	// "inf" on one side only).
	MaxDiff []float64
	// Worst names the row and column of the largest relative difference.
	Worst   string
	Missing []string // rows on one side only
}

// readSshareSnapshot reads a snapshot the reference runs record: a
// "#fairsim snapshot epoch=N[.mmm]" line, then sshare -a -l -P output. It
// returns the epoch's second and millisecond (-1: not given).
func readSshareSnapshot(path string) (int64, int16, map[string]map[string]string, []string, error) {
	data, err := inputerr.ReadFile(path, "sshare snapshot", inputerr.MaxConfBytes)
	if err != nil {
		return 0, 0, nil, nil, err
	}
	return parseSshareSnapshot(data, path)
}

// parseSshareSnapshot is readSshareSnapshot on the file's bytes.
func parseSshareSnapshot(data []byte, path string) (int64, int16, map[string]map[string]string, []string, error) {
	var err error
	var epoch int64 = -1
	var ms int16 = -1
	var rest bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if e, ok := strings.CutPrefix(l, "#fairsim snapshot epoch="); ok {
			sec, frac, hasFrac := strings.Cut(strings.TrimSpace(e), ".")
			if epoch, err = strconv.ParseInt(sec, 10, 64); err != nil || epoch < 0 {
				return 0, 0, nil, nil, fmt.Errorf("%s:%d: epoch %q: want Unix seconds, with milliseconds after a point", path, n, e)
			}
			if hasFrac {
				v, err := strconv.Atoi(frac)
				if err != nil || len(frac) != 3 || v < 0 {
					return 0, 0, nil, nil, fmt.Errorf("%s:%d: epoch %q: want three digits of milliseconds", path, n, e)
				}
				ms = int16(v)
			}
			continue
		}
		rest.WriteString(l + "\n")
	}
	if epoch < 0 {
		return 0, 0, nil, nil, fmt.Errorf("%s:1: no \"#fairsim snapshot epoch=N\" line", path)
	}
	rows, order, err := parseSshareP(rest.Bytes(), path)
	return epoch, ms, rows, order, err
}

// parseSshareP keys sshare -P rows by "account|user" (the indentation
// trimmed), each a map of column to text.
func parseSshareP(data []byte, name string) (map[string]map[string]string, []string, error) {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "Account|") {
		return nil, nil, fmt.Errorf("%s: no sshare -P header (Account|User|...)", name)
	}
	head := strings.Split(lines[0], "|")
	rows := map[string]map[string]string{}
	var order []string
	for _, l := range lines[1:] {
		f := strings.Split(l, "|")
		if len(f) != len(head) {
			return nil, nil, fmt.Errorf("%s: %d fields where the header has %d: %q", name, len(f), len(head), l)
		}
		m := map[string]string{}
		for i, h := range head {
			m[h] = strings.TrimSpace(f[i])
		}
		k := m["Account"] + "|" + m["User"]
		if _, dup := rows[k]; !dup {
			order = append(order, k)
		}
		rows[k] = m
	}
	return rows, order, nil
}

// checkSshare simulates sc up to the snapshot's instant and compares
// fairsim's sshare -a -l -P with it, column by column. With recorded,
// the jobs start when the trace says they did instead of when fairsim's
// scheduler would start them: usage then accrues over the controller's
// own schedule, and only the fair-share model is compared.
func checkSshare(sc *config.Scenario, path string, recorded bool) (*ShareCheck, error) {
	epoch, ms, real, order, err := readSshareSnapshot(path)
	if err != nil {
		return nil, err
	}
	p := Pipeline{Need: "sshare"}
	if recorded {
		rs := *sc
		rs.Scheduler = "recorded"
		// The recorded schedule is in whole seconds: a job starts at the
		// first pass of its second, which under a replayed timeline can
		// come before the one that started it. It keeps fairsim's timer
		// model; with the timeline fairsim's own schedule is the one to
		// compare.
		rs.Sim.Timeline = ""
		sc = &rs
	}
	run, err := p.Build(sc)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	rec, _ := run.Scheduler.(*scheduler.Recorded)
	if rec != nil {
		// The controller started jobs in the second others ended: their
		// resources count as free at once.
		run.Options.CompletingTime = 0
	}
	// Within its second, a snapshot follows the events before its
	// millisecond (those of a replayed timeline carry theirs).
	run.Options.StopWithin, run.Options.StopMs = ms >= 0, ms
	// Captured scenarios keep UTC throughout (trace and fair-share zone).
	at := time.Unix(epoch, 0).UTC().Format("2006-01-02T15:04:05")
	if _, err := p.SimulateAt(run, at, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	opt := fairshare.SshareOptions{Long: true, All: true, Parsable2: true, SlurmTRES: true}
	rows := SimulatedSshare(run, &opt)
	var buf bytes.Buffer
	if err := fairshare.WriteSshare(&buf, rows, opt); err != nil {
		return nil, err
	}
	sim, _, err := parseSshareP(buf.Bytes(), "fairsim sshare")
	if err != nil {
		return nil, err
	}
	c := &ShareCheck{File: path, At: epoch, MaxDiff: make([]float64, len(sshareCompared)), Recorded: recorded}
	if rec != nil {
		c.Late, c.Moved = rec.Late, rec.Moved
	}
	worstRel := -1.0
	for _, k := range order {
		s, ok := sim[k]
		if !ok {
			c.Missing = append(c.Missing, k+" (not simulated)")
			continue
		}
		c.Rows++
		r := real[k]
		for i, col := range sshareCompared {
			d := cellDiff(r[col], s[col])
			if m := c.MaxDiff[i]; !math.IsNaN(m) && (math.IsNaN(d) || d > m) {
				c.MaxDiff[i] = d // a NaN stays: a cell blank or inf on one side only
			}
			rv, _ := strconv.ParseFloat(r[col], 64)
			rel := d / max(math.Abs(rv), 1e-12)
			if math.IsNaN(d) {
				rel = math.Inf(1)
			}
			if rel > worstRel && d != 0 {
				worstRel = rel
				c.Worst = fmt.Sprintf("%s %s: sshare %q, fairsim %q", k, col, r[col], s[col])
			}
		}
	}
	for k := range sim {
		if _, ok := real[k]; !ok {
			c.Missing = append(c.Missing, k+" (only simulated)")
		}
	}
	return c, nil
}

// cellDiff is |a-b| of two sshare cells: 0 when both are blank or both
// "inf", NaN when only one is a number.
func cellDiff(a, b string) float64 {
	if a == b {
		return 0
	}
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA != nil || errB != nil || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return math.NaN()
	}
	return math.Abs(x - y)
}

// writeShares prints the sshare checks.
func (v *Validation) writeShares(w io.Writer) {
	for _, c := range v.Shares {
		on := "fairsim's schedule"
		if c.Recorded {
			on = "the recorded schedule"
			if c.Late > 0 {
				on += fmt.Sprintf(", %d job(s) started late where they did not fit", c.Late)
			}
			if c.Moved > 0 {
				on += fmt.Sprintf(", %d job(s) placed off the nodes sacct names for them", c.Moved)
			}
		}
		fmt.Fprintf(w, "  sshare at %s (%s), on %s: %d rows; max |difference|:", time.Unix(c.At, 0).UTC().Format("2006-01-02T15:04:05"), c.File, on, c.Rows)
		for i, col := range sshareCompared {
			fmt.Fprintf(w, " %s %.6g", col, c.MaxDiff[i])
		}
		fmt.Fprintln(w)
		if c.Worst != "" {
			fmt.Fprintf(w, "      most different: %s\n", c.Worst)
		}
		for _, m := range c.Missing {
			fmt.Fprintf(w, "      row %s\n", m)
		}
	}
}
