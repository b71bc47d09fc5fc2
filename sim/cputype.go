package sim

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// CPUType is a node's processor generation. Weight is its TRES billing
// weight per core and Speed its throughput per core, both relative to
// Broadwell; Speed stretches or shrinks a job's runtime on it.
type CPUType struct {
	Name   string  // short name used in configs and CSV (e.g. "broadwell")
	Label  string  // human name (e.g. "Intel Haswell/Broadwell")
	Weight float64 // billing weight per core
	Speed  float64 // per-core speed relative to Broadwell
}

// GenericCPU is the type of nodes whose features name no known
// generation: speed 1.0, and billed by CPU count as Slurm bills without
// TRESBillingWeights.
const GenericCPU = "generic"

// cpuTypes is the literal registry of known CPU types; aliases map other
// spellings onto them. A scenario can override weights and speeds.
//
// Weights follow seed 001's rule: a core's theoretical peak double-
// precision FLOP rate relative to Broadwell's, which Odyssey rounded to
// 0.25 (Abu Dhabi, Nehalem), 0.5 (Sandy/Ivy Bridge), 1.0
// (Haswell/Broadwell) and 1.2 (Skylake). A generation added here takes the
// value of the seed generation with the same peak DP FLOP per cycle per
// core (Intel 64 and IA-32 Architectures Optimization Reference Manual,
// "Floating-point throughput" tables; AMD Software Optimization Guides
// for families 15h, 17h, 19h):
//   - 4 per cycle, 128-bit SSE add + mul: Nehalem, Westmere; Bulldozer-
//     family Opterons (Interlagos, Abu Dhabi) share one 2×128-bit FMA unit
//     between two cores, 4 per core → 0.25;
//   - 8, 256-bit AVX add + mul: Sandy and Ivy Bridge; Zen 1 (Naples),
//     2×128-bit FMA → 0.5;
//   - 16, 2×256-bit FMA: Haswell, Broadwell; Zen 2/3 (Rome, Milan) and
//     Zen 4 (Genoa, AVX-512 executed on 256-bit units) → 1.0;
//   - 32, 2×512-bit FMA: Skylake-SP and its successors with the same
//     units (Cascade Lake, Ice Lake, Sapphire Rapids) → Skylake's 1.2.
//
// Speed equals Weight, as in seed 001, where a job on a core worth half
// as much runs twice as long.
var cpuTypes = map[string]CPUType{
	"abudhabi":       {"abudhabi", "AMD Opteron Abu Dhabi/Interlagos", 0.25, 0.25},
	"nehalem":        {"nehalem", "Intel Nehalem/Westmere", 0.25, 0.25},
	"sandybridge":    {"sandybridge", "Intel Sandy/Ivy Bridge", 0.5, 0.5},
	"naples":         {"naples", "AMD EPYC Naples (Zen)", 0.5, 0.5},
	"broadwell":      {"broadwell", "Intel Haswell/Broadwell", 1.0, 1.0},
	"rome":           {"rome", "AMD EPYC Rome (Zen 2)", 1.0, 1.0},
	"milan":          {"milan", "AMD EPYC Milan (Zen 3)", 1.0, 1.0},
	"genoa":          {"genoa", "AMD EPYC Genoa (Zen 4)", 1.0, 1.0},
	"skylake":        {"skylake", "Intel Skylake-SP", 1.2, 1.2},
	"cascadelake":    {"cascadelake", "Intel Cascade Lake-SP", 1.2, 1.2},
	"icelake":        {"icelake", "Intel Ice Lake-SP", 1.2, 1.2},
	"sapphirerapids": {"sapphirerapids", "Intel Sapphire Rapids", 1.2, 1.2},
	GenericCPU:       {GenericCPU, "unknown generation (Slurm's billing: CPUs)", 1.0, 1.0},
}

// cpuAliases maps the spellings sites use in Feature= words (and users in
// --constraint) onto registry names. Vendor words alone ("amd", "intel")
// name no generation and are deliberately absent.
var cpuAliases = map[string]string{
	"abu_dhabi": "abudhabi", "abu-dhabi": "abudhabi", "opteron": "abudhabi", "interlagos": "abudhabi", "piledriver": "abudhabi", "bulldozer": "abudhabi",
	"westmere": "nehalem", "nhm": "nehalem", "wsm": "nehalem",
	"ivybridge": "sandybridge", "sandy": "sandybridge", "ivy": "sandybridge", "sandy/ivybridge": "sandybridge",
	"snb": "sandybridge", "ivb": "sandybridge", "sandy-bridge": "sandybridge", "ivy-bridge": "sandybridge",
	"haswell": "broadwell", "haswell/broadwell": "broadwell", "hsw": "broadwell", "bdw": "broadwell",
	"skx": "skylake", "skylake-sp": "skylake", "skylake_sp": "skylake", "skl": "skylake",
	"cascade": "cascadelake", "clx": "cascadelake", "cascade-lake": "cascadelake", "cascadelake-sp": "cascadelake",
	"icx": "icelake", "icelake-sp": "icelake", "icelake_sp": "icelake", "ice-lake": "icelake",
	"spr": "sapphirerapids", "sapphire": "sapphirerapids", "sapphire-rapids": "sapphirerapids",
	"zen": "naples", "zen1": "naples", "zen2": "rome", "zen3": "milan", "zen4": "genoa",
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

// The patterns are compiled when first used: only a cluster whose
// features name CPU models reads them.
var (
	featureSplit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[:_\-\s./=,+]+`) })
	// Xeon E5/E7 v1..v4: 2670, 2670v3 (the family prefix may be its own
	// token, "E5-2670v3").
	xeonE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:e[57])?([1-9]\d{3})(?:v([1-4]))?$`) })
	// Xeon 55xx/56xx with a letter: X5650, E5520, L5640.
	xeon5 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[xel]5[56]\d\d$`) })
	// Xeon Scalable SKUs: 4110, 6130, 6248R, 8358, 8480+.
	xeonSP    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[3-9]([1-5])\d\d[a-z]{0,2}$`) })
	epycModel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:epyc)?([79])\d\d([1-4])[a-z]{0,2}$`) })
)

// InferCPUType names the generation a node's Feature words describe:
// generation names and the codes sites use (CPU_GEN:SKX, haswell,
// cascade, icelake-sp), or processor models (CPU-Gold-6130,
// CPU_SKU:E5-2670v3, EPYC-7742, X5650). The first word that names one
// wins; ok is false when none does.
func InferCPUType(features []string) (t CPUType, word string, ok bool) {
	for _, f := range features {
		if name := generationOf(f); name != "" {
			return cpuTypes[name], f, true
		}
	}
	return CPUType{}, "", false
}

// generationOf returns the registry name one Feature word names, or "".
func generationOf(f string) string {
	w := strings.ToLower(strings.TrimSpace(f))
	if w == "" {
		return ""
	}
	if n := lookupName(w); n != "" {
		return n
	}
	toks := featureSplit().Split(w, -1)
	for i, tok := range toks {
		if n := lookupName(tok); n != "" {
			return n
		}
		if i+1 < len(toks) { // "ice lake", "sandy_bridge", "cascade-lake"
			if n := lookupName(tok + toks[i+1]); n != "" {
				return n
			}
		}
		prev := ""
		if i > 0 {
			prev = toks[i-1]
		}
		if n := modelGeneration(prev, tok); n != "" {
			return n
		}
	}
	return ""
}

// lookupName maps a name or alias onto the registry, leaving out the
// generic type (a site's "generic" feature says nothing).
func lookupName(s string) string {
	if a, ok := cpuAliases[s]; ok {
		return a
	}
	if _, ok := cpuTypes[s]; ok && s != GenericCPU {
		return s
	}
	return ""
}

// modelGeneration reads a processor model number, with the token before it
// (a family or SKU label) to keep bare numbers from matching memory sizes
// or rack names.
func modelGeneration(prev, tok string) string {
	if xeon5().MatchString(tok) {
		return "nehalem"
	}
	if m := epycModel().FindStringSubmatch(tok); m != nil && (strings.HasPrefix(tok, "epyc") || prev == "epyc") {
		gen := map[string]string{"71": "naples", "72": "rome", "73": "milan", "94": "genoa"}[m[1]+m[2]]
		return gen
	}
	if strings.HasPrefix(tok, "opteron") || prev == "opteron" {
		if n, err := strconv.Atoi(strings.TrimPrefix(tok, "opteron")); err == nil && n >= 6200 && n < 6400 {
			return "abudhabi"
		}
	}
	label := prev == "gold" || prev == "silver" || prev == "platinum" || prev == "bronze" || prev == "sku" || prev == "xeon"
	if m := xeonE().FindStringSubmatch(tok); m != nil && (strings.HasPrefix(tok, "e5") || strings.HasPrefix(tok, "e7") || prev == "e5" || prev == "e7") {
		switch m[2] {
		case "", "2":
			return "sandybridge"
		default: // v3 Haswell, v4 Broadwell
			return "broadwell"
		}
	}
	if m := xeonSP().FindStringSubmatch(tok); m != nil && label {
		return map[string]string{"1": "skylake", "2": "cascadelake", "3": "icelake", "4": "sapphirerapids", "5": "sapphirerapids"}[m[1]]
	}
	return ""
}
