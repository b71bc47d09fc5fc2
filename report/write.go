package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"fairsim/sim"
)

// Resolver renders the settings in force; config.Scenario implements it.
type Resolver interface {
	MarshalResolved() ([]byte, error)
}

// WriteRun writes every output of a run that kept its jobs into dir:
// jobs.csv, summary.csv, utilization.csv, wait.png, utilization.png,
// schedule.swf and scenario.resolved.yaml, and on a cluster with GPUs
// gpu_utilization.png and wait_gpu.png.
func WriteRun(dir string, r *sim.Result, sc Resolver) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	st, err := NewJobStream(dir, r)
	if err != nil {
		return err
	}
	t, err := st.Close(r)
	if err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	return WriteSummaries(dir, r, t, sc)
}

// SummaryPlots is how many PNG plots WriteSummaries writes for a run on
// cluster c (for PrepareImages).
func SummaryPlots(c *sim.Cluster) int {
	if c.GPUs > 0 {
		return 4
	}
	return 2
}

// WriteSummaries writes the outputs of a run drawn from its tally rather
// than from each job: summary.csv, utilization.csv, wait.png,
// utilization.png and scenario.resolved.yaml, and on a cluster with GPUs
// gpu_utilization.png and wait_gpu.png. JobStream wrote the rest.
func WriteSummaries(dir string, r *sim.Result, t *JobTally, sc Resolver) error {
	m := t.Metrics(r)
	type step struct {
		name string
		fn   func() error
	}
	steps := []step{
		{"summary.csv", func() error { return WriteCSV(dir, "summary.csv", SummaryRows(r, m)) }},
		{"utilization.csv", func() error {
			return writeFile(filepath.Join(dir, "utilization.csv"), func(f io.Writer) error { return writeUtilCSV(f, r) })
		}},
		{"wait.png", func() error { return WaitPlot(filepath.Join(dir, "wait.png"), r, t) }},
		{"utilization.png", func() error { return UtilizationPlot(filepath.Join(dir, "utilization.png"), r) }},
		{"scenario.resolved.yaml", func() error {
			b, err := sc.MarshalResolved()
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "scenario.resolved.yaml"), b, 0o644)
		}},
	}
	if r.Cluster.GPUs > 0 {
		steps = append(steps,
			step{"gpu_utilization.png", func() error { return GPUUtilizationPlot(filepath.Join(dir, "gpu_utilization.png"), r) }},
			step{"wait_gpu.png", func() error { return GPUWaitPlot(filepath.Join(dir, "wait_gpu.png"), r, t) }})
	}
	// The outputs are independent: write them side by side (the CSV
	// encoder and the plot rasteriser each take about a core), then report
	// the first error in the fixed order above.
	errs := make([]error, len(steps))
	var wg sync.WaitGroup
	for i, s := range steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.fn()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, steps[i].name), err)
		}
	}
	return nil
}
