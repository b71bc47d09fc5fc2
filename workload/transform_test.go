package workload

import (
	"slices"
	"testing"
)

// transformJobs: five jobs in partitions p1/p2 and queues 1/2.
func transformSource() *SliceSource {
	names := &Names{}
	p1, p2 := names.Partitions.ID("p1"), names.Partitions.ID("p2")
	q := names.QOS.ID("q2")
	mk := func(id, submit, runtime int64, part int32, queue int, qos int32) Job {
		return Job{ID: id, Submit: submit, Eligible: Unset, Runtime: runtime, CPUs: 1, TimeLimit: 3600,
			Partition: part, Queue: queue, QOS: qos}
	}
	jobs := []Job{
		mk(1, 100, 100, p1, 1, Unset),
		mk(2, 110, 0, p2, 2, Unset),
		mk(3, 130, 61, p1, Unset, q), // QOS q2 counts as queue 2
		mk(4, 200, Unset, p2, 1, Unset),
		mk(5, 1000, 3000, Unset, Unset, Unset),
	}
	jobs[1].Eligible = 150
	hdr := Header{UnixStartTime: 1704067200, TimeZoneString: "UTC"}
	return NewSliceSource(jobs, names, hdr)
}

func drain(src Source) []Job {
	var out []Job
	var j Job
	for src.Next(&j) {
		out = append(out, j)
	}
	return out
}

func TestTransforms(t *testing.T) {
	field := func(jobs []Job, f func(Job) int64) []int64 {
		var out []int64
		for _, j := range jobs {
			out = append(out, f(j))
		}
		return out
	}
	id := func(j Job) int64 { return j.ID }
	tests := []struct {
		spec     []string
		field    func(Job) int64
		want     []int64
		skipped  map[string]int
		changed  map[string]int
		accepted int
	}{
		// submit' = 100 + (submit-100)/2: 100, 105, 115, 150, 550.
		{[]string{"load=2"}, func(j Job) int64 { return j.Submit }, []int64{100, 105, 115, 150, 550}, nil,
			map[string]int{"load 2: submit time scaled": 5}, 5},
		// Job 2 was eligible 40 s after submit, and still is: 105+40.
		{[]string{"load=2"}, func(j Job) int64 { return j.Eligible }, []int64{Unset, 145, Unset, Unset, Unset}, nil, nil, 5},
		// 1/0.5: twice the spacing.
		{[]string{"load=0.5"}, func(j Job) int64 { return j.Submit }, []int64{100, 120, 160, 300, 1900}, nil, nil, 5},
		{[]string{"limit-accuracy=exact"}, func(j Job) int64 { return j.TimeLimit }, []int64{100, 1, 61, 3600, 3000}, nil,
			map[string]int{"limit-accuracy exact: time limit from run time": 4}, 5},
		// ceil(100*1.5/60)=3 min, 0 -> 1 min, ceil(91.5/60)=2 min, unknown run time kept, ceil(4500/60)=75 min.
		{[]string{"limit-accuracy=1.5"}, func(j Job) int64 { return j.TimeLimit }, []int64{180, 60, 120, 3600, 4500}, nil, nil, 5},
		// Offsets count from the first submission (100), as --at does:
		// 10 s .. 1 min 40 s is [110, 200).
		{[]string{"window=0:10..1:40"}, id, []int64{2, 3},
			map[string]int{"window=0:10..1:40: submitted before the window": 1, "window=0:10..1:40: submitted after the window": 2}, nil, 2},
		// 1 min 40 s .. 3 min 20 s is [200, 300), not [100, 200) from the epoch.
		{[]string{"window=1:40..3:20"}, id, []int64{4},
			map[string]int{"window=1:40..3:20: submitted before the window": 3, "window=1:40..3:20: submitted after the window": 1}, nil, 1},
		{[]string{"window=2024-01-01T00:03:20.."}, id, []int64{4, 5}, // a date in the trace's zone: 200 s after the epoch
			map[string]int{"window=2024-01-01T00:03:20..: submitted before the window": 3}, nil, 2},
		{[]string{"max-jobs=2"}, id, []int64{1, 2}, map[string]int{"max-jobs=2: beyond the first jobs": 3}, nil, 2},
		{[]string{"partition=p2"}, id, []int64{2, 4}, map[string]int{"partition=p2: other partition": 3}, nil, 2},
		{[]string{"queue=2"}, id, []int64{2, 3}, map[string]int{"queue=2: other queue": 3}, nil, 2},
		// In order: the window keeps 2, 3, 4, then load scales around job 2.
		{[]string{"window=..10:00", "max-jobs=4", "partition=p1,p2", "load=2"}, func(j Job) int64 { return j.Submit },
			[]int64{100, 105, 115, 150}, nil, nil, 4},
	}
	for _, tc := range tests {
		ts, err := ParseTransforms(tc.spec)
		if err != nil {
			t.Fatalf("%v: %v", tc.spec, err)
		}
		src := transformSource()
		jobs := drain(Chain(src, ts...))
		if got := field(jobs, tc.field); !slices.Equal(got, tc.want) {
			t.Errorf("%v: got %v, want %v", tc.spec, got, tc.want)
		}
		st := src.Stats()
		for k, n := range tc.skipped {
			if st.Skipped[k] != n {
				t.Errorf("%v: skipped[%q] = %d, want %d (all %v)", tc.spec, k, st.Skipped[k], n, st.Skipped)
			}
		}
		for k, n := range tc.changed {
			if st.Defaulted[k] != n {
				t.Errorf("%v: defaulted[%q] = %d, want %d (all %v)", tc.spec, k, st.Defaulted[k], n, st.Defaulted)
			}
		}
		if st.Accepted != tc.accepted || st.Records-st.Accepted != st.Skipped.Total() {
			t.Errorf("%v: accepted %d (want %d), records %d, skipped %v", tc.spec, st.Accepted, tc.accepted, st.Records, st.Skipped)
		}
	}
}

func TestParseTransformErrors(t *testing.T) {
	tests := map[string]string{
		"load":                          `transform "load": want NAME=VALUE`,
		"load=0":                        "load factor 0: want a positive number",
		"load=x":                        `load "x": want a positive number`,
		"load=1e-300":                   "load factor 1e-300: want a number from 1e-06 to 1e+06",
		"load=2e6":                      "load factor 2e+06: want a number from 1e-06 to 1e+06",
		"limit-accuracy=-1":             `limit accuracy "-1": want exact or a positive factor`,
		"window=5":                      `window "5": want FROM..TO`,
		"window=..":                     `window "..": give at least one end`,
		"window=5..1":                   `window "5..1": the end is not after the start`,
		"window=1-0..1-0":               `window "1-0..1-0": the end is not after the start`,
		"window=2026-01-02..2026-01-01": `window "2026-01-02..2026-01-01": the end is not after the start`,
		"window=1x..2":                  `window "1x..2": invalid Slurm time "1x": unexpected character 'x' at offset 1 (only digits, '-' and ':' are allowed)`,
		"max-jobs=-3":                   `max-jobs "-3": want a count`,
		"queue=a":                       `queue "a": want queue numbers`,
		"partition=,":                   `partition ",": want a list of names`,
		"speed=2":                       `unknown transform "speed": want load, limit-accuracy, window, max-jobs, partition or queue`,
	}
	for in, want := range tests {
		if _, err := ParseTransform(in); err == nil || err.Error() != want {
			t.Errorf("ParseTransform(%q) = %v, want %s", in, err, want)
		}
	}
	ts, _ := ParseTransforms([]string{"load=1.5", "limit-accuracy=exact"})
	if ts[0].String() != "load=1.5" || ts[1].String() != "limit-accuracy=exact" {
		t.Errorf("specs %v %v", ts[0], ts[1])
	}
}
