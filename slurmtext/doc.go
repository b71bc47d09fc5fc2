// Package slurmtext holds the small text conventions every Slurm file and
// command line shares (comma lists, backslash escapes), so that the
// readers of slurm.conf, sacct, sacctmgr dumps, QOS files and the CLI
// agree on them. It imports only the standard library, so any package
// may use it.
package slurmtext
