package workflow

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fairsim/config"
	"fairsim/inputerr"
)

// LoadRunScenario reads a run directory's scenario.resolved.yaml so the
// run can be simulated again. The file keeps the scenario's relative paths
// (slurm_conf, assoc, qos, trace.file, a CSV accounts.map) as written,
// relative to a scenario folder the run directory does not record: each is
// looked up under the folders in bases, in order, and made absolute.
func LoadRunScenario(dir string, bases []string) (*config.Scenario, error) {
	file := filepath.Join(dir, "scenario.resolved.yaml")
	b, err := inputerr.ReadFile(file, "scenario", inputerr.MaxConfBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: no scenario.resolved.yaml (is it a fairsim run directory?): %w", dir, err)
	}
	sc, err := config.Parse(b, file)
	if err != nil {
		return nil, err
	}
	fix := func(field string, p *string) error {
		if *p == "" || *p == "-" || filepath.IsAbs(*p) {
			return nil
		}
		var tried []string
		for _, base := range bases {
			cand := filepath.Join(base, *p)
			if _, err := os.Stat(cand); err == nil {
				abs, err := filepath.Abs(cand)
				if err != nil {
					return err
				}
				*p = abs
				return nil
			}
			tried = append(tried, cand)
		}
		return fmt.Errorf("%s: field %s: %q not found (tried %s); give --scenario-dir, the folder of the scenario the run came from", file, field, *p, strings.Join(tried, ", "))
	}
	for _, f := range []struct {
		name string
		p    *string
	}{{"slurm_conf", &sc.SlurmConf}, {"assoc", &sc.Assoc}, {"qos", &sc.QOS}} {
		if err := fix(f.name, f.p); err != nil {
			return nil, err
		}
	}
	if sc.Trace != nil {
		if err := fix("trace.file", &sc.Trace.File); err != nil {
			return nil, err
		}
	}
	if m := sc.Accounts.Map; m != "" && m != "group" && m != "user" {
		if err := fix("accounts.map", &sc.Accounts.Map); err != nil {
			return nil, err
		}
	}
	return sc, sc.Resolve()
}

// LoadRunDir reads a run directory's scenario to simulate it again,
// looking its relative file names up under scenarioDir (when given), the
// working directory, scenarios/, the run directory and its parent: the
// places a scenario a run came from usually is.
func LoadRunDir(dir, scenarioDir string) (*config.Scenario, error) {
	var bases []string
	if scenarioDir != "" {
		bases = append(bases, scenarioDir)
	}
	return LoadRunScenario(dir, append(bases, ".", "scenarios", dir, filepath.Dir(dir)))
}

// CheckReplay compares the re-run job with its row in the run directory's
// jobs.csv; it returns "" when they agree, else what differs (the code or
// an input file changed since the run).
func CheckReplay(dir string, st *Story) string {
	f, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		return ""
	}
	defer f.Close()
	// Read as CSV: AllocTRES and NodeList hold quoted commas.
	cr := csv.NewReader(bufio.NewReader(f))
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // a short row is skipped below, not the end
	head, err := cr.Read()
	if err != nil {
		return ""
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	ci, cs, ce := col["JobID"], col["Start"], col["End"]
	if head[0] != "JobID" || cs == 0 || ce == 0 {
		return ""
	}
	id := strconv.FormatInt(st.ID, 10)
	for {
		rec, err := cr.Read()
		if err != nil {
			return "" // the end, or a damaged file: nothing to compare with
		}
		if len(rec) != len(head) || rec[ci] != id {
			continue
		}
		s, e := csvTime(rec[cs]), csvTime(rec[ce])
		if s != st.Job.Start || e != st.Job.End {
			return fmt.Sprintf("jobs.csv says job %d ran %d..%d, the re-run %d..%d: the code or an input changed since that run; the story is the re-run's", st.ID, s, e, st.Job.Start, st.Job.End)
		}
		return ""
	}
}

// csvTime reads a Start or End cell of jobs.csv: empty (never) is -1, as
// in sim.Job.
func csvTime(cell string) int64 {
	if cell == "" {
		return -1
	}
	v, _ := strconv.ParseInt(cell, 10, 64)
	return v
}
