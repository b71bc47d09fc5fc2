package sim

// EventKind orders simultaneous events: a job that ends frees its cores
// before the priority tick charges usage (and completes before a node
// failure at the same instant would kill it), submissions arrive before the
// scheduler passes that consider them, the controller's timers ask for
// passes before the passes run (so requests of one instant make one pass),
// and samples see the outcome.
type EventKind uint8

// Event kinds, in rank order.
const (
	EvJobEnd    EventKind = iota // a job completes or hits its time limit
	EvRelease                    // an ended job's nodes finish COMPLETING: its resources are free (Options.CompletingTime)
	EvSite                       // a site event: a node or partition changes state (Job indexes Options.Events)
	EvCalc                       // priority calc tick (PriorityCalcPeriod)
	EvSubmit                     // a job arrives
	EvEligible                   // a job's begin time or dependency is met
	EvSchedTick                  // slurmctld's background loop: the sched_interval timer (Pass PassFull) or the batch_sched_delay check of queued requests (Pass PassEvent)
	EvWake                       // a pass a plan asked for at a later time (Plan.WantPass)
	EvPass                       // the scheduling agent runs a main pass (of kind Pass)
	EvBackfill                   // the backfill agent wakes (bf_interval after its previous cycle ended)
	EvSample                     // a metrics sample
)

// Event is value-typed so the heap holds no pointers and allocates nothing
// per event.
type Event struct {
	T    int64
	Ms   int16 // milliseconds within T (a Timeline's; 0 otherwise)
	Kind EventKind
	Job  int32    // job index (0 for periodic events)
	Pass PassKind // EvPass: which main pass
	Gen  uint32   // the job's generation when queued; stale events are dropped
	seq  uint64
}

// less orders events by (time, milliseconds, kind rank, job index, pass
// kind, sequence): an event-triggered main pass comes before a periodic one at
// the same instant.
func (a *Event) less(b *Event) bool {
	if a.T != b.T {
		return a.T < b.T
	}
	if a.Ms != b.Ms {
		return a.Ms < b.Ms
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.Job != b.Job {
		return a.Job < b.Job
	}
	if a.Pass != b.Pass {
		return a.Pass < b.Pass
	}
	return a.seq < b.seq
}

// eventHeap is a binary min-heap in a slice, written out rather than
// through container/heap to avoid boxing each event in an interface.
//
// An event pushed while it is the least of all (the pass a submission or
// an end asks for at that instant, after the events there) waits in top,
// outside the slice, and the next pop returns it there: pushed and popped
// through the slice, it sifted up to the root and back down. KTH-SP2
// under EASY pushes 56,000 such passes among 150,000 events.
type eventHeap struct {
	ev     []Event
	top    Event
	hasTop bool
	seq    uint64
}

func (h *eventHeap) Len() int {
	if h.hasTop {
		return len(h.ev) + 1
	}
	return len(h.ev)
}

func (h *eventHeap) push(e Event) {
	h.seq++
	e.seq = h.seq
	if h.hasTop {
		if !e.less(&h.top) {
			h.siftUp(e)
			return
		}
		// e comes first: the old top joins the heap.
		h.siftUp(h.top)
	} else if len(h.ev) > 0 && !e.less(&h.ev[0]) {
		h.siftUp(e)
		return
	}
	h.top, h.hasTop = e, true
}

// siftUp adds e to the slice heap.
func (h *eventHeap) siftUp(e Event) {
	h.ev = append(h.ev, e)
	// Parents move down into the hole, and e is written once where it
	// stops: a 32-byte event swapped at each level was half the cost.
	ev := h.ev
	i := len(ev) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(&ev[p]) {
			break
		}
		ev[i] = ev[p]
		i = p
	}
	ev[i] = e
}

func (h *eventHeap) peek() *Event {
	if h.hasTop {
		return &h.top
	}
	return &h.ev[0]
}

// pop takes the first event. The last event goes into the hole the first
// leaves: the hole sinks to a leaf along the smaller children (one
// comparison a level), and the last event rises from there, seldom far,
// as it was at the bottom (Floyd).
func (h *eventHeap) pop() Event {
	if h.hasTop {
		h.hasTop = false
		return h.top
	}
	ev := h.ev
	top := ev[0]
	n := len(ev) - 1
	last := ev[n]
	h.ev = ev[:n]
	ev = ev[:n]
	if n == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && ev[r].less(&ev[l]) {
			l = r
		}
		ev[i] = ev[l]
		i = l
	}
	for i > 0 {
		p := (i - 1) / 2
		if !last.less(&ev[p]) {
			break
		}
		ev[i] = ev[p]
		i = p
	}
	ev[i] = last
	return top
}
