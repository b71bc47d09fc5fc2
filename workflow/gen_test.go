package workflow

import (
	"reflect"
	"testing"

	"fairsim/workload"
)

func TestGenSpecConfig(t *testing.T) {
	def := workload.DefaultGenConfig()
	def.Partitions = []string{"batch"}
	for _, tc := range []struct {
		name string
		edit func(*GenSpec)
		want func(*workload.GenConfig) // applied to def; nil when err is set
		err  string
	}{
		// The defaults written as flags read back as the defaults.
		{name: "defaults", edit: func(*GenSpec) {}, want: func(*workload.GenConfig) {}},
		{name: "numbers pass through", edit: func(s *GenSpec) { s.Seed, s.Jobs, s.Zipf, s.MemMax = 7, 20, 1.5, 9000 },
			want: func(c *workload.GenConfig) { c.Seed, c.Jobs, c.Zipf, c.MemMax = 7, 20, 1.5, 9000 }},
		{name: "start date and time", edit: func(s *GenSpec) { s.Start = "2020-01-02T03:04" },
			want: func(c *workload.GenConfig) { c.StartTime = 1577934240 }},
		{name: "start offset", edit: func(s *GenSpec) { s.Start = "1-0" },
			want: func(c *workload.GenConfig) { c.StartTime = 86400 }},
		{name: "max limit", edit: func(s *GenSpec) { s.MaxLimit = "2-0" },
			want: func(c *workload.GenConfig) { c.MaxLimit = 2 * 86400 }},
		{name: "lists", edit: func(s *GenSpec) { s.Accounts, s.Shares, s.Partitions, s.Features = 3, "1, 2.5,,3", "p1,p2", "a,b" },
			want: func(c *workload.GenConfig) {
				c.Accounts, c.Shares, c.Partitions, c.Features = 3, []float64{1, 2.5, 3}, []string{"p1", "p2"}, []string{"a", "b"}
			}},
		{name: "no partitions", edit: func(s *GenSpec) { s.Partitions = "" },
			want: func(c *workload.GenConfig) { c.Partitions = nil }},
		{name: "share not a number", edit: func(s *GenSpec) { s.Shares = "1,x" }, err: `--shares: "x" is not a number`},
		{name: "bad start", edit: func(s *GenSpec) { s.Start = "bogus" }, err: `--start: invalid Slurm time "bogus"`},
		{name: "bad max limit", edit: func(s *GenSpec) { s.MaxLimit = "bogus" }, err: `--max-limit: invalid Slurm time "bogus"`},
		{name: "validated", edit: func(s *GenSpec) { s.Jobs = 0 }, err: "jobs 0: want 1..100000000"},
		{name: "shares per account", edit: func(s *GenSpec) { s.Shares = "1,2" }, err: "2 shares for 5 accounts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewGenSpec()
			tc.edit(s)
			got, err := s.Config()
			if checkErr(t, err, tc.err) {
				return
			}
			want := def
			tc.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("config\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}
