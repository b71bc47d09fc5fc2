// Package sim is fairsim's discrete-event engine: the clock, one event
// heap, the cluster model (CPU types, nodes, partitions, allocations) and
// the run loop that streams jobs from a workload.Source, asks a Scheduler
// for decisions and applies them.
//
// Determinism: events are ordered by (time, kind rank, job index,
// sequence); nodes and partitions are always visited in index order; no
// result depends on map iteration. The same inputs give byte-identical
// outputs.
//
// Decisions apart from effects: a Scheduler pass reads the cluster, the
// pending queue and the clock through a View and returns a Plan (starts
// with their allocations, preemptions, pending reasons, expected starts).
// The Plan validates each start and preemption as it is added and shows it
// in the View at once; the simulator commits it after the pass, in order.
// Only sim writes Job fields.
package sim
