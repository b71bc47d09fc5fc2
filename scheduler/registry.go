package scheduler

import (
	"fmt"
	"sort"
	"strings"

	"fairsim/sim"
)

// factories is the literal registry of schedulers: no init()
// self-registration, so the set is visible in one place.
var factories = map[string]func() sim.Scheduler{
	"fifo": func() sim.Scheduler { return &FIFO{} },
	"easy": func() sim.Scheduler { return &EASY{} },
	// slurm with Slurm's default parameters; config builds it with the
	// scenario's SchedulerParameters and preemption settings.
	"slurm": func() sim.Scheduler { return NewSlurm(DefaultParams()) },
	// The trace's own schedule, under Slurm's policy layer.
	"recorded": func() sim.Scheduler { return &Recorded{} },
}

// New returns the scheduler registered under name.
func New(name string) (sim.Scheduler, error) {
	f, ok := factories[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown scheduler %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(), nil
}

// Names lists the registered schedulers in sorted order.
func Names() []string {
	var names []string
	for k := range factories {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
