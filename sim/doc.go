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
// Decisions apart from effects: a Scheduler sees the cluster and the
// pending queue through a Context and changes the world only through
// Context.Start and Context.Preempt, which the simulator validates and
// applies.
package sim
