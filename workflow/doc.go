// Package workflow holds what policy designers and CI run on top of single
// simulations: parameter sweeps (with shards for Slurm job arrays and their
// merge), golden-result regression, and explain, the story of why one job
// waited. The CLI commands sweep, regress and explain are thin wrappers,
// and what run, gen and convert are asked to do is read here too (RunSpec,
// GenSpec, ConvertSpec), so the commands only bind flags.
//
// Everything here is deterministic: a sweep's points are numbered in a
// fixed order and each writes only its own directory, so results do not
// depend on how many workers ran them or in which order they finished.
package workflow
