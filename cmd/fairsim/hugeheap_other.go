//go:build !(linux && (amd64 || arm64))

package main

// hugeHeap does nothing where fairsim does not ask for huge pages.
func hugeHeap(int) {}

// hugeHeapSize is what hugeHeap would ask for: nothing here.
func hugeHeapSize(string) int { return 0 }
