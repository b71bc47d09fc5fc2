// Package scenarios holds fairsim's scenario library (YAML files with their
// slurm.conf, association dump and QOS file) and the cross-package tests
// that run them through the fairsim command line, as a user would.
package scenarios
