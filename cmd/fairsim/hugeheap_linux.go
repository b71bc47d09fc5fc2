//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"runtime"
	"syscall"
)

// hugeHeapBytes is how much of the heap hugeHeap asks huge pages for:
// KTH-SP2 under EASY peaks at about 35 MB, CEA-Curie under EASY at 70 MB;
// beyond it the heap grows in ordinary pages.
const hugeHeapBytes = 64 << 20

// hugeHeap asks Linux for transparent huge pages on the first
// hugeHeapBytes of the Go heap, before the run allocates. On this
// project's machines the kernel gives huge pages only where asked
// (transparent_hugepage "madvise"), the Go runtime never asks, and a
// first touch of a 4 KiB page costs about 12 µs: KTH-SP2 under EASY took
// 5,200 page faults (about a third of its CPU time), 1,600 with this.
//
// It grows the heap by one large object, advises its pages
// (MADV_HUGEPAGE), and lets the collector free it: the runtime keeps the
// memory mapped and later allocations reuse it, with the advice. Nothing
// a run computes depends on it; where the kernel refuses, pages stay
// small. FAIRSIM_HUGEPAGES=0 turns it off.
func hugeHeap() {
	if os.Getenv("FAIRSIM_HUGEPAGES") == "0" {
		return
	}
	p := make([]byte, hugeHeapBytes)
	_ = syscall.Madvise(p, syscall.MADV_HUGEPAGE) // advice: an error leaves ordinary pages
	runtime.KeepAlive(p)
	p = nil
	runtime.GC()
}
