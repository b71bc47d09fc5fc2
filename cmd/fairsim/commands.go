package main

import "github.com/urfave/cli/v2"

// commands is the literal list of subcommands.
func commands() []*cli.Command {
	return []*cli.Command{
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
}
