package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"fairsim/report"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "turn a run or sweep directory into one self-contained HTML page",
		ArgsUsage: "DIR",
		Description: `Reads the CSV files in DIR and writes DIR/report.html: one file, plots inlined as
SVG, nothing fetched from the network. Each plot is also written as DIR/report/NAME.svg
and DIR/report/NAME.png.

For a run directory (jobs.csv, summary.csv; utilization.csv and fairshare.csv when
present): fair-share factor over time per account, wait-time distribution per account,
busy cores by CPU type and core-hours by account and CPU type, usage against share.
For a sweep directory (sweep.csv): every metric against every parameter, and each
account's wait at each point side by side.

  fairsim run --scenario scenarios/odyssey.yaml --out results/odyssey
  fairsim report results/odyssey`,
		Action: func(c *cli.Context) error {
			if c.Args().Len() != 1 {
				return fmt.Errorf("report: give one run or sweep directory")
			}
			out, err := report.WriteHTMLReport(c.Args().First())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "report: %s written\n", out)
			return nil
		},
	}
}
