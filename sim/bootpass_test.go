package sim

import "testing"

// TestBootPass: the nodes registering when slurmctld starts queue a
// request (proc_req.c _slurm_rpc_node_registration, newly_up), so
// controller.c _slurmctld_background runs a pass batch_sched_delay after
// its start and restarts last_sched_time there; a sched_interval pass
// restarts it too. The first submit's pass comes batch_sched_delay after
// the latest of those. First submit at 1000, batch_sched_delay 3,
// sched_interval 60, one 1-CPU job.
func TestBootPass(t *testing.T) {
	for _, tc := range []struct {
		uptime, first int64
		why           string
	}{
		{0, 1003, "start 1000: boot pass at 1003 serves the submit"},
		{1, 1002, "start 999: boot pass at 1002"},
		{2, 1001, "start 998: boot pass at 1001"},
		{3, 1003, "start 997: boot pass at 1000 (before the submit), next 1000+3"},
		{4, 1002, "start 996: boot pass at 999, next 999+3"},
		{6, 1000, "start 994: boot pass at 997, 997+3 = 1000: at once"},
		{62, 1001, "start 938: boot 941, full pass at 938+60 = 998, next 998+3"},
		{65, 1000, "start 935: full pass at 995, 995+3 < 1000: at once"},
	} {
		s := &testSched{trig: &Triggers{SubmitDelay: 3, Interval: 60}}
		simulate(t, oneNode(t), s, nil, []tj{{id: 1, submit: 1000, cpus: 1, run: 10}}, Options{ControllerUptime: tc.uptime})
		first := int64(-1)
		for i, k := range s.kinds {
			if k == PassEvent {
				first = s.passes[i]
				break
			}
		}
		if first != tc.first {
			t.Errorf("uptime %d: first event pass at %d (passes %v), want %d: %s", tc.uptime, first, s.passes, tc.first, tc.why)
		}
	}
}
