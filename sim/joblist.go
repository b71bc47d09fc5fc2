package sim

// jobList numbers job records in the order slurmctld's job list holds
// them, which is the order _will_run_test gives back running jobs of
// equal ends in (Job.ListOrder). A record joins the list's end when it is
// made: a job at submission, a job array as one pending record. When a
// task of the array starts, job_array_split makes a new record for the
// array's pending rest, at the list's end, and the task keeps the
// array's old one: its place is the array record's place then, not its
// submission's. The last task is the array record itself.
type jobList struct {
	next   uint64
	arrays map[int64]*arrayRec
}

type arrayRec struct {
	at      uint64 // the pending record's place
	pending int    // tasks not yet started (the record's task count)
}

func (l *jobList) add() uint64 {
	l.next++
	return l.next
}

// submitted places a new job: at the list's end, or an array task in its
// array's record, made by the array's first task.
func (l *jobList) submitted(j *Job) {
	if j.ArrayJobID == 0 {
		j.listAt = l.add()
		return
	}
	if l.arrays == nil {
		l.arrays = map[int64]*arrayRec{}
	}
	a := l.arrays[j.ArrayJobID]
	if a == nil {
		a = &arrayRec{at: l.add()}
		l.arrays[j.ArrayJobID] = a
	}
	a.pending++
}

// started gives an array task starting for the first time the array
// record's place, and the array's pending rest a new record.
func (l *jobList) started(j *Job) {
	if j.ArrayJobID == 0 || j.listAt != 0 {
		return
	}
	a := l.arrays[j.ArrayJobID]
	if a == nil {
		j.listAt = l.add() // not submitted through the list (a hand-made view)
		return
	}
	j.listAt = a.at
	a.pending--
	if a.pending > 0 {
		a.at = l.add()
	} else {
		delete(l.arrays, j.ArrayJobID)
	}
}

// gone forgets an array task that ends without having started
// (cancelled, or rejected, at or after its submission).
func (l *jobList) gone(j *Job) {
	if j.ArrayJobID == 0 || j.listAt != 0 {
		return
	}
	if a := l.arrays[j.ArrayJobID]; a != nil {
		if a.pending--; a.pending <= 0 {
			delete(l.arrays, j.ArrayJobID)
		}
	}
}

// ListOrder is the job's place in slurmctld's job list (jobList): running
// jobs of equal ends are given back in this order by a will-run test. 0
// for a job not yet placed there (an array task before its start, a job
// of a hand-made view).
func (j *Job) ListOrder() uint64 { return j.listAt }
