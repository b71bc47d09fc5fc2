package report

import (
	"testing"

	"fairsim/sim"
)

// TestNodeFailRows: a job killed twice and requeued both times, a job
// killed once and not requeued (NODE_FAIL), and one untouched: 2 jobs, 2
// requeues; the rows appear only in runs with site events.
func TestNodeFailRows(t *testing.T) {
	r := gpuResult(t)
	r.Jobs[0].NodeFails = 2
	r.Jobs[1].NodeFails, r.Jobs[1].State = 1, sim.NodeFailed
	rowsOf := func() map[string]string {
		got := map[string]string{}
		for _, row := range SummaryRows(r, Compute(r)) {
			got[row.Metric] = row.Value
		}
		return got
	}
	if got := rowsOf(); got[MetricNodeFail] != "" || got["state: NODE_FAIL"] != "" {
		t.Errorf("run without site events has node-fail rows: %v", got)
	}
	r.SiteEvents = 1
	got := rowsOf()
	for k, v := range map[string]string{MetricNodeFail: "2", MetricNodeFailRequeues: "2", "state: NODE_FAIL": "1"} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}
