package main

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/urfave/cli/v2"

	"fairsim/workflow"
)

func regressCommand() *cli.Command {
	return &cli.Command{
		Name:        "regress",
		Usage:       "run the scenario library and compare it with its golden results",
		ArgsUsage:   "[SCENARIO...]",
		Description: workflow.RegressHelp,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "update", Usage: "write the golden results instead of comparing"},
			&cli.StringFlag{Name: "golden", Value: filepath.Join("results", "golden"), Usage: "golden results `DIR`"},
			&cli.StringFlag{Name: "scenarios", Value: "scenarios", Usage: "`DIR` of the scenario library"},
			&cli.GenericFlag{Name: "set", Value: &listFlag{}, Usage: "apply `KEY=VALUE` to every scenario before running (repeatable)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "scenarios run at once"},
			&cli.StringFlag{Name: "keep", Usage: "keep each scenario's run directory under `DIR`/NAME"},
		},
		Action: func(c *cli.Context) error {
			o := workflow.RegressOptions{Golden: c.String("golden"), Update: c.Bool("update"),
				Jobs: c.Int("jobs"), Keep: c.String("keep")}
			var err error
			if o.Set, err = workflow.ParseKeyValues(*c.Generic("set").(*listFlag)); err != nil {
				return err
			}
			if o.Scenarios, err = workflow.RegressScenarios(c.String("scenarios"), c.Args().Slice()); err != nil {
				return err
			}
			res, err := workflow.Regress(o)
			if err != nil {
				return err
			}
			workflow.WriteRegressTable(c.App.Writer, res)
			n := 0
			for i := range res {
				if !o.Update && res[i].Drifted() {
					n++
				}
			}
			if n > 0 {
				return fmt.Errorf("regress: %d of %d scenarios drifted from %s", n, len(res), o.Golden)
			}
			return nil
		},
	}
}
