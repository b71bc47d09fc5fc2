package policy

import (
	"fmt"
	"strings"
)

// QOSFlags is a QOS's Flags attribute as a bit set.
type QOSFlags uint32

// QOS flags, named as sacctmgr prints them.
const (
	QOSDenyOnLimit QOSFlags = 1 << iota
	QOSEnforceUsageThreshold
	QOSNoDecay // QOS usage is never decayed (it is still reset)
	QOSNoReserve
	QOSOverPartQOS
	QOSPartitionMaxNodes
	QOSPartitionMinNodes
	QOSPartitionTimeLimit
	QOSRelative
	QOSRequiresReservation
	QOSUsageFactorSafe
)

var qosFlagNames = []keyword[QOSFlags]{
	{"DenyOnLimit", QOSDenyOnLimit},
	{"EnforceUsageThreshold", QOSEnforceUsageThreshold},
	{"NoDecay", QOSNoDecay},
	{"NoReserve", QOSNoReserve},
	{"OverPartQOS", QOSOverPartQOS},
	{"PartitionMaxNodes", QOSPartitionMaxNodes},
	{"PartitionMinNodes", QOSPartitionMinNodes},
	{"PartitionTimeLimit", QOSPartitionTimeLimit},
	{"Relative", QOSRelative},
	{"RequiresReservation", QOSRequiresReservation},
	{"UsageFactorSafe", QOSUsageFactorSafe},
}

// ParseQOSFlags parses a comma list of QOS flags, case-insensitively.
func ParseQOSFlags(s string) (QOSFlags, error) {
	return parseKeywords(qosFlagNames, s, "QOS flag")
}

// String prints the flags as sacctmgr does, comma-separated.
func (f QOSFlags) String() string {
	return joinKeywords(qosFlagNames, f)
}

// Unset is the value of an integer QOS limit that is not set (sacctmgr
// prints a blank cell; slurmdbd stores INFINITE).
const Unset = -1

// QOS is one Quality of Service as sacctmgr defines it, reduced to the
// attributes fairsim models (slurmdb_qos_rec_t in slurmdb.h).
type QOS struct {
	Name string // lower case, as slurmdbd stores it
	// Priority feeds the QOS factor, normalised by the largest QOS
	// priority. It plays no part in preemption.
	Priority uint32
	// UsageFactor multiplies all usage charged for the job's QOS (default
	// 1; 0 charges nothing).
	UsageFactor float64
	// Accrue caps: how many pending jobs may accrue age at once, per user,
	// per account and for the whole QOS. Unset (-1) means no limit.
	MaxJobsAccruePU int
	MaxJobsAccruePA int
	GrpJobsAccrue   int
	// GrpTRESMins caps the decayed TRES-minutes the QOS may use; nil means
	// no limit. Memory is in MB-minutes.
	GrpTRESMins []TRESCount
	// Preempt lists the QOS (by name) whose jobs this QOS may preempt.
	Preempt     []string
	PreemptMode PreemptMode
	// GraceTime is the seconds a preempted job gets before it is stopped;
	// PreemptExemptTime the seconds a job runs before it may be preempted
	// (Unset: use the cluster's PreemptExemptTime).
	GraceTime         int64
	PreemptExemptTime int64
	Flags             QOSFlags
	// MinPrioThreshold overrides bf_min_prio_reserve for the QOS (0: unset).
	MinPrioThreshold uint32
	// Limits on running and submitted jobs (acct_policy.c), enforced with
	// AccountingStorageEnforce=limits; see LimitTracker.
	Limits QOSLimits
}

// QOSLimits are a QOS's job-count, TRES and wall limits. Counts and
// MaxWall are Unset (-1) when not set; a nil TRES list limits nothing.
type QOSLimits struct {
	GrpJobs, GrpSubmit       int // running / pending+running jobs of the QOS
	MaxJobsPU, MaxJobsPA     int // running jobs per user / per account
	MaxSubmitPU, MaxSubmitPA int // pending+running jobs per user / per account
	GrpTRES                  []TRESCount
	MaxTRES, MinTRES         []TRESCount // per job
	// MaxTRESPN caps each TRES of a job divided by its node count
	// (MaxTRESPerNode, max_tres_pn).
	MaxTRESPN            []TRESCount
	MaxTRESPU, MaxTRESPA []TRESCount // running TRES per user / per account
	MaxWall              int64       // per job, seconds
	// GrpWall caps the QOS's decayed wall time of running jobs
	// (grp_used_wall), seconds; GrpTRESRunMins the TRES × time limit left
	// of its running jobs (grp_used_tres_run_secs), in TRES-minutes.
	GrpWall        int64
	GrpTRESRunMins []TRESCount
	// MaxTRESMins caps each TRES of a job times its time limit, in
	// TRES-minutes (max_tres_mins_pj).
	MaxTRESMins []TRESCount
}

// NoLimits are QOSLimits with nothing set.
func NoLimits() QOSLimits {
	return QOSLimits{GrpJobs: Unset, GrpSubmit: Unset, MaxJobsPU: Unset, MaxJobsPA: Unset,
		MaxSubmitPU: Unset, MaxSubmitPA: Unset, MaxWall: Unset, GrpWall: Unset}
}

// NewQOS returns a QOS with sacctmgr's defaults: no limits, UsageFactor 1.
func NewQOS(name string) QOS {
	return QOS{
		Name:              strings.ToLower(name),
		UsageFactor:       1,
		MaxJobsAccruePU:   Unset,
		MaxJobsAccruePA:   Unset,
		GrpJobsAccrue:     Unset,
		PreemptExemptTime: Unset,
		Limits:            NoLimits(),
	}
}

// GrpTRESMinsLimit returns the GrpTRESMins limit for the named TRES.
func (q *QOS) GrpTRESMinsLimit(name string) (uint64, bool) {
	for _, c := range q.GrpTRESMins {
		if strings.EqualFold(c.Name, name) {
			return c.Count, true
		}
	}
	return 0, false
}

// QOSSet holds every QOS, addressed by small dense indices so per-job code
// stores an int instead of a name, and computes the QOS normaliser.
type QOSSet struct {
	list    []QOS
	index   map[string]int
	preempt [][]int
	maxPrio uint32
}

// NewQOSSet checks the QOS (names unique and non-empty, Preempt targets
// defined, UsageFactor finite and non-negative) and indexes them in the
// given order.
func NewQOSSet(qs []QOS) (*QOSSet, error) {
	s := &QOSSet{list: make([]QOS, len(qs)), index: make(map[string]int, len(qs))}
	copy(s.list, qs)
	for i := range s.list {
		q := &s.list[i]
		q.Name = strings.ToLower(strings.TrimSpace(q.Name))
		if q.Name == "" {
			return nil, fmt.Errorf("QOS %d: empty name", i)
		}
		if _, dup := s.index[q.Name]; dup {
			return nil, fmt.Errorf("QOS %q defined twice", q.Name)
		}
		if !(q.UsageFactor >= 0) || q.UsageFactor > MaxUsageFactor {
			return nil, fmt.Errorf("QOS %q: UsageFactor %v must be a number from 0 to %g", q.Name, q.UsageFactor, float64(MaxUsageFactor))
		}
		if q.MaxJobsAccruePU < Unset || q.MaxJobsAccruePA < Unset || q.GrpJobsAccrue < Unset {
			return nil, fmt.Errorf("QOS %q: accrue limits must be >= 0, or -1 for none", q.Name)
		}
		if l := &q.Limits; min(l.GrpJobs, l.GrpSubmit, l.MaxJobsPU, l.MaxJobsPA, l.MaxSubmitPU, l.MaxSubmitPA) < Unset || l.MaxWall < Unset || l.GrpWall < Unset {
			return nil, fmt.Errorf("QOS %q: job and wall limits must be >= 0, or -1 for none", q.Name)
		}
		s.index[q.Name] = i
		if q.Priority > s.maxPrio {
			s.maxPrio = q.Priority
		}
	}
	s.preempt = make([][]int, len(s.list))
	for i := range s.list {
		for _, name := range s.list[i].Preempt {
			j, ok := s.index[strings.ToLower(name)]
			if !ok {
				return nil, fmt.Errorf("QOS %q: Preempt names undefined QOS %q", s.list[i].Name, name)
			}
			s.preempt[i] = append(s.preempt[i], j)
		}
	}
	return s, nil
}

// Len is the number of QOS.
func (s *QOSSet) Len() int { return len(s.list) }

// QOS returns the QOS at index i; it must be in [0, Len()).
func (s *QOSSet) QOS(i int) *QOS { return &s.list[i] }

// Index finds a QOS by name, case-insensitively.
func (s *QOSSet) Index(name string) (int, bool) {
	i, ok := s.index[strings.ToLower(strings.TrimSpace(name))]
	return i, ok
}

// MaxPriority is the largest QOS Priority, the denominator of the QOS
// factor (assoc_mgr _set_qos_norm_priority).
func (s *QOSSet) MaxPriority() uint32 { return s.maxPrio }

// NormPriority is QOS i's factor: Priority / MaxPriority, in [0, 1]; 0 when
// every QOS has priority 0 or i is out of range.
func (s *QOSSet) NormPriority(i int) float64 {
	if i < 0 || i >= len(s.list) || s.maxPrio == 0 {
		return 0
	}
	return float64(s.list[i].Priority) / float64(s.maxPrio)
}

// CanPreempt reports whether QOS a lists QOS b in its Preempt list
// (preempt/qos). Out-of-range indices never preempt.
func (s *QOSSet) CanPreempt(a, b int) bool {
	if a < 0 || a >= len(s.preempt) {
		return false
	}
	for _, j := range s.preempt[a] {
		if j == b {
			return true
		}
	}
	return false
}
