package report

import (
	"sort"

	"fairsim/sim"
)

// MetricStalledFrom is summary.csv's row for a run that went on only for
// jobs that never started (sim.Result.Stalled): the time, on
// first_submit's clock, from which nothing ran and nothing was left to
// arrive. Absent from every other run's summary.
const MetricStalledFrom = "stalled_from"

// plotUntil is the last time a plot over time shows. A stalled run waits
// StallLimit (a year by default) past its last progress before it ends:
// drawn whole, its workload would fill the first pixels of a year of
// nothing. Its plots end a twentieth of its active span after the last
// progress (an hour at least), long enough to show the jobs left
// pending, and each plot keeps its first sample after that (plotLen),
// as fair-share is sampled only every few hours; the CSV files keep
// every sample.
func plotUntil(first, stalledFrom int64, stalled bool) int64 {
	if !stalled {
		return maxTime
	}
	return stalledFrom + max((stalledFrom-first)/20, 3600)
}

const maxTime = int64(^uint64(0) >> 1)

// runPlotUntil is plotUntil for a run's result.
func runPlotUntil(r *sim.Result) int64 { return plotUntil(r.First, r.StalledFrom, r.Stalled) }

// plotLen is how many of n samples in time order (at(i) the time of
// sample i) a plot ending at until draws: those up to until and the
// first after it.
func plotLen(n int, until int64, at func(i int) int64) int {
	if until == maxTime {
		return n
	}
	return min(n, sort.Search(n, func(i int) bool { return at(i) > until })+1)
}

// plotSamples are the run's samples a plot over time draws.
func plotSamples(r *sim.Result) []sim.Sample {
	return r.Samples[:plotLen(len(r.Samples), runPlotUntil(r), func(i int) int64 { return r.Samples[i].T })]
}

// plotSnapshots is how many of the fair-share snapshots a plot draws.
func plotSnapshots(r *sim.Result, snaps *FSSeries) int {
	return plotLen(len(snaps.T), runPlotUntil(r), func(i int) int64 { return snaps.T[i] })
}
