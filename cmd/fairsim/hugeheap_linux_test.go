//go:build linux && (amd64 || arm64)

package main

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHugeHeapAdvisesTheHeap checks, in /proc/self/smaps, that hugeHeap
// leaves a mapping of at least hugeHeapBytes advised for huge pages
// (VmFlags hg): the runtime kept the freed object's memory mapped, as
// the speed-up relies on.
func TestHugeHeapAdvisesTheHeap(t *testing.T) {
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(b), "[never]") {
		t.Skip("no transparent huge pages on this kernel: hugeHeap's advice does nothing here")
	}
	t.Setenv("FAIRSIM_HUGEPAGES", "")
	hugeHeap()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var size uint64 // of the mapping being read
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				size = b - a
			}
			continue
		}
		if len(fields) > 0 && fields[0] == "VmFlags:" && slices.Contains(fields, "hg") && size >= hugeHeapBytes {
			return
		}
	}
	t.Fatalf("no mapping of %d bytes or more advised for huge pages after hugeHeap", hugeHeapBytes)
}
