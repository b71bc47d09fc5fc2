package workload

import (
	"maps"
	"slices"
	"sync"
)

// Ahead reads a source's jobs on a goroutine of its own, a few batches
// ahead of its caller, so that parsing a trace (and making the caller's
// job records, each a T holding a Job) runs on a second core beside the
// simulation instead of before each submission.
//
// The caller sees what it would see reading the source itself:
//   - Names is a copy that grows as the caller takes jobs: the reader
//     goroutine interns into the source's own tables, and each batch brings
//     the strings interned while it was read, which the copy interns in
//     the same order, so every id is the same.
//   - Header, Stats and Err are copies made when Ahead is made and again
//     once the caller has taken the last job; they do not change between.
//
// A run that may stop before the end (sim.Options.StopAt) calls Direct
// before it reads: the copies then follow the source job by job, so Stats
// say how far the source had read when the run stopped, as they would
// without Ahead, rather than how far a goroutine happened to get.
type Ahead[T any] struct {
	src   Source
	job   func(*T) *Job
	names Names
	hdr   Header
	stats ReadStats
	err   error

	direct, started, ended, closed bool
	seen                           [internTables]int // the source tables' lengths interned so far

	work chan aheadBatch[T]
	stop chan struct{}
	// spare are records given back (Give) for the reader to fill again;
	// reusedN counts those taken.
	spare   chan *T
	reusedN int
	wg      sync.WaitGroup
	once    sync.Once
	cur     aheadBatch[T]
	pos     int
}

// aheadBatch is jobs read in a row, the strings their reading interned,
// table by table, and, in the last batch, how the source ended.
type aheadBatch[T any] struct {
	items []*T
	names [internTables][]string
	end   bool
	err   error
}

// aheadBatchSize is the jobs a batch carries; aheadBatches the batches
// read ahead of the caller: 2,048 jobs, about 1.5 MB. The reader shares
// the second core with the output writer and the collector, and falls
// behind in bursts; with 2 batches the simulation waited for it about 30
// times in a KTH-SP2 run, 7-27 ms in all, with 16 once or twice, mostly
// for the first batch.
const (
	aheadBatchSize = 128
	aheadBatches   = 16
)

// aheadSlab is how many records the reader allocates at once. A
// simulator's job record is large (760 bytes) and holds pointers: one
// allocation for 16 of them instead of one each made KTH-SP2 under EASY
// 2 % faster. A slab lives while any of its records does, so a job that
// waits or runs long keeps 15 others' memory: 12 KB at most per such job.
const aheadSlab = 16

// aheadSpare bounds the records kept for reuse (Give). A run whose
// records are reused needs about as many as it holds jobs pending,
// running and on their way to the output at once, and fresh ones beyond.
const aheadSpare = 8192

// Give hands back a record that nothing reads any more, for a later job
// to be read into: the job records of a long trace are then a few
// thousand reused ones, not a new one each, whose fresh pages the
// reader would fault in one by one and the collector would later free.
// It never blocks; a record beyond aheadSpare is left to the collector.
// Safe to call from any goroutine, before or after Close.
func (a *Ahead[T]) Give(t *T) {
	select {
	case a.spare <- t:
	default:
	}
}

// Reused is how many jobs were read into records given back (Give).
// Read it once the input has ended or after Close.
func (a *Ahead[T]) Reused() int { return a.reusedN }

// reused is a record given back, cleared, or nil when there is none.
func (a *Ahead[T]) reused() *T {
	select {
	case t := <-a.spare:
		var zero T
		*t = zero
		return t
	default:
		return nil
	}
}

// internTables is the number of Intern tables in Names.
const internTables = 11

// tables are n's Intern tables in a fixed order.
func (n *Names) tables() [internTables]*Intern {
	return [...]*Intern{&n.Users, &n.Groups, &n.Accounts, &n.Partitions, &n.PartitionLists, &n.QOS,
		&n.Features, &n.NodeLists, &n.Reservations, &n.Dependencies, &n.Gres}
}

// ReadAhead returns src read ahead; job gives a T's Job, which the
// reader fills (for a sim.Job, its embedded workload.Job). Nothing is
// read until the first Next or Take. Close stops the reader and must be
// called before src is closed.
func ReadAhead[T any](src Source, job func(*T) *Job) *Ahead[T] {
	a := &Ahead[T]{src: src, job: job, spare: make(chan *T, aheadSpare)}
	a.sync()
	// The reader goroutine will go on adding to the source's tallies.
	a.stats.Skipped, a.stats.Defaulted = maps.Clone(a.stats.Skipped), maps.Clone(a.stats.Defaulted)
	a.err = src.Err()
	return a
}

// sync copies the source's header, counts and new strings. Only while no
// goroutine reads the source.
func (a *Ahead[T]) sync() {
	a.hdr = *a.src.Header()
	a.stats = *a.src.Stats()
	a.catchUp()
}

// catchUp interns into the caller's copy the source's strings it lacks.
// Only while no goroutine reads the source.
func (a *Ahead[T]) catchUp() {
	strs := newStrings(a.src.Names(), &a.seen)
	a.intern(&strs)
}

// newStrings are the strings of from's tables past seen, which it
// advances past them.
func newStrings(from *Names, seen *[internTables]int) (out [internTables][]string) {
	if from == nil {
		return out
	}
	for i, t := range from.tables() {
		if t.Len() > seen[i] {
			out[i] = slices.Clone(t.names[seen[i]:])
			seen[i] = t.Len()
		}
	}
	return out
}

// intern interns strs into the caller's tables, table by table in order,
// so that each gets the id it has in the source's.
func (a *Ahead[T]) intern(strs *[internTables][]string) {
	to := a.names.tables()
	for i, ns := range strs {
		for _, s := range ns {
			to[i].ID(s)
		}
	}
}

// Direct makes Ahead read on the caller's goroutine, job by job. It must
// come before the first Next or Take.
func (a *Ahead[T]) Direct() {
	if a.started && !a.direct {
		panic("workload: Ahead.Direct after reading began")
	}
	a.direct = true
}

// Take returns the next job, a new T; false at the end of the input or
// on error (Err tells which).
func (a *Ahead[T]) Take() (*T, bool) {
	if a.ended || a.closed {
		return nil, false
	}
	if a.direct {
		a.started = true
		t := a.reused()
		spare := t != nil
		if !spare {
			t = new(T)
		}
		if !a.src.Next(a.job(t)) {
			a.finish(a.src.Err())
			return nil, false
		}
		if spare {
			a.reusedN++
		}
		a.sync()
		return t, true
	}
	if !a.started {
		a.started = true
		a.work, a.stop = make(chan aheadBatch[T], aheadBatches), make(chan struct{})
		a.wg.Add(1)
		go a.read()
	}
	for a.pos == len(a.cur.items) {
		if a.cur.end {
			a.wg.Wait() // the reader is done with the source
			a.finish(a.cur.err)
			return nil, false
		}
		a.cur, a.pos = <-a.work, 0
		a.intern(&a.cur.names)
		for i, ns := range a.cur.names {
			a.seen[i] += len(ns) // so that finish's catch-up finds none again
		}
	}
	t := a.cur.items[a.pos]
	a.cur.items[a.pos] = nil
	a.pos++
	return t, true
}

// finish takes the source's state once it has ended.
func (a *Ahead[T]) finish(err error) {
	a.ended = true
	a.err = err
	a.sync()
}

// read is the reader goroutine: batches until the source ends or Close.
func (a *Ahead[T]) read() {
	defer a.wg.Done()
	seen := a.seen
	for {
		b := aheadBatch[T]{items: make([]*T, 0, aheadBatchSize)}
		var slab []T
		for len(b.items) < aheadBatchSize {
			select {
			case <-a.stop:
				return // Close need not wait for a whole batch of a slow input
			default:
			}
			t := a.reused()
			spare := t != nil
			if !spare {
				if len(slab) == 0 {
					slab = make([]T, aheadSlab)
				}
				t = &slab[0]
				slab = slab[1:]
			}
			if !a.src.Next(a.job(t)) {
				b.end, b.err = true, a.src.Err()
				break
			}
			if spare {
				a.reusedN++
			}
			b.items = append(b.items, t)
		}
		b.names = newStrings(a.src.Names(), &seen)
		select {
		case a.work <- b:
		case <-a.stop:
			return
		}
		if b.end {
			return
		}
	}
}

// Close stops the reader goroutine and waits for it to let go of the
// source; Take and Next then find no more jobs.
func (a *Ahead[T]) Close() {
	a.once.Do(func() {
		a.closed = true
		if a.stop != nil {
			close(a.stop)
		}
		a.wg.Wait()
	})
}

// Next implements Source: it copies the next job into j.
func (a *Ahead[T]) Next(j *Job) bool {
	t, ok := a.Take()
	if ok {
		*j = *a.job(t)
	}
	return ok
}

// Err implements Source.
func (a *Ahead[T]) Err() error { return a.err }

// Header implements Source.
func (a *Ahead[T]) Header() *Header { return &a.hdr }

// Names implements Source: the caller's copy.
func (a *Ahead[T]) Names() *Names { return &a.names }

// Stats implements Source.
func (a *Ahead[T]) Stats() *ReadStats { return &a.stats }
