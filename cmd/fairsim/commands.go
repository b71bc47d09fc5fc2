package main

import "github.com/urfave/cli/v2"

// commands is the literal list of subcommands.
func commands() []*cli.Command {
	cmds := []*cli.Command{
		runCommand(),
		convertCommand(),
		genCommand(),
		sprioCommand(),
		sshareCommand(),
		squeueCommand(),
		sweepCommand(),
		reportCommand(),
		regressCommand(),
		explainCommand(),
		captureCommand(),
		validateCommand(),
	}
	for _, c := range cmds {
		if light[c.Name] || c.Before != nil {
			continue
		}
		// Commands that read traces or simulate grow the heap to tens or
		// hundreds of MB: huge pages first (hugeHeap).
		c.Before = func(c *cli.Context) error { hugeHeap(hugeHeapSize(c.String("trace"))); return nil }
	}
	return cmds
}

// light are the commands that allocate little: report reads a run's
// CSVs, capture drives a real Slurm.
var light = map[string]bool{"report": true, "capture": true}
