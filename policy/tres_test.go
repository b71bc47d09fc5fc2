package policy

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTRESWeights(t *testing.T) {
	const mb = 1.0 / 1024 // a per-GB weight expressed per MB
	tests := []struct {
		in   string
		want TRESWeights
	}{
		{"", nil},
		{" , ", nil},
		// Mem=0.25G is 0.25 per GiB = 0.25/1024 per MB.
		{"CPU=1.0,Mem=0.25G,Node=2,GRES/gpu=2.0", TRESWeights{
			{TRESCPU, "cpu", 1}, {TRESMem, "mem", 0.25 * mb}, {TRESNode, "node", 2}, {TRESGRES, "gres/gpu", 2},
		}},
		// Case-insensitive types; output sorted in Slurm's TRES order
		// (cpu, mem, node, billing), named TRES after, in given order.
		{"gres/GPU=3,license/Matlab=0.5,node=1,MEM=1,cpu=4", TRESWeights{
			{TRESCPU, "cpu", 4}, {TRESMem, "mem", 1}, {TRESNode, "node", 1},
			{TRESGRES, "gres/gpu", 3}, {TRESLicense, "license/matlab", 0.5},
		}},
		// Memory's base unit is MB: K and M leave the weight alone,
		// G divides by 1024, T by 1024², P by 1024³.
		{"Mem=2K", TRESWeights{{TRESMem, "mem", 2}}},
		{"Mem=2M", TRESWeights{{TRESMem, "mem", 2}}},
		{"Mem=2g", TRESWeights{{TRESMem, "mem", 2.0 / 1024}}},
		{"Mem=2T", TRESWeights{{TRESMem, "mem", 2.0 / (1024 * 1024)}}},
		{"Mem=2P", TRESWeights{{TRESMem, "mem", 2.0 / (1024 * 1024 * 1024)}}},
		// Other TRES count units: K divides by 1024, M by 1024², G by 1024³.
		{"CPU=1024K", TRESWeights{{TRESCPU, "cpu", 1}}},
		{"GRES/gpu=1048576M", TRESWeights{{TRESGRES, "gres/gpu", 1}}},
		{"node=2G", TRESWeights{{TRESNode, "node", 2.0 / (1 << 30)}}},
		// bb counts in MB like memory.
		{"bb/cray=1G", TRESWeights{{TRESBB, "bb/cray", 1.0 / 1024}}},
		// Negative weights are legal (PriorityWeightTRES).
		{"CPU=-1.5,Mem=-0.5G", TRESWeights{{TRESCPU, "cpu", -1.5}, {TRESMem, "mem", -0.5 * mb}}},
		// A repeated TRES keeps the last weight, like Slurm's array slot.
		{"CPU=1,cpu=2", TRESWeights{{TRESCPU, "cpu", 2}}},
		{"CPU=1e3,billing=.5,energy=+2", TRESWeights{{TRESCPU, "cpu", 1000}, {TRESEnergy, "energy", 2}, {TRESBilling, "billing", 0.5}}},
		{" CPU = 1 , Mem = 4G ", TRESWeights{{TRESCPU, "cpu", 1}, {TRESMem, "mem", 4 * mb}}},
	}
	for _, tt := range tests {
		got, err := ParseTRESWeights(tt.in)
		if err != nil {
			t.Errorf("ParseTRESWeights(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseTRESWeights(%q) = %v, want %v", tt.in, got, tt.want)
		}
		back, err := ParseTRESWeights(got.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("round trip %q -> %q -> %v, %v", tt.in, got.String(), back, err)
		}
	}
}

func TestParseTRESWeightsInvalid(t *testing.T) {
	tests := []struct{ in, wantInErr string }{
		{"CPU", "want Type[/Name]=weight"},
		{"=1", "want Type[/Name]=weight"},
		{"CPU=", "missing weight"},
		{"Foo=1", `unknown TRES type "Foo"`},
		{"GRES=1", "needs a name"},
		{"GRES/=1", "needs a name"},
		{"CPU/x=1", "takes no name"},
		{"CPU=abc", "not a number"},
		{"CPU=inf", "not a number"},
		{"CPU=NaN", "not a number"},
		{"CPU=0x10", `unit "x10"`},
		{"Mem=0.25Z", `unit "Z"`},
		{"Mem=0.25GB", `unit "GB"`},
		{"CPU=1e999", "not a finite number"},
		{"CPU=1,Mem=x", `"Mem=x"`},
	}
	for _, tt := range tests {
		_, err := ParseTRESWeights(tt.in)
		if err == nil {
			t.Errorf("ParseTRESWeights(%q): no error", tt.in)
			continue
		}
		if !strings.Contains(err.Error(), tt.wantInErr) {
			t.Errorf("ParseTRESWeights(%q) error %q, want it to contain %q", tt.in, err, tt.wantInErr)
		}
	}
	var many []string
	for i := 0; i <= MaxTRESWeights; i++ {
		many = append(many, "gres/g"+string(rune('a'+i))+"=1")
	}
	if _, err := ParseTRESWeights(strings.Join(many, ",")); err == nil {
		t.Errorf("%d distinct TRES accepted, cap is %d", len(many), MaxTRESWeights)
	}
}

func TestTRESAllocCount(t *testing.T) {
	a := TRESAlloc{CPU: 4, MemMB: 8192, Node: 1, Billing: 7, Other: []TRESCount{{"gres/gpu", 2}, {"license/matlab", 1}}}
	w, err := ParseTRESWeights("cpu=1,mem=1,node=1,billing=1,GRES/GPU=1,license/matlab=1,gres/mic=1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"cpu": 4, "mem": 8192, "node": 1, "billing": 7, "gres/gpu": 2, "license/matlab": 1, "gres/mic": 0}
	for i := range w {
		if got := a.Count(&w[i]); got != want[w[i].Name] {
			t.Errorf("Count(%s) = %d, want %d", w[i].Name, got, want[w[i].Name])
		}
	}
	if v, ok := w.Lookup("GRES/gpu"); !ok || v != 1 {
		t.Errorf("Lookup(GRES/gpu) = %v, %v", v, ok)
	}
	if _, ok := w.Lookup("gres/none"); ok {
		t.Error("Lookup found an unconfigured TRES")
	}
}
