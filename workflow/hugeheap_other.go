//go:build !(linux && (amd64 || arm64))

package workflow

// hugeHeap does nothing where fairsim does not ask for huge pages.
func hugeHeap(int) {}
