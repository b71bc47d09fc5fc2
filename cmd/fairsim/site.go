package main

import (
	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

// siteFlags are the Slurm-native inputs every simulating command takes:
// a site's own files, no scenario YAML needed.
func siteFlags(withTrace bool) []cli.Flag {
	fs := []cli.Flag{
		&cli.StringFlag{Name: "slurm-conf", Usage: "the site's slurm.conf `FILE` (its Include lines are followed); alone it describes the run"},
		&cli.StringFlag{Name: "assoc", Usage: "association tree: `sacctmgr dump` or `sacctmgr -P show assoc` output (default: one account per trace account, equal shares)"},
		&cli.StringFlag{Name: "qos", Usage: "QOS list: `sacctmgr show qos -P` output"},
		&cli.StringFlag{Name: "events", Usage: "site events `FILE`: node and partition state changes as scontrol update arguments, one a line after a time (see README, Site events)"},
		&cli.GenericFlag{Name: "cpu-type", Value: &listFlag{}, Usage: "name nodes' CPU type, `HOSTLIST=TYPE` (repeatable), where Feature words do not"},
	}
	if withTrace {
		fs = append(fs,
			&cli.StringFlag{Name: "trace", Aliases: []string{"t"}, Usage: "workload trace `FILE`: sacct -P output or SWF, plain or .gz (format read from the content)"},
			&cli.StringFlag{Name: "tz", Usage: "time `ZONE` of sacct time stamps and of usage resets (default: local time)"},
		)
	}
	return fs
}

// siteSpec is the run a command's flags describe.
func siteSpec(c *cli.Context) workflow.RunSpec {
	s := workflow.RunSpec{Scenario: c.String("scenario"), Trace: c.String("trace"), TimeZone: c.String("tz"),
		SlurmConf: c.String("slurm-conf"), Assoc: c.String("assoc"), QOS: c.String("qos"),
		Events: c.String("events")}
	if v, ok := c.Generic("cpu-type").(*listFlag); ok && v != nil {
		s.CPUTypes = *v
	}
	return s
}
