package slurmconf

import (
	"slices"
	"testing"
)

// Forms from real sites' NodeName lines (SLAC's gpu:v100:4, DIKU's
// gpu:titanx:3,gpu:gtx1080:1) and gres.conf's grammar as
// _get_gres_cnt reads it: NAME, NAME:COUNT, NAME:TYPE:COUNT, no_consume,
// K/M/G suffixes and a socket binding.
func TestParseGres(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []GresItem
		err  bool
	}{
		{in: "gpu:v100:4", want: []GresItem{{Name: "gpu", Type: "v100", Count: 4}}},
		{in: "gpu:titanx:3,gpu:gtx1080:1", want: []GresItem{{Name: "gpu", Type: "titanx", Count: 3}, {Name: "gpu", Type: "gtx1080", Count: 1}}},
		{in: "gpu:4", want: []GresItem{{Name: "gpu", Count: 4}}},
		{in: "GPU:A100:2", want: []GresItem{{Name: "gpu", Type: "a100", Count: 2}}},
		{in: "gpu", want: []GresItem{{Name: "gpu", Count: 1}}},
		{in: "gpu:a100", want: []GresItem{{Name: "gpu", Type: "a100", Count: 1}}},
		{in: "mps:400,gpu:2", want: []GresItem{{Name: "mps", Count: 400}, {Name: "gpu", Count: 2}}},
		{in: "bandwidth:lustre:no_consume:4G", want: []GresItem{{Name: "bandwidth", Type: "lustre", Count: 4 << 30, NoConsume: true}}},
		{in: "gpu:2(S:0-1),nvme:1", want: []GresItem{{Name: "gpu", Count: 2}, {Name: "nvme", Count: 1}}},
		{in: "gpu:k80:2(S:0,1)", want: []GresItem{{Name: "gpu", Type: "k80", Count: 2}}},
		{in: "", want: nil},
		{in: "(null)", want: nil},
		{in: "gpu:a:b:2", err: true},
		{in: "gpu:-2", err: true}, // a negative count, not a type "-2"
		{in: "gpu:a100:+3", err: true},
		{in: "gpu:3g.20gb:1", want: []GresItem{{Name: "gpu", Type: "3g.20gb", Count: 1}}},
		{in: "gpu:2(S:0", err: true},
		{in: "g/pu:2", err: true},
		{in: "gpu,,mps", err: true},
	} {
		got, err := ParseGres(tc.in)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("ParseGres(%q) = %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}
