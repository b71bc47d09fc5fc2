//go:build linux && (amd64 || arm64)

package workflow

import (
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
)

// hugeHeap asks Linux for transparent huge pages on the first size
// bytes of the Go heap, before the run allocates. On this project's
// machines the kernel gives huge pages only where asked
// (transparent_hugepage "madvise"), the Go runtime never asks, and a
// first touch of a 4 KiB page costs about 12 µs: KTH-SP2 under EASY took
// 5,200 page faults (about a third of its CPU time), 1,600 with this.
//
// It grows the heap by one large object, advises its pages
// (MADV_HUGEPAGE) and drops it; the runtime keeps the memory mapped, and
// once the collector has freed the object the run allocates there, with
// the advice. The collector is off while the object is made, so that it
// does not start a cycle that keeps the object (and then sets a heap
// goal of twice its size); turned back on, it starts one at once, in
// the background, that frees it (runtime.GC would wait 5-7 ms for it).
// Nothing a run computes depends on this; where the kernel refuses,
// pages stay small.
// FAIRSIM_HUGEPAGES=0 turns it off.
func hugeHeap(size int) {
	if os.Getenv("FAIRSIM_HUGEPAGES") == "0" {
		return
	}
	old := debug.SetGCPercent(-1)
	p := make([]byte, size)
	_ = syscall.Madvise(p, syscall.MADV_HUGEPAGE) // advice: an error leaves ordinary pages
	runtime.KeepAlive(p)                          // p is garbage from here on
	debug.SetGCPercent(old)
}
