package workflow

import (
	"os"

	"github.com/urfave/cli/v2"
)

// AdviseHeap gives each command that reads a trace or simulates a
// Before that asks for huge pages on the heap (hugeHeap, where the
// platform has them) for the run its --trace names and sets the
// collector for a simulation (RunGC; a sweep sets its own), and returns
// cmds.
// report (a run's CSVs) and capture (a real Slurm) allocate little.
func AdviseHeap(cmds []*cli.Command) []*cli.Command {
	for _, c := range cmds {
		if c.Name == "report" || c.Name == "capture" || c.Before != nil {
			continue
		}
		c.Before = func(ctx *cli.Context) error {
			hugeHeap(hugeHeapSize(ctx.String("trace")))
			RunGC()
			return nil
		}
	}
	return cmds
}

// hugeHeapBytes is how much of the heap hugeHeap asks huge pages for at
// the least: KTH-SP2 under EASY peaks at about 35 MB, CEA-Curie under
// EASY at 70-85 MB; beyond what is advised the heap grows in ordinary
// pages. hugeHeapMax bounds what a large trace asks (hugeHeapSize).
const (
	hugeHeapBytes = 64 << 20
	hugeHeapMax   = 512 << 20
)

// hugeHeapSize is how much of the heap to advise for a run of the trace
// file at path ("": none, or named by a scenario): hugeHeapBytes per MB
// of the file or part of one, from one to hugeHeapMax. Advising costs
// about 1 ms and 30 page faults per 64 MB whether used or not (256 MB
// made KTH-SP2 3.5 ms slower), and gains where the heap uses it:
// CEA-Curie (a 3.6 MB file) under slurm peaks at 180 MB, and ran 9 %
// faster with 256 MB advised than with 64.
func hugeHeapSize(path string) int {
	n := hugeHeapBytes
	if path == "" || path == "-" {
		return n
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		n = max(n, min(int((fi.Size()+1<<20-1)>>20)*hugeHeapBytes, hugeHeapMax))
	}
	return n
}
