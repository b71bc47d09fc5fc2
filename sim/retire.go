package sim

import "slices"

// job is the live job of arrival index i, nil once retired.
func (s *Simulator) job(i int32) *Job {
	k := int(i) - s.base
	if k < 0 || k >= len(s.jobs) {
		return nil
	}
	return s.jobs[k]
}

// retire hands a job that is done with the engine (final, holding
// nothing) to Options.Retire and forgets it; without Retire every job is
// kept for the Result.
func (s *Simulator) retire(j *Job) {
	if s.opt.Retire == nil {
		return
	}
	s.lastEnd = max(s.lastEnd, j.End)
	s.byID.ended(j.Idx, j.End)
	s.jobs[j.Idx-s.base] = nil
	if j.holeAt >= 0 && int(j.holeAt) < len(s.pend) && s.pend[j.holeAt] == j {
		// Its hole in the pending list is left empty, so that the list
		// no longer reads the job: its record may then be reused.
		s.pend[j.holeAt] = nil
		j.holeAt = -1
	}
	if v := s.opt.Check; v != nil {
		v.Add(j)
		every := v.Every
		if every <= 0 {
			every = 1024
		}
		if v.jobs%every == 0 {
			v.Advance(s.watermark())
		}
	}
	s.opt.Retire(j)
	k := 0
	for k < len(s.jobs) && s.jobs[k] == nil {
		k++
	}
	// Cutting the front keeps the backing array until append moves the
	// live part to a new one: the memory held stays within twice the live
	// span.
	s.jobs = s.jobs[k:]
	s.base += k
}

// watermark is an instant no live job started before: now, or the
// earliest start of a run still live (running, suspended, COMPLETING).
// A job not started yet starts at now or later. Runs start in time order,
// so the earliest is the first of starts that is neither retired nor
// requeued since.
func (s *Simulator) watermark() int64 {
	k := 0
	for ; k < len(s.starts); k++ {
		r := s.starts[k]
		if s.job(int32(r.j.Idx)) == r.j && r.j.Start == r.start {
			break
		}
		s.starts[k] = startRec{}
	}
	s.starts = s.starts[k:]
	if len(s.starts) > 0 {
		return min(s.now, s.starts[0].start)
	}
	return s.now
}

// startRec is a run's start, for watermark.
type startRec struct {
	j     *Job
	start int64
}

// jobIndex finds a job's arrival index by its ID (the first job of that
// ID) for dependencies, and keeps the end of retired jobs for the jobs
// that depend on them. Traces number jobs in increasing order: then the
// IDs are kept in a sorted slice (8 bytes a job), and only a trace that
// breaks the order pays for a map.
type jobIndex struct {
	ids      []int64 // by arrival index while sorted
	unsorted map[int64]int
	ends     []int64 // by arrival index, for retired jobs
}

func (x *jobIndex) add(id int64, idx int) {
	if x.unsorted == nil && (len(x.ids) == 0 || id > x.ids[len(x.ids)-1]) {
		x.ids = append(x.ids, id)
		return
	}
	if x.unsorted == nil {
		x.unsorted = make(map[int64]int, len(x.ids))
		for i, v := range x.ids {
			x.unsorted[v] = i
		}
		x.ids = nil
	}
	if _, dup := x.unsorted[id]; !dup {
		x.unsorted[id] = idx
	}
}

func (x *jobIndex) find(id int64) (int, bool) {
	if x.unsorted != nil {
		i, ok := x.unsorted[id]
		return i, ok
	}
	return slices.BinarySearch(x.ids, id)
}

func (x *jobIndex) ended(idx int, end int64) {
	for len(x.ends) <= idx {
		x.ends = append(x.ends, 0)
	}
	x.ends[idx] = end
}

func (x *jobIndex) end(idx int) int64 { return x.ends[idx] }
