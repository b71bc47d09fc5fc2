package config

import (
	"fmt"

	"fairsim/slurmconf"
)

// MaxSlurmWarnings is how many slurm.conf warnings a run prints: a file of
// thousands of unknown keys would otherwise bury the run's own output.
// None is dropped: past the cap the rest are counted in one warning and
// written in full to scenario.resolved.yaml's slurm_warnings.
const MaxSlurmWarnings = 20

// slurmWarnings turns slurm.conf's warnings into the run's, capped.
func (sc *Scenario) slurmWarnings(ws []slurmconf.Warning) []string {
	all := make([]string, len(ws))
	for i, w := range ws {
		all[i] = w.String()
	}
	sc.SlurmWarnings = nil
	if len(all) <= MaxSlurmWarnings {
		return all
	}
	sc.SlurmWarnings = all
	out := append([]string(nil), all[:MaxSlurmWarnings]...)
	return append(out, fmt.Sprintf("… and %d more slurm.conf warnings (a finished run's scenario.resolved.yaml lists all %d under slurm_warnings)",
		len(all)-MaxSlurmWarnings, len(all)))
}
