package report

import (
	"cmp"
	"fmt"
	"slices"
)

// hasGPUs reports whether the run had GPUs: utilization.csv has GPU
// columns (the cluster had GPUs), or some job held GPUs.
func (d *runData) hasGPUs() bool {
	if d.utilGPUs {
		return true
	}
	for _, j := range d.jobs {
		if j.GPUs > 0 {
			return true
		}
	}
	return false
}

// gpuSection is the report's GPU section: GPUs busy over time, GPU-hours
// per account, and the waits of GPU jobs against CPU-only ones.
func (d *runData) gpuSection() (Section, error) {
	s := Section{Title: "GPUs",
		Intro: "GPUs held by running jobs over time (GRES named gpu, of every type), the GPU-hours each account used (GPUs held × elapsed), and how long jobs that held GPUs waited against jobs that held none."}
	busy, err := d.gpuBusyFigure()
	if err != nil {
		return s, err
	}
	s.Figures = append(s.Figures, busy)

	type acc struct {
		jobs     int
		gpuSecs  float64
		waitSum  float64
		waitJobs int
	}
	per := map[string]*acc{}
	var total float64
	var wj []waitJob
	var parts []string
	seen := map[string]bool{}
	for _, j := range d.jobs {
		if j.Start < 0 || j.Elapsed < 0 {
			continue
		}
		if j.Wait >= 0 {
			wj = append(wj, waitJob{wait: float64(j.Wait), gpus: j.GPUs, part: j.Partition})
			if !seen[j.Partition] {
				seen[j.Partition] = true
				parts = append(parts, j.Partition)
			}
		}
		if j.GPUs <= 0 {
			continue
		}
		a := per[j.Account]
		if a == nil {
			a = &acc{}
			per[j.Account] = a
		}
		a.jobs++
		a.gpuSecs += float64(j.GPUs * j.Elapsed)
		total += float64(j.GPUs * j.Elapsed)
		if j.Wait >= 0 {
			a.waitSum += float64(j.Wait)
			a.waitJobs++
		}
	}
	if len(per) == 0 {
		s.Notes = append(s.Notes, "No job held GPUs.")
	} else {
		names := make([]string, 0, len(per))
		for a := range per {
			names = append(names, a)
		}
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(cmp.Compare(per[b].gpuSecs, per[a].gpuSecs), cmp.Compare(a, b))
		})
		t := HTMLTable{Caption: "GPU-hours by account", Head: []string{"Account", "GPU jobs started", "GPU-hours", "part of GPU-hours", "mean wait of its GPU jobs"}}
		for _, a := range names {
			x := per[a]
			part := 0.0
			if total > 0 {
				part = x.gpuSecs / total
			}
			wait := ""
			if x.waitJobs > 0 {
				wait = fmtDur(x.waitSum / float64(x.waitJobs))
			}
			t.Rows = append(t.Rows, []string{a, fmt.Sprint(x.jobs), fmt.Sprintf("%.2f", x.gpuSecs/3600), fmt.Sprintf("%.4f", part), wait})
		}
		s.Tables = append(s.Tables, t)
	}

	if len(wj) == 0 {
		s.Notes = append(s.Notes, "No job started: no wait times.")
		return s, nil
	}
	wp, err := gpuWaitPlot(gpuWaitSeries(wj, parts), "Wait of GPU and CPU-only jobs")
	if err != nil {
		return s, err
	}
	s.Figures = append(s.Figures, &Figure{Name: "wait_gpu", Title: "Wait of GPU jobs and CPU-only jobs",
		Caption: "Empirical CDF of wait (start minus submit) of started jobs that held GPUs and of those that held none; per partition of GPU jobs when they ran in several.", Plot: wp})
	s.Tables = append(s.Tables, gpuWaitTable(wj, parts))
	return s, nil
}

// gpuWaitTable lists the wait figures of GPU jobs, CPU-only jobs, and GPU
// jobs per partition when they ran in several.
func gpuWaitTable(jobs []waitJob, parts []string) HTMLTable {
	t := HTMLTable{Caption: "Waits of GPU and CPU-only jobs (started jobs)", Head: []string{"jobs", "started", "mean", "median", "p95", "max"}}
	var gpu, cpu []float64
	perPart := map[string][]float64{}
	for _, j := range jobs {
		if j.gpus > 0 {
			gpu = append(gpu, j.wait)
			perPart[j.part] = append(perPart[j.part], j.wait)
		} else {
			cpu = append(cpu, j.wait)
		}
	}
	row := func(name string, w []float64) {
		if len(w) == 0 {
			t.Rows = append(t.Rows, []string{name, "0", "", "", "", ""})
			return
		}
		w = slices.Clone(w)
		slices.Sort(w)
		var sum float64
		for _, x := range w {
			sum += x
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprint(len(w)), fmtDur(sum / float64(len(w))),
			fmtDur(Quantile(w, 0.5)), fmtDur(Quantile(w, 0.95)), fmtDur(w[len(w)-1])})
	}
	row("GPU jobs", gpu)
	row("CPU-only jobs", cpu)
	if len(perPart) > 1 {
		for _, p := range parts {
			if w := perPart[p]; len(w) > 0 {
				row("GPU jobs in "+p, w)
			}
		}
	}
	return t
}

// gpuBusyFigure plots busy GPUs over time: from utilization.csv's GPU
// columns when it has them (per kind, with the GPUs available), else
// replayed from jobs.csv's starts and ends (the total only).
func (d *runData) gpuBusyFigure() (*Figure, error) {
	var g gpuBusy
	caption := "Busy GPUs per GPU kind from utilization.csv, with the GPUs of nodes that allocate (dashed)."
	if d.utilGPUs {
		g.kinds = d.gpuKinds
		g.byKind = make([][]float64, len(d.gpuKinds))
		for _, u := range d.util {
			g.times = append(g.times, u.Time)
			g.busy = append(g.busy, float64(u.BusyGPUs))
			for k := range g.kinds {
				v := 0.0
				if k < len(u.ByKind) {
					v = float64(u.ByKind[k])
				}
				g.byKind[k] = append(g.byKind[k], v)
			}
			g.avail = int(u.TotalGPUs)
		}
	} else {
		caption = "Busy GPUs replayed from jobs.csv (start to end); this run's utilization.csv has no GPU columns."
		g.times, _ = d.sampleTimes()
		g.busy = d.busyGPUs(g.times)
	}
	p, err := gpuBusyPlot(g, d.first, "Busy GPUs")
	if err != nil {
		return nil, err
	}
	return &Figure{Name: "gpu_utilization", Title: "GPU utilisation over time", Caption: caption, Plot: p}, nil
}

// busyGPUs replays the jobs' starts and ends to count the GPUs held at each
// of times, ends before starts at one instant.
func (d *runData) busyGPUs(times []int64) []float64 {
	type ev struct{ t, n int64 }
	var evs []ev
	for _, j := range d.jobs {
		if j.Start >= 0 && j.End > j.Start && j.GPUs > 0 {
			evs = append(evs, ev{j.Start, j.GPUs}, ev{j.End, -j.GPUs})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.n, b.n)) })
	out := make([]float64, 0, len(times))
	var busy int64
	e := 0
	for _, t := range times {
		for e < len(evs) && evs[e].t <= t {
			busy += evs[e].n
			e++
		}
		out = append(out, float64(busy))
	}
	return out
}
