package main

import (
	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:        "validate",
		Usage:       "replay a captured scenario and compare with what the controller did: start order, waits, MAPE",
		Description: workflow.ValidateHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Required: true, Usage: "scenario `DIR` (fairsim capture) or YAML file"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write validate.csv and waits.png into `DIR`"},
			&cli.StringFlag{Name: "window", Usage: "moving window `WIDTH` of submit time, a Slurm time (default: a fifth of the submission span)"},
			&cli.IntFlag{Name: "top", Value: 5, Usage: "explain the `N` jobs whose wait differs most"},
		},
		Action: func(c *cli.Context) error {
			v, err := workflow.ValidateScenario(c.String("scenario"), c.String("window"), workflow.ValidateOptions{Top: c.Int("top"), Out: c.String("out")})
			if err != nil {
				return err
			}
			v.Write(c.App.Writer)
			return nil
		},
	}
}
