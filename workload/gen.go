package workload

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// GenConfig describes a synthetic workload. Start from DefaultGenConfig
// (whose values are the defaults quoted below) and change what matters:
// a zero value means zero, not "default", so that a daily amplitude or a
// power-of-two share of 0 can be asked for.
type GenConfig struct {
	Seed uint64 // seeds a PCG generator: one seed, one trace, byte for byte
	Jobs int    // number of jobs; default 1000

	// Arrivals: a non-homogeneous Poisson process whose mean rate is
	// Jobs/Days per day, modulated by a daily cycle (peak at 14:00 UTC,
	// rate x (1 + Daily*cos(2π(h-14)/24))) and a weekly one (Saturday and
	// Sunday at Weekend times the weekday rate), normalised so that the
	// weekly mean stays Jobs/Days. Jobs are drawn until there are Jobs of
	// them, so the trace spans about Days.
	Days    float64 // default 30
	Daily   float64 // daily amplitude in [0,1]; default 0.5
	Weekend float64 // weekend rate relative to weekdays, in (0,1]; default 0.5
	// StartTime is the Unix time of time 0 (the SWF UnixStartTime).
	// Default 1704067200, Monday 2024-01-01 00:00 UTC.
	StartTime int64

	// Sizes: log2(size) uniform in [0, log2(MaxCPUs)]; a share PowerOfTwo
	// of jobs is rounded to a power of two, the rest to a size that is not.
	MaxCPUs     int     // largest job, and the machine size; default 256
	CPUsPerNode int     // for the MaxNodes header line; default 32
	PowerOfTwo  float64 // in [0,1]; default 0.75

	// Runtimes in seconds: "lognormal" (median RuntimeMedian, standard
	// deviation of the log RuntimeSigma) or "loguniform" (between
	// RuntimeMin and RuntimeMax); always at least 1 s and at most MaxLimit.
	Runtime       string  // default "lognormal"
	RuntimeMedian float64 // default 1800
	RuntimeSigma  float64 // default 1.5
	RuntimeMin    float64 // default 60
	RuntimeMax    float64 // default 86400

	// Time limits: run time x LimitFactor, rounded up to a whole minute,
	// capped at MaxLimit (so that a limit is never below its run time).
	LimitFactor float64 // at least 1; default 2
	MaxLimit    int64   // seconds; default 604800 (7 days)

	// Users u1..uN, user i submitting in proportion to 1/i^Zipf, spread
	// round-robin over accounts g1..gA (named like groups, so that the SWF
	// group field carries the account) whose Fairshare values are Shares.
	Users    int       // default 50
	Zipf     float64   // default 1
	Accounts int       // default 5
	Shares   []float64 // one per account, positive; nil: all 1

	Partitions []string // chosen uniformly; nil: ["batch"]
	// Features are CPU types that a share FeatureShare of jobs asks for,
	// chosen uniformly. SWF has no field for them; sacct output keeps them.
	Features     []string
	FeatureShare float64 // default 0.2
	// A share MemShare of jobs requests memory per CPU, log-uniform in
	// [MemMin, MemMax] MB, rounded to 100 MB.
	MemShare float64 // default 0
	MemMin   int64   // default 1000
	MemMax   int64   // default 8000

	Cluster string // name in the association dump; "": "gen"

	// GPUs: a share GPUShare of jobs asks GPUs, their count drawn from
	// GPUsPerJob. A job of at most GPUsPerNode GPUs asks them per job on
	// one node (--gpus=N -N1); a larger one asks per node over ceil(g/GPUsPerNode)
	// nodes, ceil(g/nodes) on each (so never more than GPUsPerNode on a
	// node, and a total rounded up to a multiple of the nodes), with Nodes
	// set. A GPU job asks GPUs x CPUsPerGPU CPUs, capped at MaxCPUs. A
	// share GPUTypeShare of GPU jobs asks one of GPUTypes, chosen
	// uniformly. GPU jobs go only to GPUPartitions (added to Partitions
	// when missing), and the others only to the other partitions when
	// there are some. The GPU draws come from a stream of their own, taken
	// only when GPUShare > 0 or GPUPartitions are given, so that a trace
	// without GPUs is the same, byte for byte, as before they existed.
	GPUShare      float64  // in [0,1]; default 0
	GPUsPerJob    GPUDist  // nil: DefaultGPUsPerJob
	GPUPartitions []string // nil: GPU jobs in any partition
	GPUTypes      []string // nil: untyped GPUs only
	GPUTypeShare  float64  // in [0,1]; default 0.5

	// QOS is the mix of QOS jobs ask for, drawn per job by weight from a
	// stream of their own (nil: jobs name no QOS and get the default one).
	QOS         QOSMix
	CPUsPerGPU  int // default 4
	GPUsPerNode int // default 4
}

// GPUWeight is one value of a GPU count distribution and its weight.
type GPUWeight struct {
	GPUs   int
	Weight float64
}

// GPUDist is a discrete distribution of GPUs per job, written
// "COUNT:WEIGHT,..." ("1:0.5,2:0.25,4:0.15,8:0.1"); weights are relative
// and need not add up to 1.
type GPUDist []GPUWeight

// DefaultGPUsPerJob is GPUsPerJob when none is given: 1, 2, 4 and 8 GPUs
// with weights 0.5, 0.25, 0.15 and 0.1.
func DefaultGPUsPerJob() GPUDist {
	return GPUDist{{1, 0.5}, {2, 0.25}, {4, 0.15}, {8, 0.1}}
}

// ParseGPUDist reads "COUNT:WEIGHT,..."; "" is nil (the default). Counts
// are whole numbers in 1..MaxGresCount, each once; weights positive.
func ParseGPUDist(s string) (GPUDist, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var d GPUDist
	for _, item := range strings.Split(s, ",") {
		c, w, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("GPUs per job %q: want COUNT:WEIGHT", item)
		}
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil {
			return nil, fmt.Errorf("GPUs per job %q: count %q is not a whole number", item, c)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil {
			return nil, fmt.Errorf("GPUs per job %q: weight %q is not a number", item, w)
		}
		d = append(d, GPUWeight{n, f})
	}
	return d, d.validate()
}

func (d GPUDist) validate() error {
	for i, v := range d {
		if v.GPUs < 1 || v.GPUs > MaxGresCount {
			return fmt.Errorf("GPUs per job %d: want 1..%d", v.GPUs, MaxGresCount)
		}
		if !(v.Weight > 0) || math.IsInf(v.Weight, 0) {
			return fmt.Errorf("GPUs per job %d: weight %v must be positive", v.GPUs, v.Weight)
		}
		for _, u := range d[:i] {
			if u.GPUs == v.GPUs {
				return fmt.Errorf("GPUs per job %d given twice", v.GPUs)
			}
		}
	}
	return nil
}

// String writes the distribution as ParseGPUDist reads it.
func (d GPUDist) String() string {
	parts := make([]string, len(d))
	for i, v := range d {
		parts[i] = strconv.Itoa(v.GPUs) + ":" + strconv.FormatFloat(v.Weight, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Set reads s into d (ParseGPUDist), so that a flag can hold a GPUDist.
func (d *GPUDist) Set(s string) error {
	v, err := ParseGPUDist(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// gpuOn tells whether the GPU stream is drawn.
func (c GenConfig) gpuOn() bool { return c.GPUShare > 0 || len(c.GPUPartitions) > 0 }

// DefaultGenConfig is the configuration `fairsim gen` starts from.
func DefaultGenConfig() GenConfig {
	return GenConfig{Jobs: 1000, Days: 30, Daily: 0.5, Weekend: 0.5, StartTime: 1704067200,
		MaxCPUs: 256, CPUsPerNode: 32, PowerOfTwo: 0.75, Runtime: "lognormal", RuntimeMedian: 1800,
		RuntimeSigma: 1.5, RuntimeMin: 60, RuntimeMax: 86400, LimitFactor: 2, MaxLimit: 7 * 86400,
		Users: 50, Zipf: 1, Accounts: 5, FeatureShare: 0.2, MemMin: 1000, MemMax: 8000, Cluster: "gen",
		GPUTypeShare: 0.5, CPUsPerGPU: 4, GPUsPerNode: 4}
}

// fill sets the list fields left nil.
func (c GenConfig) fill() GenConfig {
	if len(c.Shares) == 0 && c.Accounts > 0 && c.Accounts <= 1<<20 {
		c.Shares = make([]float64, c.Accounts)
		for i := range c.Shares {
			c.Shares[i] = 1
		}
	}
	if len(c.Partitions) == 0 {
		c.Partitions = []string{"batch"}
	}
	if c.Cluster == "" {
		c.Cluster = "gen"
	}
	if c.GPUsPerJob == nil {
		c.GPUsPerJob = DefaultGPUsPerJob()
	}
	for _, p := range c.GPUPartitions {
		if !slices.Contains(c.Partitions, p) {
			c.Partitions = append(slices.Clip(c.Partitions), p)
		}
	}
	return c
}

// maxSigma bounds the lognormal run-time spread.
const maxSigma = 10

// Validate reports the first parameter out of range.
func (c GenConfig) Validate() error {
	c = c.fill()
	if err := c.QOS.validate(); err != nil {
		return err
	}
	switch {
	case c.Jobs < 1 || c.Jobs > 100_000_000:
		return fmt.Errorf("jobs %d: want 1..100000000", c.Jobs)
	case !(c.Days > 0) || math.IsInf(c.Days, 0):
		return fmt.Errorf("days %v: want a positive number", c.Days)
	case c.Days > float64(MaxSpan/86400):
		return fmt.Errorf("days %v: want at most %d (the 100 years a run may span)", c.Days, MaxSpan/86400)
	case c.Daily < 0 || c.Daily > 1:
		return fmt.Errorf("daily amplitude %v: want 0..1", c.Daily)
	case !(c.Weekend > 0) || c.Weekend > 1:
		return fmt.Errorf("weekend factor %v: want (0,1]", c.Weekend)
	case c.MaxCPUs < 1 || c.MaxCPUs > 1<<24:
		return fmt.Errorf("max CPUs %d: want 1..16777216", c.MaxCPUs)
	case c.CPUsPerNode < 1:
		return fmt.Errorf("CPUs per node %d: want at least 1", c.CPUsPerNode)
	case c.PowerOfTwo < 0 || c.PowerOfTwo > 1:
		return fmt.Errorf("power-of-two share %v: want 0..1", c.PowerOfTwo)
	case c.Runtime != "lognormal" && c.Runtime != "loguniform":
		return fmt.Errorf("runtime distribution %q: want lognormal or loguniform", c.Runtime)
	case c.Runtime == "lognormal" && (!(c.RuntimeMedian >= 1) || !(c.RuntimeSigma >= 0) ||
		c.RuntimeMedian > float64(MaxSpan) || c.RuntimeSigma > maxSigma):
		// Past sigma 10 (a factor e^10 per standard deviation) the draws
		// overflow to the bounds: sigma 1e308 made every run 1 s.
		return fmt.Errorf("lognormal runtime median %v sigma %v: want median 1..%d s, sigma 0..%d", c.RuntimeMedian, c.RuntimeSigma, MaxSpan, maxSigma)
	case c.Runtime == "loguniform" && (!(c.RuntimeMin >= 1) || !(c.RuntimeMax >= c.RuntimeMin) || math.IsInf(c.RuntimeMax, 0)):
		return fmt.Errorf("loguniform runtime %v..%v: want 1 <= min <= max", c.RuntimeMin, c.RuntimeMax)
	case !(c.LimitFactor >= 1) || math.IsInf(c.LimitFactor, 0):
		return fmt.Errorf("limit factor %v: want at least 1", c.LimitFactor)
	case c.MaxLimit < 60:
		return fmt.Errorf("max limit %d s: want at least 60", c.MaxLimit)
	case c.Users < 1 || c.Users > 10_000_000:
		return fmt.Errorf("users %d: want at least 1", c.Users)
	case c.Zipf < 0 || math.IsInf(c.Zipf, 0) || math.IsNaN(c.Zipf):
		return fmt.Errorf("zipf exponent %v: want >= 0", c.Zipf)
	case c.Accounts < 1 || c.Accounts > c.Users:
		return fmt.Errorf("accounts %d: want 1..users (%d)", c.Accounts, c.Users)
	case len(c.Shares) != c.Accounts:
		return fmt.Errorf("%d shares for %d accounts", len(c.Shares), c.Accounts)
	case c.FeatureShare < 0 || c.FeatureShare > 1 || c.MemShare < 0 || c.MemShare > 1:
		return fmt.Errorf("feature share %v, memory share %v: want 0..1", c.FeatureShare, c.MemShare)
	case c.MemMin < 1 || c.MemMax < c.MemMin:
		return fmt.Errorf("memory %d..%d MB: want 1 <= min <= max", c.MemMin, c.MemMax)
	}
	for _, s := range c.Shares {
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("share %v: want positive numbers", s)
		}
	}
	for _, p := range c.Partitions {
		if p == "" {
			return fmt.Errorf("empty partition name")
		}
	}
	return c.validateGPUs()
}

// validateGPUs checks the GPU parameters; those only GPU jobs use only
// when there are GPU jobs.
func (c GenConfig) validateGPUs() error {
	if !(c.GPUShare >= 0 && c.GPUShare <= 1) {
		return fmt.Errorf("GPU share %v: want 0..1", c.GPUShare)
	}
	if c.GPUShare == 0 {
		return nil
	}
	switch {
	case len(c.GPUsPerJob) == 0:
		return fmt.Errorf("GPUs per job: empty distribution")
	case !(c.GPUTypeShare >= 0 && c.GPUTypeShare <= 1):
		return fmt.Errorf("GPU type share %v: want 0..1", c.GPUTypeShare)
	case c.CPUsPerGPU < 1 || c.CPUsPerGPU > 1<<24:
		return fmt.Errorf("CPUs per GPU %d: want 1..16777216", c.CPUsPerGPU)
	case c.GPUsPerNode < 1 || c.GPUsPerNode > MaxGresCount:
		return fmt.Errorf("GPUs per node %d: want 1..%d", c.GPUsPerNode, MaxGresCount)
	}
	if err := c.GPUsPerJob.validate(); err != nil {
		return err
	}
	for _, v := range c.GPUsPerJob {
		if nodes := (v.GPUs + c.GPUsPerNode - 1) / c.GPUsPerNode; nodes > c.MaxCPUs {
			return fmt.Errorf("GPUs per job %d: %d nodes of %d GPUs, more than max CPUs %d", v.GPUs, nodes, c.GPUsPerNode, c.MaxCPUs)
		}
	}
	for _, t := range c.GPUTypes {
		if !validGresName(t) {
			return fmt.Errorf("GPU type %q: want lower-case letters, digits, '_', '-' and '.'", t)
		}
	}
	return nil
}

// String lists every parameter, as the SWF header's Note records them.
func (c GenConfig) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	shares := make([]string, len(c.Shares))
	for i, s := range c.Shares {
		shares[i] = f(s)
	}
	return fmt.Sprintf("seed=%d jobs=%d days=%s daily=%s weekend=%s start=%d max-cpus=%d cpus-per-node=%d pow2=%s "+
		"runtime=%s median=%s sigma=%s min=%s max=%s limit-factor=%s max-limit=%d users=%d zipf=%s "+
		"accounts=%d shares=%s partitions=%s features=%s feature-share=%s mem-share=%s mem=%d..%d cluster=%s",
		c.Seed, c.Jobs, f(c.Days), f(c.Daily), f(c.Weekend), c.StartTime, c.MaxCPUs, c.CPUsPerNode, f(c.PowerOfTwo),
		c.Runtime, f(c.RuntimeMedian), f(c.RuntimeSigma), f(c.RuntimeMin), f(c.RuntimeMax), f(c.LimitFactor), c.MaxLimit,
		c.Users, f(c.Zipf), c.Accounts, strings.Join(shares, ","), strings.Join(c.Partitions, ","),
		strings.Join(c.Features, ","), f(c.FeatureShare), f(c.MemShare), c.MemMin, c.MemMax, c.Cluster) + c.gpuString() + c.qosString()
}

// gpuString lists the GPU parameters, only when GPUs are drawn: a header
// without GPUs stays as it was.
func (c GenConfig) gpuString() string {
	if !c.gpuOn() {
		return ""
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	dist := c.GPUsPerJob
	if dist == nil {
		dist = DefaultGPUsPerJob()
	}
	return fmt.Sprintf(" gpu-share=%s gpus-per-job=%s gpu-partitions=%s gpu-types=%s gpu-type-share=%s cpus-per-gpu=%d gpus-per-node=%d",
		f(c.GPUShare), dist, strings.Join(c.GPUPartitions, ","), strings.Join(c.GPUTypes, ","), f(c.GPUTypeShare),
		c.CPUsPerGPU, c.GPUsPerNode)
}

// qosString lists the QOS mix, only when there is one.
func (c GenConfig) qosString() string {
	if len(c.QOS) == 0 {
		return ""
	}
	return " qos=" + c.QOS.String()
}

// Generated is a synthetic workload: the jobs, their names and header, and
// the association tree that goes with them.
type Generated struct {
	Config GenConfig // as used, list defaults filled in
	Jobs   []Job
	Names  *Names
	Header Header
	Assoc  *AssocDump
}

// Source serves the jobs.
func (g *Generated) Source() *SliceSource {
	return NewSliceSource(g.Jobs, g.Names, g.Header)
}

// WriteSWF writes the jobs as SWF, with a header recording every parameter.
func (g *Generated) WriteSWF(w io.Writer) error {
	_, err := WriteSWF(w, g.Source(), SWFWriteOptions{})
	return err
}

// WriteSacct writes the jobs as sacct -P (which keeps accounts, features
// and partitions by name).
func (g *Generated) WriteSacct(w io.Writer) error {
	_, err := WriteSacct(w, g.Source(), SacctWriteOptions{})
	return err
}

// WriteAssoc writes the association dump.
func (g *Generated) WriteAssoc(w io.Writer) error {
	_, err := g.Assoc.WriteTo(w)
	return err
}

// Generate builds the workload c describes. Randomness comes only from a
// PCG generator seeded with c.Seed, and draws happen in a fixed order, so
// that one configuration always gives the same jobs.
func Generate(c GenConfig) (*Generated, error) {
	c = c.fill()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6661697273696d)) // "fairsim"
	g := &Generated{Config: c, Names: &Names{}}

	// Users, their groups (= accounts) and their activity weights.
	userCum := make([]float64, c.Users)
	total := 0.0
	for i := range c.Users {
		total += 1 / math.Pow(float64(i+1), c.Zipf)
		userCum[i] = total
	}
	for i := range c.Users {
		g.Names.Users.ID("u" + strconv.Itoa(i+1))
	}
	for a := range c.Accounts {
		name := "g" + strconv.Itoa(a+1)
		g.Names.Groups.ID(name)
		g.Names.Accounts.ID(name)
	}
	for _, p := range c.Partitions {
		g.Names.Partitions.ID(p)
	}
	for _, f := range c.Features {
		g.Names.Features.ID(f)
	}

	// Arrival rate per second, and the cycle's peak for thinning.
	mean := float64(c.Jobs) / (c.Days * 86400)
	weekday := 7 / (5 + 2*c.Weekend)
	peak := mean * weekday * (1 + c.Daily)
	rate := func(t float64) float64 {
		abs := float64(c.StartTime) + t
		day := math.Floor(abs / 86400)
		h := (abs - day*86400) / 3600
		w := weekday
		if dow := (int64(day)%7 + 10) % 7; dow == 5 || dow == 6 { // Monday = 0; 1970-01-01 was a Thursday
			w *= c.Weekend
		}
		return mean * w * (1 + c.Daily*math.Cos(2*math.Pi*(h-14)/24))
	}

	// The GPU stream, its partitions and count distribution.
	var grng *rand.Rand
	var gpuParts, cpuParts []int32
	var gpuCum []float64
	gpuTotal := 0.0
	if c.gpuOn() {
		grng = rand.New(rand.NewPCG(c.Seed, 0x67707573)) // "gpus"
		for i, p := range c.Partitions {
			if len(c.GPUPartitions) == 0 || slices.Contains(c.GPUPartitions, p) {
				gpuParts = append(gpuParts, int32(i))
			} else {
				cpuParts = append(cpuParts, int32(i))
			}
		}
		if len(cpuParts) == 0 {
			cpuParts = gpuParts // every partition has GPUs: CPU jobs go anywhere
		}
		for _, v := range c.GPUsPerJob {
			gpuTotal += v.Weight
			gpuCum = append(gpuCum, gpuTotal)
		}
	}

	var qrng *rand.Rand
	var qosCum []float64
	if len(c.QOS) > 0 {
		qrng = rand.New(rand.NewPCG(c.Seed, 0x716f73)) // "qos"
		sum := 0.0
		for _, q := range c.QOS {
			sum += q.Weight
			qosCum = append(qosCum, sum)
		}
	}

	log2Max := math.Log2(float64(c.MaxCPUs))
	g.Jobs = make([]Job, 0, c.Jobs)
	t := 0.0
	for i := range c.Jobs {
		for {
			t += rng.ExpFloat64() / peak
			if rng.Float64()*peak <= rate(t) {
				break
			}
		}
		j := Job{ID: int64(i + 1), Submit: int64(t), Eligible: Unset, Wait: Unset, Nodes: Unset,
			MemPerCPU: Unset, Status: StatusCompleted, Feature: Unset, QOS: Unset, Queue: Unset, Executable: Unset,
			UsedCPU: Unset, UsedMemKB: Unset, Preceding: Unset}
		u := int32(min(searchCum(userCum, rng.Float64()*total), c.Users-1))
		j.User = u
		j.Group = u % int32(c.Accounts)
		j.Account = j.Group
		j.Partition = int32(rng.IntN(len(c.Partitions)))
		j.CPUs = genSize(rng, log2Max, c.MaxCPUs, c.PowerOfTwo)
		j.AllocCPUs = j.CPUs

		var rt float64
		if c.Runtime == "lognormal" {
			rt = math.Exp(math.Log(c.RuntimeMedian) + c.RuntimeSigma*rng.NormFloat64())
		} else {
			lo, hi := math.Log(c.RuntimeMin), math.Log(c.RuntimeMax)
			rt = math.Exp(lo + (hi-lo)*rng.Float64())
		}
		j.Runtime = min(max(int64(math.Round(rt)), 1), c.MaxLimit)
		limit := int64(math.Ceil(float64(j.Runtime)*c.LimitFactor/60)) * 60
		j.TimeLimit = min(limit, c.MaxLimit)

		// Optional requests draw every time, so that turning one on does
		// not shift the other draws.
		fu, fi := rng.Float64(), rng.IntN(max(len(c.Features), 1))
		if len(c.Features) > 0 && fu < c.FeatureShare {
			j.Feature = int32(fi)
		}
		mu, mv := rng.Float64(), rng.Float64()
		if mu < c.MemShare {
			lo, hi := math.Log(float64(c.MemMin)), math.Log(float64(c.MemMax))
			mb := math.Exp(lo + (hi-lo)*mv)
			j.MemPerCPU = max(int64(math.Round(mb/100))*100, 100)
		}
		if grng != nil {
			c.drawGPUs(grng, &j, g.Names, gpuParts, cpuParts, gpuCum, gpuTotal)
		}
		if qrng != nil {
			k := min(searchCum(qosCum, qrng.Float64()*qosCum[len(qosCum)-1]), len(c.QOS)-1)
			j.QOS = g.Names.QOS.ID(c.QOS[k].Name)
		}
		g.Jobs = append(g.Jobs, j)
	}

	maxNodes := (c.MaxCPUs + c.CPUsPerNode - 1) / c.CPUsPerNode
	lines := []string{
		" Version: 2.2",
		" Computer: fairsim synthetic cluster",
		" Installation: fairsim gen",
		" MaxJobs: " + strconv.Itoa(c.Jobs),
		" MaxRecords: " + strconv.Itoa(c.Jobs),
		" UnixStartTime: " + strconv.FormatInt(c.StartTime, 10),
		" TimeZoneString: UTC",
		" MaxNodes: " + strconv.Itoa(maxNodes),
		" MaxProcs: " + strconv.Itoa(c.MaxCPUs),
		" Note: fairsim gen " + c.String(),
		" Note: arrivals non-homogeneous Poisson (daily and weekly cycles); sizes log2-uniform;" +
			" users Zipf; accounts are the groups g1..gA",
	}
	for _, l := range lines {
		applySWFHeaderLine(&g.Header, l)
	}

	d := &AssocDump{Cluster: c.Cluster, Comment: []string{"fairsim gen " + c.String()}}
	fs := genShares(c.Shares)
	for a := range c.Accounts {
		acct := AssocAccount{Name: "g" + strconv.Itoa(a+1), Fairshare: fs[a]}
		for u := a; u < c.Users; u += c.Accounts {
			acct.Users = append(acct.Users, "u"+strconv.Itoa(u+1))
		}
		slices.Sort(acct.Users)
		d.Accounts = append(d.Accounts, acct)
	}
	g.Assoc = d
	return g, nil
}

// drawGPUs decides from the GPU stream whether j asks GPUs, how many and
// of which type, and its partition when GPU and CPU jobs have their own.
// Every draw happens for every job, so that one parameter does not shift
// the others' draws.
func (c GenConfig) drawGPUs(rng *rand.Rand, j *Job, names *Names, gpuParts, cpuParts []int32, cum []float64, total float64) {
	u, w, tu, ti, pu := rng.Float64(), rng.Float64(), rng.Float64(), rng.IntN(max(len(c.GPUTypes), 1)), rng.Float64()
	isGPU := u < c.GPUShare
	if len(c.GPUPartitions) > 0 {
		parts := cpuParts
		if isGPU {
			parts = gpuParts
		}
		j.Partition = parts[min(int(pu*float64(len(parts))), len(parts)-1)]
	}
	if !isGPU {
		return
	}
	gpus := c.GPUsPerJob[min(searchCum(cum, w*total), len(c.GPUsPerJob)-1)].GPUs
	req := GresReq{Name: "gpu", Count: int64(gpus), Per: GresPerJob}
	if len(c.GPUTypes) > 0 && tu < c.GPUTypeShare {
		req.Type = c.GPUTypes[ti]
	}
	j.Nodes = 1 // -N1: GPUs of one job spread over nodes would be another job
	if gpus > c.GPUsPerNode {
		nodes := (gpus + c.GPUsPerNode - 1) / c.GPUsPerNode
		per := (gpus + nodes - 1) / nodes
		req.Count, req.Per = int64(per), GresPerNode
		j.Nodes = nodes
		gpus = per * nodes
	}
	j.CPUs = max(min(gpus*c.CPUsPerGPU, c.MaxCPUs), max(j.Nodes, 1))
	j.AllocCPUs = j.CPUs
	j.Gres = 1 + names.Gres.ID(FormatGres([]GresReq{req}))
}

// searchCum finds the first index whose cumulative weight reaches x.
func searchCum(cum []float64, x float64) int {
	i, _ := slices.BinarySearch(cum, x)
	return i
}

// genSize draws a job size: log2-uniform, then a power of two with
// probability pow2, else the nearest size that is not one (when MaxCPUs
// leaves any).
func genSize(rng *rand.Rand, log2Max float64, maxCPUs int, pow2 float64) int {
	u, p := rng.Float64(), rng.Float64()
	x := u * log2Max
	if p < pow2 || maxCPUs < 3 {
		return min(1<<int(math.Round(x)), maxCPUs)
	}
	s := min(max(int(math.Round(math.Exp2(x))), 1), maxCPUs)
	if bits.OnesCount(uint(s)) == 1 { // a power of two: step off it
		switch {
		case s == 1:
			s = 3
		case s+1 <= maxCPUs:
			s++
		default:
			s--
		}
	}
	return s
}

// genShares turns shares into Fairshare integers: as they are when whole
// numbers, else in thousandths of the total (at least 1).
func genShares(shares []float64) []int {
	out := make([]int, len(shares))
	whole := true
	total := 0.0
	for _, s := range shares {
		total += s
		if s != math.Trunc(s) || s > 1e9 {
			whole = false
		}
	}
	for i, s := range shares {
		if whole {
			out[i] = int(s)
		} else {
			out[i] = max(1, int(math.Round(1000*s/total)))
		}
	}
	return out
}

// Save writes the trace to out (SWF, or sacct -P when the name ends in
// .sacct; .gz compresses; "-" is stdout) and, when assocOut is not empty,
// the association dump there.
func (g *Generated) Save(out, assocOut string, stdout io.Writer) error {
	err := writeFile(out, stdout, func(w io.Writer) error {
		if GuessFormat(out) == FormatSacct {
			return g.WriteSacct(w)
		}
		return g.WriteSWF(w)
	})
	if err != nil || assocOut == "" {
		return err
	}
	return writeFile(assocOut, stdout, g.WriteAssoc)
}

// GenerateSWF is Generate followed by WriteSWF, for callers that only want
// the text.
func GenerateSWF(c GenConfig) ([]byte, error) {
	g, err := Generate(c)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = g.WriteSWF(&b)
	return b.Bytes(), err
}
