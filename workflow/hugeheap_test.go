package workflow

import (
	"os"
	"testing"
)

func TestHugeHeapSize(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, size int64) string {
		p := dir + "/" + name
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	for _, tc := range []struct {
		path string
		want int
	}{
		{"", 64 << 20},
		{"-", 64 << 20},
		{dir + "/absent.swf", 64 << 20},
		{dir, 64 << 20}, // not a file
		{file("empty.swf", 0), 64 << 20},
		{file("kth.swf.gz", 411455), 64 << 20},     // KTH-SP2's size
		{file("curie.swf.gz", 3629411), 256 << 20}, // CEA-Curie's
		{file("big.swf", 100<<20), hugeHeapMax},    // capped
	} {
		if got := hugeHeapSize(tc.path); got != tc.want {
			t.Errorf("hugeHeapSize(%q) = %d MB, want %d MB", tc.path, got>>20, tc.want>>20)
		}
	}
}
