package workflow

import (
	"fmt"
	"strconv"
	"time"

	"fairsim/slurmtext"
	"fairsim/slurmtime"
	"fairsim/workload"
)

// GenSpec is what `fairsim gen` is asked to draw, as its flags give it:
// the numeric settings straight in the GenConfig, the others as text for
// Config to read.
type GenSpec struct {
	workload.GenConfig
	// Start is time 0, a UTC date (YYYY-MM-DD[THH:MM[:SS]]); MaxLimit is
	// a Slurm time; Shares, Partitions and Features are comma-separated
	// lists.
	Start, MaxLimit, Shares, Partitions, Features string
}

// NewGenSpec is workload.DefaultGenConfig written as gen's flags.
func NewGenSpec() *GenSpec {
	d := workload.DefaultGenConfig()
	return &GenSpec{GenConfig: d, Start: time.Unix(d.StartTime, 0).UTC().Format("2006-01-02"),
		MaxLimit: slurmtime.Format(d.MaxLimit), Partitions: "batch"}
}

// Config reads the text settings into the GenConfig and validates it.
func (s *GenSpec) Config() (workload.GenConfig, error) {
	cfg := s.GenConfig
	var err error
	if cfg.StartTime, err = slurmtime.ParseDateOrDuration(s.Start, 0, time.UTC); err != nil {
		return cfg, fmt.Errorf("--start: %v", err)
	}
	if cfg.MaxLimit, err = slurmtime.ParseSeconds(s.MaxLimit); err != nil {
		return cfg, fmt.Errorf("--max-limit: %v", err)
	}
	cfg.Shares = nil
	for _, v := range slurmtext.SplitList(s.Shares) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return cfg, fmt.Errorf("--shares: %q is not a number", v)
		}
		cfg.Shares = append(cfg.Shares, f)
	}
	cfg.Partitions, cfg.Features = slurmtext.SplitList(s.Partitions), slurmtext.SplitList(s.Features)
	return cfg, cfg.Validate()
}
