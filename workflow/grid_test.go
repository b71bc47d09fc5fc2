package workflow

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSet(t *testing.T) {
	tests := []struct {
		arg     string
		key     string
		values  []string
		wantErr string
	}{
		{"PriorityWeightAge=1000,10000,100000", "PriorityWeightAge", []string{"1000", "10000", "100000"}, ""},
		{"PriorityDecayHalfLife=7-0, 14-0", "PriorityDecayHalfLife", []string{"7-0", "14-0"}, ""},
		{"bf_window=2880", "bf_window", []string{"2880"}, ""},
		// '|' separates values that contain commas.
		{"partition.shared.TRESBillingWeights=CPU=1.0,Mem=0.25G|CPU=2.0,Mem=0.5G", "partition.shared.TRESBillingWeights",
			[]string{"CPU=1.0,Mem=0.25G", "CPU=2.0,Mem=0.5G"}, ""},
		// A single value with commas ends with '|'.
		{"SchedulerParameters=bf_window=2880,bf_continue|", "SchedulerParameters", []string{"bf_window=2880,bf_continue"}, ""},
		{"PriorityWeightAge", "", nil, "want KEY=V1,V2"},
		{"=1,2", "", nil, "want KEY=V1,V2"},
		{"PriorityWeightAge=1,,2", "", nil, "empty value"},
		{"PriorityWeightAge=", "", nil, "empty value"},
		{"PriorityWeightAge=1,1", "", nil, "given twice"},
		{"Priority Weight=1", "", nil, "not a setting name"},
	}
	for _, tc := range tests {
		p, err := ParseSet(tc.arg)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseSet(%q) error = %v, want one containing %q", tc.arg, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSet(%q): %v", tc.arg, err)
			continue
		}
		if p.Key != tc.key || !reflect.DeepEqual(p.Values, tc.values) {
			t.Errorf("ParseSet(%q) = %q %q, want %q %q", tc.arg, p.Key, p.Values, tc.key, tc.values)
		}
		// FormatSet gives an argument that parses back to the same.
		back, err := ParseSet(FormatSet(p))
		if err != nil || !reflect.DeepEqual(back, p) {
			t.Errorf("FormatSet(%v) = %q parses to %v, %v", p, FormatSet(p), back, err)
		}
	}
}

func TestGridOrder(t *testing.T) {
	params := []Param{{"A", []string{"a1", "a2"}}, {"B", []string{"b1", "b2", "b3"}}}
	// First parameter slowest, like nested loops in flag order.
	want := [][]string{{"a1", "b1"}, {"a1", "b2"}, {"a1", "b3"}, {"a2", "b1"}, {"a2", "b2"}, {"a2", "b3"}}
	g := Grid(params, 0, 7)
	if len(g) != 6 {
		t.Fatalf("%d points, want 6", len(g))
	}
	for i, pt := range g {
		if pt.Index != i || !reflect.DeepEqual(pt.Values, want[i]) || pt.Seed != 7 {
			t.Errorf("point %d = %+v, want index %d values %v seed 7", i, pt, i, want[i])
		}
	}
	// Seeds innermost: 2 values x 3 seeds from base 5.
	g = Grid(params[:1], 3, 5)
	wantSeeds := []uint64{5, 6, 7, 5, 6, 7}
	wantA := []string{"a1", "a1", "a1", "a2", "a2", "a2"}
	for i, pt := range g {
		if pt.Seed != wantSeeds[i] || pt.Values[0] != wantA[i] {
			t.Errorf("seeded point %d = %+v, want %s seed %d", i, pt, wantA[i], wantSeeds[i])
		}
	}
	// No parameters: the scenario once.
	if g := Grid(nil, 0, 1); len(g) != 1 || len(g[0].Values) != 0 {
		t.Errorf("empty grid = %+v, want one point", g)
	}
}

func TestShard(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Shard
		wantErr bool
	}{
		{"0/2", Shard{0, 2}, false},
		{"1/2", Shard{1, 2}, false},
		{" 3 / 4 ", Shard{3, 4}, false},
		{"2/2", Shard{}, true}, // numbered from 0
		{"-1/2", Shard{}, true},
		{"1/0", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
	} {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	// Every point in exactly one of N shards.
	for n := 1; n <= 4; n++ {
		for i := 0; i < 11; i++ {
			owners := 0
			for s := 0; s < n; s++ {
				if (Shard{s, n}).Has(i) {
					owners++
				}
			}
			if owners != 1 {
				t.Errorf("point %d is in %d of %d shards", i, owners, n)
			}
		}
	}
}

func TestPointDir(t *testing.T) {
	sw := &Sweep{Params: []Param{{"partition.a b.MaxTime", []string{"1:00:00"}}}, Seeds: 2}
	got := sw.PointDir(Point{Index: 3, Values: []string{"1:00:00"}, Seed: 9}, 12)
	if want := "points/03_partition.a-b.MaxTime=1-00-00_seed=9"; got != want {
		t.Errorf("PointDir = %q, want %q", got, want)
	}
}
