package sim

// waitSpan is the time a job has pended under one reason.
type waitSpan struct {
	reason string
	secs   int64
}

// pendReason records the reason a pass gives a pending job, timing the
// reason it replaces, so WaitReason can name the one it waited under
// longest.
func (s *Simulator) pendReason(j *Job, reason string) {
	if reason == j.Reason && j.reasonSince > 0 {
		return
	}
	s.closeReason(j)
	j.Reason = reason
	j.reasonSince = s.now + 1 // +1: 0 means "not timing"
}

// closeReason adds the time since the current reason was given to its
// span and sets WaitReason to the reason with the longest span (the
// earliest given among equals).
func (j *Job) closeReason(now int64) {
	if j.reasonSince == 0 {
		return
	}
	d := now - (j.reasonSince - 1)
	j.reasonSince = 0
	if j.Reason == "" {
		return
	}
	k := 0
	for k < len(j.waits) && j.waits[k].reason != j.Reason {
		k++
	}
	if k == len(j.waits) {
		j.waits = append(j.waits, waitSpan{reason: j.Reason})
	}
	j.waits[k].secs += d
	best := j.waits[0]
	for _, w := range j.waits[1:] {
		if w.secs > best.secs {
			best = w
		}
	}
	j.WaitReason = best.reason
}

func (s *Simulator) closeReason(j *Job) { j.closeReason(s.now) }

// closeWaits times the reasons of the jobs still pending when the run
// stops.
func (s *Simulator) closeWaits() {
	for _, j := range s.pend {
		if j != nil && j.pendIdx >= 0 {
			j.closeReason(s.now)
			if j.WaitReason == "" {
				j.WaitReason = j.Reason
			}
		}
	}
	// A job still waiting on a dependency is not in the queue: squeue
	// gives it reason Dependency. (Each sets only its own fields, so the
	// map's order does not matter.)
	for _, ds := range s.waiters {
		for _, d := range ds {
			if j := s.job(int32(d)); j != nil && j.State == Pending && j.Reason == "" {
				j.Reason, j.WaitReason = "Dependency", "Dependency"
			}
		}
	}
}
