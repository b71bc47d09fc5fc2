// Package report turns a sim.Result into what users read: jobs.csv (one
// row per job, via gocsv), summary.csv (the run's metrics), utilization.csv
// and plots (gonum/plot). Column names follow Slurm's sacct where a Slurm
// user would look for them.
package report
