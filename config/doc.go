// Package config reads a scenario (YAML) and everything it points to
// (slurm.conf, the sacctmgr association dump, the QOS file, the trace) and
// builds a ready simulation. It also writes scenario.resolved.yaml, the
// scenario with every setting in force, defaults included, so that a run
// can be reproduced and audited.
package config
