//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
)

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
// of the file or part of one, from one to hugeHeapMax. Advising costs about 1 ms and 30
// page faults per 64 MB whether used or not (256 MB made KTH-SP2 3.5 ms
// slower), and gains where the heap uses it: CEA-Curie (a 3.6 MB file)
// under slurm peaks at 180 MB, and ran 9 % faster with 256 MB advised
// than with 64.
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

// hugeHeap asks Linux for transparent huge pages on the first size
// bytes of the Go heap, before the run allocates. On this
// project's machines the kernel gives huge pages only where asked
// (transparent_hugepage "madvise"), the Go runtime never asks, and a
// first touch of a 4 KiB page costs about 12 µs: KTH-SP2 under EASY took
// 5,200 page faults (about a third of its CPU time), 1,600 with this.
//
// It grows the heap by one large object, advises its pages
// (MADV_HUGEPAGE) and drops it; the runtime keeps the memory mapped, and
// once the collector has freed the object the run allocates there, with
// the advice. The collector is off while the object is made, so that it
// does not start a cycle that keeps the object (and then a heap goal of
// twice 64 MB); turned back on, it starts one at once, in the background,
// that frees it (runtime.GC would wait 5-7 ms for it). Nothing a run
// computes depends on this; where the kernel refuses, pages stay small.
// FAIRSIM_HUGEPAGES=0 turns it off.
func hugeHeap(size int) {
	if os.Getenv("FAIRSIM_HUGEPAGES") == "0" {
		return
	}
	old := debug.SetGCPercent(-1)
	p := make([]byte, size)
	_ = syscall.Madvise(p, syscall.MADV_HUGEPAGE) // advice: an error leaves ordinary pages
	runtime.KeepAlive(p)
	p = nil
	debug.SetGCPercent(old)
}
