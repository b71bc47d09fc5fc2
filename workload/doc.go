// Package workload holds what users ask the cluster for: jobs as requests
// (who, where, how much, for how long) and the readers and writers of the
// trace formats that carry them (Standard Workload Format, Slurm sacct).
//
// It imports only the standard library so that every other package can use
// it. Names (users, groups, accounts, partitions, QOS) are interned to small
// integers at the reader; strings live only at the edges.
package workload
