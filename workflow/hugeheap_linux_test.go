//go:build linux && (amd64 || arm64)

package workflow

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugeHeapAdvisesTheHeap checks, in /proc/self/smaps of a fresh
// process (this test binary run again: in this one, other tests' runs
// have shaped the heap), that hugeHeap leaves a mapping of at least
// hugeHeapBytes advised for huge pages (VmFlags hg), and that what the
// program allocates next lies in it: the runtime kept the freed object's
// memory mapped and reuses it, as the speed-up relies on.
func TestHugeHeapAdvisesTheHeap(t *testing.T) {
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(b), "[never]") {
		t.Skip("no transparent huge pages on this kernel: hugeHeap's advice does nothing here")
	}
	if os.Getenv("FAIRSIM_HUGEHEAP_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeHeapAdvisesTheHeap$", "-test.count=1")
		cmd.Env = append(os.Environ(), "FAIRSIM_HUGEHEAP_CHILD=1", "FAIRSIM_HUGEPAGES=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	hugeHeap(hugeHeapBytes)
	runtime.GC() // the run's first cycle, which frees the object
	// A run's allocations: 48 MB in 1 MB pieces. The runtime takes the
	// lowest free pages first, and the test binary's start may have left
	// some below the object: at least half must lie in advised memory.
	var pieces [][]byte
	for range 48 {
		pieces = append(pieces, make([]byte, 1<<20))
	}
	advised := advisedMappings(t)
	big, in := false, 0
	for _, m := range advised {
		big = big || m.hi-m.lo >= hugeHeapBytes
	}
	for _, p := range pieces {
		at := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(p))))
		if slices.ContainsFunc(advised, func(m span) bool { return m.lo <= at && at < m.hi }) {
			in++
		}
	}
	if !big {
		t.Fatalf("no mapping of %d bytes or more advised for huge pages after hugeHeap: %v", hugeHeapBytes, advised)
	}
	if in < len(pieces)/2 {
		t.Fatalf("%d of %d 1 MB allocations after hugeHeap lie in the advised mappings %v", in, len(pieces), advised)
	}
}

type span struct{ lo, hi uint64 }

// advisedMappings are the mappings of /proc/self/smaps whose VmFlags
// have hg (MADV_HUGEPAGE).
func advisedMappings(t *testing.T) []span {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []span
	var cur span // the mapping being read
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(fields[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				cur = span{a, b}
			}
			continue
		}
		if fields[0] == "VmFlags:" && slices.Contains(fields, "hg") {
			out = append(out, cur)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
