package policy

import (
	"strings"
	"testing"
)

func TestSprioCell(t *testing.T) {
	tests := []struct {
		s     string
		width int
		right bool
		want  string
	}{
		{"JOBID", 15, true, "          JOBID"},
		{"short", 9, false, "short    "},
		{"sandybridge", 9, false, "sandybrid"}, // cut, as sprio cuts
		{"averylongname", 8, true, "averylon"},
		{"x", 0, true, "x"},
	}
	for _, tt := range tests {
		if got := sprioCell(tt.s, tt.width, tt.right); got != tt.want {
			t.Errorf("sprioCell(%q, %d, %v) = %q, want %q", tt.s, tt.width, tt.right, got, tt.want)
		}
	}
	// C's %.0f rounds half to even.
	for in, want := range map[float64]string{0.5: "0", 1.5: "2", 2.5: "2", 99.49: "99", -0.4: "-0"} {
		if got := fmtInt(in); got != want {
			t.Errorf("fmtInt(%v) = %q, want %q", in, got, want)
		}
	}
}

// The short format keeps only the factors with a weight; -n divides each
// term by its weight and PRIORITY (the sum 1400.5, cut to 10 characters)
// by 2^32-1; TRES lists the non-zero terms.
func TestWriteSprioRows(t *testing.T) {
	sw := SprioWeights{W: Weights{Age: 1000, QOS: 2000},
		TRES: TRESWeights{{Name: "cpu", Weight: 300}, {Name: "mem", Weight: 50}}, Raw: "CPU=300,Mem=50"}
	f := Factors{Age: 250.5, QOS: 1000, NTRES: 2}
	f.TRES[0] = 150
	rows := []SprioRow{{ID: 42, Part: "batch", User: "alice", F: f, Priority: 1400}}
	var b strings.Builder
	if err := WriteSprio(&b, rows, sw, SprioOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "          JOBID PARTITION   PRIORITY       SITE        AGE        QOS                 TRES\n" +
		"             42 batch           1400          0        250       1000              cpu=150\n"
	if b.String() != want {
		t.Errorf("short format:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := WriteSprio(&b, rows, sw, SprioOptions{Norm: true, NoHeader: true}); err != nil {
		t.Fatal(err)
	}
	want = "             42 batch     0.00000032 0.2505000  0.5000000  cpu=0.50            \n"
	if b.String() != want {
		t.Errorf("-n:\n%q\nwant\n%q", b.String(), want)
	}
}

// sprio's TRES column with GPUs (_print_tres_weighted and
// _print_tres_normalized, src/sprio/print.c): the non-zero terms in TRES
// order as NAME=%.0f, or NAME=%.2f of term/weight with -n, names as
// assoc_mgr_tres_name_array holds them ("gres/gpu", "gres/gpu:a100"), the
// whole cut to the column's 20 characters.
func TestSprioTRESGPUs(t *testing.T) {
	tw, err := ParseTRESWeights("CPU=1000,GRES/gpu=2000,GRES/gpu:a100=4000")
	if err != nil {
		t.Fatal(err)
	}
	sw := SprioWeights{TRES: tw, Raw: "CPU=1000,GRES/gpu=2000,GRES/gpu:a100=4000"}
	mk := func(cpu, gpu, a100 float64) SprioRow {
		f := Factors{NTRES: 3}
		f.TRES[0], f.TRES[1], f.TRES[2] = cpu, gpu, a100
		return SprioRow{ID: 7, Part: "gpu", F: f}
	}
	tests := []struct {
		name     string
		row      SprioRow
		weighted string
		norm     string
	}{
		// 32 of 256 CPUs, 2 of 16 GPUs, 2 of 8 A100 (TestTRESFactorGPUs):
		// 0.125 prints "0.12" (%.2f rounds the exact binary half to even).
		{"2 A100", mk(125, 250, 1000), "cpu=125,gres/gpu=250,gres/gpu:a100=1000", "cpu=0.12,gres/gpu=0.12,gres/gpu:a100=0.25"},
		{"2 V100", mk(125, 250, 0), "cpu=125,gres/gpu=250", "cpu=0.12,gres/gpu=0.12"},
		{"no GPU", mk(125, 0, 0), "cpu=125", "cpu=0.12"},
		{"GPUs only", mk(0, 250, 1000), "gres/gpu=250,gres/gpu:a100=1000", "gres/gpu=0.12,gres/gpu:a100=0.25"},
		// 1/3 of the GPUs: 666.67 prints 667, 1/3 prints 0.33.
		{"a third", mk(0, 2000.0/3, 0), "gres/gpu=667", "gres/gpu=0.33"},
	}
	for _, tt := range tests {
		if got := tresCell(&tt.row, tw, false); got != tt.weighted {
			t.Errorf("%s: weighted %q, want %q", tt.name, got, tt.weighted)
		}
		if got := tresCell(&tt.row, tw, true); got != tt.norm {
			t.Errorf("%s: normalised %q, want %q", tt.name, got, tt.norm)
		}
	}
	// In the table the cell is "%20T": cut to its first 20 bytes.
	var b strings.Builder
	if err := WriteSprio(&b, []SprioRow{tests[0].row}, sw, SprioOptions{NoHeader: true}); err != nil {
		t.Fatal(err)
	}
	want := "              7 gpu             1375          0 cpu=125,gres/gpu=250\n"
	if b.String() != want {
		t.Errorf("table:\n%q\nwant\n%q", b.String(), want)
	}
	// -w prints PriorityWeightTRES as configured, cut the same way.
	b.Reset()
	if err := WriteSprio(&b, nil, sw, SprioOptions{NoHeader: true, Weights: true}); err != nil {
		t.Fatal(err)
	}
	if want := "        Weights                               1 CPU=1000,GRES/gpu=20\n"; b.String() != want {
		t.Errorf("-w:\n%q\nwant\n%q", b.String(), want)
	}
}
