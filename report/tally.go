package report

import (
	"fairsim/sim"
	"fairsim/workload"
)

// JobTally is what summary.csv, the wait plots and the fair-share plots
// need of a run's jobs, gathered one job at a time in arrival order (the
// order the sums were always taken in, so the figures are the same to the
// last bit), so that no output needs every job kept.
type JobTally struct {
	m             Metrics
	used, gpuSecs float64
	ws            WaitStats
	waitAll       WaitHist
	waitPart      []WaitHist // by partition index
	gpuWait       WaitHist   // started jobs holding GPUs
	cpuWait       WaitHist   // started jobs holding none
	gpuWaitPart   map[string]*WaitHist
	// usage is the delivered billing-seconds by account index plus one,
	// for the accounts that ran a job (ran), named by names when asked:
	// a map by name cost a string hash per job.
	usage          []float64
	ran            []bool
	names          *workload.Names
	firstID        int64
	firstReason    string
	clusterHasGPUs bool
}

// NewJobTally is an empty tally for the jobs of a run on c.
func NewJobTally(c *sim.Cluster) *JobTally {
	return &JobTally{waitPart: make([]WaitHist, len(c.Parts)), gpuWaitPart: map[string]*WaitHist{},
		clusterHasGPUs: c.GPUs > 0}
}

// TallyJobs tallies a result that holds all its jobs.
func TallyJobs(r *sim.Result) *JobTally {
	t := NewJobTally(r.Cluster)
	for _, j := range r.Jobs {
		t.Add(r, j)
	}
	return t
}

// Add counts one job; jobs must come in arrival order.
func (t *JobTally) Add(r *sim.Result, j *sim.Job) {
	m := &t.m
	if m.Jobs == 0 {
		t.firstID, t.firstReason = j.ID, j.Reason
	}
	m.Jobs++
	m.States[j.State]++
	if j.NodeFails > 0 {
		m.NodeFailJobs++
		m.NodeFailRequeues += j.NodeFails
		if j.State == sim.NodeFailed {
			m.NodeFailRequeues-- // its last kill ended it
		}
	}
	if w := j.QueueWait(); w >= 0 {
		t.waitAll.Add(float64(w))
		if j.Part < len(t.waitPart) {
			t.waitPart[j.Part].Add(float64(w))
		}
		if j.Start >= 0 && t.clusterHasGPUs {
			if r.Cluster.AllocGPUs(j.Alloc) > 0 {
				t.gpuWait.Add(float64(w))
				name := r.Cluster.Parts[j.Part].Name
				if t.gpuWaitPart[name] == nil {
					t.gpuWaitPart[name] = &WaitHist{}
				}
				t.gpuWaitPart[name].Add(float64(w))
			} else {
				t.cpuWait.Add(float64(w))
			}
		}
	}
	if j.Start >= 0 && r.Names != nil { // a hand-made result may have no names
		a := max(int(j.Account)+1, 0) // slot 0: no account (Name gives "")
		for len(t.usage) <= a {
			t.usage, t.ran = append(t.usage, 0), append(t.ran, false)
		}
		t.usage[a] += j.Billing * float64(j.End-j.Start)
		t.ran[a] = true
		t.names = r.Names
	}
	switch {
	case j.State == sim.Rejected:
		m.Rejected++
		return
	case j.Start < 0:
		m.NeverStarted++
		return
	}
	m.Started++
	if j.StartedBy == sim.ByBackfill {
		m.Backfilled++
	}
	if j.Preemptions > 0 {
		m.Preempted++
	}
	m.LostCoreHours += j.LostCoreSecs / 3600
	t.used += float64(j.End-j.Start) * float64(j.Alloc.Cores())
	if r.Cluster.GPUs > 0 {
		t.gpuSecs += float64(j.End-j.Start) * float64(r.Cluster.AllocGPUs(j.Alloc))
	}
	t.ws.Add(j)
}

// Metrics are the run's figures once every job is added; r gives the
// cluster and the first submit and last end.
func (t *JobTally) Metrics(r *sim.Result) Metrics {
	m := t.m
	m.DeliveredCoreHr = t.used / 3600
	m.DeliveredGPUHr = t.gpuSecs / 3600
	m.GPUs = r.Cluster.GPUs - r.Cluster.DownGPUs
	m.Makespan = r.Last - r.First
	if m.Makespan > 0 {
		m.Utilization = t.used / (float64(r.Cluster.TotalCores) * float64(m.Makespan))
		if m.GPUs > 0 {
			m.GPUUtilization = t.gpuSecs / (float64(m.GPUs) * float64(m.Makespan))
		}
	}
	if t.ws.N() > 0 {
		w := t.ws.Waits()
		m.MeanWait, m.MedianWait, m.P95Wait, m.MaxWait, m.MeanBSLD = w.Mean, w.Median, w.P95, w.Max, w.BSLDMean
	}
	return m
}

// AllRejected is the first job's ID and reason when every job was
// rejected at submit; ok is false otherwise (or with no job).
func (t *JobTally) AllRejected() (id int64, reason string, ok bool) {
	return t.firstID, t.firstReason, t.m.Jobs > 0 && t.m.Rejected == t.m.Jobs
}

// Jobs is how many jobs were added.
func (t *JobTally) Jobs() int { return t.m.Jobs }

// AccountUsage is each account's delivered billing-seconds.
func (t *JobTally) AccountUsage() map[string]float64 {
	u := map[string]float64{}
	for a, v := range t.usage {
		if t.ran[a] {
			u[t.names.Accounts.Name(int32(a-1))] += v
		}
	}
	return u
}
