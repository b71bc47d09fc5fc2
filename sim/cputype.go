package sim

import (
	"fmt"
	"sort"
	"strings"
)

// CPUType is a node's processor generation. Weight is its TRES billing
// weight per core (normalised to Broadwell = 1.0, the Odyssey policy) and
// Speed its throughput per core relative to Broadwell, used to stretch or
// shrink a job's runtime on it.
type CPUType struct {
	Name   string  // short name used in configs and CSV (e.g. "broadwell")
	Label  string  // human name (e.g. "Intel Haswell/Broadwell")
	Weight float64 // billing weight per core
	Speed  float64 // per-core speed relative to Broadwell
}

// cpuTypes is the literal registry of known CPU types; aliases map other
// spellings onto them. A scenario can override weights and speeds.
var cpuTypes = map[string]CPUType{
	"abudhabi":    {"abudhabi", "AMD Abu Dhabi", 0.25, 0.25},
	"nehalem":     {"nehalem", "Intel Nehalem", 0.25, 0.25},
	"sandybridge": {"sandybridge", "Intel Sandy/Ivy Bridge", 0.5, 0.5},
	"broadwell":   {"broadwell", "Intel Haswell/Broadwell", 1.0, 1.0},
	"skylake":     {"skylake", "Intel Skylake", 1.2, 1.2},
}

var cpuAliases = map[string]string{
	"abu_dhabi": "abudhabi", "amd": "abudhabi", "opteron": "abudhabi",
	"ivybridge": "sandybridge", "sandy": "sandybridge", "ivy": "sandybridge", "sandy/ivybridge": "sandybridge",
	"haswell": "broadwell", "haswell/broadwell": "broadwell",
	"skx": "skylake", "cascadelake": "skylake",
}

// ReferenceCPU is the CPU type traces are assumed to be measured on unless
// a scenario says otherwise.
const ReferenceCPU = "broadwell"

// LookupCPUType finds a CPU type by name or alias, case-insensitively.
func LookupCPUType(name string) (CPUType, error) {
	k := strings.ToLower(strings.TrimSpace(name))
	if a, ok := cpuAliases[k]; ok {
		k = a
	}
	if t, ok := cpuTypes[k]; ok {
		return t, nil
	}
	return CPUType{}, fmt.Errorf("unknown CPU type %q (known: %s)", name, strings.Join(CPUTypeNames(), ", "))
}

// CPUTypeNames lists the registry's names, slowest first.
func CPUTypeNames() []string {
	names := make([]string, 0, len(cpuTypes))
	for k := range cpuTypes {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := cpuTypes[names[i]], cpuTypes[names[j]]
		if a.Speed != b.Speed {
			return a.Speed < b.Speed
		}
		return a.Name < b.Name
	})
	return names
}
