package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"fairsim/sim"
)

// gpuBusy is GPU occupancy sampled over time, whatever it was read from
// (a run's samples or utilization.csv): busy GPUs in all and per GPU kind,
// and the GPUs available.
type gpuBusy struct {
	times  []int64
	busy   []float64
	kinds  []string    // GPU kind labels (gpu:a100); none when unknown
	byKind [][]float64 // per kind, per time
	avail  int
}

// gpuBusyPlot draws busy GPUs over time (days since first): one line per
// GPU kind when there are several, the total, and the GPUs available as a
// dashed line.
func gpuBusyPlot(g gpuBusy, first int64, title string) (*plot.Plot, error) {
	p := newPlot(title, daysAxis, "busy GPUs")
	step := max(1, (len(g.times)+maxPoints-1)/maxPoints)
	var series []Series
	if len(g.kinds) > 1 {
		for k, name := range g.kinds {
			series = append(series, Series{Name: name, XY: binMeans(g.times, g.byKind[k], step, first)})
		}
	}
	total := "busy GPUs"
	if len(g.kinds) == 1 {
		total = "busy " + g.kinds[0]
	} else if len(g.kinds) > 1 {
		total = "busy GPUs, all kinds"
	}
	series = append(series, Series{Name: total, XY: binMeans(g.times, g.busy, step, first)})
	if err := addLines(p, series, false); err != nil {
		return nil, err
	}
	hi := 1.0
	for _, v := range g.busy {
		hi = math.Max(hi, v)
	}
	if g.avail > 0 && len(g.times) > 0 {
		x0 := float64(g.times[0]-first) / 86400
		x1 := float64(g.times[len(g.times)-1]-first) / 86400
		l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: float64(g.avail)}, {X: math.Max(x1, x0+1e-9), Y: float64(g.avail)}})
		if err != nil {
			return nil, err
		}
		l.Color = Color(7)
		l.Width = vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("GPUs available (%d)", g.avail), l)
		hi = math.Max(hi, float64(g.avail))
	}
	p.Y.Min = 0
	p.Y.Max = hi * 1.05
	if len(g.times) == 0 {
		p.X.Min, p.X.Max = 0, 1
	}
	return p, nil
}

// runGPUBusy is a run's GPU occupancy from its samples.
func runGPUBusy(r *sim.Result) gpuBusy {
	kinds := GPUKinds(r.Cluster)
	g := gpuBusy{avail: r.Cluster.GPUs - r.Cluster.DownGPUs, byKind: make([][]float64, len(kinds))}
	for _, k := range kinds {
		g.kinds = append(g.kinds, r.Cluster.GresKinds[k].String())
	}
	for _, s := range plotSamples(r) {
		g.times = append(g.times, s.T)
		g.busy = append(g.busy, float64(s.BusyGPUs))
		for i, k := range kinds {
			n := 0
			if k < len(s.ByGres) {
				n = s.ByGres[k]
			}
			g.byKind[i] = append(g.byKind[i], float64(n))
		}
	}
	return g
}

// GPUUtilizationPlot writes busy GPUs over time per GPU kind, with the GPUs
// available, for a cluster with GPUs.
func GPUUtilizationPlot(path string, r *sim.Result) error {
	g := runGPUBusy(r)
	p, err := gpuBusyPlot(g, r.First, "GPU utilisation ("+r.Scheduler+")")
	if err != nil {
		return err
	}
	return savePlot(p, 8*vg.Inch, 5*vg.Inch, path)
}

// waitJob is what the GPU wait views need of a started job.
type waitJob struct {
	wait float64
	gpus int64
	part string
}

// gpuWaitSeries are the wait CDFs of GPU jobs against CPU-only jobs, and
// of GPU jobs per partition when they ran in several, partitions in the
// order parts lists them.
func gpuWaitSeries(jobs []waitJob, parts []string) []Series {
	var gpu, cpu WaitHist
	perPart := map[string]*WaitHist{}
	for _, j := range jobs {
		if j.gpus > 0 {
			gpu.Add(j.wait)
			if perPart[j.part] == nil {
				perPart[j.part] = &WaitHist{}
			}
			perPart[j.part].Add(j.wait)
		} else {
			cpu.Add(j.wait)
		}
	}
	return gpuWaitHistSeries(&gpu, &cpu, perPart, parts)
}

// gpuWaitHistSeries is gpuWaitSeries over waits already counted.
func gpuWaitHistSeries(gpu, cpu *WaitHist, perPart map[string]*WaitHist, parts []string) []Series {
	var series []Series
	if gpu.N() > 0 {
		series = append(series, Series{Name: fmt.Sprintf("GPU jobs (%d)", gpu.N()), XY: gpu.cdf()})
	}
	if cpu.N() > 0 {
		series = append(series, Series{Name: fmt.Sprintf("CPU-only jobs (%d)", cpu.N()), XY: cpu.cdf()})
	}
	if len(perPart) > 1 {
		for _, name := range parts {
			if w := perPart[name]; w != nil && w.N() > 0 && len(series) < maxLines {
				series = append(series, Series{Name: fmt.Sprintf("GPU jobs in %s (%d)", name, w.N()), XY: w.cdf()})
			}
		}
	}
	return series
}

// gpuWaitPlot draws gpuWaitSeries on a log wait axis.
func gpuWaitPlot(series []Series, title string) (*plot.Plot, error) {
	if len(series) == 0 {
		title += ": no job started"
	}
	p := newPlot(title, "wait (log scale)", "fraction of jobs waiting at most this long")
	if err := addLines(p, series, false); err != nil {
		return nil, err
	}
	if len(series) == 0 {
		p.X.Min, p.X.Max = 1, 60
	}
	logWaitAxis(p)
	p.Y.Min, p.Y.Max = 0, 1
	return p, nil
}

// GPUWaitPlot writes the wait-time distribution of the jobs that held GPUs
// against the CPU-only ones, and of GPU jobs per partition when they ran
// in several, for a cluster with GPUs.
func GPUWaitPlot(path string, r *sim.Result, t *JobTally) error {
	parts := make([]string, len(r.Cluster.Parts))
	for i, p := range r.Cluster.Parts {
		parts[i] = p.Name
	}
	p, err := gpuWaitPlot(gpuWaitHistSeries(&t.gpuWait, &t.cpuWait, t.gpuWaitPart, parts), "Wait of GPU and CPU-only jobs ("+r.Scheduler+")")
	if err != nil {
		return err
	}
	return savePlot(p, 8*vg.Inch, 5*vg.Inch, path)
}
