package multifactor

import "testing"

// TestJobTable: values stay by index while their jobs live, ended jobs'
// are gone, the window moves down past a dropped front of 1024 or more,
// and a job come back before the window (a requeue) is held again.
func TestJobTable(t *testing.T) {
	var tb jobTable[int]
	for i := range 3000 {
		*tb.at(i) = i + 1
	}
	for i := range 2000 {
		if i != 5 {
			tb.drop(i) // job 5 is still pending: it pins the window
		}
	}
	if tb.base != 0 || tb.head != 5 {
		t.Fatalf("base %d head %d with job 5 live, want 0 and 5", tb.base, tb.head)
	}
	if v, ok := tb.get(5); !ok || v != 6 {
		t.Errorf("get(5) = %d, %v; want 6, true", v, ok)
	}
	tb.drop(5)
	if tb.base != 2000 || len(tb.v) != 1000 {
		t.Fatalf("after the front ended: base %d, window %d; want 2000 and 1000", tb.base, len(tb.v))
	}
	for _, i := range []int{0, 5, 1999} {
		if _, ok := tb.get(i); ok {
			t.Errorf("get(%d) held after the job ended", i)
		}
	}
	for _, i := range []int{2000, 2999} {
		if v, ok := tb.get(i); !ok || v != i+1 {
			t.Errorf("get(%d) = %d, %v; want %d, true", i, v, ok, i+1)
		}
	}
	*tb.at(7) = 70 // job 7 requeued
	if v, ok := tb.get(7); !ok || v != 70 {
		t.Errorf("requeued get(7) = %d, %v; want 70, true", v, ok)
	}
	if v, ok := tb.get(2500); !ok || v != 2501 {
		t.Errorf("after the requeue get(2500) = %d, %v; want 2501, true", v, ok)
	}
	if _, ok := tb.get(8); ok {
		t.Error("get(8) held: only job 7 came back")
	}
	if _, ok := tb.get(5000); ok {
		t.Error("get(5000) held: never set")
	}
}
