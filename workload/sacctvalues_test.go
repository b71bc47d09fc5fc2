package workload

import (
	"math"
	"slices"
	"testing"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		secs int64
		frac float64
		ok   bool
	}{
		{"00:05:16", 316, 0, true},
		{"2-11:48:57", 2*86400 + 11*3600 + 48*60 + 57, 0, true},
		{"100:00:00", 360000, 0, true},       // sacct prints long non-CPU times in hours
		{"01:07.402", 67, 0.402, true},       // CPU times: MM:SS.mmm
		{"1-00:00:00.5", 86400, 0.5, true},   // D-HH:MM:SS.f
		{"30", 1800, 0, true},                // a bare number is minutes, as in Slurm
		{"2-12", 2*86400 + 12*3600, 0, true}, // D-H
		{"UNLIMITED", 0, 0, false},           // a limit, not a duration
		// Fields past their range are damaged records, not durations:
		// sacct prints minutes and seconds below 60, hours below 24 after
		// a day count.
		{"99:99:99", 0, 0, false}, {"00:60:00", 0, 0, false}, {"00:00:60", 0, 0, false},
		{"1-24:00:00", 0, 0, false}, {"1-99", 0, 0, false}, {"61:00.5", 61*60 + 0, 0.5, true}, {"05:99", 0, 0, false},
		{"23:59:59", 86399, 0, true}, {"1-23:59:59", 86400 + 86399, 0, true},
		{"", 0, 0, false}, {"1:2:3:4", 0, 0, false}, {"00:05:1x", 0, 0, false}, {"1.", 0, 0, false}, {"-1", 0, 0, false},
	}
	for _, tc := range tests {
		secs, frac, ok := parseDuration([]byte(tc.in))
		if ok != tc.ok || secs != tc.secs || math.Abs(frac-tc.frac) > 1e-9 {
			t.Errorf("parseDuration(%q) = %d, %v, %v; want %d, %v, %v", tc.in, secs, frac, ok, tc.secs, tc.frac, tc.ok)
		}
	}
}

func TestParseReqMem(t *testing.T) {
	tests := []struct {
		in  string
		mb  float64
		per byte
		ok  bool
	}{
		{"100M", 100, 0, true}, {"4000Mc", 4000, 'c', true}, {"1.50Gn", 1536, 'n', true}, {"2T", 2 * 1024 * 1024, 0, true},
		{"512K", 0.5, 0, true}, {"0n", 0, 'n', true}, {"64", 64, 0, true},
		{"", 0, 0, false}, {"M", 0, 0, false}, {"4X", 0, 0, false}, {"1.2.3G", 0, 0, false},
	}
	for _, tc := range tests {
		mb, per, ok := parseReqMem([]byte(tc.in))
		if ok != tc.ok || (ok && (math.Abs(mb-tc.mb) > 1e-9 || per != tc.per)) {
			t.Errorf("parseReqMem(%q) = %v, %q, %v; want %v, %q, %v", tc.in, mb, per, ok, tc.mb, tc.per, tc.ok)
		}
	}
}

func TestParseJobID(t *testing.T) {
	tests := []struct {
		in    string
		kind  jobIDKind
		base  int64
		sub   int64
		tasks []int64
		err   string
	}{
		{"123", jobPlain, 123, 0, nil, ""},
		{"123_4", jobArrayTask, 123, 4, nil, ""},
		{"123+0", jobPlain, 123, 0, nil, ""},
		{"123+2", jobHet, 123, 2, nil, ""},
		{"123_[1-3,7]", jobArrayRange, 123, 0, []int64{1, 2, 3, 7}, ""},
		{"123_[0-10:5%2]", jobArrayRange, 123, 0, []int64{0, 5, 10}, ""},
		{"x", 0, 0, 0, nil, "must start with the job number"},
		{"123_[1-3", 0, 0, 0, nil, "array task list without ']' (cut at SLURM_BITSTR_LEN?)"},
		{"123_[1-1000000]", 0, 0, 0, nil, "array task list longer than 100000 tasks"},
		{"123-4", 0, 0, 0, nil, "expected '_' (array task) or '+' (heterogeneous component) after the job number"},
	}
	for _, tc := range tests {
		p, err := parseJobID([]byte(tc.in), maxArrayTasks)
		if err != tc.err || (err == "" && (p.kind != tc.kind || p.base != tc.base || p.sub != tc.sub || !slices.Equal(p.tasks, tc.tasks))) {
			t.Errorf("parseJobID(%q) = %+v, %q; want kind %d base %d sub %d tasks %v, %q", tc.in, p, err, tc.kind, tc.base, tc.sub, tc.tasks, tc.err)
		}
	}
}

func TestParseCountAndSize(t *testing.T) {
	counts := []struct {
		in string
		n  int64
		ok bool
	}{{"4", 4, true}, {"2K", 2048, true}, {"1.5K", 1536, true}, {"", 0, false}, {"K", 0, false}, {"-1", 0, false}}
	for _, tc := range counts {
		if n, ok := parseCount([]byte(tc.in)); n != tc.n || ok != tc.ok {
			t.Errorf("parseCount(%q) = %d, %v; want %d, %v", tc.in, n, ok, tc.n, tc.ok)
		}
	}
	sizes := []struct {
		in string
		kb float64
		ok bool
	}{{"114944K", 114944, true}, {"0.07M", 0.07 * 1024, true}, {"0", 0, true}, {"2G", 2 * 1024 * 1024, true}, {"x", 0, false}}
	for _, tc := range sizes {
		if kb, ok := parseSize([]byte(tc.in), 'K'); math.Abs(kb-tc.kb) > 1e-9 || ok != tc.ok {
			t.Errorf("parseSize(%q) = %v, %v; want %v, %v", tc.in, kb, ok, tc.kb, tc.ok)
		}
	}
}

func TestSacctStates(t *testing.T) {
	tests := []struct {
		in     string
		word   string
		status int
		known  bool
	}{
		{"COMPLETED", "COMPLETED", 1, true}, {"CANCELLED by 32874", "CANCELLED", 5, true}, {"CANCELLED+", "CANCELLED", 5, true},
		{"TIMEOUT", "TIMEOUT", 0, true}, {"NODE_FAIL", "NODE_FAIL", 0, true}, {"OUT_OF_MEMORY", "OUT_OF_MEMORY", 0, true},
		{"PREEMPTED", "PREEMPTED", 0, true}, {"PENDING", "PENDING", Unset, true}, {"RUNNING", "RUNNING", Unset, true},
		{"WEIRD", "WEIRD", Unset, false},
	}
	for _, tc := range tests {
		w := sacctStateWord([]byte(tc.in))
		s, k := sacctStatus(w)
		if w != tc.word || s != tc.status || k != tc.known {
			t.Errorf("%q: word %q status %d known %v; want %q %d %v", tc.in, w, s, k, tc.word, tc.status, tc.known)
		}
	}
	for status, state := range map[int]string{1: "COMPLETED", 0: "FAILED", 5: "CANCELLED", Unset: "UNKNOWN", 3: "UNKNOWN"} {
		if got := sacctState(status); got != state {
			t.Errorf("sacctState(%d) = %q, want %q", status, got, state)
		}
	}
}
