package workflow

import (
	"fmt"
	"io"
	"time"

	"fairsim/workload"
)

// ConvertSpec is what `fairsim convert` is asked to do, as its flags give
// it; Options turns it into workload.ConvertOptions.
type ConvertSpec struct {
	From, To, Fields, TimeZone        string
	SkipInvalid, DropCancelledPending bool
	// The transforms; they apply in a fixed order: window and filters
	// first, then max-jobs, then load and limit accuracy.
	Window, Partition, Queue, LimitAccuracy string
	MaxJobs                                 int
	Load                                    float64
	// Accounts is the account mapping: group, user or a CSV file.
	Accounts         string
	AccountsOverride bool
	// AssocOut, when set, is where the association dump goes, with Shares
	// (equal or usage) and Cluster.
	AssocOut, Shares, Cluster string
	// Given reports whether a transform was given on the command line (by
	// its flag name), since a zero value may be meant; nil means none was.
	Given func(flag string) bool
}

// Options builds the conversion's options; stdin and stdout stand for "-".
func (s *ConvertSpec) Options(stdin io.Reader, stdout io.Writer) (workload.ConvertOptions, error) {
	opts := workload.ConvertOptions{From: s.From, To: s.To, Fields: workload.ParseSacctFields(s.Fields),
		SkipInvalid: s.SkipInvalid, DropCancelledPending: s.DropCancelledPending,
		AssocOut: s.AssocOut, Cluster: s.Cluster, Stdin: stdin, Stdout: stdout}
	if s.TimeZone != "" {
		loc, err := time.LoadLocation(s.TimeZone)
		if err != nil {
			return opts, fmt.Errorf("--tz %q: %v", s.TimeZone, err)
		}
		opts.Location = loc
	}
	var specs []string
	for _, t := range []struct {
		name  string
		value any
	}{{"window", s.Window}, {"partition", s.Partition}, {"queue", s.Queue},
		{"max-jobs", s.MaxJobs}, {"load", s.Load}, {"limit-accuracy", s.LimitAccuracy}} {
		if s.Given != nil && s.Given(t.name) {
			specs = append(specs, t.name+"="+fmt.Sprint(t.value))
		}
	}
	var err error
	if opts.Transforms, err = workload.ParseTransforms(specs); err != nil {
		return opts, err
	}
	if s.Accounts != "" {
		if opts.Accounts, err = workload.ParseAccountMap(s.Accounts, nil); err != nil {
			return opts, err
		}
		opts.Accounts.Override = s.AccountsOverride
	}
	if opts.Shares, err = workload.ParseShareStrategy(s.Shares); err != nil {
		return opts, err
	}
	if opts.AssocOut != "" && opts.Accounts == nil {
		opts.Accounts = &workload.AccountMap{By: "group"}
	}
	return opts, nil
}
